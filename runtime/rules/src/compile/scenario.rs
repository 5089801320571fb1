//! Compiled scenarios: forces placed, objectives, the rescue's operative, salvage containers.

use super::*;

/// A model a scenario places: card, position (or in its zone), facing (or towards the centre).
/// A model a scenario places: its card, where, its facing, and the unit it serves in.
pub type Placed = (usize, Option<[f64; 2]>, Option<f64>, Option<String>);

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ScenarioDef {
    pub id: String,
    pub name: String,
    pub board: [f64; 2],
    pub sides: Vec<(String, f::Rect)>,
    /// Per side: a share of its models that deploys inside an area (percent).
    pub within: Vec<Option<(f::BoardArea, u32)>>,
    /// Per side: how it deploys.
    pub methods: Vec<f::DeploymentMethod>,
    /// Per side index: the models the scenario places.
    pub forces: Vec<(usize, Vec<Placed>)>,
    pub terrain_features: Option<DiceExpr>,
    /// The scenario's own turn limit, replacing the ruleset's.
    pub turn_limit: Option<u32>,
    /// A game length rolled at the start, replacing the turn limit.
    pub turn_dice: Option<DiceExpr>,
    pub victory: f::VictoryKind,
    /// Terrain the scenario places: (terrain, centre, radius).
    pub terrain: Vec<(usize, [f64; 2], f64)>,
    /// Terrain the scenario places on a hex board: (terrain, the hexes it fills).
    pub hex_terrain: Vec<(usize, Vec<super::Hex>)>,
    pub objectives: Option<ObjectiveDef>,
    /// Its rules (`f::Scenario::rules`): special attributes with `applies_to: scenario`.
    pub rules: Vec<SaIx>,
}

impl ScenarioDef {
    /// Why the scenario's victory kind cannot be played as written, if it cannot: the game then
    /// ends with the last side standing or at the turn limit by surviving TV.
    pub fn unplayed_victory(&self) -> Option<&'static str> {
        match self.victory {
            f::VictoryKind::ObjectivePoints if self.objectives.is_none() => {
                Some("its objectives are not given as areas (`objectives:`), so nothing scores points")
            }
            f::VictoryKind::HoldObjective if self.objectives.as_ref().is_none_or(|o| o.holder.is_none()) => {
                Some("no area and holder are given (`objectives:` with `holder:`)")
            }
            f::VictoryKind::DestroyedTv if self.objectives.as_ref().is_none_or(|o| o.destroyer.is_none()) => {
                Some("no side is named to destroy (`objectives:` with `destroyer:`)")
            }
            f::VictoryKind::Rescue if self.objectives.as_ref().is_none_or(|o| o.hvo.is_none()) => {
                Some("no high-value operative is given (`objectives:` with `hvo:`)")
            }
            f::VictoryKind::ExitModels if self.objectives.as_ref().is_none_or(|o| o.exits.is_empty()) => {
                Some("no exit edge is given (`objectives:` with `exits:`)")
            }
            _ => None,
        }
    }
}

/// A scenario's scored areas, sides resolved to indices.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ObjectiveDef {
    pub areas: Vec<f::BoardArea>,
    pub neutral: Vec<f::BoardArea>,
    pub holder: Option<usize>,
    pub from_turn: u32,
    pub points: u32,
    /// `destroyed_tv`: the side that must destroy its own starting TV.
    pub destroyer: Option<usize>,
    /// (side, edge) pairs a side may leave the table across, scoring.
    pub exits: Vec<(usize, f::BoardEdge)>,
    pub count_destroyed: bool,
    /// `rescue`: the HVO, its rescuer side resolved.
    pub hvo: Option<HvoDef>,
    /// Salvage containers, their die parsed.
    pub containers: Option<ContainersDef>,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct HvoDef {
    pub at: [f64; 2],
    pub radius: f64,
    pub rescuer: usize,
    pub edge: f::BoardEdge,
    pub others_after_moved: bool,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ContainersDef {
    pub at: Vec<[f64; 2]>,
    pub die: DiceExpr,
    pub from_turn: u32,
    pub active_max: u32,
    pub radius: f64,
    pub activations: u32,
    pub models: u32,
    pub points: u32,
}
