//! The templates of `cav new`: valid, commented documents with the editor modeline, one set per
//! kind of thing it starts (and a variant of a document, `--extends`).

use std::path::{Component, Path, PathBuf};

use super::What;

/// Ids as packs write them: lower-case letters, digits and dashes.
fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
}

/// What the templates need to know about the pack they write into.
pub struct Target<'a> {
    /// The pack directory (for `pack`: the new pack's directory).
    pub pack: &'a Path,
    /// The directory of the editor schemas the modelines point at.
    pub schemas: &'a Path,
    /// `sa --script`: write the Luau module too.
    pub script: bool,
    /// `--extends PARENT`: write a variant of that document (model, weapon, sa, scenario).
    pub extends: Option<&'a str>,
}

/// `to` relative to directory `from` (both absolute), for modelines that work wherever the pack
/// lives; an absolute path when they share no more than the file system's root.
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let (f, t): (Vec<Component>, Vec<Component>) = (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    if common <= 1 {
        return to.to_path_buf();
    }
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}

/// The id of the first document of `folder` in the pack (sorted by file name), if any.
fn first_id(pack: &Path, folder: &str) -> Option<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(pack.join(folder))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    files.iter().find_map(|f| {
        // Only a regular file of a sane size, not followed through a link: a pack is untrusted.
        let meta = std::fs::symlink_metadata(f).ok()?;
        if !meta.is_file() || meta.len() > cav_format::limits::MAX_FILE_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(f).ok()?;
        text.lines().find_map(|l| l.strip_prefix("id: ").map(|s| s.trim().trim_matches('"').to_owned()))
    })
}

/// A variant (`--extends PARENT`): the document starts from every value of PARENT and writes
/// only what differs; editors accept it as `cav validate` does (the schemas require of a variant
/// only its `kind` and `id`).
fn variant(
    what: What,
    id: &str,
    name: &str,
    parent: &str,
    t: &Target,
    modeline: &dyn Fn(&Path, &str) -> String,
) -> Result<Vec<(PathBuf, String)>, String> {
    if !valid_id(parent) {
        return Err(format!("`{parent}` is not an id to extend: use lower-case letters, digits and dashes"));
    }
    // The example of a change is a comment: written as a value, it would silently replace the
    // parent's.
    let (folder, kind, example) = match what {
        What::Model => ("models", "model", "# tv: 450          # a value written here replaces the parent's\n"),
        What::Weapon => ("weapons", "weapon", "# range: 14        # a value written here replaces the parent's\n"),
        What::Sa => ("special-attributes", "special_attribute", ""),
        What::Scenario => {
            ("scenarios", "scenario", "# board: [60, 48]  # a value written here replaces the parent's\n")
        }
        What::Pack | What::Test => return Err("--extends is for `model`, `weapon`, `sa` and `scenario`".to_owned()),
    };
    if t.script {
        return Err("--extends and --script: a variant takes its parent's script; start it without --script".into());
    }
    let file = t.pack.join(format!("{folder}/{id}.yaml"));
    let text = format!(
        "{}# A variant of `{parent}` (in this pack or a pack it depends on): it starts from every value of\n\
         # `{parent}` and writes only what differs. Mappings merge key by key; a list (weapons, special\n\
         # attributes, forces) replaces the parent's whole. `cav show {id} --explain` says where each\n\
         # value comes from. Invented: not part of CAV: Strike Operations.\n\
         kind: {kind}\nid: {id}\nextends: {parent}\nname: {name}\n{example}\
         summary: >-\n  How {name} differs from {parent}, in your own words.\n",
        modeline(&file, kind)
    );
    Ok(vec![(file, text)])
}

/// The files to write (absolute paths, text).
pub fn files(what: What, id: &str, t: &Target) -> Result<Vec<(PathBuf, String)>, String> {
    if !valid_id(id) {
        return Err(format!("`{id}` is not an id: use lower-case letters, digits and dashes (e.g. `ember-hound`)"));
    }
    let modeline = |file: &Path, kind: &str| {
        let dir = file.parent().unwrap_or(Path::new("."));
        let schema = relative(dir, &t.schemas.join(format!("{kind}.schema.json")));
        format!("# yaml-language-server: $schema={}\n", schema.display())
    };
    let name: Vec<String> = id
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect();
    let name = name.join(" ");
    let module = id.replace('-', "_");
    let pack = t.pack;
    let model = first_id(pack, "models");
    let need_model = |what: &str| {
        model.clone().ok_or_else(|| {
            format!(
                "{what} places the pack's own model, and {} has none yet: start one with `cav new model ID`",
                pack.display()
            )
        })
    };
    if let Some(parent) = t.extends {
        return variant(what, id, &name, parent, t, &modeline);
    }
    Ok(match what {
        What::Pack => pack_files(pack, id, &name, &modeline),
        What::Model => model_file(pack, id, &name, &modeline),
        What::Weapon => weapon_file(pack, id, &name, &modeline),
        What::Sa => sa_files(pack, id, &name, &module, t.script, &modeline),
        What::Scenario => scenario_file(pack, id, &name, &need_model("a scenario")?, &modeline),
        What::Test => test_file(pack, id, &name, &need_model("a test")?, &modeline),
    })
}

/// A new pack: its manifest (depending on the full rules), the scripts folder and a README of
/// the commands that work in it.
fn pack_files(pack: &Path, id: &str, name: &str, modeline: &dyn Fn(&Path, &str) -> String) -> Vec<(PathBuf, String)> {
    let file = pack.join("pack.yaml");
    vec![
        (
            file.clone(),
            format!(
                "{}id: {id}\nname: {name}\nversion: 0.1.0\nkind: extension\n# The game it is for: it joins only rulesets of this game.\ngame: cav-so\ndescription: >-\n  What this pack adds, in a sentence or two.\n\
                 authors: [you]\n# An SPDX license expression (https://spdx.org/licenses/), checked by `cav validate`.\nlicense: CC0-1.0\n# The rulesets this pack builds on. `cav-full` brings the full rules' catalog (weapons,\n\
                 # special attributes) and joins the Quick-Start too, which builds on it; no `depends:` at all\n# joins every ruleset of its game.\n\
                 depends: [\"cav-full >= 1.0\"]\n# Where the Luau modules of scripted special attributes live, inside the pack.\nscripts: [scripts]\n",
                modeline(&file, "pack")
            ),
        ),
        (
            pack.join("scripts/README.md"),
            "The Luau modules of this pack's scripted special attributes (`script:` names them).\n".to_owned(),
        ),
        (
            pack.join("README.md"),
            // Commands that work as printed in this folder or any folder of it: `cav new`
            // finds the pack it is in, and `cav validate`/`cav test` take its id there.
            format!(
                "# {name}\n\nInvented content for CAV: Strike Operations.\n\n\
                 In this folder, or any folder inside it:\n\n\
                 - `cav new weapon ID` adds a weapon\n\
                 - `cav new model ID` adds a data card (armed with the pack's first weapon)\n\
                 - `cav new sa ID --script` adds a scripted special attribute\n\
                 - `cav new test ID` adds a scenario test, `cav new scenario ID` a scenario\n\
                 - `cav validate {id}` checks everything; `cav test {id}` runs the tests under both rulesets\n\n\
                 From the folder that holds this one, or anywhere in the project it is in, add `--pack {id}` to\n\
                 the commands that add a document.\n"
            ),
        ),
    ]
}

/// An invented model's data card, armed with the pack's first weapon.
fn model_file(pack: &Path, id: &str, name: &str, modeline: &dyn Fn(&Path, &str) -> String) -> Vec<(PathBuf, String)> {
    let file = pack.join(format!("models/{id}.yaml"));
    let weapon = first_id(pack, "weapons");
    let (weapon, why) = match &weapon {
        Some(w) => (w.as_str(), "the pack's first weapon"),
        None => ("light-mac", "any weapon id of the rulesets that fits the model (`cav list weapon`)"),
    };
    vec![(
        file.clone(),
        format!(
            "{}# Invented: not a unit of CAV: Strike Operations. One value per damage-track column.\nkind: model\nid: {id}\nname: {name}\n\
             # A faction of the rulesets, by id or name (`cav list faction`): Open models any force may field.\n\
             faction: Open\nmodel_type: cav\nchassis: medium\ntask: attack\nmove_class: walker\ntv: 400\ndamage_track:\n  damage_tracks: 4\n\
             \x20 #    column:  0    1    2    3    4\n  mv:         [7,   7,   6,   5,   4]\n  av:         [6,   6,   5,   5,   4]\n\
             \x20 exp:        [6,   6,   7,   7,   8]\n  dc:         [3,   2,   1,   0,  -1]\n  ccv:        [4/4, 4/4, 3/3, 3/3, 2/2]\n\
             weapons:\n  - weapon: {weapon}        # {why}\n    quantity: 1\n    mount: [R]\n\
             \x20   rav: [5/2, 5/2, 4/2, 4/1, 3/1]\nspecial_attributes:\n  - hard\nsummary: >-\n  What the model is, in your own words.\n",
            modeline(&file, "model")
        ),
    )]
}

/// An invented weapon.
fn weapon_file(pack: &Path, id: &str, name: &str, modeline: &dyn Fn(&Path, &str) -> String) -> Vec<(PathBuf, String)> {
    let file = pack.join(format!("weapons/{id}.yaml"));
    vec![(
        file.clone(),
        format!(
            "{}# Invented: not a weapon of CAV: Strike Operations.\nkind: weapon\nid: {id}\nname: {name}\n\
             # The weapon's family, as data cards group them (e.g. `Autocannon`).\nclass: Coil Gun\nfire: direct\n\
             # Short range band in inches; medium, long and extreme follow from the ruleset's range bands.\nrange: 12\n\
             # Hard / Soft RAV of the weapon type; each model's card gives its own per damage-track column.\nrav: \"4/2\"\n\
             # Special attributes by id (`cav list special_attribute`), with a rating where they take one.\n\
             special_attributes: [ammo]\nhard_points: 2\ntv: 80\nsummary: >-\n  What the weapon is, in your own words.\n",
            modeline(&file, "weapon")
        ),
    )]
}

/// A special attribute; with `script`, its Luau module (a `combat_tp` handler) too.
fn sa_files(
    pack: &Path,
    id: &str,
    name: &str,
    module: &str,
    script: bool,
    modeline: &dyn Fn(&Path, &str) -> String,
) -> Vec<(PathBuf, String)> {
    let file = pack.join(format!("special-attributes/{id}.yaml"));
    let behaviour = if script {
        format!(
            "# The hook points its script handles (`cav hooks` lists them all).\nhooks: [combat_tp]\nscript: {module}\n"
        )
    } else {
        "# A special attribute with no script and no data behaviour is recognised but does nothing:\n\
         # `cav validate` warns. `cav new sa ID --script` starts one with a Luau module.\n"
            .to_owned()
    };
    let mut files = vec![(
        file.clone(),
        format!(
            "{}# Invented: not a rule of CAV: Strike Operations.\nkind: special_attribute\nid: {id}\nname: {name}\napplies_to: weapon\n\
             parameter: none\nlevels:\n  - {{tv: 10}}\n{behaviour}summary: >-\n  What it does, in your own words.\n",
            modeline(&file, "special_attribute")
        ),
    )];
    if script {
        files.push((
            pack.join(format!("scripts/{module}.luau")),
            format!(
                "--!strict\n-- {name}: what it does. `cav hooks` lists every hook point, what `ctx` holds there and\n\
                 -- what it accepts; docs/modding-lua.md walks through a complete example.\nlocal m: CavHandlers = {{}}\n\n\
                 -- The combat roll of an attack made with a weapon that has this special attribute.\n\
                 function m.combat_tp(ctx: CavContext)\n\tif ctx.band == \"short\" then\n\t\tctx.add_modifier(\"roll\", \"{name}\", 1)\n\tend\nend\n\n\
                 return m\n"
            ),
        ));
    }
    files
}

/// A scenario of two of the pack's first model facing each other.
fn scenario_file(
    pack: &Path,
    id: &str,
    name: &str,
    model: &str,
    modeline: &dyn Fn(&Path, &str) -> String,
) -> Vec<(PathBuf, String)> {
    let file = pack.join(format!("scenarios/{id}.yaml"));
    vec![(
        file.clone(),
        format!(
            "{}# Invented: not a scenario of CAV: Strike Operations.\nkind: scenario\nid: {id}\nname: {name}\nboard: [48, 48]\n\
             deployment:\n  - side: red\n    zone: {{x: 0, y: 0, width: 48, height: 6}}\n  - side: black\n    zone: {{x: 0, y: 42, width: 48, height: 6}}\n\
             # The models each side fields; leave `forces:` out to let players bring rosters (full rules).\n\
             forces:\n  red:\n    - model: {model}\n  black:\n    - model: {model}\n\
             # Random terrain: how many features, rolled.\nterrain_features: 1d6+1\nvictory: last_standing\n\
             summary: >-\n  What the battle is about, in your own words. Play it: `cav play {id}`.\n",
            modeline(&file, "scenario")
        ),
    )]
}

/// A scenario test of the pack's first model, under every ruleset the pack joins.
fn test_file(
    pack: &Path,
    id: &str,
    name: &str,
    model: &str,
    modeline: &dyn Fn(&Path, &str) -> String,
) -> Vec<(PathBuf, String)> {
    let file = pack.join(format!("tests/{id}.yaml"));
    vec![(
        file.clone(),
        format!(
            "{}kind: test\nid: {id}\nname: \"{name}: the first weapon fires and misses on a forced 3\"\n\
             # No `ruleset:`: the test runs under every ruleset the pack joins (add `ruleset: cav-full` to pin one).\n\
             models:\n  - {{id: red, model: {model}, side: red, at: [10, 5]}}\n  - {{id: blue, model: {model}, side: blue, at: [10, 16], facing: 180}}\n\
             # Forced die faces, in the order the engine asks for them: the combat roll is 1 + 2.\ndice: [1, 2]\n\
             steps:\n  - {{model: red, do: fire, target: blue, weapons: [0]}}\n\
             expect:\n  events:\n    - {{event: attack, model: red, target: blue}}\n\
             \x20   - {{event: roll, kind: combat, natural: [1, 2], success: false}}\n  absent:\n    - {{event: hit}}\n",
            modeline(&file, "test")
        ),
    )]
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn modeline_paths_are_relative_where_they_can_be() {
        assert_eq!(
            relative(Path::new("/a/mods/x/models"), Path::new("/a/schemas/m.json")),
            Path::new("../../../schemas/m.json")
        );
        assert_eq!(relative(Path::new("/tmp/x"), Path::new("/tmp/x/s.json")), Path::new("s.json"));
        assert_eq!(relative(Path::new("/tmp/x"), Path::new("/opt/s.json")), Path::new("/opt/s.json"));
    }
}
