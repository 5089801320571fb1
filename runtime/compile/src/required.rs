//! What the data needs of the ruleset. Most sections and tables of a ruleset are optional, so a
//! game that has no pilots, roads, arcs or critical hits does not fill them with dummies; but
//! where a card, a terrain, a model type or a table row calls on one, its absence is an error —
//! one per missing piece, naming an example of what needs it — never a rule that quietly does
//! not apply.

use cav_content::ruleset::Entry;
use cav_format::{self as f, ModelTrait, TableRole};
use cav_rules::compile::{Cost, Rules};

use crate::Cx;
use crate::conditions::Names;
use crate::tables::role_tag;

pub(crate) fn check(cx: &mut Cx, entry: &Entry, ruleset: &f::Ruleset, names: &Names, rules: &Rules) {
    let p = &ruleset.procedures;
    let missing = |cx: &mut Cx, ptr: &str, code: &'static str, message: String, expected: &str| {
        cx.error(entry, ptr, code, message, expected, None);
    };
    let armed = rules.cards.iter().find_map(|c| c.weapons.first().map(|w| (c, w)));
    if let Some((card, w)) = armed {
        // An attack by roll kinds (`procedures.attack`) deals its own damage points (even one
        // whose own errors kept it from compiling: they are said at it).
        let damage_table = rules.damage.key.is_none() && ruleset.procedures.attack.is_none();
        for (role, list) in [(TableRole::RangeBands, rules.bands.is_empty()), (TableRole::CombatDamage, damage_table)] {
            if list && !ruleset.tables.contains_key(&role) {
                let tag = role_tag(role);
                missing(
                    cx,
                    "/tables",
                    "missing-table",
                    format!(
                        "models carry weapons (`{}` of `{}`), but the ruleset names no `{tag}` table",
                        w.name, card.id
                    ),
                    &format!("`{tag}:` under `tables:`, naming a table document"),
                );
            }
        }
    }
    let critical_row = [Some(&rules.damage), rules.close_combat_damage.as_ref()]
        .into_iter()
        .flatten()
        .find_map(|t| t.rows.iter().find(|r| r.critical).map(|r| (t, r)));
    if let Some((table, row)) = critical_row
        && !ruleset.tables.contains_key(&TableRole::CriticalDamage)
    {
        let tag = role_tag(TableRole::CriticalDamage);
        missing(
            cx,
            "/tables",
            "missing-table",
            format!(
                "row `{}` of `{}` calls for a critical hit, but the ruleset names no `{tag}` table",
                row.name, table.name
            ),
            &format!("`{tag}:` under `tables:`, naming a table document"),
        );
    }
    // A weapon with an NA RAV needs what NA counts as.
    if p.rolls.na_rav.is_none()
        && let Some((card, w)) = rules.cards.iter().find_map(|c| {
            c.weapons.iter().find(|w| w.rav.iter().any(|(h, s)| h.is_none() || s.is_none())).map(|w| (c, w))
        })
    {
        missing(
            cx,
            "/procedures/rolls",
            "missing-field",
            format!("weapons have an NA RAV (`{}` of `{}`), but the ruleset has no `na_rav`", w.name, card.id),
            "`procedures.rolls.na_rav`",
        );
    }
    // A weapon that may run dry needs the ruleset's out-of-ammo die.
    if rules.proc.rolls.out_of_ammo_die.is_none()
        && let Some((card, w)) =
            rules.cards.iter().find_map(|c| c.weapons.iter().find(|w| w.out_of_ammo_on > 0).map(|w| (c, w)))
    {
        missing(
            cx,
            "/procedures/rolls",
            "missing-field",
            format!(
                "weapons may run out of ammo (`{}` of `{}`, by an `out_of_ammo` modifier), but the ruleset has no \
                 `out_of_ammo_die`",
                w.name, card.id
            ),
            "`procedures.rolls.out_of_ammo_die`",
        );
    }
    if p.movement.road_cost.is_none()
        && let Some(t) = rules.terrains.iter().find(|t| t.costs.contains(&Cost::RoadBonus))
    {
        missing(
            cx,
            "/procedures/movement",
            "missing-field",
            format!("terrain `{}` is a road for some move class, but the ruleset says no cost along roads", t.id),
            "`procedures.movement.road_cost`: MV per inch along a road",
        );
    }
    let rs = cx.rs;
    if p.repair.is_none()
        && let Some(e) = rs.get(cav_format::DocKind::ActionType, "repair")
    {
        cx.error(
            e,
            "",
            "missing-field",
            "action type `repair` is offered, but the ruleset has no repair rules (`procedures.repair`)".into(),
            "`procedures.repair`, or no `repair` action type",
            None,
        );
    }
    // A melee weapon fights only in a ruleset's close combat, whose rolls reach no handler yet.
    let melee: Vec<_> = rs
        .of_kind(cav_format::DocKind::Weapon)
        .filter(|e| matches!(e.doc.as_deref(), Some(cav_format::Document::Weapon(w)) if w.fire == f::FireMode::Melee))
        .cloned()
        .collect();
    for e in &melee {
        let Some(cav_format::Document::Weapon(w)) = e.doc.as_deref() else { continue };
        if ruleset.procedures.melee.is_none() {
            cx.error(
                e,
                "/fire",
                "missing-field",
                "a melee weapon fights only in close combat, and the ruleset has none (`procedures.melee`)".into(),
                "`procedures.melee` in the ruleset, or another `fire`",
                None,
            );
        } else if !w.special_attributes.is_empty() {
            cx.diags.push(
                cav_content::diag::Diagnostic::warning(
                    "not-implemented",
                    format!(
                        "melee weapon `{}` has special attributes, which close combat does not play yet: they never act",
                        e.id
                    ),
                )
                .at(e.prov.locate("/special_attributes"))
                .pack(e.pack.clone())
                .pointer("/special_attributes"),
            );
        }
    }
    // What drifts: indirect fire, bombs that drift, lingering clouds, strikes, orbital drops.
    if ruleset.dice.drift.is_none() {
        use cav_rules::game::features::any_attack;
        let drifts =
            |m: &cav_rules::compile::MountDef| m.indirect || m.dropped == Some(f::Dropped::Drifts) || m.cloud.is_some();
        let what = if any_attack(rules, drifts, |p| p.cloud.is_some() || p.dropped == Some(f::Dropped::Drifts)) {
            Some("indirect fire, a drifting bomb or a cloud")
        } else if p.setup.orbital_drop.is_some() {
            Some("orbital drops")
        } else {
            None
        };
        if let Some(what) = what {
            missing(
                cx,
                "/dice",
                "missing-field",
                format!("the rules have {what}, which drift, but no drift dice"),
                "`dice.drift`: the dice a drift rolls (`2d6`)",
            );
        }
    }
    if ruleset.turn_order.is_none()
        && let Some(w) = ruleset.reaction_windows.iter().find(|w| w.cost == f::rules::ReactionCost::Pool)
    {
        missing(
            cx,
            "/reaction_windows",
            "turn-order",
            format!("reaction window `{}` is paid from a pool, but the turn is a draw deck, with no pools", w.id),
            "`turn_order:` with a `pool`, or another `cost`",
        );
    }
    // A pooled turn has no draw deck: a handler of it never runs (a warning, as for any rule
    // of the catalog the turn leaves without effect).
    if ruleset.turn_order.is_some()
        && let Some(sa) = rules.sas.iter().find(|s| s.hooks.contains(&f::HookPoint::DrawDeck))
    {
        cx.diags.push(
            cav_content::diag::Diagnostic::warning(
                "not-implemented",
                format!(
                    "special attribute `{}` acts as the draw deck is built, but this ruleset's turn has no draw \
                     deck: its `draw_deck` handler never runs",
                    sa.id
                ),
            )
            .at(entry.prov.locate("/turn_order"))
            .pack(entry.pack.clone())
            .pointer("/turn_order"),
        );
    }
    // An attack by roll kinds has no combat dice to hand round, no margin against armor and —
    // without a `damage_table` — no damage table: handlers of those moments never run (said, as
    // above).
    if let Some(attack) = &ruleset.procedures.attack {
        use f::HookPoint::{CombatDice, DamageCalc, DamageTable};
        let unreached: &[f::HookPoint] = if attack.damage_table.is_some() {
            &[CombatDice, DamageCalc]
        } else {
            &[CombatDice, DamageCalc, DamageTable]
        };
        for sa in rules.sas.iter().filter(|s| s.hooks.iter().any(|h| unreached.contains(h))) {
            let names: Vec<&str> = unreached.iter().map(|h| h.id()).collect();
            cx.diags.push(
                cav_content::diag::Diagnostic::warning(
                    "not-implemented",
                    format!(
                        "special attribute `{}` handles one of `{}`, which an attack by roll kinds \
                         (`procedures.attack`) does not reach: the handler never runs",
                        sa.id,
                        names.join("`, `")
                    ),
                )
                .at(entry.prov.locate("/procedures/attack"))
                .pack(entry.pack.clone())
                .pointer("/procedures/attack"),
            );
        }
    }
    let with_trait = |t: ModelTrait| {
        (0..rules.proc.model_types.len())
            .map(|i| cav_rules::compile::TypeIx(i as u8))
            .find(|ty| rules.has_trait(*ty, t))
    };
    if p.damage.pilot_fail_state.is_none()
        && let Some(ty) = with_trait(ModelTrait::PilotChecks)
    {
        missing(
            cx,
            "/procedures/damage",
            "missing-field",
            format!(
                "{} models make pilot checks (trait `pilot-checks`), but no state says what failing one does",
                rules.type_name(ty)
            ),
            "`procedures.damage.pilot_fail_state`: the model state a failed pilot check applies",
        );
    }
    if p.damage.wreck_terrain.is_none()
        && let Some(ty) = with_trait(ModelTrait::LeavesWreck)
    {
        missing(
            cx,
            "/procedures/damage",
            "missing-field",
            format!(
                "destroyed {} models leave wrecks (trait `leaves-wreck`), but no terrain says what a wreck is",
                rules.type_name(ty)
            ),
            "`procedures.damage.wreck_terrain`: the terrain type a wreck becomes",
        );
    }
    if p.sight.arc_half_width.is_none() && names.used("back-arc") {
        missing(
            cx,
            "/procedures/sight",
            "missing-field",
            "a modifier uses the condition `back-arc`, but models in this ruleset have no firing arcs".into(),
            "`procedures.sight.arc_half_width`: half the width of a firing arc in degrees",
        );
    }
}
