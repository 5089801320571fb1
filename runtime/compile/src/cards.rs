//! Models as the engine plays them: per-column card values, weapons with their special
//! attributes resolved, and the declarative effects that are properties of the card.

use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{CardDef, MountDef, Proc, SaDef, SaIx};

use crate::Cx;

/// The ruleset's models (id and document, in card order) and their cards.
pub(crate) fn cards(
    cx: &mut Cx,
    sas: &[SaDef],
    move_classes: &[String],
    ruleset: &f::Ruleset,
    proc: &Proc,
    names: &crate::conditions::Names,
) -> (Vec<(String, f::Model)>, Vec<CardDef>) {
    let mut models = Vec::new();
    let mut cards = Vec::new();
    for e in cx.rs.of_kind(DocKind::Weapon) {
        let Some(Document::Weapon(w)) = e.doc.as_deref() else { continue };
        if let Some(g) = &w.guided_strike
            && !names.bands.iter().any(|b| b.eq_ignore_ascii_case(&g.band))
        {
            cx.error(
                e,
                "/guided_strike/band",
                "unknown-band",
                format!("ruleset `{}` has no range band `{}`", ruleset.id, g.band),
                &format!("one of its range bands: {}", names.bands.join(", ")),
                None,
            );
        }
    }
    // How a weapon is mounted means nothing on a special attribute or an upgrade.
    for (kind, what) in [(DocKind::SpecialAttribute, "a special attribute"), (DocKind::Upgrade, "an upgrade")] {
        for e in cx.rs.of_kind(kind) {
            let r = match e.doc.as_deref() {
                Some(Document::SpecialAttribute(d)) => &d.restriction,
                Some(Document::Upgrade(d)) => &d.restriction,
                _ => continue,
            };
            let keys = [
                ("per_model", r.per_model.is_some()),
                ("per_location", r.per_location.is_some()),
                ("separate", r.separate),
            ];
            for (key, _) in keys.into_iter().filter(|(_, set)| *set) {
                cx.error(
                    e,
                    &format!("/restriction/{key}"),
                    "weapon-only",
                    format!("`restriction.{key}` says how a weapon is mounted; {what} has no mounts"),
                    "`per_squad`, `per_force`, `model_types` or `min_damage_tracks`",
                    None,
                );
            }
        }
    }
    for e in cx.rs.of_kind(DocKind::Model) {
        let Some(Document::Model(m)) = e.doc.as_deref() else {
            cx.fail_quietly();
            continue;
        };
        if !ruleset.model_types.contains_key(&m.model_type) {
            let played: Vec<&str> = ruleset.model_types.keys().map(|t| t.id()).collect();
            cx.error(
                e,
                "/model_type",
                "model-type",
                format!(
                    "ruleset `{}` does not play {} models (its `model_types:` has no `{}`)",
                    ruleset.id, m.model_type, m.model_type
                ),
                &format!("one of the ruleset's model types: {}", played.join(", ")),
                Some(format!("add `{}:` to `model_types:` of the ruleset, with its traits and sizes", m.model_type)),
            );
        }
        // An airframe matters only to an aircraft: elsewhere it would be ignored unsaid.
        let aircraft =
            ruleset.model_types.get(&m.model_type).is_some_and(|t| t.traits.contains(&f::ModelTrait::Aircraft));
        if m.airframe.is_some() && !aircraft && ruleset.model_types.contains_key(&m.model_type) {
            cx.diags.push(
                cav_content::Diagnostic::warning(
                    "not-implemented",
                    format!(
                        "`airframe` changes nothing on a {} model: under ruleset `{}` only aircraft land and take off",
                        m.model_type, ruleset.id
                    ),
                )
                .at(e.prov.locate("/airframe"))
                .pack(e.pack.clone())
                .pointer("/airframe"),
            );
        }
        mount_restrictions(cx, e, m);
        let sign = match ruleset.modifier_convention {
            f::ModifierConvention::Roll => 1,
            f::ModifierConvention::TargetPoint => -1,
        };
        cards.push(card(cx, &e.id, m, sas, move_classes, ruleset, proc, names, sign));
        models.push((e.id.clone(), m.clone()));
    }
    (models, cards)
}

/// What a weapon's special attributes add to its profile's RAV of one kind (`hard_rav`, `soft_rav`).
pub(crate) fn design_bonus(sas: &[SaDef], wsas: &[(SaIx, i32)], target: f::ModifierTarget) -> i32 {
    wsas.iter()
        .flat_map(|&(sa, rating)| {
            sas[sa as usize]
                .effects
                .iter()
                .filter(move |e| e.target == target)
                .map(move |e| if e.per_rating { e.value.saturating_mul(rating) } else { e.value })
        })
        .fold(0i32, |a, b| a.saturating_add(b))
}

/// What a model's weapons allow of the card that mounts them (each weapon's `restriction:`): the
/// model types and sizes they fit, how many one model carries, how many of their class share a
/// mounting location, and whether they are mounted one by one.
fn mount_restrictions(cx: &mut Cx, e: &cav_content::Entry, m: &f::Model) {
    fn weapon<'a>(cx: &Cx<'a>, id: &str) -> Option<&'a f::Weapon> {
        match cx.doc(DocKind::Weapon, id) {
            Some(Document::Weapon(w)) => Some(w),
            _ => None,
        }
    }
    // Tracks one weapon may be short of its size (Expanded Chassis), while no weapon used them.
    let mut heavier: u32 = m
        .special_attributes
        .iter()
        .filter_map(|r| match cx.doc(DocKind::SpecialAttribute, r.id().as_str()) {
            Some(Document::SpecialAttribute(sa)) => Some(sa),
            _ => None,
        })
        .flat_map(|sa| &sa.modifiers)
        .filter(|x| x.target == f::ModifierTarget::HeavierWeapon)
        .map(|x| x.value.max(0) as u32)
        .sum();
    mount_capacity(cx, e, m);
    let mut seen_locations: Vec<(String, f::Mount)> = Vec::new();
    for (i, w) in m.weapons.iter().enumerate() {
        let Some(def) = weapon(cx, w.weapon.as_str()) else { continue };
        let r = &def.restriction;
        // Made only for an error: every mount of every card passes here on every reload.
        let at = || format!("/weapons/{i}");
        let cite = || def.source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
        // (A weapon emplacement is a bunker's gun, not a model built to carry it.)
        if m.emplacement.is_none() && !r.model_types.is_empty() && !r.model_types.contains(&m.model_type) {
            let fits: Vec<&str> = r.model_types.iter().map(|t| t.id()).collect();
            cx.error(
                e,
                &format!("{}/weapon", at()),
                "weapon-restriction",
                format!(
                    "{} is mounted on {} models only{}; this model is of type {}",
                    def.name,
                    fits.join(", "),
                    cite(),
                    m.model_type
                ),
                "a weapon the model's type may mount",
                None,
            );
        }
        if let Some(min) = r.min_damage_tracks
            && m.emplacement.is_none()
            && m.damage_track.damage_tracks < min
            // (The allowance goes to the first weapon short of its size, whether it suffices.)
            && std::mem::take(&mut heavier) + m.damage_track.damage_tracks < min
        {
            cx.error(
                e,
                &format!("{}/weapon", at()),
                "weapon-restriction",
                format!(
                    "{} needs a model of {min}+ damage tracks{}; this one has {}",
                    def.name,
                    cite(),
                    m.damage_track.damage_tracks
                ),
                "a weapon the model's size may mount",
                None,
            );
        }
        if r.separate && w.quantity > 1 {
            cx.error(
                e,
                &format!("{}/quantity", at()),
                "weapon-restriction",
                format!("each {} is mounted on its own, never as a matching set{}", def.name, cite()),
                "`quantity: 1`, one entry per weapon",
                Some(format!("list each {} as its own entry of `weapons:`", def.name)),
            );
        }
        let first = m.weapons.iter().position(|x| x.weapon == w.weapon) == Some(i);
        if let Some(max) = r.per_model
            && first
        {
            let n: u32 = m.weapons.iter().filter(|x| x.weapon == w.weapon).map(|x| x.quantity).sum();
            if n > max {
                cx.error(
                    e,
                    &at(),
                    "weapon-restriction",
                    format!("a model mounts at most {max} {}{}; this one has {n}", def.name, cite()),
                    "no more of the weapon than its restriction allows",
                    None,
                );
            }
        }
        if let Some(max) = r.per_location {
            for &loc in &w.mount {
                if seen_locations.iter().any(|(c, l)| *c == def.class && *l == loc) {
                    continue;
                }
                seen_locations.push((def.class.clone(), loc));
                let n = m
                    .weapons
                    .iter()
                    .filter(|x| weapon(cx, x.weapon.as_str()).is_some_and(|d| d.class == def.class))
                    .flat_map(|x| &x.mount)
                    .filter(|&&l| l == loc)
                    .count();
                if n > max as usize {
                    cx.error(
                        e,
                        &at(),
                        "weapon-restriction",
                        format!(
                            "at most {max} {} in any one location{}; {n} are mounted at {loc:?}",
                            def.class,
                            cite()
                        ),
                        "weapons of the class spread over the model's locations",
                        None,
                    );
                }
            }
        }
    }
}

/// The weapons on a mount a special attribute provides (`carries`: a Turret's two per rating
/// level on `T`, 001 L8604-8606) fit what the card's rating of it holds. (A weapon emplacement
/// is a bunker's gun, not a model built to carry it.)
fn mount_capacity(cx: &mut Cx, e: &cav_content::Entry, m: &f::Model) {
    if m.emplacement.is_some() {
        return;
    }
    let providers: Vec<(String, String, f::MountCapacity, Option<String>)> = cx
        .rs
        .of_kind(DocKind::SpecialAttribute)
        .filter_map(|x| match x.doc.as_deref() {
            Some(Document::SpecialAttribute(sa)) => {
                sa.carries.map(|c| (x.id.clone(), sa.name.clone(), c, sa.source.clone()))
            }
            _ => None,
        })
        .collect();
    for (id, name, cap, source) in providers {
        // A weapon listed once per location takes one place there; a set on one mount, all of it.
        let mounted: u32 = m
            .weapons
            .iter()
            .map(|w| match w.mount.iter().filter(|&&l| l == cap.mount).count() as u32 {
                0 => 0,
                n if w.mount.len() > 1 => n,
                _ => w.quantity,
            })
            .sum();
        let rating = m
            .special_attributes
            .iter()
            .find(|r| r.id().as_str() == id)
            .map_or(0, |r| r.rating().unwrap_or(1).max(0) as u32);
        let holds = rating.saturating_mul(cap.per_rating);
        if mounted > holds {
            let cite = source.map(|s| format!(", {s}")).unwrap_or_default();
            let have =
                if rating == 0 { format!("the card has no {name}") } else { format!("{name} {rating} holds {holds}") };
            cx.error(
                e,
                "/weapons",
                "mount-capacity",
                format!(
                    "`{}` has {mounted} weapon(s) on the {:?} mount, which {name} provides ({} per rating level{cite}); {have}",
                    e.id, cap.mount, cap.per_rating
                ),
                "no more weapons on the mount than the special attribute's rating holds",
                Some(format!("give the model `{{sa: {id}, rating: {}}}` or mount the weapons elsewhere", mounted.div_ceil(cap.per_rating))),
            );
        }
    }
}

fn rav_pair(r: &f::Rav) -> (Option<u8>, Option<u8>) {
    (r.hard, r.soft)
}

#[allow(clippy::too_many_arguments)]
fn card(
    cx: &mut Cx,
    id: &str,
    m: &f::Model,
    sas: &[SaDef],
    move_classes: &[String],
    ruleset: &f::Ruleset,
    proc: &Proc,
    names: &crate::conditions::Names,
    sign: i32,
) -> CardDef {
    let dt = &m.damage_track;
    let columns = dt.damage_tracks as usize + 1;
    // The values of the attributes lent to the engine (`role:`); their rows are written once
    // every card's attributes are known (`attributes.rs`).
    let role = |r: f::AttributeRole| {
        let a = ruleset.attribute_with_role(r);
        a.map_or_else(|| vec![None; columns], |a| crate::attributes::column_values(a, m, columns))
    };
    let unsigned = |v: Vec<Option<i32>>| v.into_iter().map(|x| x.map_or(0, |x| x.max(0) as u32)).collect::<Vec<_>>();
    // Unknown SA ids are dangling references the loader reported.
    let sa_ix = |r: &f::SaRef| -> Option<(SaIx, i32)> {
        sas.iter()
            .position(|s| s.id == r.id().as_str())
            .map(|i| (i as SaIx, r.rating().or(r.uses().map(|u| u as i32)).unwrap_or(1)))
    };
    let model_sas: Vec<(SaIx, i32)> = m.special_attributes.iter().filter_map(sa_ix).collect();
    // And what they grant (Orbital Flight: Reduced Turn and Shielded).
    let model_sas = SaDef::with_grants(sas, &model_sas);
    let mut weapons = Vec::new();
    for w in &m.weapons {
        let Some(Document::Weapon(def)) = cx.doc(DocKind::Weapon, w.weapon.as_str()) else {
            cx.fail_quietly();
            continue;
        };
        weapons.push(weapon_mount(w, def, sas, names, sign, columns, &sa_ix));
    }
    // Unknown move classes are dangling references the loader reported.
    let move_class = move_classes.iter().position(|c| c == m.move_class.as_str()).unwrap_or(0);
    let model_type = cx.type_ix(&m.model_type).unwrap_or(cav_rules::compile::TypeIx::NONE);
    let base = m.base_size.or(proc.model_types.get(model_type.0 as usize).map(|t| t.base_size)).unwrap_or(0.0);
    let mut card = CardDef {
        move_class,
        movement: unsigned(role(f::AttributeRole::Move)),
        armor: unsigned(role(f::AttributeRole::Armor)),
        damage_control: role(f::AttributeRole::DamageControl),
        experience: role(f::AttributeRole::Experience).into_iter().map(|x| x.map(|x| x.max(0) as u32)).collect(),
        ccv: (0..columns)
            .map(|i| dt.ccv.as_ref().and_then(|c| c.at(i)).map(|r| rav_pair(&r)).unwrap_or((None, None)))
            .collect(),
        // (`emplacement` is set once the assets are known, `lib.rs`.)
        base_radius: base / 2.0,
        airframe: m.airframe,
        task: m.task,
        weapons,
        tv: m.tv,
        ..CardDef::blank(id.to_owned(), m.name.clone(), model_type, columns)
    };
    let chassis = dt.values == f::CardValues::Chassis;
    card.apply_effects(sas, &model_sas, chassis);
    if chassis {
        // The weapons' design changes to the carrier (a crewed weapon's Encumbered), once per mount.
        let weapon_sas: Vec<(SaIx, i32)> = card.weapons.iter().flat_map(|w| w.sas.iter().copied()).collect();
        card.apply_values(sas, &weapon_sas);
    }
    card.sas = model_sas;
    card
}

/// One weapon of the card as the engine fires it: its special attributes (the mount's, the
/// weapon's, its own scripted rule) and the range bands they shift, its RAV per column.
fn weapon_mount(
    w: &f::WeaponMount,
    def: &f::Weapon,
    sas: &[SaDef],
    names: &crate::conditions::Names,
    sign: i32,
    columns: usize,
    sa_ix: &impl Fn(&f::SaRef) -> Option<(SaIx, i32)>,
) -> MountDef {
    let mut wsas: Vec<(SaIx, i32)> = def.special_attributes.iter().filter_map(sa_ix).collect();
    wsas.extend(w.special_attributes.iter().filter_map(sa_ix));
    // Special attributes given under a condition, and the range bands they shift.
    let refs = def.special_attributes.iter().chain(&w.special_attributes);
    let sa_when: Vec<(SaIx, cav_rules::compile::Cond)> = refs
        .filter_map(|r| match r {
            f::SaRef::Rated(w) if !w.when.is_empty() => Some((sa_ix(r)?.0, &w.when)),
            _ => None,
        })
        .flat_map(|(sa, when)| {
            when.iter().map(move |c| {
                // A condition on the attacker's special attributes would test itself (the
                // vocabulary check refuses it): it never holds rather than recurse.
                let c = names.cond(c.as_str());
                (
                    sa,
                    if c.is(&cav_rules::game::conditions::ATTACKER_SA, c.arg) {
                        cav_rules::compile::Cond::NEVER
                    } else {
                        c
                    },
                )
            })
        })
        .collect();
    let band_shift = wsas
        .iter()
        .flat_map(|&(sa, rating)| {
            let when = sa_when.iter().filter(move |(s, _)| *s == sa).map(|(_, c)| *c);
            sas[sa as usize].effects.iter().filter(|e| e.target == f::ModifierTarget::RangeBand).map(move |e| {
                let value = if e.per_rating { e.value * rating } else { e.value };
                (value, e.when.iter().copied().chain(when.clone()).collect())
            })
        })
        .collect();
    // The weapon's own scripted rule (`catalog::special_attributes`).
    let own = format!("weapon:{}", w.weapon);
    if let Some(i) = sas.iter().position(|s| s.id == own) {
        wsas.push((i as SaIx, 1));
    }
    let rav = match &w.rav {
        Some(pc) => (0..columns).map(|i| pc.at(i).map(|r| rav_pair(&r)).unwrap_or((None, None))).collect(),
        // The profile's RAV with the design bonuses a printed card would already show
        // (Piercing, Shredder, Ultra); NA stays NA.
        None => {
            let bonus = |t| design_bonus(sas, &wsas, t);
            let add = |v: Option<u8>, by: i32| v.map(|v| (i32::from(v) + by).clamp(0, 255) as u8);
            let (hard, soft) = rav_pair(&def.rav);
            let pair = (add(hard, bonus(f::ModifierTarget::HardRav)), add(soft, bonus(f::ModifierTarget::SoftRav)));
            vec![pair; columns]
        }
    };
    let mut mount = MountDef {
        weapon: w.weapon.0.clone(),
        class: def.class.clone(),
        name: def.name.clone(),
        quantity: w.quantity,
        range: match def.range {
            f::Distance::Inches(i) => i,
            _ => 0.0,
        },
        rav,
        requires_target_lock: def.requires_target_lock,
        energy: def.energy,
        indirect: def.fire == f::FireMode::Indirect,
        melee: def.fire == f::FireMode::Melee,
        min_range: 0.0,
        aoe: 0.0,
        out_of_ammo_on: 0,
        crit_shift: 0,
        state_test: None,
        open_infantry_factor: 1,
        cannot_target: def.cannot_target.clone(),
        mounts: w.mount.clone(),
        sas: wsas,
        sa_when,
        band_shift,
        munition: None,
        munition_id: None,
        ammo_dependent: def.ammo_dependent,
        launcher: None,
        strike: None,
        preset_tp: None,
        combat_rolls: 1,
        single_use: false,
        charges: None,
        homes_on: Vec::new(),
        laser_guided: false,
        dropped: None,
        strip: None,
        lays: None,
        leaves: None,
        cloud: None,
        cloud_stopped_by: Vec::new(),
        destroys: None,
        seeks: None,
        reaction: false,
        fixed_tp: None,
        // Its weapon attributes' values (`attributes.rs`, once every card is built).
        attributes: Vec::new(),
        // An unknown band is reported once, at the weapon (`lib.rs`).
        guided_strike: def.guided_strike.as_ref().and_then(|g| {
            let band = names.bands.iter().position(|b| b.eq_ignore_ascii_case(&g.band))?;
            Some((band, g.painted * sign))
        }),
        // Unknown state ids are dangling references the loader reported.
        template: def.template.as_ref().and_then(|t| {
            let state = names.states.iter().position(|s| s == t.gives.as_str())?;
            Some((t.length, t.width, state as cav_rules::compile::StateIx))
        }),
    };
    mount.derive(sas);
    mount
}

/// A small table (option `table-size: small`): every MV and range value scaled and rounded as
/// the ruleset's `procedures.small_table` says (the full rules: halved, rounding up, 001
/// L1374-1376).
pub fn scale_for_a_small_table(cards: &mut [CardDef], small: &cav_format::SmallTableRules) {
    let scaled = |x: f64| small.rounding.apply(x * small.scale);
    for c in cards {
        for mv in &mut c.movement {
            *mv = scaled(f64::from(*mv)).clamp(0.0, f64::from(u32::MAX)) as u32;
        }
        for w in &mut c.weapons {
            w.range = scaled(w.range);
            w.min_range = scaled(w.min_range);
        }
        c.mirror_roles();
    }
}
