//! The typed procedure sections, model types, action costs and options.

use std::collections::BTreeMap;

use cav_content::Ruleset;
use cav_content::ruleset::Entry;
use cav_format::vocab::EngineOptions;
use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{
    ActionTypes, AnswerKind, AnswerRule, AttackProc, AttackRollRule, Coherency, ContestRule, Critical, Damage,
    DamageRollRule, DefensiveFire, FireOverDef, Flight, ModelTypeDef, Movement, Opposed, Overwatch, Proc, RecoveryDef,
    RollRule, Rolls, SaDef, SaIx, Term, TerrainDef, Traits, Transport, UnitPool,
};

use crate::Cx;
use crate::conditions::Names;

/// The ruleset's C3 section, states and dice resolved.
pub(crate) fn c3(cx: &mut Cx, e: &Entry, ruleset: &f::Ruleset, names: &Names) -> Option<cav_rules::compile::C3Def> {
    let c = ruleset.c3.as_ref()?;
    let inspire = cx.dice(e, "/c3/inspire_dice", &c.inspire_dice);
    let rally_clears = c
        .rally_clears
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            cx.index_of(e, format_args!("/c3/rally_clears/{i}"), s.as_str(), &names.states, "model state")
        })
        .map(|i| i as u16)
        .collect();
    Some(cav_rules::compile::C3Def { uses: c.uses.clone(), inspire, motivate_ap: c.motivate_ap, rally_clears })
}

/// The ruleset's action slots and, by action type, the slots it uses; every slot an action type
/// names must be declared.
pub(crate) fn action_slots(
    cx: &mut Cx,
    rs: &Ruleset,
    ruleset: &f::Ruleset,
) -> (Vec<String>, std::collections::BTreeMap<String, cav_rules::compile::SlotUse>) {
    // (At most 32, as the schema says: a slot is a bit of a `u32`.)
    let slots: Vec<String> = ruleset.action_slots.iter().take(32).map(|s| s.0.clone()).collect();
    let mut uses = std::collections::BTreeMap::new();
    for e in rs.of_kind(DocKind::ActionType) {
        let Some(Document::ActionType(a)) = e.doc.as_deref() else { continue };
        if a.uses.is_empty() && !a.uses_any_slot {
            continue;
        }
        if a.uses_any_slot && slots.is_empty() {
            cx.error(
                e,
                "/uses_any_slot",
                "action-slots",
                format!("action type `{}` takes any free action slot, but the ruleset declares none", e.id),
                "`action_slots:` of the ruleset, or no `uses_any_slot`",
                None,
            );
        }
        let mut mask = 0u32;
        for (i, s) in a.uses.iter().enumerate() {
            if let Some(bit) = cx.index_of(e, format_args!("/uses/{i}"), s.as_str(), &slots, "action slot") {
                mask |= 1 << bit;
            }
        }
        uses.insert(e.id.clone(), cav_rules::compile::SlotUse { mask, any: a.uses_any_slot });
    }
    (slots, uses)
}

/// The action slots each reaction window's reactions use (`uses:`), as masks, by window.
pub(crate) fn reaction_slots(cx: &mut Cx, e: &Entry, ruleset: &f::Ruleset, slots: &[String]) -> Vec<u32> {
    let mut out = Vec::with_capacity(ruleset.reaction_windows.len());
    for (w, window) in ruleset.reaction_windows.iter().enumerate() {
        let mut mask = 0u32;
        for (i, s) in window.uses.iter().enumerate() {
            let ptr = format!("/reaction_windows/{w}/uses/{i}");
            if let Some(bit) = cx.index_of(e, &ptr, s.as_str(), slots, "action slot of `action_slots:`") {
                mask |= 1 << bit;
            }
        }
        out.push(mask);
    }
    out
}

/// The turn's order: the draw deck or a pooled turn, one of them.
pub(crate) fn turn(cx: &mut Cx, e: &Entry, ruleset: &f::Ruleset) -> cav_rules::compile::TurnSequence {
    use cav_rules::compile::TurnSequence;
    match (&ruleset.draw_deck, &ruleset.turn_order) {
        (Some(deck), None) => TurnSequence::DrawDeck(deck.clone()),
        (None, Some(order)) => TurnSequence::Pooled(order.clone()),
        (deck, order) => {
            let both = deck.is_some() && order.is_some();
            cx.error(
                e,
                "",
                "turn-order",
                if both {
                    "the ruleset gives both a draw deck and a `turn_order`: the turn can follow only one".into()
                } else {
                    "the ruleset says nothing of how a turn orders its activations".into()
                },
                "either `draw_deck: {per_side, per_unit}` or `turn_order: {scheme, pool}`",
                None,
            );
            TurnSequence::DrawDeck(deck.clone().unwrap_or(f::DrawDeckRules { per_side: 0, per_unit: 1 }))
        }
    }
}

pub(crate) fn procedures(
    cx: &mut Cx,
    e: &Entry,
    ruleset: &f::Ruleset,
    names: &Names,
    band_ids: &[String],
    terrains: &[TerrainDef],
) -> Proc {
    let p = &ruleset.procedures;
    let terrain_ids: Vec<String> = terrains.iter().map(|t| t.id.clone()).collect();
    let state = |cx: &mut Cx, ptr: &str, id: &f::Id| {
        cx.index_of(e, ptr, id.as_str(), &names.states, "model state").unwrap_or(0) as u16
    };
    let pilot_fail_state =
        p.damage.pilot_fail_state.as_ref().map(|s| state(cx, "/procedures/damage/pilot_fail_state", s));
    let prone_state = p.damage.prone_state.as_ref().map(|s| state(cx, "/procedures/damage/prone_state", s));
    let out_of_ammo_die =
        p.rolls.out_of_ammo_die.as_deref().map(|d| cx.dice(e, "/procedures/rolls/out_of_ammo_die", d));
    let wreck_terrain = p.damage.wreck_terrain.as_ref().map(|t| {
        cx.index_of(e, "/procedures/damage/wreck_terrain", t.as_str(), &terrain_ids, "terrain type").unwrap_or(0)
    });
    let reverse_cost = reverse_cost(cx, e, p, &terrain_ids);
    let defensive_fire_max_band = p.defensive_fire.as_ref().and_then(|d| {
        cx.index_of(e, "/procedures/defensive_fire/max_band", d.max_band.as_str(), band_ids, "range band")
    });
    let overwatch = p.overwatch.as_ref().map(|o| Overwatch {
        refire_cost: o.refire_cost,
        state: o.state.as_ref().map(|id| state(cx, "/procedures/overwatch/state", id)),
    });
    let mixed_weapons_out_of_range = p.mixed_weapons.as_ref().and_then(|m| {
        cx.index_of(
            e,
            "/procedures/mixed_weapons/out_of_range_band",
            m.out_of_range_band.as_str(),
            band_ids,
            "range band",
        )
    });
    let transport = transport(cx, e, p, names);
    let flight = flight(cx, e, p, &terrain_ids);
    let dig_in = dig_in(cx, e, p, &terrain_ids);
    let ms = p.movement_states.clone().unwrap_or_default();
    let fast_state = ms
        .fast
        .as_ref()
        .map(|f| (state(cx, "/procedures/movement_states/fast/state", &f.state), f.inches, f.any_move.clone()));
    let still_state =
        ms.still.as_ref().map(|s| (state(cx, "/procedures/movement_states/still/state", &s.state), s.except.clone()));
    let model_types = model_types(ruleset);
    let mv = &p.movement;
    Proc {
        rolls: Rolls {
            // (Resolved with the roll kinds: `engine_rolls`.)
            kind: None,
            ten_plus_kind: None,
            ten_plus_rolls: p.rolls.ten_plus_rolls.clone(),
            out_of_ammo_die,
            out_of_ammo_empties: p.rolls.out_of_ammo_empties,
            out_of_ammo_step: p.rolls.out_of_ammo_step,
            // (Read only for an NA RAV, which `lib.rs` allows only with `na_rav` given.)
            na_rav: p.rolls.na_rav.unwrap_or(0),
            opposed: p.rolls.opposed,
        },
        movement: Movement {
            free_turn_degrees: mv.free_turn_degrees,
            extra_turn_cost: mv.extra_turn_cost,
            minimum_move: mv.minimum_move,
            stand_up_cost: mv.stand_up_cost,
            open_ground_cost: mv.open_ground_cost,
            combined_terrain_extra: mv.combined_terrain_extra,
            // (Read only for road terrain, which `required.rs` allows only with `road_cost` given.)
            road_cost: mv.road_cost.unwrap_or(0),
            road_bonus: mv.road_bonus,
            reverse_open: mv.reverse_open_cost,
            reverse_cost,
            reverse_other: mv.reverse_cost_other,
            contact_distance: mv.contact_distance,
            enemy_clearance: mv.enemy_clearance,
        },
        sight: p.sight.clone(),
        fire_over: fire_over(cx, e, p, names, terrains),
        damage: Damage {
            pilot_check_tp: p.damage.pilot_check_tp.map(|v| v as i32),
            pilot_fumble_damage: p.damage.pilot_fumble_damage,
            pilot_fail_state,
            prone_state,
            wreck_terrain,
            wreck_minimum_radius: p.damage.wreck_minimum_radius,
            dispersed: p.damage.dispersed,
            mission_kill: p.damage.mission_kill.clone(),
            out_of_action: p.damage.out_of_action.clone(),
            unit_pool: p.damage.unit_pool.as_ref().map(|u| UnitPool {
                allocation: u.allocation,
                in_sight_only: u.in_sight_only,
                // (The recovery test's roll kind and attribute: `recovery`, once they are compiled.)
                leftover: u
                    .leftover
                    .as_ref()
                    .map(|l| (state(cx, "/procedures/damage/unit_pool/leftover/state", &l.state), None)),
            }),
        },
        repair: p.repair.clone(),
        setup: setup(cx, e, p, names, ruleset),
        run_n_gun: p.run_n_gun.clone(),
        defensive_fire: p
            .defensive_fire
            .as_ref()
            .zip(defensive_fire_max_band)
            .map(|(d, max_band)| DefensiveFire { max_band, drops_bonuses: d.drops_bonuses }),
        counter_battery: p.counter_battery.as_ref().and_then(|c| {
            let sa =
                cx.index_of(e, "/procedures/counter_battery/sa", c.sa.as_str(), &names.sas, "special attribute")?;
            Some((sa as SaIx, c.within))
        }),
        close_defense: close_defense(cx, e, p, names),
        overwatch,
        close_combat: p.close_combat.clone(),
        break_away: p.break_away.clone(),
        mixed_weapons_out_of_range,
        multiple_targets: p.multiple_targets,
        transport,
        towing: p.towing.clone(),
        salvo: p.salvo,
        flight,
        dig_in,
        charge: p.charge,
        strike_point_tp: p.strike_packages.map(|s| s.strike_point_tp),
        regroup: p.regroup.clone(),
        coherency: p.coherency.as_ref().map(|c| Coherency {
            chain: c.chain,
            spread_moves: c.spread_moves,
            left_behind: (c.left_behind.iter().enumerate())
                .map(|(i, s)| state(cx, &format!("/procedures/coherency/left_behind/{i}"), s))
                .collect(),
        }),
        stomp: p.stomp.clone(),
        structure_movement: p.structure_movement.clone(),
        structure_attacks: p.structure_attacks.as_ref().map(|s| {
            let ptr = "/procedures/structure_attacks/collapse_terrain";
            let t = cx.index_of(e, ptr, s.collapse_terrain.as_str(), &terrain_ids, "terrain type").unwrap_or(0);
            (s.clone(), t)
        }),
        fast_state,
        still_state,
        model_types,
    }
}

/// `movement.reverse_cost`, by terrain index.
fn reverse_cost(cx: &mut Cx, e: &Entry, p: &f::Procedures, terrain_ids: &[String]) -> BTreeMap<usize, u32> {
    let mut reverse_cost = BTreeMap::new();
    for (id, v) in &p.movement.reverse_cost {
        let ptr = format!("/procedures/movement/reverse_cost/{id}");
        if let Some(i) = cx.index_of(e, &ptr, id.as_str(), terrain_ids, "terrain type") {
            reverse_cost.insert(i, *v);
        }
    }
    reverse_cost
}

/// The `transport` section, its special attributes resolved.
fn transport(cx: &mut Cx, e: &Entry, p: &f::Procedures, names: &Names) -> Option<Transport> {
    p.transport.as_ref().map(|t| {
        let sa = |cx: &mut Cx, ptr: &str, id: &f::Id| {
            cx.index_of(e, ptr, id.as_str(), &names.sas, "special attribute").unwrap_or(0) as u16
        };
        Transport {
            sa: sa(cx, "/procedures/transport/sa", &t.sa),
            slots_per_rider: t.slots_per_rider,
            heavy: t
                .heavy
                .iter()
                .enumerate()
                .map(|(i, h)| (sa(cx, &format!("/procedures/transport/heavy/{i}/sa"), &h.sa), h.slots))
                .collect(),
            carriers: t
                .carriers
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let riders = c.riders.iter().filter_map(|(ty, n)| Some((cx.type_ix(ty)?, *n))).collect();
                    (sa(cx, &format!("/procedures/transport/carriers/{i}/sa"), &c.sa), c.slots_per_level, riders)
                })
                .collect(),
        }
    })
}

/// The `flight` section, its landing fields resolved.
fn flight(cx: &mut Cx, e: &Entry, p: &f::Procedures, terrain_ids: &[String]) -> Option<Flight> {
    p.flight.as_ref().map(|fl| Flight {
        noe_extra_cost: fl.noe_extra_cost,
        noe_exposed_within: fl.noe_exposed_within,
        noe_ends_with: fl.noe_ends_with.clone(),
        landing_fields: (fl.landing_fields.iter().enumerate())
            .filter_map(|(i, t)| {
                cx.index_of(
                    e,
                    format_args!("/procedures/flight/landing_fields/{i}"),
                    t.as_str(),
                    terrain_ids,
                    "terrain type",
                )
            })
            .collect(),
    })
}

/// The `dig_in` section: its cover, and the terrain it cannot be done in.
fn dig_in(cx: &mut Cx, e: &Entry, p: &f::Procedures, terrain_ids: &[String]) -> Option<(f::Cover, Vec<usize>)> {
    p.dig_in.as_ref().map(|d| {
        let not_on = (d.not_on.iter().enumerate())
            .filter_map(|(i, t)| {
                cx.index_of(e, format_args!("/procedures/dig_in/not_on/{i}"), t.as_str(), terrain_ids, "terrain type")
            })
            .collect();
        (d.cover, not_on)
    })
}

/// Each model type the ruleset declares, in `TypeIx` order (`Cx::types`).
fn model_types(ruleset: &f::Ruleset) -> Vec<ModelTypeDef> {
    (ruleset.model_types.iter())
        .map(|(ty, m)| ModelTypeDef {
            name: ty.0.clone(),
            traits: Traits::of(&m.traits),
            height: m.height,
            base_size: m.base_size,
            torso_twist: m.torso_twist,
        })
        .collect()
}

/// `sight.fire_over`, each way of firing over terrain with its special attribute and terrain resolved.
fn fire_over(cx: &mut Cx, e: &Entry, p: &f::Procedures, names: &Names, terrains: &[TerrainDef]) -> Vec<FireOverDef> {
    p.sight
        .fire_over
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let named =
                usize::from(f.sa.is_some()) + usize::from(!f.weapons.is_empty()) + usize::from(!f.terrain.is_empty());
            if named != 1 {
                cx.error(
                    e,
                    &format!("/procedures/sight/fire_over/{i}"),
                    "fire-over",
                    "a way of firing over terrain names who may use it: a special attribute, weapons or the \
                     terrain they stand in, one of them"
                        .into(),
                    "one of `sa`, `weapons` or `terrain`",
                    None,
                );
            }
            FireOverDef {
                sa: f.sa.as_ref().and_then(|sa| {
                    cx.index_of(
                        e,
                        format_args!("/procedures/sight/fire_over/{i}/sa"),
                        sa.as_str(),
                        &names.sas,
                        "special attribute",
                    )
                    .map(|ix| ix as SaIx)
                }),
                weapons: f.weapons.iter().map(|w| w.as_str().to_owned()).collect(),
                // Unknown terrain ids are dangling references the loader reported.
                terrain: f.terrain.iter().filter_map(|t| terrains.iter().position(|x| x.id == t.as_str())).collect(),
                model_types: cx.type_ixs(&f.model_types),
                within: f.within,
                max_elevation: f.max_elevation,
                counts_as: f.counts_as,
                snapshot: f.snapshot,
            }
        })
        .collect()
}

/// The `setup` section, its orbital drop's upgrade checked.
fn setup(cx: &mut Cx, e: &Entry, p: &f::Procedures, names: &Names, ruleset: &f::Ruleset) -> f::SetupRules {
    // The random-terrain table places features of this size: without it, none would be placed.
    if ruleset.tables.contains_key(&f::TableRole::RandomTerrain) && p.setup.terrain_feature_size.is_none() {
        cx.error(
            e,
            "/procedures/setup",
            "missing-field",
            "the ruleset has a random-terrain table, but no `terrain_feature_size` for the features it places".into(),
            "`procedures.setup.terrain_feature_size` (inches)",
            None,
        );
    }
    if let Some(d) = &p.setup.orbital_drop {
        cx.index_of(e, "/procedures/setup/orbital_drop/upgrade", d.upgrade.as_str(), &names.upgrades, "upgrade");
    }
    p.setup.clone()
}

/// The `close_defense` reaction, as a mount its special attribute's cards are armed with.
fn close_defense(
    cx: &mut Cx,
    e: &Entry,
    p: &f::Procedures,
    names: &Names,
) -> Option<cav_rules::compile::CloseDefenseDef> {
    p.close_defense.as_ref().and_then(|c| {
        let sa = cx.index_of(e, "/procedures/close_defense/sa", c.sa.as_str(), &names.sas, "special attribute")?;
        let sas = c
            .special_attributes
            .iter()
            .filter_map(|r| {
                let ix = names.sas.iter().position(|x| x == r.id().as_str())?;
                Some((ix as SaIx, r.rating().or(r.uses().map(|u| u as i32)).unwrap_or(1)))
            })
            .collect();
        Some(cav_rules::compile::CloseDefenseDef {
            sa: sa as SaIx,
            against: c.against,
            reach: c.reach,
            cost: c.cost,
            mount: cav_rules::compile::MountDef {
                weapon: format!("close-defense:{}", c.sa),
                class: c.sa.0.clone(),
                name: c.sa.0.clone(),
                quantity: 1,
                range: c.reach,
                rav: vec![(c.rav.hard, c.rav.soft)],
                sas,
                indirect: true,
                reaction: true,
                fixed_tp: Some(c.tp as i32),
                guided_strike: None,
                combat_rolls: 1,
                ..Default::default()
            },
        })
    })
}

/// AP cost of each action type, by id (an action the packs give no type costs 1).
pub(crate) fn action_costs(rs: &Ruleset) -> BTreeMap<String, u32> {
    rs.of_kind(DocKind::ActionType)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::ActionType(a)) => Some((e.id.clone(), a.cost)),
            _ => None,
        })
        .collect()
}

/// The ruleset's own action types (`does:`): the engine action each is taken as, how its moves
/// go and the state it gives. What only such a type may say, said of an engine word, is an error.
pub(crate) fn own_actions(
    cx: &mut Cx,
    states: &[cav_rules::compile::StateDef],
    attributes: &[String],
    weapon_attributes: &[String],
    has_charge: bool,
) -> Vec<cav_rules::compile::OwnAction> {
    let state_ids: Vec<String> = states.iter().map(|s| s.id.clone()).collect();
    let mut out = Vec::new();
    let docs: Vec<_> = cx.rs.of_kind(DocKind::ActionType).cloned().collect();
    for e in &docs {
        let Some(Document::ActionType(a)) = e.doc.as_deref() else { continue };
        let Some(does) = a.does else {
            let said = [
                ("/move_times", a.move_times.is_some()),
                ("/avoids_cover", a.avoids_cover),
                ("/gives", a.gives.is_some()),
                ("/attack_rolls", !a.attack_rolls.is_empty()),
                ("/recovers", a.recovers),
                ("/charges", a.charges),
                ("/returns_slain", a.returns_slain),
                ("/needs_terrain_value", a.needs_terrain_value.is_some()),
            ];
            for (ptr, _) in said.iter().filter(|(_, s)| *s) {
                cx.error(
                    e,
                    ptr,
                    "action-type",
                    format!("`{}` is said only of a ruleset's own action type", &ptr[1..]),
                    "an action type with `does:` (a word of its own, a kind of an engine action)",
                    None,
                );
            }
            continue;
        };
        // Every own action type has its place (the `action-<id>` condition counts on it); one
        // the engine cannot take (a word recognised but not implemented, warned) keeps its word.
        let kind = cav_rules::game::actions::ALL.iter().find(|k| k.id() == does).map_or(does.id(), |k| k.name());
        // A charge is the engine's kind of move aimed at an enemy.
        let kind = match (a.charges, does) {
            (true, cav_format::vocab::ActionKind::Move) if !has_charge => {
                let expected = "a `procedures.charge` section in the ruleset";
                cx.error(e, "/charges", "action-type", "the ruleset has no charge".into(), expected, None);
                kind
            }
            (true, cav_format::vocab::ActionKind::Move) => "charge",
            (true, _) => {
                cx.error(e, "/charges", "action-type", "only a move charges".into(), "`does: move`", None);
                kind
            }
            (false, _) => kind,
        };
        let gives = a.gives.as_ref().and_then(|s| cx.index_of(e, "/gives", s.as_str(), &state_ids, "model state"));
        let value_names = cav_content::vocabulary::terrain_values(cx.rs);
        let needs = a.needs_terrain_value.as_ref().and_then(|v| {
            cx.index_of(e, "/needs_terrain_value", v.as_str(), &value_names, "terrain value (`terrain_values:`)")
        });
        let (attack_rolls, _) = sum_terms(cx, e, "/attack_rolls", &a.attack_rolls, attributes, weapon_attributes);
        out.push(cav_rules::compile::OwnAction {
            id: e.id.clone(),
            name: a.name.clone(),
            kind,
            move_times: a.move_times.unwrap_or(1.0),
            avoids_cover: a.avoids_cover,
            gives: gives.map(|ix| ix as cav_rules::compile::StateIx),
            attack_rolls,
            recovers: a.recovers,
            returns_slain: a.returns_slain,
            needs_terrain_value: needs.map(|ix| ix as u16),
        });
    }
    out
}

/// The model types that may take each action type and be aimed at by it, for the action types
/// that limit either.
pub(crate) fn action_model_types(cx: &Cx, sas: &[SaDef]) -> std::collections::BTreeMap<String, ActionTypes> {
    cx.rs
        .of_kind(DocKind::ActionType)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::ActionType(a))
                if !a.model_types.is_empty()
                    || !a.target_model_types.is_empty()
                    || a.one_target_per_unit
                    || a.not_if_targeted =>
            {
                // Unknown ids are dangling references the loader reported.
                // An upgrade's effects ride on its own special attribute, `upgrade:<id>`.
                let open = a.open_with.iter().filter_map(|w| sas.iter().position(|s| s.id == format!("upgrade:{w}")));
                Some((
                    e.id.clone(),
                    ActionTypes {
                        by: cx.type_ixs(&a.model_types),
                        open_with: open.map(|i| i as SaIx).collect(),
                        at: cx.type_ixs(&a.target_model_types),
                        one_target: a.one_target_per_unit,
                        not_if_targeted: a.not_if_targeted,
                    },
                ))
            }
            _ => None,
        })
        .collect()
}

/// The special attributes that make each action type free (`free_with`), by action id.
pub(crate) fn action_free_with(rs: &Ruleset, sas: &[SaDef]) -> BTreeMap<String, Vec<SaIx>> {
    rs.of_kind(DocKind::ActionType)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::ActionType(a)) if !a.free_with.is_empty() => {
                // Unknown SA ids are dangling references the loader reported.
                let ix = a.free_with.iter().filter_map(|w| sas.iter().position(|s| s.id == w.as_str()));
                Some((e.id.clone(), ix.map(|i| i as SaIx).collect()))
            }
            _ => None,
        })
        .collect()
}

/// The engine's options, typed, from the readings the ruleset chose. (The loader's vocabulary pass
/// has checked that an engine option offers only values the engine knows, and warned about every
/// other option.)
pub(crate) fn engine_options(ruleset: &f::Ruleset) -> EngineOptions {
    let mut engine = EngineOptions::default();
    for o in &ruleset.options {
        engine.set(o.id.as_str(), o.default.as_str());
    }
    engine
}

/// A second declaration of `id` among a ruleset's `what`s (the list item at `ptr`): an error,
/// and `true` so the caller skips it.
pub(crate) fn twice(cx: &mut Cx, entry: &Entry, ptr: &str, what: &str, id: &str, declared_before: bool) -> bool {
    if declared_before {
        cx.error(
            entry,
            &format!("{ptr}/id"),
            "duplicate-id",
            format!("{what} `{id}` is declared twice"),
            &format!("one declaration per {what}"),
            None,
        );
    }
    declared_before
}

/// The ruleset's roll kinds and contests: each kind's dice parsed (its odds are worked out when
/// first asked for); a contest names a kind of the list.
pub(crate) fn roll_kinds(cx: &mut Cx, entry: &Entry, ruleset: &f::Ruleset) -> (Vec<RollRule>, Vec<ContestRule>) {
    let mut kinds: Vec<RollRule> = Vec::new();
    for (i, k) in ruleset.roll_kinds.iter().enumerate() {
        let ptr = format!("/roll_kinds/{i}");
        if twice(cx, entry, &ptr, "roll kind", &k.id.0, kinds.iter().any(|x| x.id == k.id.0)) {
            continue;
        }
        for (j, n) in k.natural.iter().enumerate() {
            if n.at_least.is_none() && n.at_most.is_none() && n.equal.is_none() {
                cx.error(
                    entry,
                    &format!("{ptr}/natural/{j}"),
                    "roll-kind",
                    "this natural result names no result: it would decide every roll".into(),
                    "`at_least`, `at_most` or `equal`",
                    None,
                );
            }
        }
        // A word that would change nothing for this kind is an error, not a quiet no-op.
        if k.beyond_reach == f::BeyondReach::MaxThenRollAgain && k.succeeds == f::RollDirection::AtMost {
            cx.error(
                entry,
                &format!("{ptr}/beyond_reach"),
                "roll-kind",
                "`beyond_reach` applies to rolls that must reach a target (`succeeds: at_least`)".into(),
                "no `beyond_reach` on an `at_most` roll",
                None,
            );
        }
        let dice = cx.dice(entry, &format!("{ptr}/dice"), &k.dice);
        let critical = k.critical.as_ref().map(|c| {
            let bonus = c.bonus.as_deref().map(|b| cx.dice(entry, &format!("{ptr}/critical/bonus"), b));
            // Dice added to a result that must stay under its target, or to a roll whose highest
            // face asks for a second roll, would mean nothing clear: an error, not a guess.
            if bonus.is_some()
                && (k.succeeds == f::RollDirection::AtMost || k.beyond_reach != f::BeyondReach::Impossible)
            {
                cx.error(
                    entry,
                    &format!("{ptr}/critical/bonus"),
                    "roll-kind",
                    "a critical's bonus dice add to a result that must reach its target: not to an `at_most` roll, \
                     nor with `beyond_reach: max_then_roll_again`"
                        .into(),
                    "no `bonus`, or `succeeds: at_least` without `beyond_reach`",
                    None,
                );
            }
            // A critical above what the dice can show would never come: a word with no effect.
            if i64::from(c.at_least) > i64::from(dice.natural_max()) {
                cx.error(
                    entry,
                    &format!("{ptr}/critical/at_least"),
                    "roll-kind",
                    format!("a critical from {} up: `{}` shows at most {}", c.at_least, k.dice, dice.natural_max()),
                    &format!("a natural result `{}` can show", k.dice),
                    None,
                );
            }
            Critical { at_least: c.at_least, bonus, floor: Critical::floor(dice, &k.natural, c.at_least) }
        });
        kinds.push(RollRule {
            id: k.id.0.clone(),
            dice,
            succeeds: k.succeeds,
            natural: k.natural.clone(),
            critical_on_target: k.critical_on_target,
            critical,
            beyond_reach: k.beyond_reach,
            odds: Default::default(),
            bonus_odds: Default::default(),
        });
    }
    let mut contests: Vec<ContestRule> = Vec::new();
    for (i, c) in ruleset.contests.iter().enumerate() {
        let ptr = format!("/contests/{i}");
        if twice(cx, entry, &ptr, "contest", &c.id.0, contests.iter().any(|x| x.id == c.id.0)) {
            continue;
        }
        if c.critical_wins && c.compare != f::ContestCompare::BestSuccess {
            cx.error(
                entry,
                &format!("{ptr}/critical_wins"),
                "contest",
                "`critical_wins` counts only when successes are compared (`compare: best_success`)".into(),
                "no `critical_wins`, or `compare: best_success`",
                None,
            );
        }
        let ids: Vec<String> = kinds.iter().map(|k| k.id.clone()).collect();
        let Some(roll) =
            cx.index_of(entry, format_args!("{ptr}/roll"), &c.roll.0, &ids, "a roll kind of `roll_kinds:`")
        else {
            continue;
        };
        contests.push(ContestRule {
            id: c.id.0.clone(),
            roll,
            compare: c.compare,
            ties: c.ties,
            critical_wins: c.critical_wins,
        });
    }
    (kinds, contests)
}

/// The roll kinds judging the engine's rolls (`procedures.rolls.kind`, `ten_plus_kind`): named
/// in `roll_kinds:`, rolling the standard dice, reaching target points (`at_least`).
pub(crate) fn engine_rolls(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    standard: cav_rules::DiceExpr,
    kinds: &[RollRule],
    proc: &mut Proc,
) {
    let p = &ruleset.procedures.rolls;
    let ids: Vec<String> = kinds.iter().map(|k| k.id.clone()).collect();
    let mut resolve = |key: &str, id: &Option<f::Id>| {
        let ptr = format!("/procedures/rolls/{key}");
        let i = cx.index_of(entry, &ptr, id.as_ref()?.as_str(), &ids, "a roll kind of `roll_kinds:`")?;
        let kind = &kinds[i];
        // What the engine's judgement does not read is an error, not a quiet no-op.
        let unread = [
            (kind.beyond_reach != f::BeyondReach::Impossible, "beyond_reach"),
            (kind.critical_on_target, "critical_on_target"),
        ];
        for (_, word) in unread.iter().filter(|(set, _)| *set) {
            cx.error(
                entry,
                &ptr,
                "roll-kind",
                format!("roll kind `{}` judges the engine's rolls, which do not read its `{word}`", kind.id),
                "a roll kind with natural rows and a `critical:` only",
                None,
            );
        }
        if kind.dice != standard || kind.succeeds != f::RollDirection::AtLeast {
            cx.error(
                entry,
                &ptr,
                "roll-kind",
                format!(
                    "roll kind `{}` judges the engine's rolls, which add modifiers to the standard dice to reach a \
                     target point, but it rolls `{}` {}",
                    kind.id,
                    kind.dice.label(),
                    if kind.succeeds == f::RollDirection::AtMost {
                        "at most its target"
                    } else {
                        "at least its target"
                    },
                ),
                &format!("a roll kind of `{}` that `succeeds: at_least`", standard.label()),
                None,
            );
        }
        Some(i)
    };
    proc.rolls.kind = resolve("kind", &p.kind);
    proc.rolls.ten_plus_kind = resolve("ten_plus_kind", &p.ten_plus_kind);
    if !p.ten_plus_rolls.is_empty() && p.ten_plus_kind.is_none() {
        cx.error(
            entry,
            "/procedures/rolls",
            "missing-field",
            "`ten_plus_rolls` names 10+ rolls, but no `ten_plus_kind` says how they are judged".into(),
            "`procedures.rolls.ten_plus_kind`: a roll kind with a natural row that always succeeds",
            None,
        );
    }
}

/// The ruleset's attack by roll kinds (`procedures.attack`): its roll kinds, contest and
/// attributes resolved; a name the ruleset does not declare is an error at its place.
/// The recovery test of a unit pool's leftover state: its roll kind and attribute by index.
pub(crate) fn recovery(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    kinds: &[RollRule],
    attributes: &[String],
    proc: &mut Proc,
) {
    let Some(r) = ruleset.procedures.damage.unit_pool.as_ref().and_then(|u| u.leftover.as_ref()?.recovery.as_ref())
    else {
        // An action that makes the recovery test needs one.
        let docs: Vec<_> = cx.rs.of_kind(DocKind::ActionType).cloned().collect();
        for e in &docs {
            if let Some(Document::ActionType(a)) = e.doc.as_deref()
                && a.recovers
                && a.does.is_some()
            {
                cx.error(
                    e,
                    "/recovers",
                    "action-type",
                    "the action makes the unit pool's recovery test, but the ruleset has none".into(),
                    "`procedures.damage.unit_pool.leftover.recovery` in the ruleset",
                    None,
                );
            }
        }
        return;
    };
    let base = "/procedures/damage/unit_pool/leftover/recovery";
    let kind_ids: Vec<String> = kinds.iter().map(|k| k.id.clone()).collect();
    let kind =
        cx.index_of(entry, format_args!("{base}/roll"), r.roll.as_str(), &kind_ids, "roll kind of `roll_kinds:`");
    let attribute = cx.index_of(
        entry,
        format_args!("{base}/attribute"),
        r.attribute.as_str(),
        attributes,
        "attribute of `attributes:`",
    );
    if let (Some(kind), Some(attribute), Some(pool)) = (kind, attribute, proc.damage.unit_pool.as_mut())
        && let Some((_, recovery)) = pool.leftover.as_mut()
    {
        *recovery = Some(RecoveryDef { kind, attribute, success: r.success });
    }
}

/// One roll of an attack (`r`, at `ptr`), its target's terms resolved already: its roll kind
/// and bounds.
#[allow(clippy::too_many_arguments)]
fn attack_roll(
    cx: &mut Cx,
    entry: &Entry,
    ptr: &str,
    r: &f::AttackRoll,
    kind_ids: &[String],
    target: Vec<Term>,
    names: &Names,
) -> Option<AttackRollRule> {
    let kind = cx.index_of(entry, format_args!("{ptr}/roll"), &r.roll.0, kind_ids, "roll kind of `roll_kinds:`");
    if let (Some(lo), Some(hi)) = (r.min, r.max)
        && lo > hi
    {
        cx.error(entry, &format!("{ptr}/min"), "attack", format!("min {lo} is above max {hi}"), "min ≤ max", None);
    }
    let bounds = r.bounds.iter().map(|b| (names.cond(b.condition.as_str()), b.min, b.max)).collect();
    Some(AttackRollRule { kind: kind?, target, min: r.min, max: r.max, bounds })
}

/// Close combat by roll kinds (`procedures.melee`), its ids resolved; `None` where absent or
/// in error (each error reported where it is written).
pub(crate) fn melee(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    kinds: &[RollRule],
    attributes: &[String],
    weapon_attributes: &[String],
    names: &Names,
) -> Option<cav_rules::compile::MeleeProc> {
    let m = ruleset.procedures.melee.as_ref()?;
    let base = "/procedures/melee";
    let kind_ids: Vec<String> = kinds.iter().map(|k| k.id.clone()).collect();
    let mut ok = true;
    let mut terms = |cx: &mut Cx, field: &str, list: &[f::Term]| {
        let (out, fine) = sum_terms(cx, entry, &format!("{base}/{field}"), list, attributes, weapon_attributes);
        ok &= fine;
        out
    };
    let attacks = terms(cx, "attacks", &m.attacks);
    let unarmed = terms(cx, "unarmed", &m.unarmed);
    let force = terms(cx, "force", &m.force);
    let target = terms(cx, "hit/target", &m.hit.target);
    let hit = attack_roll(cx, entry, &format!("{base}/hit"), &m.hit, &kind_ids, target, names);
    let hit = hit.filter(|_| ok)?;
    Some(cav_rules::compile::MeleeProc { reach: m.reach, hit, attacks, unarmed, force })
}

/// A sum of terms (`{of, attribute, times}` or `{value}`) with its attribute ids resolved, and
/// whether every term was well formed (an error is reported at each one that is not).
pub(crate) fn sum_terms(
    cx: &mut Cx,
    entry: &Entry,
    ptr: &str,
    list: &[f::Term],
    attributes: &[String],
    weapon_attributes: &[String],
) -> (Vec<Term>, bool) {
    let mut ok = true;
    let mut out = Vec::with_capacity(list.len());
    for (i, t) in list.iter().enumerate() {
        let at = format!("{ptr}/{i}");
        let term = match (t.of, &t.attribute, t.value) {
            (None, None, Some(v)) => Some(Term::Value(v.saturating_mul(t.times))),
            (Some(f::TermOf::Weapon), Some(id), None) if cx.rav.as_deref() == Some(id.as_str()) => {
                cx.error(
                    entry,
                    &format!("{at}/attribute"),
                    "attack",
                    format!("weapon attribute `{id}` is the RAV (`role: rav`), read by the damage against armour"),
                    "a weapon attribute without a role",
                    None,
                );
                None
            }
            (Some(of), Some(id), None) => {
                let (ids, what) = match of {
                    f::TermOf::Weapon => (weapon_attributes, "weapon attribute of `weapon_attributes:`"),
                    _ => (attributes, "attribute of `attributes:`"),
                };
                cx.index_of(entry, format_args!("{at}/attribute"), &id.0, ids, what).map(|ix| match of {
                    f::TermOf::Attacker => Term::Attacker(ix, t.times),
                    f::TermOf::Target => Term::Target(ix, t.times),
                    f::TermOf::Weapon => Term::Weapon(ix, t.times),
                })
            }
            _ => {
                cx.error(
                    entry,
                    &at,
                    "attack",
                    "a term is an attribute (`of` and `attribute`) or a plain `value`, not both or neither".into(),
                    "`{of: attacker|target|weapon, attribute: <id>}` or `{value: <n>}`",
                    None,
                );
                None
            }
        };
        match term {
            Some(t) => out.push(t),
            None => ok = false,
        }
    }
    (out, ok)
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn attack(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    kinds: &[RollRule],
    contests: &[ContestRule],
    attributes: &[String],
    weapon_attributes: &[String],
    names: &Names,
) -> Option<AttackProc> {
    let a = ruleset.procedures.attack.as_ref()?;
    let base = "/procedures/attack";
    let kind_ids: Vec<String> = kinds.iter().map(|k| k.id.clone()).collect();
    let mut ok = true;
    let mut terms = |cx: &mut Cx, ptr: &str, list: &[f::Term]| -> Vec<Term> {
        let (out, fine) = sum_terms(cx, entry, ptr, list, attributes, weapon_attributes);
        ok &= fine;
        out
    };
    let rolls = terms(cx, &format!("{base}/rolls"), &a.rolls);
    let reaction_rolls = terms(cx, &format!("{base}/reaction_rolls"), &a.reaction_rolls);
    let points = terms(cx, &format!("{base}/points"), &a.points);
    let mut roll = |cx: &mut Cx, ptr: &str, r: &f::AttackRoll| -> Option<AttackRollRule> {
        let target = terms(cx, &format!("{ptr}/target"), &r.target);
        attack_roll(cx, entry, ptr, r, &kind_ids, target, names)
    };
    let hit = roll(cx, &format!("{base}/hit"), &a.hit);
    let damage = match &a.damage {
        Some(d) => roll(cx, &format!("{base}/damage"), &d.roll)
            .map(|roll| Some(DamageRollRule { roll, by: d.by, deals_on: d.deals_on })),
        None => Some(None),
    };
    let damage_table = a.damage_table.as_ref().and_then(|d| {
        let ptr = format!("{base}/damage_table");
        let margin_times = terms(cx, &format!("{ptr}/margin_times"), &d.margin_times);
        let per = terms(cx, &format!("{ptr}/per"), &d.per);
        // A damage table stands for the damage roll and the points: both would be ignored.
        for (field, given) in [("damage", a.damage.is_some()), ("points", !a.points.is_empty())] {
            if given {
                cx.error(
                    entry,
                    &format!("{base}/{field}"),
                    "attack",
                    format!("`{field}` with a `damage_table`: each standing hit's table row is what it deals"),
                    "either a `damage_table`, or `damage`/`points`",
                    None,
                );
            }
        }
        let Some(Document::Table(t)) = cx.rs.get(DocKind::Table, &d.table.0).and_then(|t| t.doc.as_deref()) else {
            // (A table that is not there is a dangling reference the loader reported.)
            cx.fail_quietly();
            return None;
        };
        if t.key != f::LookupKey::AttackDamage {
            cx.error(
                entry,
                &format!("{ptr}/table"),
                "attack",
                format!("table `{}` is not keyed by what a hit deals", d.table),
                "a table with `key: attack_damage`",
                None,
            );
            return None;
        }
        let table = crate::tables::table_ix(cx, &d.table.0);
        Some(cav_rules::compile::DamageTableRule { table, margin_times, per })
    });
    let opposed = match &a.opposed {
        Some(o) => {
            let ids: Vec<String> = contests.iter().map(|c| c.id.clone()).collect();
            let c = cx.index_of(
                entry,
                format_args!("{base}/opposed/contest"),
                &o.contest.0,
                &ids,
                "contest of `contests:`",
            );
            let mut answers = Vec::with_capacity(o.answers.len());
            for (i, ans) in o.answers.iter().enumerate() {
                let ptr = format!("{base}/opposed/answers/{i}");
                if o.answers[..i].iter().any(|x| x.id == ans.id) {
                    cx.error(
                        entry,
                        &format!("{ptr}/id"),
                        "attack",
                        format!("answer `{}` is named twice", ans.id),
                        "each answer's id once",
                        None,
                    );
                }
                let kind = match (ans.shoots, ans.target.is_empty()) {
                    (false, false) => Some(AnswerKind::Roll(terms(cx, &format!("{ptr}/target"), &ans.target))),
                    (true, true) => Some(AnswerKind::Shoots),
                    _ => {
                        cx.error(
                            entry,
                            &ptr,
                            "attack",
                            "an answer is a roll (`target`) or an attack back (`shoots`), one of them".into(),
                            "`target: [<terms>]` or `shoots: true`",
                            None,
                        );
                        None
                    }
                };
                if ans.turns && ans.shoots {
                    cx.error(
                        entry,
                        &format!("{ptr}/turns"),
                        "attack",
                        format!("answer `{}` turns on a standing roll, but it is an attack back", ans.id),
                        "`turns` on an answer with a `target` roll",
                        None,
                    );
                }
                if let Some(kind) = kind {
                    let (attacker_seen, turns) = (ans.attacker_seen, ans.turns);
                    answers.push(AnswerRule {
                        id: ans.id.0.clone(),
                        name: ans.name.clone(),
                        kind,
                        attacker_seen,
                        turns,
                    });
                }
            }
            // The acting model's one roll meets every reaction's attack: it may read only its own
            // attributes (`target`: the answering model), the same against each attacker.
            if o.acting_answer_cost.is_some() {
                for (i, ans) in o.answers.iter().enumerate() {
                    for (k, t) in ans.target.iter().enumerate() {
                        if matches!(t.of, Some(f::TermOf::Attacker | f::TermOf::Weapon)) {
                            cx.error(
                                entry,
                                &format!("{base}/opposed/answers/{i}/target/{k}/of"),
                                "attack",
                                "with `acting_answer_cost` an answer's roll is met by many attackers: it may read only the answering model's attributes".into(),
                                "`of: target` or a `value`",
                                None,
                            );
                        }
                    }
                }
            }
            if o.acting_answer_cost.is_some() && !answers.iter().any(|a| matches!(a.kind, AnswerKind::Roll(_))) {
                cx.error(
                    entry,
                    &format!("{base}/opposed/acting_answer_cost"),
                    "attack",
                    "the acting model answers reactions with a roll that only opposes, and no answer is one".into(),
                    "an answer with `target:` (a Dodge)",
                    None,
                );
            }
            let window = match &o.window {
                Some(w) => {
                    let ptr = format!("{base}/opposed/window");
                    let ids: Vec<String> = ruleset.reaction_windows.iter().map(|x| x.id.0.clone()).collect();
                    let ix = cx.index_of(entry, &ptr, &w.0, &ids, "reaction window of `reaction_windows:`");
                    match ix {
                        Some(ix) if ruleset.reaction_windows[ix].cost != f::rules::ReactionCost::Free => {
                            cx.error(
                                entry,
                                &ptr,
                                "attack",
                                format!("window `{w}` has a cost: an answer taken in it would not pay it"),
                                "a window with `cost: free`",
                                None,
                            );
                            None
                        }
                        ix => ix.map(Some),
                    }
                }
                None => Some(None),
            };
            match (c, window) {
                (Some(contest), Some(window)) if answers.len() == o.answers.len() => {
                    Some(Some(Opposed { contest, answers, window, acting_answer_cost: o.acting_answer_cost }))
                }
                _ => None,
            }
        }
        None => Some(None),
    };
    let (hit, damage, opposed) = (hit?, damage?, opposed?);
    ok.then_some(AttackProc {
        rolls,
        reaction_rolls,
        hit,
        opposed,
        damage,
        critical_hits_deal: a.critical_hits_deal,
        points,
        damage_table,
    })
}
