//! Scenarios: board, deployment zones, fixed forces and terrain dice.

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{ContainersDef, HexGeometry, HvoDef, ObjectiveDef, ScenarioDef, TerrainDef};

use crate::Cx;

pub(crate) fn scenarios(
    cx: &mut Cx,
    models: &[(String, f::Model)],
    terrains: &[TerrainDef],
    hexes: Option<&HexGeometry>,
    sas: &[cav_rules::compile::SaDef],
) -> Vec<ScenarioDef> {
    let mut out = Vec::new();
    for e in cx.rs.of_kind(DocKind::Scenario) {
        let Some(Document::Scenario(s)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        let sides: Vec<(String, f::Rect)> = s.deployment.iter().map(|d| (d.side.0.clone(), d.zone.clone())).collect();
        let mut forces = Vec::new();
        for (side, placements) in &s.forces {
            let Some(si) = side_of(cx, e, &sides, &format!("/forces/{side}"), side) else { continue };
            // Unknown models are dangling references the loader reported.
            let mut placed = Vec::new();
            for (i, p) in placements.iter().enumerate() {
                let at = match (p.at, p.hex) {
                    (None, None) => None,
                    (at, hex) => match cav_rules::compile::place(hexes, at, hex, s.board) {
                        Ok(at) => Some([at.x, at.y]),
                        Err(why) => {
                            cx.error(
                                e,
                                &format!("/forces/{side}/{i}"),
                                "placement",
                                why,
                                "where the model stands",
                                None,
                            );
                            continue;
                        }
                    },
                };
                if let Some(c) = models.iter().position(|(mid, _)| mid == p.model.as_str()) {
                    placed.push((c, at, p.facing, p.unit.clone()));
                }
            }
            let most = cav_format::limits::MAX_MODELS_PER_SIDE;
            if placed.len() > most {
                cx.error(
                    e,
                    &format!("/forces/{side}"),
                    "too-many-models",
                    format!("side `{side}` fields {} models, more than the {most} one side may field", placed.len()),
                    "a force a game can play",
                    None,
                );
                continue;
            }
            forces.push((si, placed));
        }
        let terrain_features = s.terrain_features.as_deref().map(|d| cx.dice(e, "/terrain_features", d));
        let mut terrain = Vec::new();
        let mut hex_terrain = Vec::new();
        for (i, t) in s.terrain.iter().enumerate() {
            let place = match (t.at, t.radius, t.hexes.is_empty(), hexes) {
                (Some(at), Some(r), true, _) => Some(Ok((at, r))),
                (None, None, false, Some(g)) => {
                    let on: Vec<_> = t.hexes.iter().filter_map(|&h| g.on_board_at(h, s.board)).collect();
                    if on.len() < t.hexes.len() {
                        cx.error(
                            e,
                            &format!("/terrain/{i}/hexes"),
                            "placement",
                            format!(
                                "{} of its hexes are not on the {}\"×{}\" board",
                                t.hexes.len() - on.len(),
                                s.board[0],
                                s.board[1]
                            ),
                            "hexes whose centres lie on the board (`cav map` labels them)",
                            None,
                        );
                    }
                    Some(Err(on))
                }
                (None, None, false, None) => {
                    cx.error(
                        e,
                        &format!("/terrain/{i}/hexes"),
                        "placement",
                        "`hexes` places on a hex board; this ruleset's board is continuous".into(),
                        "`at` and `radius`",
                        None,
                    );
                    None
                }
                _ => {
                    cx.error(
                        e,
                        &format!("/terrain/{i}"),
                        "placement",
                        "a terrain piece is a circle (`at` and `radius`) or, on a hex board, `hexes`: one of them"
                            .into(),
                        "`at` and `radius`, or `hexes`",
                        None,
                    );
                    None
                }
            };
            match terrains.iter().position(|x| x.id == t.terrain.as_str()) {
                Some(ix) => match place {
                    Some(Ok((at, r))) => terrain.push((ix, at, r)),
                    Some(Err(hexes)) => hex_terrain.push((ix, hexes)),
                    None => {}
                },
                None => cx.error(
                    e,
                    &format!("/terrain/{i}/terrain"),
                    "dangling-ref",
                    format!("terrain `{}` does not exist", t.terrain.as_str()),
                    "the id of a terrain document",
                    cav_content::diag::did_you_mean(t.terrain.as_str(), terrains.iter().map(|x| x.id.as_str())),
                ),
            }
        }
        let objectives = s.objectives.as_ref().map(|o| {
            let holder = o.holder.as_ref().and_then(|h| side_of(cx, e, &sides, "/objectives/holder", h));
            let exits = (o.exits.iter().enumerate())
                .filter_map(|(i, x)| {
                    side_of(cx, e, &sides, &format!("/objectives/exits/{i}/side"), &x.side).map(|ix| (ix, x.edge))
                })
                .collect();
            let destroyer = o.destroyer.as_ref().and_then(|h| side_of(cx, e, &sides, "/objectives/destroyer", h));
            let hvo = o.hvo.as_ref().and_then(|h| {
                side_of(cx, e, &sides, "/objectives/hvo/rescuer", &h.rescuer).map(|rescuer| HvoDef {
                    at: h.at,
                    radius: h.radius,
                    rescuer,
                    edge: h.edge,
                    others_after_moved: h.others_after_moved,
                })
            });
            let containers = o.containers.as_ref().map(|c| ContainersDef {
                at: c.at.clone(),
                die: cx.dice(e, "/objectives/containers/die", &c.die),
                from_turn: c.from_turn,
                active_max: c.active_max,
                radius: c.radius,
                activations: c.activations,
                models: c.models,
                points: c.points,
            });
            ObjectiveDef {
                hvo,
                containers,
                destroyer,
                areas: o.areas.clone(),
                neutral: o.neutral.clone(),
                holder,
                from_turn: o.from_turn,
                points: o.points,
                exits,
                count_destroyed: o.count_destroyed,
            }
        });
        let def = ScenarioDef {
            id: e.id.clone(),
            name: s.name.clone(),
            board: s.board,
            within: s.deployment.iter().map(|d| d.within.as_ref().map(|w| (w.area.clone(), w.percent))).collect(),
            methods: s.deployment.iter().map(|d| d.method).collect(),
            sides,
            forces,
            terrain_features,
            turn_limit: s.turn_limit,
            turn_dice: s.turn_dice.as_deref().map(|d| cx.dice(e, "/turn_dice", d)),
            victory: s.victory,
            terrain,
            hex_terrain,
            objectives,
            rules: scenario_rules(cx, e, &s.rules, sas),
        };
        // A victory kind that needs what the scenario does not give, or that is not played yet,
        // is said, with what decides the game instead.
        if let Some(why) = def.unplayed_victory() {
            cx.diags.push(
                cav_content::Diagnostic::warning(
                    "not-implemented",
                    format!(
                        "scenario victory `{}` is recognised but not implemented here ({why}): the game ends when a side \
                         has no models, or at the turn limit by surviving TV",
                        serde_json::to_value(s.victory)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_owned))
                            .unwrap_or_default()
                    ),
                )
                .at(e.prov.locate("/victory"))
                .pack(e.pack.clone())
                .pointer("/victory"),
            );
        }
        out.push(def);
    }
    out
}

/// The index of a side named in the scenario's `deployment:`, or a located error.
fn side_of(cx: &mut Cx, e: &Entry, sides: &[(String, f::Rect)], ptr: &str, side: &f::Id) -> Option<usize> {
    let ix = sides.iter().position(|(n, _)| n == side.as_str());
    if ix.is_none() {
        cx.error(
            e,
            ptr,
            "dangling-ref",
            format!("side `{}` has no deployment zone", side.as_str()),
            "a side named in `deployment:`",
            cav_content::diag::did_you_mean(side.as_str(), sides.iter().map(|(n, _)| n.as_str())),
        );
    }
    ix
}

/// A scenario's or a scenario test's `rules:`, resolved to special attributes with `applies_to:
/// scenario` (the others are `check_rules`' errors).
pub(crate) fn scenario_rules(
    cx: &mut Cx,
    e: &Entry,
    ids: &[f::Id],
    sas: &[cav_rules::compile::SaDef],
) -> Vec<cav_rules::compile::SaIx> {
    check_rules(cx, e, ids);
    ids.iter()
        .filter_map(|id| sas.iter().position(|s| s.id == id.as_str() && s.scenario_rule))
        .map(|ix| ix as cav_rules::compile::SaIx)
        .collect()
}

/// Each id of a scenario's or a test's `rules:` that is not a special attribute with
/// `applies_to: scenario` is an error at it (an unknown id is the loader's dangling reference).
pub(crate) fn check_rules(cx: &mut Cx, e: &Entry, ids: &[f::Id]) {
    for (i, id) in ids.iter().enumerate() {
        let applies = match cx.rs.get(DocKind::SpecialAttribute, id.as_str()).and_then(|x| x.doc.as_deref()) {
            Some(Document::SpecialAttribute(s)) => Some(s.applies_to),
            _ => None,
        };
        if applies.is_some_and(|a| a != f::AppliesTo::Scenario) {
            cx.error(
                e,
                &format!("/rules/{i}"),
                "scenario-rule",
                format!("`{id}` is not a scenario's rule (its `applies_to` is not `scenario`)"),
                "a special attribute with `applies_to: scenario`",
                None,
            );
        }
    }
}
