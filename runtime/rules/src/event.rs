//! Events: the single record of a game. The narrative, replays and statistics are views of it.

use serde::Serialize;

use crate::geom::P;

/// One situation modifier as applied to a roll: where it came from and its value (in the
/// normalised convention: positive helps the roller).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModApplied {
    pub source: String,
    pub value: i32,
}

/// A dice roll with everything that went into it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Roll {
    pub unit: usize,
    /// What the roll is for: `combat`, `strike-point`, `secondary-combat`, `pilot-check`, `repair`,
    /// `state-test`, `out-of-ammo`, `critical`, `drift`, `critical-bonus`.
    pub kind: &'static str,
    pub dice: String,
    pub natural: Vec<u32>,
    pub mods: Vec<ModApplied>,
    pub total: i32,
    pub target: Option<i32>,
    pub margin: Option<i32>,
    pub success: Option<bool>,
    /// `success` or `fumble` when the natural total is critical.
    pub critical: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    GameStart {
        ruleset: String,
        scenario: String,
        seed: Option<u64>,
        board: [f64; 2],
    },
    TerrainPlaced {
        terrain: String,
        center: P,
        radius: f64,
    },
    Deployed {
        unit: usize,
        name: String,
        side: String,
        at: P,
        facing: f64,
    },
    TurnStart {
        turn: u32,
    },
    Activation {
        unit: usize,
        ap: u32,
    },
    Moved {
        unit: usize,
        from: P,
        to: P,
        mv_spent: u32,
        facing: f64,
    },
    StoodUp {
        unit: usize,
    },
    WentProne {
        unit: usize,
    },
    TargetLock {
        unit: usize,
        target: usize,
    },
    Overwatch {
        unit: usize,
    },
    OverwatchFire {
        unit: usize,
        target: usize,
    },
    DefensiveFire {
        unit: usize,
        target: usize,
    },
    CloseCombat {
        unit: usize,
        target: usize,
        supporters: u32,
    },
    Attack {
        unit: usize,
        target: usize,
        weapon: String,
        mode: &'static str,
        distance: f64,
        band: Option<String>,
    },
    NoAttack {
        unit: usize,
        target: usize,
        weapon: String,
        reason: String,
    },
    Roll(Roll),
    StrikePoint {
        unit: usize,
        at: P,
    },
    Drift {
        unit: usize,
        from: P,
        to: P,
        inches: f64,
    },
    Hit {
        unit: usize,
        target: usize,
        weapon: String,
        margin: i32,
        rav: i32,
        av: i32,
        penetrated: bool,
    },
    DamageResult {
        target: usize,
        row: String,
        damage: u32,
    },
    OutOfAmmo {
        unit: usize,
        weapon: String,
        saved_by_reserve: bool,
    },
    DamageApplied {
        unit: usize,
        points: u32,
        column: usize,
        total: u32,
    },
    StateGained {
        unit: usize,
        state: String,
    },
    StateEnded {
        unit: usize,
        state: String,
    },
    Critical {
        unit: usize,
        result: String,
    },
    Repaired {
        unit: usize,
        points: u32,
        column: usize,
    },
    MissionKill {
        unit: usize,
        reason: String,
    },
    Destroyed {
        unit: usize,
    },
    LeftBoard {
        unit: usize,
    },
    ActivationEnd {
        unit: usize,
    },
    TurnEnd {
        turn: u32,
    },
    GameEnd {
        winner: Option<String>,
        turns: u32,
        reason: String,
    },
    /// A line a script printed (scripts have no other output).
    ScriptPrint {
        unit: usize,
        text: String,
    },
}

/// Where events go. Batch runs use a sink that keeps nothing.
pub trait Sink {
    fn enabled(&self) -> bool;
    fn push(&mut self, e: Event);
}

impl Sink for Vec<Event> {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, e: Event) {
        Vec::push(self, e);
    }
}

/// Keeps nothing: for benchmarks and simulations.
pub struct NoLog;

impl Sink for NoLog {
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _: Event) {}
}
