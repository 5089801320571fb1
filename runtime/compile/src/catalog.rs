//! Model states, special attributes and upgrades (with their declarative effects and munition
//! profiles) and terrain types; and what attack profiles share (munition-only keys, what lands).

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{
    Cost, Effect, MountDef, ObscurementDef, ProfileDef, SaDef, SizeCostsDef, StateDef, TerrainDef, UpgradeDef,
};

use crate::Cx;
use crate::conditions::Names;

pub(crate) fn states(cx: &mut Cx, sign: i32) -> Vec<StateDef> {
    let ids: Vec<String> = cx.rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect();
    let groups = cav_content::vocabulary::state_groups(cx.rs);
    cx.rs
        .of_kind(DocKind::ModelState)
        .map(|e| match e.doc.as_deref() {
            Some(Document::ModelState(s)) => StateDef {
                id: e.id.clone(),
                name: s.name.clone(),
                narrative: s.narrative.clone(),
                duration: s.duration,
                groups: s
                    .groups
                    .iter()
                    .filter_map(|g| groups.iter().position(|x| x == g.as_str()).map(|i| i as u16))
                    .collect(),
                activations: s.activations.unwrap_or(1),
                turns: s.turns.unwrap_or(1),
                own_roll_modifier: s.own_roll_modifier.unwrap_or(0) * sign,
                attacker_modifier: s.attacker_modifier.unwrap_or(0) * sign,
                move_value: s.move_value.unwrap_or(0),
                action_points: s.action_points.unwrap_or(0),
                no_actions: s.no_actions,
                no_combat: s.no_combat,
                no_move: s.no_move,
                no_advance: s.no_advance,
                forbids: s.forbids.clone(),
                painted: s.painted,
                // Unknown ids are dangling references the loader reported.
                supersedes: s
                    .supersedes
                    .iter()
                    .filter_map(|id| ids.iter().position(|x| x == id.as_str()).map(|i| i as u16))
                    .collect(),
                immune: cx.type_ixs(&s.immune),
                // An unknown terrain is a dangling reference the loader reported.
                trail: s.trail.as_ref().and_then(|t| {
                    let terrain = cx.rs.of_kind(DocKind::Terrain).position(|x| x.id == t.terrain.as_str())?;
                    Some(cav_rules::compile::LeavesDef {
                        terrain,
                        strip: Some((0.0, t.width)),
                        dice: cx.dice(e, "/trail/lasts/dice", &t.lasts.dice),
                        halved: t.lasts.halved,
                        add: t.lasts.add,
                        counts: t.lasts.counts,
                    })
                }),
            },
            _ => {
                cx.fail_quietly(); // invalid document, reported by the loader
                StateDef {
                    id: e.id.clone(),
                    name: e.name().to_owned(),
                    narrative: None,
                    duration: f::StateDuration::Permanent,
                    groups: vec![],
                    activations: 0,
                    turns: 0,
                    own_roll_modifier: 0,
                    attacker_modifier: 0,
                    move_value: 0,
                    action_points: 0,
                    no_actions: false,
                    no_combat: false,
                    no_move: false,
                    no_advance: false,
                    forbids: vec![],
                    painted: false,
                    supersedes: vec![],
                    immune: vec![],
                    trail: None,
                }
            }
        })
        .collect()
}

/// The special attributes, then one entry per upgrade carrying its own effects, script and hooks
/// onto the cards it is fitted to; and the upgrades as `Rules::fit` uses them.
pub(crate) fn special_attributes(cx: &mut Cx, names: &Names) -> (Vec<SaDef>, Vec<UpgradeDef>) {
    let mut sas = Vec::new();
    for e in cx.rs.of_kind(DocKind::SpecialAttribute) {
        sas.push(special_attribute(cx, e, names));
    }
    let mut upgrades = Vec::new();
    let meets_clouds = meets_clouds(cx);
    for e in cx.rs.of_kind(DocKind::Upgrade) {
        let Some(Document::Upgrade(doc)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        upgrades.push(upgrade(cx, e, doc, names, &meets_clouds, sas.len() as u16));
        sas.push(SaDef {
            id: format!("upgrade:{}", e.id),
            name: doc.name.clone(),
            effects: effects(cx, e, &doc.modifiers, names),
            script: script(cx, e, doc.script.as_ref()),
            hooks: doc.hooks.clone(),
            optional: false,
            switched_on: false,
            special_options: Vec::new(),
            reach: None,
            grants: Vec::new(),
            charges: doc.single_use,
            game_wide: false,
            scenario_rule: false,
        });
    }
    // A weapon's own rule (its class's game rules), where a script plays it, rides on each of
    // its mounts as a special attribute of the weapon (`weapon:<id>`), as an upgrade does on a card.
    for e in cx.rs.of_kind(DocKind::Weapon) {
        let Some(Document::Weapon(doc)) = e.doc.as_deref() else { continue };
        if doc.script.is_none() {
            continue;
        }
        sas.push(SaDef {
            id: format!("weapon:{}", e.id),
            name: doc.name.clone(),
            effects: Vec::new(),
            script: script(cx, e, doc.script.as_ref()),
            hooks: doc.hooks.clone(),
            optional: false,
            switched_on: false,
            special_options: Vec::new(),
            reach: None,
            grants: Vec::new(),
            charges: false,
            game_wide: false,
            scenario_rule: false,
        });
    }
    (sas, upgrades)
}

/// One special attribute document (an invalid one, reported by the loader, as an empty entry).
fn special_attribute(cx: &mut Cx, e: &Entry, names: &Names) -> SaDef {
    let Some(Document::SpecialAttribute(doc)) = e.doc.as_deref() else {
        cx.fail_quietly();
        return SaDef {
            id: e.id.clone(),
            name: e.name().to_owned(),
            effects: vec![],
            script: None,
            hooks: vec![],
            optional: false,
            switched_on: false,
            special_options: vec![],
            reach: None,
            grants: vec![],
            charges: false,
            game_wide: false,
            scenario_rule: false,
        };
    };
    // A rule of the whole game acts only through its script: modifiers would belong to no model.
    if matches!(doc.applies_to, f::AppliesTo::Game | f::AppliesTo::Scenario) {
        if doc.script.is_none() {
            cx.error(
                e,
                "/applies_to",
                "game-rule",
                "a rule of the whole game (`applies_to: game`) acts through its script, and it has none".into(),
                "a `script:` whose handlers play the rule",
                None,
            );
        }
        if !doc.modifiers.is_empty() {
            cx.error(
                e,
                "/modifiers",
                "game-rule",
                "a rule of the whole game has no model to carry `modifiers:`: they would never apply".into(),
                "its script adding the modifiers (`ctx.add_modifier`) at the moments they belong to",
                None,
            );
        }
    }
    // Options are read by the special attribute's script; with none, nothing would.
    if !doc.special_options.is_empty() && doc.script.is_none() {
        cx.error(
            e,
            "/special_options",
            "special-options-without-script",
            "`special_options` are read by the special attribute's script (`ctx.option`), and it has none".into(),
            "a `script:` whose `special_action` handler reads `ctx.option`, or no `special_options`",
            Some("add `script:` or remove `special_options`".into()),
        );
    }
    SaDef {
        id: e.id.clone(),
        name: doc.name.clone(),
        effects: effects(cx, e, &doc.modifiers, names),
        script: script(cx, e, doc.script.as_ref()),
        hooks: doc.hooks.clone(),
        optional: doc.optional,
        switched_on: doc.switched_on,
        special_options: doc.special_options.iter().map(|o| o.0.clone()).collect(),
        reach: doc.levels.iter().find_map(|l| match l.range {
            Some(f::Distance::Inches(d)) => Some(d),
            _ => None,
        }),
        grants: sa_refs(names, &doc.grants),
        charges: false,
        game_wide: matches!(doc.applies_to, f::AppliesTo::Game | f::AppliesTo::Scenario),
        scenario_rule: doc.applies_to == f::AppliesTo::Scenario,
    }
}

/// Upgrades a cloud names as meeting it (`cloud.stopped_by`): a use is spent there.
fn meets_clouds(cx: &Cx) -> Vec<String> {
    cx.rs
        .of_kind(DocKind::Upgrade)
        .chain(cx.rs.of_kind(DocKind::Strike))
        .flat_map(|e| match e.doc.as_deref() {
            Some(Document::Upgrade(u)) => u.profiles.iter().collect::<Vec<_>>(),
            Some(Document::Strike(s)) => vec![&s.attack],
            _ => Vec::new(),
        })
        .filter_map(|p| p.cloud.as_ref())
        .flat_map(|c| c.stopped_by.iter().map(|id| id.0.clone()))
        .collect()
}

/// One upgrade as `Rules::fit` uses it; its effects ride on the special attribute `sa`.
fn upgrade(cx: &mut Cx, e: &Entry, doc: &f::Upgrade, names: &Names, meets_clouds: &[String], sa: u16) -> UpgradeDef {
    let grants = sa_refs(names, &doc.grants);
    upgrade_lacks(cx, e, doc, meets_clouds);
    let landings: Vec<_> =
        doc.profiles.iter().enumerate().map(|(i, p)| landing(cx, e, &format!("/profiles/{i}"), p)).collect();
    let homes_on = doc
        .homes_on
        .iter()
        .enumerate()
        .filter_map(|(i, s)| cx.index_of(e, format_args!("/homes_on/{i}"), s.as_str(), &names.states, "model state"))
        .map(|ix| ix as cav_rules::compile::StateIx)
        .collect();
    let switch = doc
        .switch
        .as_ref()
        .and_then(|s| cx.index_of(e, "/switch", s.as_str(), &names.states, "model state"))
        .map(|ix| ix as cav_rules::compile::StateIx);
    UpgradeDef {
        id: e.id.clone(),
        name: doc.name.clone(),
        sa,
        grants,
        choose_grant: doc.choose_grant,
        single_use: doc.single_use,
        repeatable: doc.repeatable,
        switch,
        homes_on,
        variants: doc.variants.iter().map(|v| (v.id.0.clone(), v.tv, v.rating)).collect(),
        tv: doc.cost.as_ref().map_or(0, |c| c.tv),
        per_track: doc.cost.as_ref().is_some_and(|c| c.per_damage_track),
        profiles: profiles(cx, doc, names, landings),
    }
}

/// What an upgrade says that nothing would play, for want of something else it does not say.
fn upgrade_lacks(cx: &mut Cx, e: &Entry, doc: &f::Upgrade, meets_clouds: &[String]) {
    // A strip is the area of a dropped bomb; on any other profile nothing would read it.
    for (i, p) in doc.profiles.iter().enumerate() {
        if p.strip.is_some() && p.dropped.is_none() {
            cx.error(
                e,
                &format!("/profiles/{i}/strip"),
                "strip-without-drop",
                "`strip` is the area of a dropped bomb: this profile has no `dropped`".to_owned(),
                "`dropped: exact` or `dropped: drifts` beside `strip`",
                Some("add `dropped:` or remove `strip`".into()),
            );
        }
    }
    // Upgrade words that act only with something else the document lacks: errors, never
    // quietly ignored.
    let lacking = [
        (
            !doc.homes_on.is_empty() && doc.profiles.is_empty(),
            "/homes_on",
            "homes-on-without-munition",
            "`homes_on` is what a munition's missile homes on: this upgrade loads no munition (`profiles`)",
            "`profiles:` beside `homes_on`, or no `homes_on`",
        ),
        (
            !doc.variants.is_empty() && !doc.profiles.is_empty(),
            "/variants",
            "variants-on-a-munition",
            "a munition costs per launcher (`profiles`): its `variants` would price nothing",
            "the other version as a further profile, or no `variants`",
        ),
        (
            doc.single_use && doc.grants.is_empty() && doc.modifiers.is_empty() && !meets_clouds.contains(&e.id),
            "/single_use",
            "single-use-with-nothing",
            "`single_use` spends a purchase when its grants' reaction fires, its modifiers help a roll or it meets a cloud (`cloud.stopped_by`): this upgrade does none of these",
            "`grants:` or `modifiers:` beside `single_use`, or no `single_use`",
        ),
    ];
    for (bad, ptr, code, why, expected) in lacking {
        if bad {
            cx.error(e, ptr, code, why.to_owned(), expected, None);
        }
    }
}

/// A munition's profiles, one per launcher, with what each lays or leaves where it lands.
fn profiles(
    cx: &Cx,
    doc: &f::Upgrade,
    names: &Names,
    landings: Vec<(Option<usize>, Option<cav_rules::compile::LeavesDef>)>,
) -> Vec<ProfileDef> {
    doc.profiles
        .iter()
        .zip(landings)
        .filter_map(|(p, (lays, leaves))| {
            Some(ProfileDef {
                launcher: p.launcher.as_ref()?.0.clone(),
                rav: p.rav.map(|r| (r.hard, r.soft)),
                sas: sa_refs(names, &p.special_attributes),
                range: match p.range {
                    Some(f::Distance::Inches(r)) => Some(r),
                    _ => None,
                },
                base_tp: p.base_tp.map(|t| t as i32),
                tv: p.cost.as_ref().map_or(0, |c| c.tv),
                per_track: p.cost.as_ref().is_some_and(|c| c.per_damage_track),
                // Unknown weapon ids are dangling references the loader reported.
                fires_as: p.fires_as.as_ref().and_then(|w| match cx.doc(DocKind::Weapon, w.as_str()) {
                    Some(Document::Weapon(d)) => Some(Box::new(MountDef {
                        weapon: w.0.clone(),
                        range: match d.range {
                            f::Distance::Inches(r) => r,
                            _ => 0.0,
                        },
                        rav: vec![(d.rav.hard, d.rav.soft)],
                        indirect: d.fire == f::FireMode::Indirect,
                        requires_target_lock: d.requires_target_lock,
                        cannot_target: d.cannot_target.clone(),
                        sas: sa_refs(names, &d.special_attributes),
                        ..MountDef::default()
                    })),
                    _ => None,
                }),
                single_use: p.single_use,
                laser_guided: p.laser_guided,
                dropped: p.dropped,
                strip: p.strip.map(|s| (s.length, s.width)),
                lays,
                leaves,
                cloud: p.cloud.as_ref().map(|c| c.cleared_by.iter().map(|w| w.0.clone()).collect()),
                cloud_stopped_by: p
                    .cloud
                    .iter()
                    .flat_map(|c| &c.stopped_by)
                    .map(|u| format!("upgrade:{}", u.0))
                    .collect(),
                destroys: p.destroys.clone(),
                seeks: p.seeks.as_ref().map(|k| cx.type_ixs(&k.model_types)),
            })
        })
        .collect()
}

/// The profile keys only a munition's profile plays are errors elsewhere: they would be ignored.
pub(crate) fn munition_only(cx: &mut Cx, e: &cav_content::Entry, at: &str, p: &f::AttackProfile) {
    // A strike's area may be a strip too (a gunship's strafing corridor).
    let strip = p.strip.is_some() && e.kind != DocKind::Strike;
    let used = [
        ("fires_as", p.fires_as.is_some()),
        ("single_use", p.single_use),
        ("dropped", p.dropped.is_some()),
        ("strip", strip),
        ("seeks", p.seeks.is_some()),
    ];
    for (key, _) in used.iter().filter(|(_, set)| *set) {
        cx.error(
            e,
            &format!("{at}/{key}"),
            "munition-only",
            format!("`{key}` is played on a munition's profile (an upgrade's `profiles:`) only"),
            "no such key here",
            Some(format!("remove `{key}`")),
        );
    }
}

/// What an attack profile (`at`) leaves where it lands: the minefield it lays (an asset with
/// `mines:`) and the terrain it leaves, resolved to indices. Assets and terrain are compiled in
/// the ruleset's document order, so a document's index is its place in that order.
pub(crate) fn landing(
    cx: &mut Cx,
    e: &cav_content::Entry,
    at: &str,
    p: &f::AttackProfile,
) -> (Option<usize>, Option<cav_rules::compile::LeavesDef>) {
    // A minefield replaces what would land there: terrain or a cloud beside it never would.
    if p.lays.is_some() {
        for (key, set) in [("leaves", p.leaves.is_some()), ("cloud", p.cloud.is_some()), ("seeks", p.seeks.is_some())] {
            if set {
                cx.error(
                    e,
                    &format!("{at}/{key}"),
                    "lays-minefield",
                    format!("`{key}` beside `lays`: a shell that lays a minefield leaves nothing else where it lands"),
                    "`lays`, or what it leaves, not both",
                    Some(format!("remove `{key}` or `lays`")),
                );
            }
        }
    }
    // Unknown ids are dangling references the loader reported.
    let lays = p.lays.as_ref().and_then(|id| {
        let ix = cx.rs.of_kind(DocKind::Asset).position(|a| a.id == id.as_str())?;
        if let Some(Document::Asset(a)) = cx.doc(DocKind::Asset, id.as_str())
            && a.mines.is_none()
        {
            cx.error(
                e,
                &format!("{at}/lays"),
                "lays-minefield",
                format!("`{}` lays `{id}`, which is not a minefield (it has no `mines:`)", e.id),
                "a minefield asset",
                None,
            );
            return None;
        }
        Some(ix)
    });
    let leaves = p.leaves.as_ref().and_then(|l| {
        let terrain = cx.rs.of_kind(DocKind::Terrain).position(|t| t.id == l.terrain.as_str())?;
        let dice = cx.dice(e, &format!("{at}/leaves/lasts/dice"), &l.lasts.dice);
        Some(cav_rules::compile::LeavesDef {
            terrain,
            strip: l.strip.map(|s| (s.length, s.width)),
            dice,
            halved: l.lasts.halved,
            add: l.lasts.add,
            counts: l.lasts.counts,
        })
    });
    (lays, leaves)
}

/// Special attribute references with their ratings (uses for limited ones); unknown ids are
/// dangling references the loader reported.
pub(crate) fn sa_refs(names: &Names, refs: &[f::SaRef]) -> Vec<(u16, i32)> {
    refs.iter()
        .filter_map(|g| {
            let ix = names.sas.iter().position(|x| x == g.id().as_str())?;
            Some((ix as u16, g.rating().or(g.uses().map(|u| u as i32)).unwrap_or(1)))
        })
        .collect()
}

fn script(cx: &Cx, e: &Entry, module: Option<&String>) -> Option<(String, Vec<std::path::PathBuf>)> {
    let roots = cx.rs.pack(&e.script_pack).map(|p| p.script_roots.clone()).unwrap_or_default();
    module.map(|m| (m.clone(), roots))
}

/// Declarative modifiers → effects, conditions resolved.
fn effects(cx: &mut Cx, e: &Entry, modifiers: &[f::Modifier], names: &Names) -> Vec<Effect> {
    let mut out = Vec::new();
    for (i, m) in modifiers.iter().enumerate() {
        let state = match &m.state {
            Some(s) => {
                let ptr = format!("/modifiers/{i}/state");
                match cx.index_of(e, &ptr, s.as_str(), &names.states, "model state") {
                    Some(ix) => Some(ix as u16),
                    None => continue,
                }
            }
            None => None,
        };
        out.push(Effect {
            target: m.target,
            value: m.value,
            per_rating: m.per_rating,
            when: m.when.iter().map(|w| names.cond(w.as_str())).collect(),
            state,
        });
    }
    out
}

/// The terrain types, and the parts one MV is cut into to pay their costs: the least common
/// multiple of the denominators of every fractional cost (1 where none is a fraction). A
/// fraction is played on hex boards only; elsewhere it is an error at it.
pub(crate) fn terrains(cx: &mut Cx, move_classes: &[String], sas: &[SaDef], hexes: bool) -> (Vec<TerrainDef>, u32) {
    let mut parts = 1u32;
    for e in cx.rs.of_kind(DocKind::Terrain) {
        let Some(Document::Terrain(t)) = e.doc.as_deref() else { continue };
        for (field, costs) in [("costs", &t.costs), ("climb_cost", &t.climb_cost), ("descent_cost", &t.descent_cost)] {
            for (class, c) in costs {
                let f::TerrainCost::Fraction(frac) = c else { continue };
                let Some((_, d)) = frac.parts() else { continue }; // the schema reported it
                if hexes {
                    parts = lcm(parts, d);
                } else {
                    cx.error(
                        e,
                        &format!("/{field}/{}", class.as_str()),
                        "hex-only",
                        format!("`{}` is a fraction of MV, paid per hex; this ruleset's board is continuous", frac.0),
                        "a whole number of MV per inch, or `board: {topology: hex}`",
                        None,
                    );
                }
            }
        }
        let obscurement = t.obscurement.as_ref();
        for (set, on_hexes, key, what) in [
            (!t.descent_cost.is_empty(), true, "descent_cost", "a cost for going down is paid per hex"),
            (
                obscurement.is_some_and(|o| o.per_hexes.is_some()),
                true,
                "obscurement/per_hexes",
                "obscurement is counted per hexes",
            ),
            (
                obscurement.is_some_and(|o| o.per_inches.is_some()),
                false,
                "obscurement/per_inches",
                "obscurement is counted per inches",
            ),
        ] {
            if set && on_hexes != hexes {
                let (board, instead) = if hexes {
                    ("hex", "no `{key}`, or a continuous board (no `board: {topology: hex}`)")
                } else {
                    ("continuous", "no `{key}`, or `board: {topology: hex}`")
                };
                cx.error(
                    e,
                    &format!("/{key}"),
                    "board-only",
                    format!("{what}; this ruleset's board is {board}"),
                    &instead.replace("{key}", key),
                    None,
                );
            }
        }
    }
    let cost = |c: Option<&f::TerrainCost>| match c {
        Some(f::TerrainCost::PerInch(n)) => Cost::PerInch(n.saturating_mul(parts)),
        Some(f::TerrainCost::Fraction(frac)) => {
            frac.parts().map_or(Cost::No, |(n, d)| Cost::PerInch(n.saturating_mul(parts / d)))
        }
        Some(f::TerrainCost::Special(f::TerrainCostWord::RoadBonus)) => Cost::RoadBonus,
        Some(f::TerrainCost::Special(f::TerrainCostWord::Na)) | None => Cost::No,
    };
    let extra = |costs: &std::collections::BTreeMap<f::Id, f::TerrainCost>| -> Vec<Cost> {
        move_classes
            .iter()
            .map(|m| match costs.get(&f::Id(m.clone())) {
                None => Cost::PerInch(0),
                c => cost(c),
            })
            .collect()
    };
    let value_names = cav_content::vocabulary::terrain_values(cx.rs);
    let attributes = cav_content::vocabulary::ruleset_attributes(cx.rs);
    let mut out = Vec::new();
    let docs: Vec<_> = cx.rs.of_kind(DocKind::Terrain).cloned().collect();
    let terrain_ids: Vec<String> = docs.iter().map(|e| e.id.clone()).collect();
    for e in &docs {
        let Some(Document::Terrain(t)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        let mut values = Vec::new();
        for (name, v) in &t.values {
            let ptr = format!("/values/{}", name.as_str());
            if let Some(ix) = cx.index_of(e, &ptr, name.as_str(), &value_names, "terrain value (`terrain_values:`)") {
                values.push((ix as u16, *v));
            }
        }
        let obscurement = t.obscurement.as_ref().map(|o| ObscurementDef {
            points: o.points,
            per_hexes: o.per_hexes.unwrap_or(1),
            per_inches: o.per_inches,
            small_targets: o.small_targets.as_ref().and_then(|s| {
                let ptr = "/obscurement/small_targets/attribute";
                let ix =
                    cx.index_of(e, ptr, s.attribute.as_str(), &attributes, "attribute of the ruleset's `attributes:`")?;
                Some((ix, s.at_most, s.points))
            }),
        });
        let size_costs = t.size_costs.as_ref().and_then(|by| {
            let ptr = "/size_costs/attribute";
            let attribute =
                cx.index_of(e, ptr, by.attribute.as_str(), &attributes, "attribute of the ruleset's `attributes:`")?;
            for (i, pair) in by.steps.windows(2).enumerate() {
                if pair[0].at_most.is_none_or(|a| pair[1].at_most.is_some_and(|b| b <= a)) {
                    cx.error(
                        e,
                        &format!("/size_costs/steps/{}/at_most", i + 1),
                        "size-costs",
                        "the steps do not rise: each covers sizes above the one before".into(),
                        "an `at_most` above the step before's; only the last step may leave it out",
                        None,
                    );
                }
            }
            // (Unknown terrain and class ids are dangling references the loader reported.)
            let steps = by
                .steps
                .iter()
                .map(|s| {
                    let terrain = s.as_terrain.as_ref().and_then(|x| terrain_ids.iter().position(|t| t == x.as_str()));
                    let class = s.class.as_ref().and_then(|x| move_classes.iter().position(|m| m == x.as_str()));
                    (s.at_most, terrain, class)
                })
                .collect();
            Some(SizeCostsDef { attribute, steps })
        });
        out.push(TerrainDef {
            id: e.id.clone(),
            name: t.name.clone(),
            cover: t.cover,
            elevation: t.elevation,
            raises_ground: t.raises_ground,
            no_cover_from_indirect: t.no_cover_from_indirect,
            blocks_designators: t.blocks_designators,
            shelters: t.shelters.clone(),
            room: t.room,
            road: t.road,
            open: t.open,
            structure: t.structure,
            costs: move_classes.iter().map(|m| cost(t.costs.get(&f::Id(m.clone())))).collect(),
            climb: extra(&t.climb_cost),
            descent: extra(&t.descent_cost),
            modifier: t.layer == f::TerrainLayer::Modifier,
            obscurement,
            size_costs,
            values,
            // Unknown SA ids are dangling references the loader reported.
            waived_by: t
                .waived_by
                .iter()
                .filter_map(|w| sas.iter().position(|s| s.id == w.as_str()).map(|i| i as cav_rules::compile::SaIx))
                .collect(),
            entered_with: t
                .entered_with
                .iter()
                .filter_map(|w| {
                    let i = sas.iter().position(|s| s.id == w.sa.as_str())?;
                    Some((i as cav_rules::compile::SaIx, w.extra))
                })
                .collect(),
        });
    }
    (out, parts)
}

/// The least common multiple (the denominators are at most 12).
fn lcm(a: u32, b: u32) -> u32 {
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a / gcd(a, b) * b
}
