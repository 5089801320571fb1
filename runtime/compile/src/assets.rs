//! Battlefield assets: the terrain piece each is on the table, the piece a roster sets down,
//! minefields (with the cards they attack with) and weapon emplacements.

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{AssetDef, CardDef, MountDef, SaDef, TerrainDef};

use crate::Cx;
use crate::catalog::{munition_only, sa_refs};
use crate::conditions::Names;

/// The assets, and the cards of those that attack on their own (minefields; `AssetDef::mines`
/// holds an index into these, which the caller shifts past the models' cards).
pub(crate) fn assets(
    cx: &mut Cx,
    terrains: &[TerrainDef],
    sas: &[SaDef],
    names: &Names,
) -> (Vec<AssetDef>, Vec<CardDef>) {
    let ids: Vec<String> = terrains.iter().map(|t| t.id.clone()).collect();
    let mut out = Vec::new();
    let mut cards = Vec::new();
    for e in cx.rs.of_kind(DocKind::Asset) {
        let Some(Document::Asset(a)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        if let Some(att) = &a.attack {
            munition_only(cx, e, "/attack", att);
            let landing = [
                ("lays", att.lays.is_some()),
                ("leaves", att.leaves.is_some()),
                ("cloud", att.cloud.is_some()),
                ("destroys", att.destroys.is_some()),
            ];
            for (key, set) in landing {
                if set {
                    cx.error(
                        e,
                        &format!("/attack/{key}"),
                        "munition-only",
                        format!("`{key}` is played on a munition's or a strike's attack only"),
                        "no such key here",
                        Some(format!("remove `{key}`")),
                    );
                }
            }
        }
        let terrain = a.terrain.as_ref().and_then(|t| cx.index_of(e, "/terrain", t.as_str(), &ids, "terrain"));
        let sum = |target: f::ModifierTarget| -> Option<i32> {
            a.modifiers.iter().filter(|m| m.target == target).map(|m| m.value).reduce(|x, y| x.saturating_add(y))
        };
        let mines = match (&a.mines, &a.attack) {
            (Some(m), Some(att)) => {
                let mut mount = MountDef {
                    weapon: e.id.clone(),
                    class: a.name.clone(),
                    name: a.name.clone(),
                    quantity: 1,
                    rav: vec![att.rav.map_or((None, None), |r| (r.hard, r.soft))],
                    sas: sa_refs(names, &att.special_attributes),
                    preset_tp: att.base_tp.map(|t| t as i32),
                    combat_rolls: 1,
                    ..MountDef::default()
                };
                mount.derive(sas);
                cards.push(CardDef::for_asset(&e.id, &a.name, mount));
                Some((m.against, m.charges, cards.len() - 1))
            }
            (Some(_), None) => {
                cx.error(
                    e,
                    "/mines",
                    "mines-attack",
                    format!("minefield `{}` has no `attack:` to attack with", e.id),
                    "an `attack:` profile (RAV, base_tp) beside `mines:`",
                    Some("add `attack: {rav: …, base_tp: …}`".into()),
                );
                None
            }
            _ => None,
        };
        let piece = piece(cx, e, a);
        let variants = a
            .variants
            .iter()
            .enumerate()
            .filter_map(|(i, t)| cx.index_of(e, format_args!("/variants/{i}"), t.as_str(), &ids, "terrain"))
            .collect();
        out.push(AssetDef {
            piece,
            variants,
            emplacement_ap: a.emplacement.map(|x| x.action_points),
            mines,
            id: e.id.clone(),
            name: a.name.clone(),
            terrain,
            deck_cards: sum(f::ModifierTarget::DrawDeckCard).unwrap_or(0).max(0) as u32,
            skip_card: sum(f::ModifierTarget::SkipCard).is_some(),
            reload_ammo_bins: sum(f::ModifierTarget::ReloadAmmoBins).is_some(),
            field_repair: sum(f::ModifierTarget::FieldRepair).unwrap_or(0).max(0) as u32,
            field_repair_lingering: sum(f::ModifierTarget::FieldRepairLingering).unwrap_or(0).max(0) as u32,
            laid_wall: sum(f::ModifierTarget::LaidWallLength)
                .zip(sum(f::ModifierTarget::LaidWallWidth))
                .map(|(l, w)| (f64::from(l.max(0)), f64::from(w.max(0)))),
        });
    }
    (out, cards)
}

/// The piece a roster's pre-deployment asset is set down as (`AssetDef::piece`): a terrain piece
/// or a minefield with its footprint, round (radius, 0) or (length, width). A footprint must be
/// one of the two; a pre-deployment piece without one is not set down by `cav play`, and says so.
fn piece(cx: &mut Cx, e: &Entry, a: &f::Asset) -> Option<(f64, f64)> {
    let shape = match a.footprint {
        None => None,
        Some(f::Footprint { radius: Some(r), length: None, width: None }) => Some((r, 0.0)),
        Some(f::Footprint { radius: None, length: Some(l), width: Some(w) }) => Some((l, w)),
        Some(_) => {
            cx.error(
                e,
                "/footprint",
                "footprint",
                "a footprint is round or a rectangle: give `radius`, or `length` and `width`".into(),
                "`{radius: R}` or `{length: L, width: W}`",
                None,
            );
            None
        }
    };
    let placed = a.placement == f::AssetPlacement::PreDeployment
        && (a.terrain.is_some() || a.mines.is_some())
        && a.emplacement.is_none();
    if placed && shape.is_none() && a.footprint.is_none() {
        cx.diags.push(
            cav_content::Diagnostic::warning(
                "not-implemented",
                format!(
                    "asset `{}` has no `footprint`: `cav play` cannot set it down for a roster that buys it (scenario tests still place it)",
                    e.id
                ),
            )
            .at(e.prov.locate("/placement"))
            .pack(e.pack.clone())
            .pointer("/placement"),
        );
    }
    shape.filter(|_| placed)
}
