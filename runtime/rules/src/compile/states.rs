//! Compiled states (disrupted, immobilised, …): what each forbids, changes and how long it lasts.

use super::*;

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct StateDef {
    pub id: String,
    pub name: String,
    /// How the narrative says a model enters it (`is knocked down`).
    pub narrative: Option<String>,
    pub duration: f::StateDuration,
    /// The groups it belongs to, by index among the ruleset's state groups (the
    /// `attacker-in-<group>` condition's argument).
    pub groups: Vec<u16>,
    pub activations: u32,
    pub turns: u32,
    pub own_roll_modifier: i32,
    pub attacker_modifier: i32,
    pub move_value: i32,
    /// Action points gained or lost in each activation while it lasts.
    pub action_points: i32,
    pub no_actions: bool,
    pub no_combat: bool,
    pub no_move: bool,
    pub no_advance: bool,
    /// Actions a model in it may not take.
    pub forbids: Vec<f::vocab::ActionKind>,
    /// A TAG's paint (`Game::painted`).
    pub painted: bool,
    pub supersedes: Vec<StateIx>,
    pub immune: Vec<TypeIx>,
    /// Terrain laid behind the model as it moves (`f::ModelState::trail`): the strip's width is
    /// `strip.1`, its length each leg's.
    pub trail: Option<LeavesDef>,
}

impl StateDef {
    /// Bounded by turns (`until_end_of_turn`, `turns`): a model's state slot then holds the turn
    /// at whose end it ends, not an activation count.
    pub fn by_turns(&self) -> bool {
        matches!(self.duration, f::StateDuration::UntilEndOfTurn | f::StateDuration::Turns)
    }
}
