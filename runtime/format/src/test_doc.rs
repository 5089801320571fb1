//! Scenario tests: a board, models, forced dice, forced actions, and what must follow.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Id, Note};
use crate::rules::Cover;

/// A terrain area of a test board: a circle (`at` + `radius`) or a polygon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestTerrain {
    /// A terrain document; or give `asset`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Option<Id>,
    /// A battlefield asset placed as the terrain piece it names (`terrain:` of the asset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub asset: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Corner points in inches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polygon: Vec<[f64; 2]>,
    /// Hex boards: the hexes it fills, `[column, row]` (instead of `at` or `polygon`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = crate::limits::MAX_PLACED_HEXES))]
    pub hexes: Vec<[i32; 2]>,
    /// The side that laid a minefield (`mines:` of the asset): its models pass safely.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Id>,
}

/// A model placed by a test, with the state it starts in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestModel {
    /// Name the test uses for this model.
    pub id: Id,
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    /// Upgrades fitted to it (as a roster gives them): its card, TV and special attributes change
    /// as `cav show MODEL --with UPGRADE` shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<crate::force::ForceUpgrade>,
    pub side: Id,
    /// Where, in inches; on a hex board give `hex` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    /// Hex boards: the hex it stands in, `[column, row]` as `cav map` labels it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<[i32; 2]>,
    /// Degrees, 0 = towards +y, clockwise.
    #[serde(default)]
    pub facing: f64,
    /// Damage points already taken (the damage-track column follows from it).
    #[serde(default)]
    pub damage: u32,
    /// Name of its squad: models of one side giving the same name form a squad (squad-mates'
    /// special attributes, squad activation). Without it a model is a squad of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squad: Option<Id>,
    /// Model states it starts with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub states: Vec<Id>,
    #[serde(default)]
    pub prone: bool,
    /// Test id of the model it holds a target-lock on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Id>,
    /// An aircraft that starts on the ground (landed in an earlier turn).
    #[serde(default, skip_serializing_if = "is_false")]
    pub landed: bool,
    /// Test id of a friendly transport it starts riding in (boarded in an earlier turn; its `at`
    /// is then not used on the table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<Id>,
    /// Test ids of enemy models it is already in close combat with (from an earlier assault):
    /// both it and they start engaged, so leaving needs the break action. They must be in base
    /// contact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engaged_with: Vec<Id>,
    /// It starts on over-watch (declared in an earlier activation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub overwatch: bool,
    /// Weapon mounts (0 = first on the card) that are already out of ammo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out_of_ammo: Vec<usize>,
    /// Ammo-bin (reserve) uses it has left; without this key, as many as its card gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo_reserve: Option<u32>,
    /// It has already activated this turn (so, for one, it may not use defensive fire).
    #[serde(default, skip_serializing_if = "is_false")]
    pub activated: bool,
    /// Held back in ambush (`setup.ambush`): off the table until it activates, when it is
    /// placed (`choices.ambush_at`, or the engine's choice); `at` is where it waits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ambush: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One step of a test, in order. A step with `do:` is an action (consecutive actions of one model
/// form one activation; `end` closes it early; `next-turn` ends the turn and starts the next).
/// A step without `do:` is a `check:` of the state at that point.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestStep {
    /// Test id of the model that acts (not given for `next-turn` and check steps).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Id>,
    /// `squad-activation`: the squad (a `squad:` of the test's models) whose activation begins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squad: Option<Id>,
    /// The action's name as the engine lists it (`move`, `reverse`, `stand-up`, `go-prone`,
    /// `target-lock`, `fire`, `salvo`, `run-n-gun`, `close-combat`, `break`, `overwatch`,
    /// `repair`), `end` to close the activation early, `next-turn` to end the turn and start
    /// the next (the engine's own turn code: marks that last a turn expire, every model may
    /// activate again), or `play-turn` to end the turn and play the next as a game does (the
    /// draw deck shuffled with the test's dice, one die per card after the first; each card
    /// activates its side's next model, which passes), then start the one after.
    /// `squad-activation` (with `squad:`) begins a squad's activation: the steps of its models
    /// that follow are its models' activations, and what their attacks do lands when it ends —
    /// at `end-squad-activation`, at the next `squad-activation`, turn step, or the test's end.
    #[serde(rename = "do", default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Id>,
    /// Where the action goes (`move`, `call-strike`, …); for `fire` with `indirect: true` and no
    /// `target`, the strike point on the board the indirect weapons are aimed at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<[f64; 2]>,
    /// Hex boards: the hex the action goes to, `[column, row]` (instead of `to`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_hex: Option<[i32; 2]>,
    /// `move`: corners of one move action's path before `to` (a facing change at each; only the
    /// first is free).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<[f64; 2]>,
    /// `move-and-shoot`, `run-n-gun`: the point of the path to `to` where the attack is made (the
    /// model completes its move after it). `call-strike`:
    /// the direction a strike's strip (a smoke screen) is laid in, as a point it runs towards
    /// from the final strike point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Id>,
    /// Indexes of the model's weapon mounts (0 = first on the card).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<usize>,
    /// Split fire (`fire` only, where the ruleset has `procedures.multiple_targets`): further
    /// targets of the same combat action, each with its own weapon mounts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<TestSplit>,
    /// Indirect fire (`fire`, `run-n-gun`, …): at the `target`'s place, or (`fire`) at the point
    /// `to` with no model aimed at.
    #[serde(default, skip_serializing_if = "is_false")]
    pub indirect: bool,
    /// `move` (or `reverse`, `shift`): this many Move actions taken as one continuous move, with
    /// their action points, their MV and their free facing changes together (2: the whole
    /// activation's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 9))]
    pub moves: Option<u32>,
    /// `move`: fly nap of the earth (an aircraft in flight; the move spends its whole MV).
    #[serde(default, skip_serializing_if = "is_false")]
    pub noe: bool,
    /// Spend a C3 point to inspire the action's first target-point roll (the force needs a point:
    /// the test's `c3:`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub inspire: bool,
    /// `special`: the option the Special action is declared with (Smoke: `cloud` or `line`), one
    /// a special attribute of the model offers (`special_options`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<Id>,
    /// `call-strike`: the strike (id) the model calls in, at `to` or at `target`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "strike"))]
    pub strike: Option<Id>,
    /// Action points the model must have left once this action has resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_left: Option<u32>,
    /// The rules must refuse this declaration with a reason containing this text; nothing of it
    /// happens and the model's next step is declared in its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Events that must not occur during this step: from the moment its action is declared to
    /// the declaration of the model's next action, or the end of its activation after its last
    /// (damage and pilot checks landing then count); for `next-turn` and `play-turn`, the turn's
    /// end and the next one's start. Matched like `expect.absent`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<ExpectedEvent>,
    /// The state at this point (test id → expected state, as in `expect.models`). On an action
    /// step, or on a step of its own after one, it is checked before the model's next action of
    /// the same activation; after the last action of an activation, once the activation has
    /// ended (damage, pilot checks and states land at the end of an activation).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub check: BTreeMap<Id, TestModelState>,
}

/// One further target of a split combat action.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestSplit {
    /// Test id of the target.
    pub target: Id,
    /// Indexes of the weapon mounts that fire at it.
    pub weapons: Vec<usize>,
}

/// What the engine works out between this model and another one (all keys optional; the ones
/// given must match).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestAgainst {
    /// Test id of the other model.
    pub model: Id,
    /// The weapon mount (0 = first on the card) that `band`, `rav` and `in_arc` are about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<usize>,
    /// Distance base edge to base edge, in inches (to 0.01).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// Whether their bases touch (within the ruleset's `movement.contact_distance`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_contact: Option<bool>,
    /// Whether they are adjacent: bases within the ruleset's adjacent distance
    /// (`sight.adjacent_cover`, 1" in both CAV rulesets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjacent: Option<bool>,
    /// The weapon's range band at the range as the ruleset measures it (`sight.range_measured`:
    /// edge to edge or centre to centre), by name (`Medium`); `none` beyond the last band.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// The weapon's RAV against that model now (hard or soft, current column, criticals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rav: Option<i32>,
    /// The close-combat value against that model now (hard or soft, current column).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccv: Option<i32>,
    /// Whether the weapon's firing arc covers that model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_arc: Option<bool>,
    /// Whether there is a line of sight to that model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_of_sight: Option<bool>,
    /// The best cover that counts between them (`none`, `light`, `heavy`, `blocking`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
}

/// The expected state of one model: what it has, and values the engine derives from it. Only
/// the keys given are checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestModelState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Exactly these model states (ids), in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub states: Option<Vec<Id>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    /// Hex boards: the hex it stands in, `[column, row]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<[i32; 2]>,
    /// Facing in degrees (0 = towards +y, clockwise), to 0.1°.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_kill: Option<bool>,
    /// Out of action: on the table, never acting again (`procedures.damage.out_of_action`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_action: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prone: Option<bool>,
    /// Test id of the model it holds a target-lock on, or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Id>,
    /// Whether the aircraft is on the ground.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landed: Option<bool>,
    /// Whether the aircraft flies nap of the earth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noe: Option<bool>,
    /// Test id of the transport it rides in, or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aboard: Option<Id>,
    /// Exactly these weapon mounts are out of ammo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_ammo: Option<Vec<usize>>,
    /// Ammo-bin (reserve) uses left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo_reserve: Option<u32>,
    /// Exactly these marks the actions put on models, in any order: `engaged` (in close combat),
    /// `overwatch`, `fired-out-of-turn` (used defensive or over-watch fire this turn),
    /// `failed-break`, `dug-in`, `charged`, `mounted`, `dismounted`, `landed-or-took-off`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<Vec<String>>,
    /// Whether it has activated this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activated: Option<bool>,
    /// The damage-track column in use (0 = undamaged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Move value now (the column's MV with criticals and states, as the engine moves it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<u32>,
    /// Armor value in the current column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub av: Option<u32>,
    /// Damage-control value in the current column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// Its values of the ruleset's attributes now, by id (those named): the card's in its
    /// current column, with what damage tables changed for good.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[schemars(extend("maxProperties" = 64))]
    pub attributes: std::collections::BTreeMap<Id, i32>,
    /// The action points its activations start from (`action_points`, or by an attribute:
    /// `action_points_by`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points: Option<u32>,
    /// Weapon mounts lost (`weapon_lost` of a table row), by index (0 = first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapons_lost: Option<Vec<u32>>,
    /// Total elevation level: the model's own (lower when prone) plus the ground it stands on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elevation: Option<i32>,
    /// The critical-damage effects the model carries, summed over the rows it has suffered
    /// (keys as on the critical damage table's rows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criticals: Option<TestCriticals>,
    /// Values between this model and others: distance, range band, RAV, CCV, arc, sight, cover.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub against: Vec<TestAgainst>,
}

/// Critical-damage effects on a model (all keys optional; the ones given must match).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestCriticals {
    /// Action points added to every activation (−1 per Breeder Damaged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points: Option<i32>,
    /// Action points every activation is set to, or `~` for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points_set: Option<Option<u32>>,
    /// Added to the move value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_value: Option<i32>,
    /// The move value's factor (0.5: half move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_factor: Option<f64>,
    /// Its combat rolls' modifier, in the ruleset's convention (the full rules: +1 to the
    /// target point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_modifier: Option<i32>,
    /// No more combat actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_combat: Option<bool>,
    /// Its weapons' values are zeroed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapons_zeroed: Option<bool>,
}

/// An event the log must (or must not) hold, matched on the keys given. The schema types each
/// item by its `event:` kind (see `event_kinds.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ExpectedEvent(pub serde_json::Value);

impl JsonSchema for ExpectedEvent {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ExpectedEvent".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::Schema::try_from(crate::event_kinds::expected_event_schema()).unwrap_or_default()
    }
}

/// A number of matching events (`expect.count`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountedEvent {
    /// Exactly this many events match.
    pub times: u32,
    /// The event, matched on the keys it gives.
    pub of: ExpectedEvent,
}

/// What must follow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestExpect {
    /// Events that must occur in this order (others may come between). Each is matched on the
    /// keys it gives; `model` and `target` are test ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<ExpectedEvent>,
    /// Events that must not occur anywhere in the log (each matched like an item of `events`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<ExpectedEvent>,
    /// How many events of the log match (as an item of `events`): `{times: 2, of: {event: roll,
    /// kind: combat, model: red}}` — the combat rolls of an action, the hits of a salvo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub count: Vec<CountedEvent>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<Id, TestModelState>,
    /// The run must stop with an error containing this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Every forced die must be used.
    #[serde(default = "yes")]
    pub all_dice_used: bool,
}

fn yes() -> bool {
    true
}

/// When a model on over-watch fires, and with what.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestOverwatch {
    /// Weapon mounts it fires; empty: it lets every mover pass.
    #[serde(default)]
    pub weapons: Vec<usize>,
    /// Stop the mover when its base centre reaches this point (within 0.25": the engine offers
    /// the chance every half inch of a move); without it, at the first chance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
}

/// The choices a model's player makes where the rules give one. A choice given here must come up
/// during the test (a choice the engine never offered fails the test).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestChoices {
    /// Weapon mounts it answers with when attacked before it activated; `[]` declines.
    /// (Takes the place of its `reactions:` entry for defensive fire.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_fire: Option<Vec<usize>>,
    /// On over-watch: whether, where and with what it stops a mover. (Takes the place of its
    /// `reactions:` entry for over-watch.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwatch: Option<TestOverwatch>,
    /// Weapon mounts it answers enemy artillery with when the ruleset offers counter-battery
    /// fire. (Takes the place of its `reactions:` entry for counter-battery fire.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counter_battery: Vec<usize>,
    /// Strikes first with its close-defense reaction (Anti-Infantry,
    /// `procedures.close_defense`) when the engine offers it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub close_defense: bool,
    /// Airborne, aboard an aircraft in flight: as a move of the aircraft ends, it jumps, landing at
    /// the point of the path flown nearest this (its dismount's AP come off its next activation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_at: Option<[f64; 2]>,
    /// As it activates, the missiles it called (a Cruise Missile strike) self-destruct instead of
    /// flying on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_destruct: bool,
    /// Held back in ambush: where it is placed as it activates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambush_at: Option<[f64; 2]>,
    /// As the defender of an indirect attack whose strike-point roll is a critical fumble: where
    /// it moves the strike point: any point on the board in the attacker's front arc, beyond the
    /// weapon's minimum range and within its extreme band (000 L766-770); an illegal point stops
    /// the run with the reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relocate_strike_point: Option<[f64; 2]>,
    /// Optional special attributes (ids) it chooses not to use (SMART's trade, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub decline: Vec<Id>,
    /// C3 uses its force spends a point on when the engine offers them as this model activates
    /// (`rally`, `motivate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spend_c3: Vec<crate::vocab::C3Use>,
    /// As the target of an attack its ruleset lets it answer (`procedures.attack.opposed`): how
    /// it answers. Left out: the first answer it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<TestAnswer>,
    /// In a reaction window of the ruleset that offers the action: what it reacts with, as a
    /// step without `model:` (`{do: run, to: [10, 30]}`; the ruleset's own action words too).
    /// (Takes the place of its `reactions:` entry.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<TestStep>,
}

/// A test model's answer to the attacks on it (`TestChoices::answer`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestAnswer {
    /// The answer's id (of the ruleset's `procedures.attack.opposed.answers`); left out: it lets
    /// every attack be, unanswered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Id>,
    /// The weapon mount an answer that shoots back fires; left out: the first that can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<usize>,
}

impl Test {
    /// Whether the test runs under ruleset `id`: the one it names, or any when it names none.
    pub fn runs_under(&self, id: &str) -> bool {
        self.ruleset.as_ref().is_none_or(|r| r.as_str() == id)
    }
}

/// A scenario test (`cav test`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub id: Id,
    pub name: String,
    /// The ruleset pack id the test runs under. Left out, the test runs under every ruleset its
    /// pack joins (a mod's test that holds under both the Quick-Start and the full rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "ruleset"))]
    pub ruleset: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Honesty about the source, as on any document: the reading a test takes of ambiguous text,
    /// or where the rulebook's own arithmetic is wrong and the test states the correct value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    #[serde(default = "board")]
    pub board: [f64; 2],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TestTerrain>,
    /// The scenario's rules the test plays (special attributes with `applies_to: scenario`), as
    /// a scenario's `rules:`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 16))]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub rules: Vec<Id>,
    pub models: Vec<TestModel>,
    /// Forced die faces, in the order the engine asks for them.
    #[serde(default)]
    pub dice: Vec<u32>,
    /// Drift directions in order, in degrees clockwise from the attacker's facing, whatever the
    /// drift die shows (its face still gives the distance): the books state a drift's direction
    /// apart from the die. Without them the face gives both (a d10's 6 → 216°).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drift_directions: Vec<f64>,
    pub steps: Vec<TestStep>,
    /// C3 points in each side's pool at the start (side → points). Without it, each side's pool
    /// holds the C3 ratings its models carry or their upgrades grant (001 L1290-1300), as a game
    /// from rosters does (tests have no squads, so no squad type's points).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub c3: BTreeMap<Id, u32>,
    /// Points in each side's pool at the start (side → points) where the ruleset's turn is paid
    /// from one (`turn_order.pool`: command points, orders), for steps outside `play-turn` that
    /// spend them (a reaction paid from the pool). Without it the pools are empty until a
    /// `play-turn` fills them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pools: BTreeMap<Id, u32>,
    /// Threat value in each side's strike pools at the start (side → package → TV), for
    /// `call-strike` steps.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub strike_pools: BTreeMap<Id, BTreeMap<crate::StrikePackage, u32>>,
    /// Battlefield assets each side holds off the table (side → asset → how many): SIGINT
    /// cards, recon drones, resupply drops — the assets whose `modifiers:` act from a side's
    /// hand rather than as a terrain piece (those go in `terrain:`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assets: BTreeMap<Id, BTreeMap<Id, u32>>,
    /// Pieces each side holds back with its ambushing models (side → asset ids; the ruleset's
    /// `setup.ambush.pieces`): one is set down under a model of a type that may bring it as the
    /// model is placed from ambush.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ambush_pieces: BTreeMap<Id, Vec<Id>>,
    /// Weapon mounts a model fires when it may react out of turn (defensive fire, over-watch, a
    /// reaction window of the ruleset that offers combat, at the acting model);
    /// models not listed do not react. `choices:` says more (where, declining, …).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reactions: BTreeMap<Id, Vec<usize>>,
    /// The choices each model's player makes where the rules give one (test id → choices).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub choices: BTreeMap<Id, TestChoices>,
    /// The squad type (a ruleset squad type) of squads the models name (`squad:`), for the rules
    /// that follow the type: how many models it holds (regroup) and the special attributes
    /// reserved to a type (Specialist). A squad not listed has no type, and none of those rules
    /// applies to it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub squad_types: BTreeMap<Id, Id>,
    /// Deployment zones by side (`{red: {x: 0, y: 0, width: 48, height: 12}}`), as a scenario's
    /// sides have them: the half of the board nearer a side's zone is that side's half (ambush
    /// placement). Without them the board has no halves.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub zones: BTreeMap<Id, crate::rules::Rect>,
    pub expect: TestExpect,
}

fn board() -> [f64; 2] {
    [48.0, 48.0]
}
