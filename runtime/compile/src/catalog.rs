//! Model states, special attributes (with their declarative effects) and terrain types.

use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{Cost, Effect, SaDef, StateDef, TerrainDef};

use crate::Cx;
use crate::conditions::Names;

pub(crate) fn states(cx: &mut Cx, sign: i32) -> Vec<StateDef> {
    let ids: Vec<String> = cx.rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect();
    cx.rs
        .of_kind(DocKind::ModelState)
        .map(|e| match &e.doc {
            Some(Document::ModelState(s)) => StateDef {
                id: e.id.clone(),
                name: s.name.clone(),
                duration: s.duration,
                activations: s.activations.unwrap_or(1),
                own_roll_modifier: s.own_roll_modifier.unwrap_or(0) * sign,
                attacker_modifier: s.attacker_modifier.unwrap_or(0) * sign,
                move_value: s.move_value.unwrap_or(0),
                no_actions: s.no_actions,
                no_combat: s.no_combat,
                no_move: s.no_move,
                no_advance: s.no_advance,
                // Unknown ids are dangling references the loader reported.
                supersedes: s
                    .supersedes
                    .iter()
                    .filter_map(|id| ids.iter().position(|x| x == id.as_str()).map(|i| i as u16))
                    .collect(),
                immune: s.immune.clone(),
            },
            _ => {
                cx.fail_quietly(); // invalid document, reported by the loader
                StateDef {
                    id: e.id.clone(),
                    name: e.name().to_owned(),
                    duration: f::StateDuration::Permanent,
                    activations: 0,
                    own_roll_modifier: 0,
                    attacker_modifier: 0,
                    move_value: 0,
                    no_actions: false,
                    no_combat: false,
                    no_move: false,
                    no_advance: false,
                    supersedes: vec![],
                    immune: vec![],
                }
            }
        })
        .collect()
}

pub(crate) fn special_attributes(cx: &mut Cx, names: &Names) -> Vec<SaDef> {
    let mut sas = Vec::new();
    for e in cx.rs.of_kind(DocKind::SpecialAttribute) {
        let Some(Document::SpecialAttribute(doc)) = &e.doc else {
            cx.fail_quietly();
            sas.push(SaDef {
                id: e.id.clone(),
                name: e.name().to_owned(),
                effects: vec![],
                script: None,
                hooks: vec![],
                optional: false,
                reach: None,
            });
            continue;
        };
        let roots = cx.rs.pack(&e.script_pack).map(|p| p.script_roots.clone()).unwrap_or_default();
        let mut effects = Vec::new();
        for (i, m) in doc.modifiers.iter().enumerate() {
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
            effects.push(Effect {
                target: m.target,
                value: m.value,
                per_rating: m.per_rating,
                when: m.when.iter().map(|w| names.cond(w.as_str())).collect(),
                state,
            });
        }
        sas.push(SaDef {
            id: e.id.clone(),
            name: doc.name.clone(),
            effects,
            script: doc.script.clone().map(|m| (m, roots)),
            hooks: doc.hooks.clone(),
            optional: doc.optional,
            reach: doc.levels.iter().find_map(|l| match l.range {
                Some(f::Distance::Inches(d)) => Some(d),
                _ => None,
            }),
        });
    }
    sas
}

pub(crate) fn terrains(cx: &mut Cx, move_classes: &[String]) -> Vec<TerrainDef> {
    let cost = |c: Option<&f::TerrainCost>| match c {
        Some(f::TerrainCost::PerInch(n)) => Cost::PerInch(*n),
        Some(f::TerrainCost::Special(f::TerrainCostWord::RoadBonus)) => Cost::RoadBonus,
        Some(f::TerrainCost::Special(f::TerrainCostWord::Na)) | None => Cost::No,
    };
    let mut out = Vec::new();
    for e in cx.rs.of_kind(DocKind::Terrain) {
        let Some(Document::Terrain(t)) = &e.doc else {
            cx.fail_quietly();
            continue;
        };
        out.push(TerrainDef {
            id: e.id.clone(),
            name: t.name.clone(),
            cover: t.cover,
            elevation: t.elevation,
            raises_ground: t.raises_ground,
            cover_when_crossed: t.cover_when_crossed,
            road: t.road,
            open: t.open,
            structure: t.structure,
            costs: move_classes.iter().map(|m| cost(t.costs.get(&f::Id(m.clone())))).collect(),
            climb: move_classes
                .iter()
                .map(|m| match t.climb_cost.get(&f::Id(m.clone())) {
                    None => Cost::PerInch(0),
                    c => cost(c),
                })
                .collect(),
        });
    }
    out
}
