//! Compile a loaded [`Ruleset`] into [`Rules`]: every table indexed, every condition id resolved
//! to a [`Cond`], every number normalised so a positive modifier always helps the roller. The
//! engine's hot path then needs no string lookups.

use std::collections::HashMap;

use cav_content::Ruleset;
use cav_format::{self as f, DocKind, Document, ModifierConvention, ModifierTarget, TableRole};

use crate::dice::DiceExpr;

pub type StateIx = u16;

/// Number of `ModelType` variants (arrays indexed by model type).
pub const MODEL_TYPES: usize = 7;
pub type SaIx = u16;

/// A condition the engine tests when it sums a roll's modifiers. Ids come from the packs
/// (`condition:` of modifier tables, `when:` of declarative modifiers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    Always,
    PointBlank,
    LightCover,
    HeavyCover,
    SalvoFire,
    RunNGun,
    MultipleTargets,
    DefensiveFire,
    ConsecutiveAttempt,
    LosToStrikePoint,
    /// The attack is in this range band (index into `Rules::bands`).
    Band(u8),
    PrimaryRoll,
    TargetLocked,
    QuadCav,
    CloseCombatSupport,
    FailedBreak,
    AttackerState(StateIx),
    DefenderState(StateIx),
    AttackerSa(SaIx),
    DefenderSa(SaIx),
    /// A condition this engine does not evaluate yet (full-rules only); it never holds.
    Unsupported,
}

/// One compiled situation modifier.
#[derive(Debug, Clone)]
pub struct Mod {
    pub name: String,
    /// Normalised: positive helps the roller.
    pub value: i32,
    pub scale: f::ModifierScale,
    pub max: Option<i32>,
    pub cond: Cond,
    /// Further conditions that must all hold.
    pub also: Vec<Cond>,
}

#[derive(Debug, Clone)]
pub struct Band {
    pub name: String,
    pub multiplier: f64,
    pub combat_tp: i32,
    pub strike_point_tp: i32,
    pub drift_bonus: u32,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub min: i32,
    pub max: Option<i32>,
    pub name: String,
    pub damage: u32,
    pub damage_both: u32,
    /// Normalised pilot-check modifier (positive helps the pilot).
    pub pilot_check: Option<i32>,
    pub states: Vec<StateIx>,
    pub critical: bool,
    pub action_points: i32,
    pub action_points_set: Option<u32>,
    pub move_value: i32,
    pub move_factor: Option<f64>,
    /// Normalised lasting modifier to the model's combat rolls.
    pub combat_modifier: i32,
    pub no_combat: bool,
    pub weapons_zeroed: bool,
    pub destroyed: bool,
    pub result: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct LookupTable {
    pub name: String,
    pub dice: Option<DiceExpr>,
    pub rows: Vec<Row>,
}

impl LookupTable {
    pub fn row(&self, key: i32) -> Option<&Row> {
        self.rows.iter().find(|r| key >= r.min && r.max.is_none_or(|m| key <= m)).or_else(|| {
            // Below the first row: the first row (a table that starts at 0 and a key of 0 or less).
            self.rows.first().filter(|r| key < r.min)
        })
    }
}

#[derive(Debug, Clone)]
pub struct StateDef {
    pub id: String,
    pub name: String,
    pub duration: f::StateDuration,
    pub activations: u32,
    pub own_roll_modifier: i32,
    pub attacker_modifier: i32,
    pub move_value: i32,
    pub no_actions: bool,
    pub no_combat: bool,
    pub no_move: bool,
    pub no_advance: bool,
    pub supersedes: Vec<StateIx>,
    pub immune: Vec<f::ModelType>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cost {
    PerInch(u32),
    RoadBonus,
    No,
}

#[derive(Debug, Clone)]
pub struct TerrainDef {
    pub id: String,
    pub name: String,
    pub cover: f::Cover,
    pub elevation: i32,
    pub raises_ground: bool,
    pub road: bool,
    pub open: bool,
    /// By move-class index.
    pub costs: Vec<Cost>,
    pub climb: Vec<Cost>,
}

/// The declarative effects of one special attribute, rating already applied by the user.
#[derive(Debug, Clone)]
pub struct SaDef {
    pub id: String,
    pub name: String,
    pub effects: Vec<Effect>,
    /// Lua module with the SA's behaviour and the script roots of the pack that defines it.
    pub script: Option<(String, Vec<std::path::PathBuf>)>,
    /// Hook points the SA declares.
    pub hooks: Vec<f::HookPoint>,
}

#[derive(Debug, Clone)]
pub struct Effect {
    pub target: ModifierTarget,
    pub value: i32,
    pub per_rating: bool,
    pub when: Vec<Cond>,
    pub state: Option<StateIx>,
}

/// A weapon as mounted on a card, with its special attributes resolved.
#[derive(Debug, Clone)]
pub struct MountDef {
    pub weapon: String,
    pub name: String,
    pub quantity: u32,
    pub range: f64,
    /// Per damage-track column (hard, soft); `None` = NA.
    pub rav: Vec<(Option<u8>, Option<u8>)>,
    pub sas: Vec<(SaIx, i32)>,
    pub requires_target_lock: bool,
    pub indirect: bool,
    pub min_range: f64,
    pub aoe: f64,
    pub out_of_ammo_on: u32,
    pub crit_shift: i32,
    /// (target point, state) of a state test on targeted models (Shock).
    pub state_test: Option<(i32, StateIx)>,
    pub open_infantry_factor: u32,
    pub cannot_target: Vec<f::TargetClass>,
    /// Mounting locations (decide the firing arc).
    pub mounts: Vec<f::Mount>,
}

#[derive(Debug, Clone)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub model_type: f::ModelType,
    pub move_class: usize,
    pub columns: usize,
    pub mv: Vec<u32>,
    pub av: Vec<u32>,
    pub dc: Vec<Option<i32>>,
    pub exp: Vec<Option<u32>>,
    pub ccv: Vec<(Option<u8>, Option<u8>)>,
    pub weapons: Vec<MountDef>,
    pub sas: Vec<(SaIx, i32)>,
    pub hard: bool,
    pub soft: bool,
    pub ammo_reserve: u32,
    pub base_radius: f64,
    /// Damage-result reduction (Reinforced), normalised to "points off the margin".
    pub damage_result: i32,
    pub tv: u32,
}

/// A model a scenario places: card, position (or in its zone), facing (or towards the centre).
pub type Placed = (usize, Option<[f64; 2]>, Option<f64>);

#[derive(Debug, Clone)]
pub struct ScenarioDef {
    pub id: String,
    pub name: String,
    pub board: [f64; 2],
    pub sides: Vec<(String, f::Rect)>,
    /// Per side index: the models the scenario places.
    pub forces: Vec<(usize, Vec<Placed>)>,
    pub terrain_features: Option<DiceExpr>,
}

/// Numbers of the procedures, all present (the compiler refuses a ruleset that lacks one).
#[derive(Debug, Clone)]
pub struct Proc {
    pub pilot_check_tp: Option<i32>,
    pub ten_plus_natural: u32,
    pub ten_plus_rolls: Vec<f::RollKind>,
    pub repair_tp: i32,
    pub lingering_damage: u32,
    pub repair_critical: u32,
    pub repair_fumble_damage: u32,
    pub pilot_fumble_damage: u32,
    pub pilot_fail_state: StateIx,
    pub free_turn_degrees: f64,
    pub extra_turn_cost: u32,
    pub minimum_move: f64,
    pub adjacent_cover: f64,
    /// Height of a standing model, by `ModelType as usize` (`None` = not given).
    pub model_height: [Option<i32>; MODEL_TYPES],
    pub prone_height: i32,
    pub prone_state: StateIx,
    pub out_of_ammo_die: DiceExpr,
    pub terrain_feature_size: f64,
    pub wreck_terrain: usize,
    pub arc_half_width: f64,
    /// Torso twist in degrees, by `ModelType as usize`.
    pub torso_twist: [f64; MODEL_TYPES],
    /// (MV lost, low-MV threshold, MV lost at or below it); `None` = no run 'n gun.
    pub run_n_gun: Option<(u32, u32, u32)>,
    /// Index of the farthest band defensive fire may reach; `None` = no defensive fire.
    pub defensive_fire_max_band: Option<usize>,
    pub close_combat_max_attackers: Option<u32>,
    pub break_tp: Option<i32>,
    pub break_move_factor: f64,
    pub overwatch_refire_cost: Option<u32>,
    pub contact_distance: f64,
    /// Extra MV per inch backwards: for open ground, by terrain index, and elsewhere (None = barred).
    pub reverse_open: Option<u32>,
    pub reverse_cost: HashMap<usize, u32>,
    pub reverse_other: Option<u32>,
}

/// Everything the engine needs, indexed.
#[derive(Debug, Clone)]
pub struct Rules {
    pub id: String,
    pub name: String,
    pub action_points: u32,
    pub standard: DiceExpr,
    pub drift: DiceExpr,
    pub critical_fumble: u32,
    pub critical_success: u32,
    pub critical_bonus: Option<DiceExpr>,
    pub turn_limit: u32,
    pub point_blank: Option<f64>,
    pub bands: Vec<Band>,
    pub indirect_tp: i32,
    pub combat_mods: Vec<Mod>,
    pub indirect_mods: Vec<Mod>,
    pub strike_point_mods: Vec<Mod>,
    pub pilot_mods: Vec<Mod>,
    pub close_combat_mods: Vec<Mod>,
    pub damage: LookupTable,
    pub close_combat_damage: Option<LookupTable>,
    pub critical: LookupTable,
    pub random_terrain: Option<LookupTable>,
    pub states: Vec<StateDef>,
    pub move_classes: Vec<String>,
    pub terrains: Vec<TerrainDef>,
    pub sas: Vec<SaDef>,
    pub cards: Vec<CardDef>,
    pub scenarios: Vec<ScenarioDef>,
    pub proc: Proc,
    /// Normalisation factor: +1 when the ruleset adds modifiers to the roll, −1 when to the target.
    pub sign: i32,
    /// Condition ids the engine does not evaluate yet, for `cav` to report.
    pub unsupported: Vec<String>,
    pub options: HashMap<String, String>,
    /// AP cost of each action type, by id.
    pub action_costs: HashMap<String, u32>,
    /// The costs the engine asks for on every action, looked up once.
    pub costs: ActionCosts,
    /// Ruleset option `shock-trigger` = `hit`: Shock tests only models it hits (engine options are
    /// named for the rule, not the ruleset, so any ruleset may offer them).
    pub shock_on_hit_only: bool,
    /// Option `ranged-critical` = `no-critical`.
    pub no_ranged_critical: bool,
}

/// AP costs of the actions the engine knows (missing action types cost 1).
#[derive(Debug, Clone, Default)]
pub struct ActionCosts {
    pub move_: u32,
    pub target_lock: u32,
    pub combat: u32,
    pub salvo: u32,
    pub run_n_gun: u32,
    pub close_combat: u32,
    pub break_: u32,
    pub overwatch: u32,
    pub repair: u32,
}

impl Rules {
    pub fn card(&self, id: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.id == id)
    }
    pub fn scenario(&self, id: &str) -> Option<usize> {
        self.scenarios.iter().position(|s| s.id == id)
    }
    pub fn state(&self, id: &str) -> Option<StateIx> {
        self.states.iter().position(|s| s.id == id).map(|i| i as StateIx)
    }
    pub fn terrain(&self, id: &str) -> Option<usize> {
        self.terrains.iter().position(|t| t.id == id)
    }
    pub fn option(&self, id: &str) -> Option<&str> {
        self.options.get(id).map(String::as_str)
    }
}

struct Cx<'a> {
    rs: &'a Ruleset,
    errors: Vec<String>,
    unsupported: Vec<String>,
    state_ids: Vec<String>,
    sa_ids: Vec<String>,
    band_ids: Vec<String>,
}

impl Cx<'_> {
    fn cond(&mut self, id: &str) -> Cond {
        let c = match id {
            "always" => Cond::Always,
            "point-blank" => Cond::PointBlank,
            "light-cover" => Cond::LightCover,
            "heavy-cover" => Cond::HeavyCover,
            "salvo-fire" => Cond::SalvoFire,
            "run-n-gun" => Cond::RunNGun,
            "multiple-targets" => Cond::MultipleTargets,
            "defensive-fire" => Cond::DefensiveFire,
            "consecutive-attempt" => Cond::ConsecutiveAttempt,
            "los-to-strike-point" => Cond::LosToStrikePoint,
            // `long-range`, `extreme-range` (and `band-<id>`): the band with that id in the ruleset.
            "long-range" => self.band("long"),
            "extreme-range" => self.band("extreme"),
            "primary-roll" => Cond::PrimaryRoll,
            "target-locked" => Cond::TargetLocked,
            "quad-cav" => Cond::QuadCav,
            "close-combat-support" => Cond::CloseCombatSupport,
            "failed-break" => Cond::FailedBreak,
            _ => {
                let pick = |prefix: &str, ids: &[String]| {
                    id.strip_prefix(prefix).and_then(|rest| ids.iter().position(|s| s == rest)).map(|i| i as u16)
                };
                if let Some(b) = id.strip_prefix("band-") {
                    self.band(b)
                } else if let Some(s) = pick("defender-sa-", &self.sa_ids) {
                    Cond::DefenderSa(s)
                } else if let Some(s) = pick("sa-", &self.sa_ids) {
                    Cond::AttackerSa(s)
                } else if let Some(s) = pick("attacker-", &self.state_ids) {
                    Cond::AttackerState(s)
                } else if let Some(s) = pick("defender-", &self.state_ids) {
                    Cond::DefenderState(s)
                } else {
                    Cond::Unsupported
                }
            }
        };
        if c == Cond::Unsupported && !self.unsupported.iter().any(|u| u == id) {
            self.unsupported.push(id.to_owned());
        }
        c
    }

    fn band(&self, id: &str) -> Cond {
        self.band_ids.iter().position(|b| b == id).map_or(Cond::Unsupported, |i| Cond::Band(i as u8))
    }

    fn doc<T>(&mut self, kind: DocKind, id: &str, pick: impl Fn(&Document) -> Option<&T>) -> Option<&T>
    where
        T: 'static,
    {
        let rs = self.rs;
        match rs.get(kind, id).and_then(|e| e.doc.as_ref()).and_then(pick) {
            Some(d) => Some(d),
            None => {
                self.errors.push(format!("{} `{id}` is missing or invalid", kind.tag()));
                None
            }
        }
    }
}

fn dice(s: &str, what: &str, errors: &mut Vec<String>) -> DiceExpr {
    DiceExpr::parse(s).unwrap_or_else(|e| {
        errors.push(format!("{what}: {e}"));
        DiceExpr { count: 2, sides: 6, keep_highest: None, plus: 0 }
    })
}

/// Compile the ruleset whose ruleset document is `rs.id`.
pub fn compile(rs: &Ruleset) -> Result<Rules, Vec<String>> {
    let mut cx = Cx {
        rs,
        errors: Vec::new(),
        unsupported: Vec::new(),
        state_ids: rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect(),
        sa_ids: rs.of_kind(DocKind::SpecialAttribute).map(|e| e.id.clone()).collect(),
        band_ids: Vec::new(),
    };
    let Some(rules) = cx
        .doc(DocKind::Ruleset, &rs.id, |d| match d {
            Document::Ruleset(r) => Some(r),
            _ => None,
        })
        .cloned()
    else {
        return Err(cx.errors);
    };
    // Band ids first: conditions (`long-range`, `band-<id>`) refer to them.
    if let Some(Some(Document::RangeBands(b))) = rules
        .tables
        .get(&TableRole::RangeBands)
        .and_then(|id| rs.get(DocKind::RangeBands, id.as_str()))
        .map(|e| e.doc.as_ref())
    {
        cx.band_ids = b.bands.iter().map(|x| x.id.0.clone()).collect();
    }
    let sign = match rules.modifier_convention {
        ModifierConvention::Roll => 1,
        ModifierConvention::TargetPoint => -1,
    };
    let mut errors = Vec::new();
    let standard = dice(&rules.dice.standard, "dice.standard", &mut errors);
    let drift = dice(&rules.dice.drift, "dice.drift", &mut errors);
    let critical_bonus =
        rules.dice.critical_success_bonus.as_deref().map(|d| dice(d, "dice.critical_success_bonus", &mut errors));
    cx.errors.append(&mut errors);

    // States first: conditions and tables refer to them.
    let states: Vec<StateDef> = rs
        .of_kind(DocKind::ModelState)
        .map(|e| match &e.doc {
            Some(Document::ModelState(s)) => StateDef {
                id: e.id.clone(),
                name: s.name.clone(),
                duration: s.duration,
                activations: s.activations.unwrap_or(1),
                own_roll_modifier: s.own_roll_modifier.unwrap_or(0) * sign,
                attacker_modifier: s.attacker_modifier.unwrap_or(0) * sign,
                move_value: s.move_value.unwrap_or(0),
                no_actions: s.no_actions,
                no_combat: s.no_combat,
                no_move: s.no_move,
                no_advance: s.no_advance,
                supersedes: s
                    .supersedes
                    .iter()
                    .filter_map(|id| cx.state_ids.iter().position(|x| x == id.as_str()).map(|i| i as u16))
                    .collect(),
                immune: s.immune.clone(),
            },
            _ => StateDef {
                id: e.id.clone(),
                name: e.name().to_owned(),
                duration: f::StateDuration::Permanent,
                activations: 0,
                own_roll_modifier: 0,
                attacker_modifier: 0,
                move_value: 0,
                no_actions: false,
                no_combat: false,
                no_move: false,
                no_advance: false,
                supersedes: vec![],
                immune: vec![],
            },
        })
        .collect();
    let state_ix = |cx: &mut Cx, id: &str| -> StateIx {
        match cx.state_ids.iter().position(|s| s == id) {
            Some(i) => i as StateIx,
            None => {
                cx.errors.push(format!("model state `{id}` does not exist"));
                0
            }
        }
    };

    // Special attributes and their declarative effects.
    let mut sas = Vec::new();
    for e in rs.of_kind(DocKind::SpecialAttribute) {
        let Some(Document::SpecialAttribute(doc)) = &e.doc else {
            sas.push(SaDef {
                id: e.id.clone(),
                name: e.name().to_owned(),
                effects: vec![],
                script: None,
                hooks: vec![],
            });
            continue;
        };
        let roots = rs.pack(&e.script_pack).map(|p| p.script_roots.clone()).unwrap_or_default();
        let (id, name, script, hooks) =
            (e.id.clone(), doc.name.clone(), doc.script.clone().map(|m| (m, roots)), doc.hooks.clone());
        let mods = &doc.modifiers;
        let effects = mods
            .iter()
            .map(|m| Effect {
                target: m.target,
                value: m.value,
                per_rating: m.per_rating,
                when: m.when.iter().map(|w| cx.cond(w.as_str())).collect(),
                state: m.state.as_ref().map(|s| state_ix(&mut cx, s.as_str())),
            })
            .collect();
        sas.push(SaDef { id, name, effects, script, hooks });
    }

    let role = |cx: &mut Cx, role: TableRole| -> Option<String> {
        match rules.tables.get(&role) {
            Some(id) => Some(id.0.clone()),
            None => {
                cx.errors.push(format!("ruleset `{}` names no {role:?} table", rules.id));
                None
            }
        }
    };
    let mods = |cx: &mut Cx, role_: TableRole| -> Vec<Mod> {
        let Some(id) = role(cx, role_) else { return vec![] };
        let Some(t) = cx
            .doc(DocKind::ModifierTable, &id, |d| match d {
                Document::ModifierTable(t) => Some(t),
                _ => None,
            })
            .cloned()
        else {
            return vec![];
        };
        t.modifiers
            .iter()
            .map(|m| Mod {
                name: m.name.clone(),
                value: m.value * sign,
                scale: m.scale,
                max: m.max,
                cond: cx.cond(m.condition.as_str()),
                also: m.also.iter().map(|c| cx.cond(c.as_str())).collect(),
            })
            .collect()
    };
    let combat_mods = mods(&mut cx, TableRole::CombatModifiers);
    let indirect_mods = mods(&mut cx, TableRole::IndirectCombatModifiers);
    let strike_point_mods = mods(&mut cx, TableRole::StrikePointModifiers);
    let pilot_mods = mods(&mut cx, TableRole::PilotCheckModifiers);
    let close_combat_mods = if rules.tables.contains_key(&TableRole::CloseCombatModifiers) {
        mods(&mut cx, TableRole::CloseCombatModifiers)
    } else {
        vec![]
    };

    let table = |cx: &mut Cx, id: &str| -> LookupTable {
        let Some(t) = cx
            .doc(DocKind::Table, id, |d| match d {
                Document::Table(t) => Some(t),
                _ => None,
            })
            .cloned()
        else {
            return LookupTable::default();
        };
        let mut errs = Vec::new();
        let lt = LookupTable {
            name: t.name.clone(),
            dice: t.dice.as_deref().map(|d| dice(d, &format!("table {id}"), &mut errs)),
            rows: t
                .rows
                .iter()
                .map(|r| Row {
                    min: r.min,
                    max: r.max,
                    name: r.name.clone(),
                    damage: r.effect.damage.unwrap_or(0),
                    damage_both: r.effect.damage_both.unwrap_or(0),
                    pilot_check: r.effect.pilot_check.map(|p| p * sign),
                    states: r.effect.states.iter().map(|s| state_ix(cx, s.as_str())).collect(),
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
                })
                .collect(),
        };
        cx.errors.extend(errs);
        lt
    };
    let damage = role(&mut cx, TableRole::CombatDamage).map(|id| table(&mut cx, &id)).unwrap_or_default();
    let critical = role(&mut cx, TableRole::CriticalDamage).map(|id| table(&mut cx, &id)).unwrap_or_default();
    let close_combat_damage = rules.tables.get(&TableRole::CloseCombatDamage).map(|id| table(&mut cx, id.as_str()));
    let random_terrain = rules.tables.get(&TableRole::RandomTerrain).map(|id| table(&mut cx, id.as_str()));

    let (bands, indirect_tp) = match role(&mut cx, TableRole::RangeBands).and_then(|id| {
        cx.doc(DocKind::RangeBands, &id, |d| match d {
            Document::RangeBands(b) => Some(b),
            _ => None,
        })
        .cloned()
    }) {
        Some(b) => (
            b.bands
                .iter()
                .map(|x| Band {
                    name: x.name.clone(),
                    multiplier: x.multiplier,
                    combat_tp: x.combat_tp as i32,
                    strike_point_tp: x.strike_point_tp as i32,
                    drift_bonus: x.drift_bonus,
                })
                .collect(),
            b.indirect_combat_tp.map_or(-1, |t| t as i32),
        ),
        None => (vec![], 0),
    };

    let move_classes: Vec<String> = rs.of_kind(DocKind::MoveClass).map(|e| e.id.clone()).collect();
    let cost = |c: Option<&f::TerrainCost>| match c {
        Some(f::TerrainCost::PerInch(n)) => Cost::PerInch(*n),
        Some(f::TerrainCost::Special(f::TerrainCostWord::RoadBonus)) => Cost::RoadBonus,
        Some(f::TerrainCost::Special(f::TerrainCostWord::Na)) | None => Cost::No,
    };
    let terrains: Vec<TerrainDef> = rs
        .of_kind(DocKind::Terrain)
        .filter_map(|e| match &e.doc {
            Some(Document::Terrain(t)) => Some(TerrainDef {
                id: e.id.clone(),
                name: t.name.clone(),
                cover: t.cover,
                elevation: t.elevation,
                raises_ground: t.raises_ground,
                road: t.road,
                open: t.open,
                costs: move_classes.iter().map(|m| cost(t.costs.get(&f::Id(m.clone())))).collect(),
                climb: move_classes
                    .iter()
                    .map(|m| match t.climb_cost.get(&f::Id(m.clone())) {
                        None => Cost::PerInch(0),
                        c => cost(c),
                    })
                    .collect(),
            }),
            _ => None,
        })
        .collect();

    let p = &rules.procedures;
    let need = |cx: &mut Cx, what: &str, v: Option<f64>| -> f64 {
        v.unwrap_or_else(|| {
            cx.errors.push(format!("ruleset `{}` lacks procedures.{what}", rules.id));
            0.0
        })
    };
    let pilot_fail_state = match &p.pilot_fail_state {
        Some(s) => state_ix(&mut cx, s.as_str()),
        None => {
            cx.errors.push("ruleset lacks procedures.pilot_fail_state".into());
            0
        }
    };
    let prone_state = match &p.prone_state {
        Some(s) => state_ix(&mut cx, s.as_str()),
        None => pilot_fail_state,
    };
    let mut errs = Vec::new();
    let out_of_ammo_die = dice(p.out_of_ammo_die.as_deref().unwrap_or("1d6"), "procedures.out_of_ammo_die", &mut errs);
    cx.errors.extend(errs);
    let wreck_terrain =
        p.wreck_terrain.as_ref().and_then(|w| terrains.iter().position(|t| t.id == w.as_str())).unwrap_or_else(|| {
            cx.errors.push("ruleset lacks procedures.wreck_terrain (an existing terrain id)".into());
            0
        });
    let proc = Proc {
        pilot_check_tp: p.pilot_check_tp.map(|v| v as i32),
        ten_plus_natural: need(&mut cx, "ten_plus_natural", p.ten_plus_natural.map(f64::from)) as u32,
        ten_plus_rolls: p.ten_plus_rolls.clone(),
        repair_tp: need(&mut cx, "repair_tp", p.repair_tp.map(f64::from)) as i32,
        lingering_damage: need(&mut cx, "lingering_damage", p.lingering_damage.map(f64::from)) as u32,
        repair_critical: need(&mut cx, "repair_critical", p.repair_critical.map(f64::from)) as u32,
        repair_fumble_damage: need(&mut cx, "repair_fumble_damage", p.repair_fumble_damage.map(f64::from)) as u32,
        pilot_fumble_damage: need(&mut cx, "pilot_fumble_damage", p.pilot_fumble_damage.map(f64::from)) as u32,
        pilot_fail_state,
        free_turn_degrees: need(&mut cx, "free_turn_degrees", p.free_turn_degrees),
        extra_turn_cost: need(&mut cx, "extra_turn_cost", p.extra_turn_cost.map(f64::from)) as u32,
        minimum_move: need(&mut cx, "minimum_move", p.minimum_move),
        adjacent_cover: need(&mut cx, "adjacent_cover", p.adjacent_cover),
        model_height: {
            let mut h = [None; MODEL_TYPES];
            for (k, v) in &p.model_height {
                h[*k as usize] = Some(*v);
            }
            h
        },
        prone_height: need(&mut cx, "prone_height", p.prone_height.map(f64::from)) as i32,
        prone_state,
        out_of_ammo_die,
        terrain_feature_size: need(&mut cx, "terrain_feature_size", p.terrain_feature_size),
        wreck_terrain,
        arc_half_width: need(&mut cx, "arc_half_width", p.arc_half_width),
        torso_twist: {
            let mut t = [0.0; MODEL_TYPES];
            for (k, v) in &p.torso_twist {
                t[*k as usize] = *v;
            }
            t
        },
        run_n_gun: p
            .run_n_gun_mv_penalty
            .map(|pen| (pen, p.run_n_gun_low_mv.unwrap_or(0), p.run_n_gun_low_mv_penalty.unwrap_or(pen))),
        defensive_fire_max_band: p
            .defensive_fire_max_band
            .as_ref()
            .and_then(|id| cx.band_ids.iter().position(|b| b == id.as_str())),
        close_combat_max_attackers: p.close_combat_max_attackers,
        break_tp: p.break_tp.map(|v| v as i32),
        break_move_factor: p.break_move_factor.unwrap_or(0.0),
        overwatch_refire_cost: p.overwatch_refire_cost,
        contact_distance: need(&mut cx, "contact_distance", p.contact_distance),
        reverse_open: p.reverse_cost.get(&f::Id("open".into())).copied(),
        reverse_cost: p
            .reverse_cost
            .iter()
            .filter_map(|(k, v)| terrains.iter().position(|t| t.id == k.as_str()).map(|i| (i, *v)))
            .collect(),
        reverse_other: p.reverse_cost_other,
    };

    // Model cards.
    let models: Vec<(String, f::Model)> = rs
        .of_kind(DocKind::Model)
        .filter_map(|e| match &e.doc {
            Some(Document::Model(m)) => Some((e.id.clone(), m.clone())),
            _ => None,
        })
        .collect();
    let mut cards = Vec::new();
    for (id, m) in &models {
        cards.push(compile_card(&mut cx, id, m, &sas, &move_classes, p));
    }

    let scenarios = rs
        .of_kind(DocKind::Scenario)
        .filter_map(|e| match &e.doc {
            Some(Document::Scenario(s)) => Some((e.id.clone(), s.clone())),
            _ => None,
        })
        .map(|(id, s)| {
            let sides: Vec<(String, f::Rect)> =
                s.deployment.iter().map(|d| (d.side.0.clone(), d.zone.clone())).collect();
            let forces = s
                .forces
                .iter()
                .filter_map(|(side, ps)| {
                    let si = sides.iter().position(|(n, _)| n == side.as_str())?;
                    Some((
                        si,
                        ps.iter()
                            .filter_map(|p| {
                                models.iter().position(|(mid, _)| mid == p.model.as_str()).map(|c| (c, p.at, p.facing))
                            })
                            .collect(),
                    ))
                })
                .collect();
            let mut errs = Vec::new();
            let terrain_features =
                s.terrain_features.as_deref().map(|d| dice(d, "scenario terrain_features", &mut errs));
            ScenarioDef { id, name: s.name.clone(), board: s.board, sides, forces, terrain_features }
        })
        .collect();

    if bands.is_empty() {
        cx.errors.push("no range bands".into());
    }
    for c in &cards {
        if proc.model_height[c.model_type as usize].is_none() {
            cx.errors.push(format!(
                "procedures.model_height gives no height for {:?} models (model `{}`)",
                c.model_type, c.id
            ));
        }
    }
    if indirect_tp < 0 {
        cx.errors.push("the range-band table lacks indirect_combat_tp".into());
    }
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let action_costs: HashMap<String, u32> = rs
        .of_kind(DocKind::ActionType)
        .filter_map(|e| match &e.doc {
            Some(Document::ActionType(a)) => Some((e.id.clone(), a.cost)),
            _ => None,
        })
        .collect();
    let c = |id: &str| action_costs.get(id).copied().unwrap_or(1);
    let costs = ActionCosts {
        move_: c("move"),
        target_lock: c("target-lock"),
        combat: c("combat"),
        salvo: c("salvo-fire"),
        run_n_gun: c("run-n-gun"),
        close_combat: c("close-combat"),
        break_: c("break"),
        overwatch: c("overwatch"),
        repair: c("repair"),
    };
    let options: HashMap<String, String> =
        rules.options.iter().map(|o| (o.id.0.clone(), o.default.0.clone())).collect();
    Ok(Rules {
        shock_on_hit_only: options.get("shock-trigger").is_some_and(|v| v == "hit"),
        no_ranged_critical: options.get("ranged-critical").is_some_and(|v| v == "no-critical"),
        costs,
        id: rules.id.0.clone(),
        name: rules.name.clone(),
        action_points: rules.action_points,
        standard,
        drift,
        critical_fumble: rules.dice.critical_fumble,
        critical_success: rules.dice.critical_success,
        critical_bonus,
        turn_limit: rules.turn_limit,
        point_blank: rules.point_blank,
        bands,
        indirect_tp,
        combat_mods,
        indirect_mods,
        strike_point_mods,
        pilot_mods,
        close_combat_mods,
        damage,
        close_combat_damage,
        critical,
        random_terrain,
        states,
        move_classes,
        terrains,
        sas,
        cards,
        scenarios,
        proc,
        sign,
        unsupported: cx.unsupported,
        options,
        action_costs,
    })
}

fn rav_pair(r: &f::Rav) -> (Option<u8>, Option<u8>) {
    (r.hard, r.soft)
}

fn compile_card(
    cx: &mut Cx,
    id: &str,
    m: &f::Model,
    sas: &[SaDef],
    move_classes: &[String],
    p: &f::Procedures,
) -> CardDef {
    let dt = &m.damage_track;
    let columns = dt.damage_tracks as usize + 1;
    let col = |c: &f::PerColumn<u32>| (0..columns).map(|i| c.at(i).unwrap_or(0)).collect::<Vec<_>>();
    let sa_ix = |cx: &mut Cx, r: &f::SaRef| -> Option<(SaIx, i32)> {
        match sas.iter().position(|s| s.id == r.id().as_str()) {
            Some(i) => Some((i as SaIx, r.rating().or(r.uses().map(|u| u as i32)).unwrap_or(1))),
            None => {
                cx.errors.push(format!("model `{id}`: special attribute `{}` does not exist", r.id()));
                None
            }
        }
    };
    let model_sas: Vec<(SaIx, i32)> = m.special_attributes.iter().filter_map(|r| sa_ix(cx, r)).collect();
    // Sum of one declarative effect over a list of (SA, rating).
    let effect = |list: &[(SaIx, i32)], target: ModifierTarget| -> Option<i32> {
        let mut found = None;
        for (s, rating) in list {
            for e in sas[*s as usize].effects.iter().filter(|e| e.target == target) {
                let v = if e.per_rating { e.value * rating } else { e.value };
                found = Some(found.unwrap_or(0) + v);
            }
        }
        found
    };
    let mut weapons = Vec::new();
    for w in &m.weapons {
        let Some(def) = cx
            .doc(DocKind::Weapon, w.weapon.as_str(), |d| match d {
                Document::Weapon(w) => Some(w),
                _ => None,
            })
            .cloned()
        else {
            continue;
        };
        let mut wsas: Vec<(SaIx, i32)> = def.special_attributes.iter().filter_map(|r| sa_ix(cx, r)).collect();
        wsas.extend(w.special_attributes.iter().filter_map(|r| sa_ix(cx, r)));
        let rav = match &w.rav {
            Some(pc) => (0..columns).map(|i| pc.at(i).map(|r| rav_pair(&r)).unwrap_or((None, None))).collect(),
            None => vec![rav_pair(&def.rav); columns],
        };
        let state_test = sas_state_test(sas, &wsas);
        weapons.push(MountDef {
            weapon: w.weapon.0.clone(),
            name: def.name.clone(),
            quantity: w.quantity,
            range: match def.range {
                f::Distance::Inches(i) => i,
                _ => 0.0,
            },
            rav,
            requires_target_lock: def.requires_target_lock,
            indirect: def.fire == f::FireMode::Indirect || effect(&wsas, ModifierTarget::IndirectFire).is_some(),
            min_range: f64::from(effect(&wsas, ModifierTarget::MinimumRange).unwrap_or(0)),
            aoe: f64::from(effect(&wsas, ModifierTarget::AreaOfEffect).unwrap_or(0)),
            out_of_ammo_on: effect(&wsas, ModifierTarget::OutOfAmmo).unwrap_or(0).max(0) as u32,
            crit_shift: effect(&wsas, ModifierTarget::CriticalSuccess).unwrap_or(0),
            state_test,
            open_infantry_factor: effect(&wsas, ModifierTarget::DamageVsOpenInfantry).unwrap_or(1).max(1) as u32,
            cannot_target: def.cannot_target.clone(),
            mounts: w.mount.clone(),
            sas: wsas,
        });
    }
    let move_class = move_classes.iter().position(|c| c == m.move_class.as_str()).unwrap_or(0);
    let base = m.base_size.or_else(|| p.base_size.get(&m.model_type).copied()).unwrap_or(1.0);
    CardDef {
        id: id.to_owned(),
        name: m.name.clone(),
        model_type: m.model_type,
        move_class,
        columns,
        mv: col(&dt.mv),
        av: col(&dt.av),
        dc: (0..columns).map(|i| dt.dc.as_ref().and_then(|c| c.at(i))).collect(),
        exp: (0..columns).map(|i| dt.exp.as_ref().and_then(|c| c.at(i))).collect(),
        ccv: (0..columns)
            .map(|i| dt.ccv.as_ref().and_then(|c| c.at(i)).map(|r| rav_pair(&r)).unwrap_or((None, None)))
            .collect(),
        hard: effect(&model_sas, ModifierTarget::HardTarget).is_some(),
        soft: effect(&model_sas, ModifierTarget::SoftTarget).is_some(),
        ammo_reserve: effect(&model_sas, ModifierTarget::AmmoReserve).unwrap_or(0).max(0) as u32,
        damage_result: -effect(&model_sas, ModifierTarget::DamageResult).unwrap_or(0),
        base_radius: base / 2.0,
        weapons,
        sas: model_sas,
        tv: m.tv,
    }
}

fn sas_state_test(sas: &[SaDef], list: &[(SaIx, i32)]) -> Option<(i32, StateIx)> {
    for (s, rating) in list {
        for e in sas[*s as usize].effects.iter().filter(|e| e.target == ModifierTarget::StateTest) {
            if let Some(st) = e.state {
                let v = if e.per_rating { e.value * rating } else { e.value };
                return Some((v, st));
            }
        }
    }
    None
}
