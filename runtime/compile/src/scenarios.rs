//! Scenarios: board, deployment zones, fixed forces and terrain dice.

use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::ScenarioDef;

use crate::Cx;

pub(crate) fn scenarios(cx: &mut Cx, models: &[(String, f::Model)]) -> Vec<ScenarioDef> {
    let mut out = Vec::new();
    for e in cx.rs.of_kind(DocKind::Scenario) {
        let Some(Document::Scenario(s)) = &e.doc else {
            cx.fail_quietly();
            continue;
        };
        let sides: Vec<(String, f::Rect)> = s.deployment.iter().map(|d| (d.side.0.clone(), d.zone.clone())).collect();
        let mut forces = Vec::new();
        for (side, placements) in &s.forces {
            let Some(si) = sides.iter().position(|(n, _)| n == side.as_str()) else {
                let names: Vec<String> = sides.iter().map(|(n, _)| n.clone()).collect();
                cx.error(
                    e,
                    &format!("/forces/{side}"),
                    "dangling-ref",
                    format!("side `{side}` has no deployment zone"),
                    "a side named in `deployment:`",
                    cav_content::diag::did_you_mean(side.as_str(), names.iter().map(String::as_str)),
                );
                continue;
            };
            // Unknown models are dangling references the loader reported.
            let placed = placements
                .iter()
                .filter_map(|p| models.iter().position(|(mid, _)| mid == p.model.as_str()).map(|c| (c, p.at, p.facing)))
                .collect();
            forces.push((si, placed));
        }
        let terrain_features = s.terrain_features.as_deref().map(|d| cx.dice(e, "/terrain_features", d));
        out.push(ScenarioDef {
            id: e.id.clone(),
            name: s.name.clone(),
            board: s.board,
            sides,
            forces,
            terrain_features,
            turn_limit: s.turn_limit,
            victory: s.victory,
        });
        if matches!(
            s.victory,
            f::VictoryKind::HoldObjective | f::VictoryKind::ObjectivePoints | f::VictoryKind::ExitModels
        ) {
            // Recognised, not played: say what decides the game instead.
            cx.diags.push(
                cav_content::Diagnostic::warning(
                    "not-implemented",
                    format!(
                        "scenario victory `{}` is recognised but not implemented (objectives and exits are not played yet): \
                         the game ends when a side has no models, or at the turn limit by surviving TV",
                        serde_json::to_value(s.victory).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
                    ),
                )
                .at(e.prov.locate("/victory"))
                .pack(e.pack.clone())
                .pointer("/victory"),
            );
        }
    }
    out
}
