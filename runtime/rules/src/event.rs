//! Events: the single record of a game. The narrative, replays and statistics are views of it.

use serde::Serialize;

use crate::geom::P;

/// One situation modifier as applied to a roll: where it came from and its value (in the
/// normalised convention: positive helps the roller).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModApplied {
    pub source: String,
    pub value: i32,
    /// A single-use upgrade's effect (its entry in `Rules::sas`): the roll that takes it spends
    /// one of the roller's purchases (`Model::charges_used`).
    #[serde(skip)]
    pub charge: Option<u16>,
}

/// One change to a hit's margin of success, RAV or AV, or to the result it reads the damage table
/// by (`to`: `MoS`, `RAV`, `AV`, `result`), and its source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HitChange {
    pub to: &'static str,
    pub source: String,
    pub value: i32,
}

/// A dice roll with everything that went into it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Roll {
    pub model: usize,
    /// What the roll is for: `combat`, `strike-point`, `secondary-combat`, `pilot-check`, `repair`,
    /// `state-test`, `out-of-ammo`, `critical`, `drift`, `critical-bonus`; a script's roll is
    /// named by its script (`ctx.roll`).
    pub kind: std::borrow::Cow<'static, str>,
    /// The dice rolled (`DiceExpr::label`).
    pub dice: std::borrow::Cow<'static, str>,
    pub natural: Vec<u32>,
    pub mods: Vec<ModApplied>,
    pub total: i32,
    pub target: Option<i32>,
    pub margin: Option<i32>,
    pub success: Option<bool>,
    /// `success` or `fumble` when the natural total is critical.
    pub critical: Option<&'static str>,
}

// (The tests list every variant, `EventDiscriminants`, so one missing from the declared event
// kinds cannot go unseen: `testing::tests::event_kinds_match_the_engine`.)
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(strum::EnumDiscriminants), strum_discriminants(derive(strum::EnumIter)))]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    GameStart {
        ruleset: String,
        scenario: String,
        seed: Option<u64>,
        board: [f64; 2],
        /// A hex board's orientation (`flat`, `pointy`) and hex size across the flats, for what
        /// draws it (the replay viewer); left out on a continuous board.
        #[serde(skip_serializing_if = "Option::is_none")]
        hexes: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        hex_size: Option<f64>,
    },
    TerrainPlaced {
        terrain: String,
        center: P,
        radius: f64,
    },
    Deployed {
        model: usize,
        name: String,
        side: String,
        at: P,
        facing: f64,
    },
    TurnStart {
        turn: u32,
    },
    ObjectiveScored {
        side: String,
        points: u32,
        areas: u32,
    },
    C3Spent {
        side: String,
        model: usize,
        what: String,
        left: u32,
    },
    SquadActivation {
        squad: String,
        side: String,
        models: u32,
    },
    DamageShared {
        hit: usize,
        model: usize,
        points: u32,
    },
    ActivationPassed {
        side: String,
    },
    HeldDamage {
        unit: String,
        points: i32,
        held: u32,
    },
    /// A model ended its unit's activation out of coherency; `lost`: removed as slain for it.
    OutOfCoherency {
        model: usize,
        lost: bool,
    },
    /// A model takes one of the ruleset's own action types (`does:`), by its name (`RUN`).
    ActionTaken {
        model: usize,
        action: String,
    },
    /// The target of an attack answers it as it is declared (`procedures.attack.opposed`): with
    /// a roll, or with a shot back by `weapon`.
    Answered {
        model: usize,
        target: usize,
        answer: String,
        weapon: Option<String>,
    },
    /// Two units in close combat (`procedures.melee`) have rolled: each side's hits. `model`
    /// and `target` are a model of each unit (the first two found in reach).
    Melee {
        model: usize,
        target: usize,
        hits: u32,
        target_hits: u32,
    },
    Opposed {
        model: usize,
        target: usize,
        contest: String,
        standing: u32,
        theirs_standing: u32,
    },
    DamagePoints {
        model: usize,
        target: usize,
        rolls: u32,
        hits: u32,
        dealing: u32,
        damage: u32,
    },
    Reacted {
        model: usize,
        target: usize,
        window: String,
        action: &'static str,
    },
    PoolFilled {
        side: String,
        pool: String,
        points: u32,
    },
    PoolSpent {
        side: String,
        model: usize,
        pool: String,
        left: u32,
    },
    Activation {
        model: usize,
        ap: u32,
    },
    Moved {
        model: usize,
        from: P,
        to: P,
        mv_spent: u32,
        facing: f64,
    },
    StoodUp {
        model: usize,
    },
    /// A model turned on the spot to face another (an answer that turns: Change Facing).
    Turned {
        model: usize,
        /// Facing afterwards, in degrees.
        facing: f64,
        /// The model it faces.
        toward: usize,
    },
    WentProne {
        model: usize,
    },
    TargetLock {
        model: usize,
        target: usize,
    },
    /// A squad mate's target-lock passed on to the model (EST).
    LockShared {
        model: usize,
        from: usize,
        target: usize,
    },
    Overwatch {
        model: usize,
    },
    /// A model rose over low terrain for a snapshot (Pop-Up): open to over-watch fire.
    PoppedUp {
        model: usize,
    },
    OverwatchFire {
        model: usize,
        target: usize,
    },
    DefensiveFire {
        model: usize,
        target: usize,
    },
    CloseCombat {
        model: usize,
        target: usize,
        supporters: u32,
    },
    Attack {
        model: usize,
        target: usize,
        weapon: String,
        mode: &'static str,
        distance: f64,
        band: Option<String>,
    },
    /// A model takes the Special action its special attribute grants.
    SpecialAction {
        model: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        target: Option<usize>,
    },
    /// A script's handler forbade what the model declared or was about to do (`what`: the
    /// action or moment: `target-lock`, `move`, `reaction`, `draw`), or a limit of the engine
    /// refused it (`terrain`: a piece past the cap of laid terrain).
    Forbidden {
        model: usize,
        what: &'static str,
        reason: String,
    },
    NoAttack {
        model: usize,
        /// None: an indirect attack at a point.
        target: Option<usize>,
        weapon: String,
        reason: String,
    },
    Roll(Roll),
    StrikePoint {
        model: usize,
        at: P,
    },
    /// An indirect attack's strike point is declared: where, at what range and band (before its
    /// strike-point roll).
    Aimed {
        model: usize,
        /// None: a point with no model aimed at.
        target: Option<usize>,
        weapon: String,
        at: P,
        distance: f64,
        band: String,
    },
    /// A model answers an enemy's artillery at once (counter-battery fire).
    CounterBattery {
        model: usize,
        target: usize,
    },
    /// A model attacked from close quarters strikes first (`procedures.close_defense`).
    CloseDefense {
        model: usize,
        target: usize,
    },
    AssetUsed {
        side: String,
        asset: String,
        /// What it did, in words.
        detail: String,
        /// How many of it the side holds still.
        left: u32,
    },
    StrikeCalled {
        model: usize,
        strike: String,
        at: P,
        cost: u32,
        pool_left: u32,
    },
    Drift {
        model: usize,
        from: P,
        to: P,
        inches: f64,
    },
    Hit {
        model: usize,
        target: usize,
        weapon: String,
        margin: i32,
        rav: i32,
        av: i32,
        penetrated: bool,
        /// What changed the margin, the RAV or the AV from the roll's margin and the cards'
        /// values, with its source (the narrative's "why"); empty when nothing did.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        changes: Vec<HitChange>,
    },
    DamageResult {
        target: usize,
        row: String,
        damage: u32,
    },
    OutOfAmmo {
        model: usize,
        weapon: String,
        saved_by_reserve: bool,
    },
    DamageApplied {
        model: usize,
        points: u32,
        column: usize,
        total: u32,
    },
    StateGained {
        model: usize,
        state: String,
    },
    StateEnded {
        model: usize,
        state: String,
    },
    /// A state the model does not gain: its type is immune to it, or a state it has supersedes
    /// it. Said, so that an effect never vanishes without a word.
    StateIgnored {
        model: usize,
        state: String,
        why: &'static str,
    },
    Critical {
        model: usize,
        result: String,
    },
    /// A script put a marker on the board, or moved it (`ctx.place_marker`): the name of the
    /// special attribute whose script placed it, and the marker's.
    MarkerPlaced {
        source: String,
        id: String,
        at: P,
    },
    /// A script took its marker off the board (`ctx.remove_marker`).
    MarkerRemoved {
        source: String,
        id: String,
    },
    /// A script put a model at a point (`ctx.place_model`).
    Placed {
        model: usize,
        at: P,
    },
    /// A row of a lookup table lands on the model: a damage model's table read by a hit
    /// (`procedures.attack.damage_table`), or a table a row rolls on (`roll_on`, `roll_again`).
    TableResult {
        model: usize,
        table: String,
        key: i32,
        result: String,
    },
    /// A table row changed one of the model's attributes for good (`attributes:` of the row).
    AttributeChanged {
        model: usize,
        attribute: String,
        value: i32,
    },
    /// A table row damaged one of the model's weapons, chosen by a die: a lasting modifier to its
    /// rolls (normalised) or the weapon lost.
    WeaponDamaged {
        model: usize,
        weapon: String,
        modifier: i32,
        lost: bool,
    },
    /// A chain of table rolls reached `MAX_TABLE_ROLLS`: the rolls it still called for are not made.
    TableRollsCut {
        model: usize,
        table: String,
    },
    Repaired {
        model: usize,
        points: u32,
        column: usize,
    },
    MissionKill {
        model: usize,
        reason: String,
    },
    HvoTaken {
        model: usize,
    },
    HvoDropped {
        model: usize,
        at: P,
    },
    Container {
        number: u32,
        what: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    },
    Regrouped {
        squad: String,
        joined: String,
        kind: String,
        models: u32,
    },
    StructureAttack {
        model: usize,
        weapon: String,
        at: P,
        distance: f64,
        band: Option<String>,
    },
    StructureHit {
        at: P,
        damage: u32,
        armor_class: i32,
        damage_points: u32,
    },
    StructureCollapsed {
        at: P,
    },
    StructureWorn {
        at: P,
        armor_class: i32,
    },
    Flight {
        model: usize,
        what: &'static str,
    },
    /// A towed gun packs up (`limbered`) or sets up (`unlimbered`).
    Towing {
        model: usize,
        what: &'static str,
    },
    Mounted {
        model: usize,
        transport: usize,
    },
    Dismounted {
        model: usize,
        transport: usize,
        at: P,
    },
    Abandoned {
        model: usize,
        reason: String,
    },
    Destroyed {
        model: usize,
    },
    /// Damaged past its last column, the model stays on the table out of action.
    OutOfAction {
        model: usize,
    },
    /// A piece of terrain is laid: by a script (`ctx.place_terrain`: a smoke cloud) or where a
    /// shell or strike lands (`MountDef::leaves`). Round (`radius`) or a strip (`length` by
    /// `width`, 0 for a round piece); it lasts `activations` of `model`'s or `turns` (the other 0).
    TerrainLaid {
        model: usize,
        terrain: String,
        at: P,
        radius: f64,
        length: f64,
        width: f64,
        activations: u32,
        turns: u32,
    },
    /// A cloud a shell left (`MountDef::cloud`, the nano-disassemblers'): `laid` where the shell
    /// landed, `drifted` to `at` at a turn's end, or `cleared` by `model`'s attack.
    Cloud {
        model: usize,
        weapon: String,
        at: P,
        radius: f64,
        change: &'static str,
    },
    /// A seeking submunition (`MountDef::seeks`, SADARM's): it `waits` over the point where its
    /// shell landed, `found` the model it attacks, or `fell` (self-destructed) as its firer's next
    /// activation began, or at a turn's end with its firer gone.
    Submunition {
        model: usize,
        weapon: String,
        at: P,
        radius: f64,
        change: &'static str,
    },
    /// A laid piece of terrain is lifted.
    TerrainLifted {
        terrain: String,
        at: P,
    },
    LeftBoard {
        model: usize,
    },
    ActivationEnd {
        model: usize,
    },
    TurnEnd {
        turn: u32,
    },
    GameEnd {
        winner: Option<String>,
        turns: u32,
        reason: String,
    },
    /// An effect a script asked for at a hook point, as the engine applied it: `by` is the model
    /// whose special attribute (`source`) asked; `model` the model it changed.
    ScriptEffect {
        point: &'static str,
        by: usize,
        source: String,
        effect: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        model: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        quantity: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<f64>,
        /// The modifier's label, the forbid's reason, the state or the weapon.
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
    },
    /// A line a script printed (scripts have no other output).
    ScriptPrint {
        model: usize,
        text: String,
    },
}

/// Where events go. Batch runs use a sink that keeps nothing.
pub trait Sink {
    fn enabled(&self) -> bool;
    /// Whether the narrative's words are wanted with the events: the names of what changed a
    /// roll or a hit, a weapon's name in its hit. A sink that keeps events only to read what
    /// happened (exact odds) says no, and the engine builds none of them (they cost an
    /// allocation each); nothing the rules decide reads them.
    fn narrative(&self) -> bool {
        self.enabled()
    }
    fn push(&mut self, e: Event);
    /// How many events it holds (0 for a sink that keeps none).
    fn logged(&self) -> usize {
        0
    }
}

impl Sink for Vec<Event> {
    fn enabled(&self) -> bool {
        true
    }
    fn logged(&self) -> usize {
        Vec::len(self)
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
