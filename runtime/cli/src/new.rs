//! `cav new`: scaffolding. Writes valid, commented files with the editor modeline into the right
//! folder of a pack, refuses to overwrite anything, then validates the pack so the author starts
//! from something that loads.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

/// What `cav new` can write.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum What {
    /// A new mod under mods/: pack.yaml, a README and the folders.
    Pack,
    /// An invented model (a CAV data card) in PACK/models/.
    Model,
    /// A scripted special attribute: its document in PACK/special-attributes/ and its Luau module
    /// in PACK/scripts/.
    Sa,
    /// A scenario test in PACK/tests/.
    Test,
}

/// Ids as packs write them: lower-case letters, digits and dashes.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
}

/// The files to write (path relative to the project root, text).
pub fn files(what: What, id: &str, pack: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    if !valid_id(id) {
        return Err(format!("`{id}` is not an id: use lower-case letters, digits and dashes (e.g. `ember-hound`)"));
    }
    let schema = |kind: &str, depth: usize| {
        format!("# yaml-language-server: $schema={}schemas/{kind}.schema.json\n", "../".repeat(depth))
    };
    let name = id.split('-').map(|w| {
        let mut c = w.chars();
        c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
    });
    let name: Vec<String> = name.collect();
    let name = name.join(" ");
    let module = id.replace('-', "_");
    Ok(match what {
        What::Pack => vec![
            (
                PathBuf::from(format!("mods/{id}/pack.yaml")),
                format!(
                    "{}id: {id}\nname: {name}\nversion: 0.1.0\nkind: extension\ndescription: >-\n  What this pack adds, in a sentence or two.\n\
                     authors: [you]\nlicense: CC0-1.0\n# The rulesets this pack builds on. `cav-full` brings the full rules' catalog (weapons,\n\
                     # special attributes) and joins the Quick-Start too, which builds on it; no `depends:` at all\n# joins every ruleset.\n\
                     depends: [\"cav-full >= 1.0\"]\n# Where the Luau modules of scripted special attributes live, inside the pack.\nscripts: [scripts]\n",
                    schema("pack", 2)
                ),
            ),
            (
                PathBuf::from(format!("mods/{id}/scripts/README.md")),
                "The Luau modules of this pack's scripted special attributes (`script:` names them).\n".to_owned(),
            ),
            (
                PathBuf::from(format!("mods/{id}/README.md")),
                format!(
                    "# {name}\n\nInvented content for CAV: Strike Operations.\n\n- `cav new model ID --pack mods/{id}` adds a data card\n\
                     - `cav new sa ID --pack mods/{id}` adds a scripted special attribute\n- `cav new test ID --pack mods/{id}` adds a scenario test\n\
                     - `cav validate mods/{id}` checks everything; `cav test mods/{id}` runs the tests\n"
                ),
            ),
        ],
        What::Model => vec![(
            pack.join(format!("models/{id}.yaml")),
            format!(
                "{}# Invented: not a unit of CAV: Strike Operations. One value per damage-track column.\nkind: model\nid: {id}\nname: {name}\n\
                 faction: Example\nmodel_type: cav\nchassis: medium\ntask: attack\nmove_class: walker\ntv: 400\ndamage_track:\n  damage_tracks: 4\n\
                 \x20 #    column:  0    1    2    3    4\n  mv:         [7,   7,   6,   5,   4]\n  av:         [6,   6,   5,   5,   4]\n\
                 \x20 exp:        [6,   6,   7,   7,   8]\n  dc:         [3,   2,   1,   0,  -1]\n  ccv:        [4/4, 4/4, 3/3, 3/3, 2/2]\n\
                 weapons:\n  - weapon: medium-mac        # any weapon id of the rulesets (`cav list weapon`)\n    quantity: 1\n    mount: [R]\n\
                 \x20   rav: [5/2, 5/2, 4/2, 4/1, 3/1]\nspecial_attributes:\n  - hard\nsummary: >-\n  What the model is, in your own words.\n",
                schema("model", 3)
            ),
        )],
        What::Sa => vec![
            (
                pack.join(format!("special-attributes/{id}.yaml")),
                format!(
                    "{}# Invented: not a rule of CAV: Strike Operations.\nkind: special_attribute\nid: {id}\nname: {name}\napplies_to: weapon\n\
                     parameter: none\nlevels:\n  - {{tv: 10}}\n# The hook points its script handles (`cav hooks` lists them all).\nhooks: [combat_tp]\n\
                     script: {module}\nsummary: >-\n  What it does, in your own words.\n",
                    schema("special_attribute", 3)
                ),
            ),
            (
                pack.join(format!("scripts/{module}.luau")),
                format!(
                    "--!strict\n-- {name}: what it does. `cav hooks` lists every hook point, what `ctx` holds there and\n\
                     -- what it accepts; docs/modding-lua.md walks through a complete example.\nlocal m = {{}}\n\n\
                     -- The combat roll of an attack made with a weapon that has this special attribute.\n\
                     function m.combat_tp(ctx: CavContext)\n\tif ctx.band == \"short\" then\n\t\tctx.add_modifier(\"roll\", \"{name}\", 1)\n\tend\nend\n\n\
                     return m\n"
                ),
            ),
        ],
        What::Test => vec![(
            pack.join(format!("tests/{id}.yaml")),
            format!(
                "{}kind: test\nid: {id}\nname: \"What this test shows\"\n# The ruleset it runs under: cav-quickstart or cav-full.\nruleset: cav-quickstart\n\
                 models:\n  - {{id: red, model: dictator-b, side: red, at: [10, 5]}}\n  - {{id: blue, model: dictator-b, side: blue, at: [10, 16], facing: 180}}\n\
                 # Forced die faces, in the order the engine asks for them: the two MACs both miss.\ndice: [1, 2, 1, 2]\n\
                 steps:\n  - {{model: red, do: fire, target: blue, weapons: [0]}}\n\
                 expect:\n  events:\n    - {{event: attack, model: red, target: blue, band: Short}}\n\
                 \x20   - {{event: roll, kind: combat, natural: [1, 2], success: false}}\n  absent:\n    - {{event: hit}}\n",
                schema("test", 3)
            ),
        )],
    })
}

/// Write the files under `root`, refusing to overwrite any that exists.
pub fn write(root: &Path, files: &[(PathBuf, String)]) -> Result<Vec<PathBuf>, String> {
    for (path, _) in files {
        let full = root.join(path);
        if full.exists() {
            return Err(format!("{} already exists; nothing was written", full.display()));
        }
    }
    let mut written = Vec::new();
    for (path, text) in files {
        let full = root.join(path);
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&full, text).map_err(|e| format!("cannot write {}: {e}", full.display()))?;
        written.push(full);
    }
    Ok(written)
}
