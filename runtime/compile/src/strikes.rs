//! Strikes of the battlefield strike packages: their attack as a mount a strike caller carries,
//! the terms of those that call them, and strikes that fly in as a model.

use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{CardDef, MountDef, SaDef, StrikeDef, StrikeTerms};

use crate::Cx;
use crate::catalog::{landing, munition_only};

/// The strikes of the battlefield strike packages, each with its attack as a mount a strike caller
/// carries (`CardDef::arm_strikes`).
pub(crate) fn strikes(cx: &mut Cx, sas: &[SaDef]) -> Vec<StrikeDef> {
    let mut out = Vec::new();
    for e in cx.rs.of_kind(DocKind::Strike) {
        let Some(Document::Strike(doc)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        let a = &doc.attack;
        munition_only(cx, e, "/attack", a);
        let (lays, leaves) = landing(cx, e, "/attack", a);
        // Unknown SA ids are dangling references the loader reported.
        let msas: Vec<(u16, i32)> = a
            .special_attributes
            .iter()
            .filter_map(|r| {
                let ix = sas.iter().position(|s| s.id == r.id().as_str())?;
                Some((ix as u16, r.rating().or(r.uses().map(|u| u as i32)).unwrap_or(1)))
            })
            .collect();
        let mut mount = MountDef {
            weapon: e.id.clone(),
            class: doc.name.clone(),
            name: doc.name.clone(),
            quantity: 1,
            range: match a.range {
                Some(f::Distance::Inches(r)) => r,
                _ => 0.0,
            },
            rav: vec![a.rav.map_or((None, None), |r| (r.hard, r.soft))],
            sas: msas,
            indirect: true,
            strike: Some(out.len() as u16),
            preset_tp: a.base_tp.map(|t| t as i32),
            combat_rolls: a.combat_rolls.unwrap_or(1).min(cav_format::limits::MAX_REROLLS),
            strip: a.strip.map(|s| (s.length, s.width)),
            lays,
            leaves,
            cloud: a.cloud.as_ref().map(|c| c.cleared_by.iter().map(|w| w.0.clone()).collect()),
            cloud_stopped_by: a.cloud.iter().flat_map(|c| &c.stopped_by).map(|u| format!("upgrade:{}", u.0)).collect(),
            laser_guided: a.laser_guided,
            destroys: a.destroys.clone(),
            // The rest (area, blaster, shock) follows from its special attributes (`derive`).
            ..MountDef::default()
        };
        mount.derive(sas);
        let called_by = doc
            .called_by
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                // Unknown SA ids are dangling references the loader reported.
                let sa = sas.iter().position(|s| s.id == c.sa.as_str())? as u16;
                let authorization = c
                    .authorization
                    .as_ref()
                    .map(|a| (cx.dice(e, &format!("/called_by/{i}/authorization/dice"), &a.dice), a.target));
                Some(StrikeTerms { sa: Some(sa), ap: c.ap, pays: c.pays, authorization })
            })
            .collect();
        out.push(StrikeDef {
            id: e.id.clone(),
            name: doc.name.clone(),
            package: doc.package,
            cost: doc.cost.tv,
            mount,
            called_by,
            missile: None, // `missiles`, once the cards are built
        });
    }
    out
}

/// The strikes that fly in as models (`missile:`): each gets its own card — the model's, with
/// the strike's attack as its one weapon — added to `cards`.
pub(crate) fn missiles(cx: &mut Cx, strikes: &mut [StrikeDef], cards: &mut Vec<CardDef>) {
    for e in cx.rs.of_kind(DocKind::Strike) {
        let Some(Document::Strike(doc)) = e.doc.as_deref() else { continue };
        let Some(m) = &doc.missile else { continue };
        let Some(s) = strikes.iter_mut().find(|s| s.id == e.id) else { continue };
        // Unknown model ids are dangling references the loader reported.
        let Some(body) = cards.iter().position(|c| c.id == m.model.as_str()) else { continue };
        let mut card = cards[body].clone();
        let mut mount = s.mount.clone();
        mount.strike = None;
        mount.rav = vec![mount.rav.first().copied().unwrap_or((None, None)); card.columns];
        card.weapons = vec![mount];
        card.id = format!("strike:{}", e.id);
        card.name = doc.name.clone();
        card.tv = 0;
        cards.push(card);
        s.missile = Some(cav_rules::compile::MissileDef {
            card: cards.len() - 1,
            launcher: m.launcher.as_ref().map(|l| l.0.clone()),
            first_moves: m.first_moves,
            moves: m.moves,
        });
    }
}
