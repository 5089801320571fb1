//! `defender-terrain-`: the terrain value (`terrain_values:`) where the defender stands
//! (`Game::terrain_value`), counted while above 0: a hull-down bonus (003 L5-41).

use super::*;

pub static DEFENDER_TERRAIN: Condition = Condition {
    id: "defender-terrain-",
    test: |g, s, arg| s.defender.and_then(|d| g.terrain_value(g.models[d].pos, arg)).unwrap_or(0).max(0),
};
