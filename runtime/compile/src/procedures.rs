//! The typed procedure sections, model types, action costs and options.

use std::collections::HashMap;

use cav_content::Ruleset;
use cav_content::ruleset::Entry;
use cav_format::vocab::EngineOptions;
use cav_format::{self as f, DocKind, Document};
use cav_rules::compile::{MODEL_TYPES, Proc, TerrainDef, Traits};

use crate::Cx;
use crate::conditions::Names;

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
    let pilot_fail_state = state(cx, "/procedures/damage/pilot_fail_state", &p.damage.pilot_fail_state);
    let prone_state = state(cx, "/procedures/damage/prone_state", &p.damage.prone_state);
    let out_of_ammo_die = cx.dice(e, "/procedures/rolls/out_of_ammo_die", &p.rolls.out_of_ammo_die);
    let wreck_terrain = cx
        .index_of(e, "/procedures/damage/wreck_terrain", p.damage.wreck_terrain.as_str(), &terrain_ids, "terrain type")
        .unwrap_or(0);
    let mut reverse_cost = HashMap::new();
    for (id, v) in &p.movement.reverse_cost {
        let ptr = format!("/procedures/movement/reverse_cost/{id}");
        if let Some(i) = cx.index_of(e, &ptr, id.as_str(), &terrain_ids, "terrain type") {
            reverse_cost.insert(i, *v);
        }
    }
    let defensive_fire_max_band = p.defensive_fire.as_ref().and_then(|d| {
        cx.index_of(e, "/procedures/defensive_fire/max_band", d.max_band.as_str(), band_ids, "range band")
    });
    let mut model_height = [None; MODEL_TYPES];
    let mut base_size = [None; MODEL_TYPES];
    let mut torso_twist = [0.0; MODEL_TYPES];
    let mut model_traits = [None; MODEL_TYPES];
    for (ty, m) in &ruleset.model_types {
        let i = *ty as usize;
        model_height[i] = Some(m.height);
        base_size[i] = Some(m.base_size);
        torso_twist[i] = m.torso_twist;
        model_traits[i] = Some(Traits::of(&m.traits));
    }
    Proc {
        pilot_check_tp: p.damage.pilot_check_tp.map(|v| v as i32),
        ten_plus_natural: p.rolls.ten_plus_natural,
        ten_plus_rolls: p.rolls.ten_plus_rolls.clone(),
        repair_tp: p.repair.target_point as i32,
        lingering_damage: p.repair.lingering_damage,
        repair_critical: p.repair.critical_restores,
        repair_fumble_damage: p.repair.fumble_damage,
        repair_restores: p.repair.restores,
        pilot_fumble_damage: p.damage.pilot_fumble_damage,
        pilot_fail_state,
        free_turn_degrees: p.movement.free_turn_degrees,
        extra_turn_cost: p.movement.extra_turn_cost,
        minimum_move: p.movement.minimum_move,
        open_ground_cost: p.movement.open_ground_cost,
        combined_terrain_extra: p.movement.combined_terrain_extra,
        road_cost: p.movement.road_cost,
        road_bonus: p.movement.road_bonus,
        adjacent_cover: p.sight.adjacent_cover,
        model_height,
        base_size,
        prone_height: p.sight.prone_height,
        prone_state,
        out_of_ammo_die,
        na_rav: p.rolls.na_rav,
        terrain_feature_size: p.setup.terrain_feature_size,
        wreck_terrain,
        wreck_minimum_radius: p.damage.wreck_minimum_radius,
        arc_half_width: p.sight.arc_half_width,
        torso_twist,
        model_traits,
        run_n_gun: p.run_n_gun.as_ref().map(|r| (r.mv_penalty, r.low_mv, r.low_mv_penalty)),
        defensive_fire_max_band,
        defensive_fire_drops_bonuses: p.defensive_fire.as_ref().is_some_and(|d| d.drops_bonuses),
        close_combat_max_attackers: p.close_combat.max_attackers,
        break_tp: p.break_away.as_ref().map(|b| b.target_point as i32),
        break_move_factor: p.break_away.as_ref().map_or(0.0, |b| b.move_factor),
        break_minimum_move: p.break_away.as_ref().map_or(0, |b| b.minimum_move),
        overwatch_refire_cost: p.overwatch.as_ref().map(|o| o.refire_cost),
        contact_distance: p.movement.contact_distance,
        reverse_open: p.movement.reverse_open_cost,
        reverse_cost,
        reverse_other: p.movement.reverse_cost_other,
    }
}

/// AP cost of each action type, by id (an action the packs give no type costs 1).
pub(crate) fn action_costs(rs: &Ruleset) -> HashMap<String, u32> {
    rs.of_kind(DocKind::ActionType)
        .filter_map(|e| match &e.doc {
            Some(Document::ActionType(a)) => Some((e.id.clone(), a.cost)),
            _ => None,
        })
        .collect()
}

/// The chosen reading of every option, and the engine's options typed. (The loader's vocabulary
/// pass has checked that an engine option offers only values the engine knows.)
pub(crate) fn options(ruleset: &f::Ruleset) -> (HashMap<String, String>, EngineOptions) {
    let mut engine = EngineOptions::default();
    let mut all = HashMap::new();
    for o in &ruleset.options {
        engine.set(o.id.as_str(), o.default.as_str());
        all.insert(o.id.0.clone(), o.default.0.clone());
    }
    (all, engine)
}
