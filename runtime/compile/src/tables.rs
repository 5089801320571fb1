//! Range bands, modifier tables and lookup tables, found through the ruleset's `tables:` roles.

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind, Document, TableRole};
use cav_rules::compile::{AttributeChange, Band, Cond, LookupTable, Mod, Row};

use crate::Cx;
use crate::conditions::Names;

/// The tables of the roll procedures.
pub(crate) struct RollTables {
    pub combat: Vec<Mod>,
    pub indirect: Vec<Mod>,
    pub strike_point: Vec<Mod>,
    pub strike_package: Vec<Mod>,
    pub pilot: Vec<Mod>,
    pub close_combat: Vec<Mod>,
    pub break_away: Vec<Mod>,
    pub damage_roll: Vec<Mod>,
    pub damage: LookupTable,
    pub close_combat_damage: Option<LookupTable>,
    pub critical: LookupTable,
    pub random_terrain: Option<LookupTable>,
    pub victory_levels: Option<LookupTable>,
    pub structure_damage: Option<LookupTable>,
    pub structure_critical: Option<LookupTable>,
}

pub(crate) fn role_tag(role: TableRole) -> String {
    serde_json::to_value(role).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// The id of the table playing `role`; an error at `/tables` when the ruleset names none.
fn required(cx: &mut Cx, ruleset_entry: &Entry, ruleset: &f::Ruleset, role: TableRole, why: &str) -> Option<String> {
    match ruleset.tables.get(&role) {
        Some(id) => Some(id.0.clone()),
        None => {
            let tag = role_tag(role);
            cx.error(
                ruleset_entry,
                "/tables",
                "missing-table",
                format!("ruleset `{}` names no `{tag}` table, which {why}", ruleset.id),
                &format!("`{tag}:` under `tables:`, naming a table document"),
                None,
            );
            None
        }
    }
}

/// The range bands, their ids, and the indirect-fire target point; none where the ruleset names
/// no range-band table (a game without weapons: `required.rs` says where one is needed).
pub(crate) fn range_bands(cx: &mut Cx, ruleset: &f::Ruleset) -> (Vec<cav_rules::compile::Band>, Vec<String>, i32) {
    let Some(id) = ruleset.tables.get(&TableRole::RangeBands).map(|id| id.0.clone()) else {
        return (vec![], vec![], 0);
    };
    let Some(e) = cx.rs.get(DocKind::RangeBands, &id) else {
        cx.fail_quietly(); // a dangling reference, already reported
        return (vec![], vec![], 0);
    };
    let Some(Document::RangeBands(b)) = e.doc.as_deref() else {
        cx.fail_quietly();
        return (vec![], vec![], 0);
    };
    if b.bands.is_empty() {
        cx.error(e, "/bands", "range-bands", "the range-band table has no bands".into(), "at least one band", None);
    }
    // What each target point is needed by: the combat roll of CAV's attack, and indirect fire.
    let indirect_fire = cx
        .rs
        .of_kind(DocKind::Weapon)
        .any(|w| matches!(w.doc.as_deref(), Some(Document::Weapon(w)) if w.fire == f::FireMode::Indirect));
    let rolled = ruleset.procedures.attack.is_some();
    for (i, x) in b.bands.iter().enumerate() {
        let need = |cx: &mut Cx, key: &str, why: &str| {
            cx.error(
                e,
                &format!("/bands/{i}"),
                "range-bands",
                format!("band `{}` lacks `{key}`, which {why} needs", x.id),
                &format!("`{key}:` the band's target point"),
                None,
            );
        };
        if x.combat_tp.is_none() && !rolled {
            need(cx, "combat_tp", "the combat roll (the ruleset has no `procedures.attack`)");
        }
        if x.strike_point_tp.is_none() && indirect_fire {
            need(cx, "strike_point_tp", "indirect fire (a weapon fires indirectly)");
        }
    }
    let indirect_tp = match b.indirect_combat_tp {
        Some(t) => t as i32,
        None if !indirect_fire => 0,
        None => {
            cx.error(
                e,
                "",
                "range-bands",
                format!("range-band table `{id}` lacks `indirect_combat_tp`"),
                "`indirect_combat_tp:` the combat target point against models caught by a strike point",
                None,
            );
            0
        }
    };
    let bands = b
        .bands
        .iter()
        .map(|x| Band {
            id: x.id.0.clone(),
            name: x.name.clone(),
            multiplier: x.multiplier,
            combat_tp: x.combat_tp.unwrap_or(0) as i32,
            strike_point_tp: x.strike_point_tp.unwrap_or(0) as i32,
            drift_bonus: x.drift_bonus,
        })
        .collect();
    (bands, b.bands.iter().map(|x| x.id.0.clone()).collect(), indirect_tp)
}

fn modifiers(cx: &mut Cx, id: Option<String>, sign: i32, names: &Names) -> Vec<Mod> {
    let Some(id) = id else { return vec![] };
    let Some(Document::ModifierTable(t)) = cx.doc(DocKind::ModifierTable, &id) else {
        cx.fail_quietly();
        return vec![];
    };
    for (i, m) in t.modifiers.iter().enumerate() {
        let e = cx.rs.get(DocKind::ModifierTable, &id).cloned();
        let Some(e) = e else { break };
        // Rising, and only the last may be open.
        let ordered = m.steps.windows(2).all(|w| match (w[0].at_most, w[1].at_most) {
            (Some(a), Some(b)) => a < b,
            (Some(_), None) => true,
            (None, _) => false,
        });
        if !ordered {
            cx.error(
                &e,
                &format!("/modifiers/{i}/steps"),
                "steps",
                "steps must rise: each `at_most` above the one before, only the last may leave it out".into(),
                "steps in rising order",
                None,
            );
        }
        if !m.steps.is_empty() && m.scale != cav_format::ModifierScale::Once {
            cx.error(
                &e,
                &format!("/modifiers/{i}/scale"),
                "steps",
                "a modifier by steps takes its value from the step: it does not scale".into(),
                "`scale: once` (the default) with `steps`",
                None,
            );
        }
    }
    t.modifiers
        .iter()
        .map(|m| Mod {
            name: m.name.clone(),
            value: m.value * sign,
            scale: if m.steps.is_empty() { m.scale.into() } else { cav_rules::compile::Scale::Steps },
            max: m.max,
            max_per_weapon: m.max_per_weapon,
            // (A row by steps always applies; its condition counts the step.)
            cond: names.cond(if m.steps.is_empty() { m.condition.as_str() } else { "always" }),
            also: m.also.iter().map(|c| names.cond(c.as_str())).collect(),
            steps: m.steps.iter().map(|s| (s.at_most, s.value * sign)).collect(),
            count: if m.steps.is_empty() { Cond::NEVER } else { names.cond(m.condition.as_str()) },
        })
        .collect()
}

/// What the procedure reading a table plays of its rows beyond their first fields.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// A damage model's table, or one a row rolls on (`table_row`): everything.
    Chain,
    /// The critical table (`Engine::critical`): the lasting changes, not the chains.
    Lasting,
    /// Any other role: neither.
    Plain(&'static str),
}

/// A lookup table, its rows' state ids, attributes and the tables they roll on resolved; the
/// fields of its rows that `reads` does not play are errors at them.
fn lookup(cx: &mut Cx, id: Option<String>, sign: i32, names: &Names) -> LookupTable {
    lookup_as(cx, id, sign, names, Reads::Chain)
}

fn lookup_as(cx: &mut Cx, id: Option<String>, sign: i32, names: &Names, reads: Reads) -> LookupTable {
    let Some(id) = id else { return LookupTable::default() };
    let Some(e) = cx.rs.get(DocKind::Table, &id) else {
        cx.fail_quietly();
        return LookupTable::default();
    };
    let Some(Document::Table(t)) = e.doc.as_deref() else {
        cx.fail_quietly();
        return LookupTable::default();
    };
    let dice = t.dice.as_deref().map(|d| cx.dice(e, "/dice", d));
    let mut rows = Vec::with_capacity(t.rows.len());
    for (i, r) in t.rows.iter().enumerate() {
        let ptr = format!("/rows/{i}/effect");
        let (role, unplayed): (&str, &[(&str, bool)]) = match reads {
            Reads::Chain => ("", &[]),
            Reads::Lasting => (
                "the critical damage table",
                &[("roll_on", !r.effect.roll_on.is_empty()), ("roll_again", r.effect.roll_again.is_some())],
            ),
            Reads::Plain(role) => (
                role,
                &[
                    ("attributes", !r.effect.attributes.is_empty()),
                    ("weapon_modifier", r.effect.weapon_modifier.is_some()),
                    ("weapon_lost", r.effect.weapon_lost),
                    ("roll_on", !r.effect.roll_on.is_empty()),
                    ("roll_again", r.effect.roll_again.is_some()),
                ],
            ),
        };
        for &(field, given) in unplayed {
            if given {
                cx.error(
                    e,
                    &format!("{ptr}/{field}"),
                    "table",
                    format!("`{field}` is not played where `{}` is read: as {role}", t.id),
                    "it in a table the attack's `damage_table` reads or a row rolls on (`roll_on`)",
                    None,
                );
            }
        }
        let mut attributes = Vec::new();
        for (attr, change) in &r.effect.attributes {
            let at = format!("{ptr}/attributes/{attr}");
            let Some(ix) = cx.index_of(e, &at, &attr.0, &names.attributes, "attribute of the ruleset's `attributes:`")
            else {
                continue;
            };
            if has_role(cx, &names.attributes[ix]) {
                cx.error(
                    e,
                    &at,
                    "table",
                    format!("`{attr}` has a role: the engine reads it from the card, and a lasting change would not reach it"),
                    "an attribute without `role` (a move value changes by `move_value`/`move_factor`)",
                    None,
                );
                continue;
            }
            attributes.push((
                ix,
                match *change {
                    f::AttributeChange::By(by) => AttributeChange::By(by),
                    f::AttributeChange::Share(s) => AttributeChange::Share { percent: s.percent, at_least: s.at_least },
                },
            ));
        }
        let mut roll_on = Vec::new();
        for (k, next) in r.effect.roll_on.iter().enumerate().filter(|_| reads == Reads::Chain) {
            // (A table that is not there is a dangling reference the loader reported.)
            if let Some(ix) = rolled_table(cx, e, &format!("{ptr}/roll_on/{k}/table"), &next.table.0) {
                roll_on.push((ix, next.add));
            }
        }
        if r.effect.roll_again.is_some() && (t.key != f::LookupKey::Roll || dice.is_none()) {
            cx.error(
                e,
                &format!("{ptr}/roll_again"),
                "table",
                format!("table `{}` is not rolled (`key: roll` with `dice`), so it cannot be rolled again", t.id),
                "`roll_again` in a table with `key: roll` and `dice`",
                None,
            );
        }
        rows.push(Row {
            min: r.min,
            max: r.max,
            name: r.name.clone(),
            damage: r.effect.damage.unwrap_or(0),
            damage_both: r.effect.damage_both.unwrap_or(0),
            pilot_check: r.effect.pilot_check.map(|p| p * sign),
            // Unknown state ids are dangling references the loader reported.
            states: r
                .effect
                .states
                .iter()
                .filter_map(|s| names.states.iter().position(|x| x == s.as_str()).map(|i| i as u16))
                .collect(),
            critical: r.effect.critical,
            action_points: r.effect.action_points.unwrap_or(0),
            action_points_set: r.effect.action_points_set,
            move_value: r.effect.move_value.unwrap_or(0),
            move_factor: r.effect.move_factor,
            combat_modifier: r.effect.combat_modifier.unwrap_or(0) * sign,
            no_combat: r.effect.no_combat,
            weapons_zeroed: r.effect.weapons_zeroed,
            destroyed: r.effect.destroyed,
            result: r.effect.result.as_ref().map(|x| x.0.clone()),
            value: r.effect.value.map_or(0, |v| v.clamp(-1000, 1000) as i32),
            attributes,
            weapon_modifier: r.effect.weapon_modifier.unwrap_or(0).saturating_mul(sign),
            weapon_lost: r.effect.weapon_lost,
            roll_on,
            roll_again: r.effect.roll_again.unwrap_or(0),
        });
    }
    LookupTable { id: t.id.0.clone(), name: t.name.clone(), key: Some(t.key), dice, rows }
}

/// The index in `Rules::lookup_tables` of table `id`, which a row at `ptr` of `e` rolls on: it
/// must be rolled (`key: roll` with `dice`).
fn rolled_table(cx: &mut Cx, e: &Entry, ptr: &str, id: &str) -> Option<usize> {
    let Some(Document::Table(t)) = cx.rs.get(DocKind::Table, id).and_then(|t| t.doc.as_deref()) else {
        cx.fail_quietly();
        return None;
    };
    if t.key != f::LookupKey::Roll || t.dice.is_none() {
        cx.error(
            e,
            ptr,
            "table",
            format!("table `{id}` is not rolled: it has no `key: roll` with `dice`"),
            "a table with `key: roll` and `dice`",
            None,
        );
        return None;
    }
    Some(table_ix(cx, id))
}

/// Whether the ruleset's attribute `id` has a `role` (the engine reads it from the card).
fn has_role(cx: &Cx, id: &str) -> bool {
    cx.rs.of_kind(DocKind::Ruleset).any(|e| {
        matches!(e.doc.as_deref(), Some(Document::Ruleset(r)) if r.attributes.iter().any(|a| a.id.0 == id && a.role.is_some()))
    })
}

/// The index table `id` will have in `Rules::lookup_tables`.
pub(crate) fn table_ix(cx: &mut Cx, id: &str) -> usize {
    match cx.tables.iter().position(|t| t == id) {
        Some(ix) => ix,
        None => {
            cx.tables.push(id.to_owned());
            cx.tables.len() - 1
        }
    }
}

/// `Rules::lookup_tables`: every table named by index (`Cx::tables`), and the tables their rows
/// roll on in turn.
pub(crate) fn lookup_tables(cx: &mut Cx, sign: i32, names: &Names) -> Vec<LookupTable> {
    let mut out = Vec::new();
    while out.len() < cx.tables.len() {
        let id = cx.tables[out.len()].clone();
        out.push(lookup(cx, Some(id), sign, names));
    }
    out
}

/// The combat damage table: a lookup table read by a hit's margin of success or final result.
fn damage_table(cx: &mut Cx, id: Option<String>, sign: i32, names: &Names) -> LookupTable {
    let table = lookup_as(cx, id.clone(), sign, names, Reads::Plain("the combat damage table"));
    if let Some(key) = table.key
        && !matches!(key, f::LookupKey::MarginOfSuccess | f::LookupKey::FinalResult)
        && let Some(e) = id.and_then(|id| cx.rs.get(DocKind::Table, &id))
    {
        cx.error(
            e,
            "/key",
            "damage-table-key",
            format!(
                "the combat damage table `{}` is keyed by `{}`",
                e.id,
                serde_json::to_value(key).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
            ),
            "`margin_of_success` or `final_result`: what a hit reads the table by",
            None,
        );
    }
    table
}

pub(crate) fn roll_tables(cx: &mut Cx, e: &Entry, ruleset: &f::Ruleset, sign: i32, names: &Names) -> RollTables {
    // A modifier table left out is a roll without modifiers; the damage tables are needed only
    // by what calls on them (`required.rs`).
    let optional = |role| ruleset.tables.get(&role).map(|id| id.0.clone());
    let combat = optional(TableRole::CombatModifiers);
    let indirect = optional(TableRole::IndirectCombatModifiers);
    let strike_point = optional(TableRole::StrikePointModifiers);
    let pilot = optional(TableRole::PilotCheckModifiers);
    let break_away = if ruleset.procedures.break_away.is_some() {
        required(cx, e, ruleset, TableRole::BreakModifiers, "the break roll (procedures.break_away) needs")
    } else {
        optional(TableRole::BreakModifiers)
    };
    let damage = optional(TableRole::CombatDamage);
    let critical = optional(TableRole::CriticalDamage);
    RollTables {
        combat: modifiers(cx, combat, sign, names),
        indirect: modifiers(cx, indirect, sign, names),
        strike_point: modifiers(cx, strike_point, sign, names),
        strike_package: modifiers(cx, optional(TableRole::StrikePackageModifiers), sign, names),
        pilot: modifiers(cx, pilot, sign, names),
        close_combat: modifiers(cx, optional(TableRole::CloseCombatModifiers), sign, names),
        break_away: modifiers(cx, break_away, sign, names),
        damage_roll: modifiers(cx, optional(TableRole::DamageRollModifiers), sign, names),
        damage: damage_table(cx, damage, sign, names),
        close_combat_damage: optional(TableRole::CloseCombatDamage)
            .map(|id| lookup_as(cx, Some(id), sign, names, Reads::Plain("the close-combat damage table"))),
        critical: lookup_as(cx, critical, sign, names, Reads::Lasting),
        random_terrain: optional(TableRole::RandomTerrain)
            .map(|id| lookup_as(cx, Some(id), sign, names, Reads::Plain("the random terrain table"))),
        victory_levels: optional(TableRole::VictoryLevels)
            .map(|id| lookup_as(cx, Some(id), sign, names, Reads::Plain("the victory levels"))),
        structure_damage: optional(TableRole::StructureDamage)
            .map(|id| lookup_as(cx, Some(id), sign, names, Reads::Plain("the structure damage table"))),
        structure_critical: optional(TableRole::StructureCritical)
            .map(|id| lookup_as(cx, Some(id), sign, names, Reads::Plain("the structure critical table"))),
    }
}
