//! How a scenario is won: victory kinds and the objectives they score (areas, exits, the
//! high-value operative, salvage containers).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

use super::BoardArea;

/// How a scenario is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VictoryKind {
    /// Last side with models on the table.
    LastStanding,
    /// Higher surviving threat value when the turns run out.
    SurvivingTv,
    /// Hold a terrain objective at the end.
    HoldObjective,
    /// Most objective points.
    ObjectivePoints,
    /// Exit models off a table edge.
    ExitModels,
    /// Keep the commander alive.
    Commander,
    /// One side (`objectives.destroyer`) must destroy enemy models worth its own starting TV.
    DestroyedTv,
    /// One side (`objectives.hvo.rescuer`) must carry the high-value operative off the table
    /// across its edge; every other side wins by stopping it.
    Rescue,
}

/// What a scenario's victory kind scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objectives {
    /// The areas to control or hold. A model controls an area when its base is wholly inside and
    /// no enemy's is; it holds one when its centre is inside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<BoardArea>,
    /// Models touching these count for nothing (No Man's Land, deployment zones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<BoardArea>,
    /// `hold_objective`: the side that must hold the areas to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Id>,
    /// `objective_points`: the first turn at whose end control scores.
    #[serde(default = "one_u32")]
    pub from_turn: u32,
    /// `objective_points`: points the side controlling more areas scores each turn.
    #[serde(default = "one_u32")]
    #[schemars(range(max = 1000))]
    pub points: u32,
    /// `exit_models`: table edges sides score by leaving across (their TV counts). The game ends
    /// when a side has no model left on the table; the higher score wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<ExitEdge>,
    /// `destroyed_tv`: the side that wins if the enemy TV it destroys reaches its own starting TV
    /// (the other side wins otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyer: Option<Id>,
    /// `exit_models`: a side's score also counts the TV of the enemy models it destroyed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count_destroyed: bool,
    /// `rescue`: the high-value operative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hvo: Option<Hvo>,
    /// `objective_points` by salvage: containers that become active and are salvaged for points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<Containers>,
}

/// A figure of neither side that models pick up by base contact and carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hvo {
    /// Where it starts, inches.
    pub at: [f64; 2],
    /// Radius of its base, inches.
    #[schemars(range(min = 0.1, max = 10.0))]
    pub radius: f64,
    /// The side that must carry it home.
    pub rescuer: Id,
    /// The edge it must leave the table by, carried by a model of the rescuer.
    pub edge: BoardEdge,
    /// Other sides may pick it up only once the rescuer has moved it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub others_after_moved: bool,
}

/// Numbered containers (first = 1) that start dormant; from a turn on, a die picks one to
/// become active each turn; a side salvages an active one by staying near it unopposed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Containers {
    /// Where each stands, inches, in number order.
    #[schemars(length(min = 1, max = 100))]
    pub at: Vec<[f64; 2]>,
    /// The roll at the start of a turn that names the container to activate (re-rolled on one
    /// already activated).
    pub die: String,
    /// The first turn whose start rolls.
    #[schemars(range(min = 1))]
    pub from_turn: u32,
    /// Once this many have been activated, the rest leave the table.
    pub active_max: u32,
    /// A model within this distance (centre to container), inches, salvages or contests.
    #[schemars(range(max = 100.0))]
    pub radius: f64,
    /// Activations of its side's models near it, unopposed and uninterrupted, that salvage it.
    #[schemars(range(min = 1, max = 100))]
    pub activations: u32,
    /// Or this many of the side's models near it, unopposed, at the end of one activation.
    #[schemars(range(min = 1, max = 100))]
    pub models: u32,
    /// Objective points a salvaged container is worth (scored when the turn ends).
    #[schemars(range(max = 1000))]
    pub points: u32,
}

/// A side may leave the table across an edge, and scores what leaves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitEdge {
    pub side: Id,
    pub edge: BoardEdge,
}

/// An edge of the board: left is x = 0, right x = width, bottom y = 0, top y = depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardEdge {
    Left,
    Right,
    Bottom,
    Top,
}

fn one_u32() -> u32 {
    1
}
