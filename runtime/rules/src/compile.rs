//! The compiled rules the engine plays: every table indexed, every condition id resolved to a
//! [`Cond`], every number normalised so a positive modifier always helps the roller. The engine's
//! hot path then needs no string lookups. `cav-compile` builds them from a loaded ruleset.

use std::collections::HashMap;

use cav_format::vocab::EngineOptions;

use crate::game::conditions::Condition;
use cav_format::{self as f, ModelTrait, ModifierTarget};

use crate::dice::DiceExpr;

pub type StateIx = u16;

/// Number of `ModelType` variants (arrays indexed by model type).
pub const MODEL_TYPES: usize = cav_format::ModelType::ALL.len();
pub type SaIx = u16;

/// A condition as a compiled modifier tests it: the engine's condition (`game::conditions`) and
/// what a family member names (band, state or SA index; 0 for fixed ids).
#[derive(Debug, Clone, Copy)]
pub struct Cond {
    pub def: &'static Condition,
    pub arg: u16,
}

impl Cond {
    /// A condition the engine does not play (recognised but not implemented): it never holds.
    pub const NEVER: Cond = Cond { def: &NEVER, arg: 0 };

    /// Whether this is `def` naming `arg`.
    pub fn is(self, def: &'static Condition, arg: u16) -> bool {
        std::ptr::eq(self.def, def) && self.arg == arg
    }

    /// How many times it holds for this roll (0 = not).
    pub fn times(self, game: &crate::game::Game, s: &crate::game::engine::Situation) -> i32 {
        (self.def.test)(game, s, self.arg)
    }
}

static NEVER: Condition = Condition { id: "", test: |_, _, _| 0 };

/// One compiled situation modifier.
#[derive(Debug, Clone)]
pub struct Mod {
    pub name: String,
    /// Normalised: positive helps the roller.
    pub value: i32,
    pub scale: f::ModifierScale,
    pub max: Option<i32>,
    /// `max` is per weapon fired.
    pub max_per_weapon: bool,
    pub cond: Cond,
    /// Further conditions that must all hold.
    pub also: Vec<Cond>,
}

#[derive(Debug, Clone)]
pub struct Band {
    pub id: String,
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
    /// A number the row's `result` names (a structure's armor-class change).
    pub value: i32,
}

#[derive(Debug, Clone, Default)]
pub struct LookupTable {
    pub name: String,
    /// What the table is indexed by (the combat damage table: the margin of success or the final
    /// result); `None` for a table the ruleset does not name.
    pub key: Option<f::LookupKey>,
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
    /// How the narrative says a model enters it (`is knocked down`).
    pub narrative: Option<String>,
    pub duration: f::StateDuration,
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
    pub immune: Vec<f::ModelType>,
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
    /// Its cover counts wherever a line of sight crosses it.
    pub cover_when_crossed: bool,
    /// Indirect-fire attacks ignore its cover.
    pub no_cover_from_indirect: bool,
    /// A TAG's beam does not pass through it (`f::Terrain::blocks_designators`).
    pub blocks_designators: bool,
    /// Whom it shelters standing in it (`f::Terrain::shelters`).
    pub shelters: Option<f::Shelters>,
    /// How many models one piece holds (`f::Terrain::room`).
    pub room: Option<u32>,
    pub road: bool,
    pub open: bool,
    pub structure: Option<f::StructureDef>,
    /// By move-class index.
    pub costs: Vec<Cost>,
    pub climb: Vec<Cost>,
    /// Special attributes whose models ignore its movement penalties (open-ground cost, no climb).
    pub waived_by: Vec<SaIx>,
    /// Special attributes whose models enter it where their move class may not, with the MV per
    /// inch they pay on top of the open-ground cost (Amphibious).
    pub entered_with: Vec<(SaIx, u32)>,
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
    /// The owner may decline it (the controller is asked before each action).
    pub optional: bool,
    /// Switched on by the Special action each turn (bots take it first).
    pub switched_on: bool,
    /// The options its Special action may be declared with (`ctx.option`).
    pub special_options: Vec<String>,
    /// Its reach in inches, where its levels give one (the link range of FCS).
    pub reach: Option<f64>,
    /// Special attributes a model with this one has as well, with their ratings.
    pub grants: Vec<(SaIx, i32)>,
    /// A single-use upgrade's own entry: each rating point (a purchase) helps one roll with its
    /// effects and is then spent (`Model::charges_used`).
    pub charges: bool,
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
#[derive(Debug, Clone, Default)]
pub struct MountDef {
    pub weapon: String,
    /// The weapon system (`Laser Bolt Gun`): light and medium guns share it.
    pub class: String,
    pub name: String,
    pub quantity: u32,
    pub range: f64,
    /// Per damage-track column (hard, soft); `None` = NA.
    pub rav: Vec<(Option<u8>, Option<u8>)>,
    pub sas: Vec<(SaIx, i32)>,
    /// Special attributes of this mount that apply only while a condition holds
    /// (`{sa: improved-range, condition: defender-in-flight}`): `Game::mount_sa_holds`.
    pub sa_when: Vec<(SaIx, Cond)>,
    /// Range-band shifts of the mount's special attributes (Improved Range: −1, one band
    /// shorter), with the conditions each needs (its `when:`s and its SA's condition).
    pub band_shift: Vec<(i32, Vec<Cond>)>,
    pub requires_target_lock: bool,
    /// An energy weapon (ion, laser, particle bolt): the `energy-weapon` condition.
    pub energy: bool,
    /// A laser-guided munition loaded (`f::AttackProfile::laser_guided`): the `laser-guided`
    /// condition.
    pub laser_guided: bool,
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
    /// The munition (an upgrade's name) the launcher fires, when one was fitted.
    pub munition: Option<String>,
    /// That munition's upgrade id (what scripts see as `weapon.munition`).
    pub munition_id: Option<String>,
    /// Its damage comes from the ammunition bought for it (a howitzer's RAV is NA without).
    pub ammo_dependent: bool,
    /// For a second munition of one launcher: the mount of the launcher it is an alternative
    /// to. A combat action fires one munition per launcher.
    pub launcher: Option<usize>,
    /// A strike package's attack (index in `Rules::strikes`) that a strike caller carries: only
    /// `call-strike` fires it, never a combat action.
    pub strike: Option<u16>,
    /// A pre-set base target point: its attacks roll the ruleset's pre-set dice against it.
    /// Combat rolls each model under its area takes (0 or 1: one; Orbital Precision Strike: 3).
    pub combat_rolls: u32,
    pub preset_tp: Option<i32>,
    /// It fires once in the game, then is out of ammo (a pylon's munition).
    pub single_use: bool,
    /// Target states it homes on: a target in one needs no target-lock (`Upgrade::homes_on`).
    pub homes_on: Vec<StateIx>,
    /// Armed by a single-use upgrade (this entry of `Rules::sas`): it fires once per purchase,
    /// the card's rating of that entry, then is out of ammo (two Claymore sets, two blasts).
    pub charges: Option<SaIx>,
    /// A bomb dropped on the ground beneath an aircraft in flight (`Engine::fire`).
    pub dropped: Option<f::Dropped>,
    /// (length, width) of a strip-shaped area along the attacker's heading, replacing the
    /// circle of `aoe`.
    pub strip: Option<(f64, f64)>,
    /// Fired only as the close-defense reaction (`procedures.close_defense`).
    pub reaction: bool,
    /// A template weapon: (length, width) of its strip from the front of the base, and the
    /// state it gives every model under it, with no roll (`Engine::template_attack`).
    pub template: Option<(f64, f64, StateIx)>,
    /// Its combat rolls are on the standard dice against this fixed target point.
    pub fixed_tp: Option<i32>,
    /// A guided indirect munition (`Weapon::guided_strike`): the band of its finishing
    /// direct-fire roll, and the strike-point modifier (roll convention) against a painted model.
    pub guided_strike: Option<(usize, i32)>,
    /// The minefield (asset index) it lays at its final point instead of attacking there
    /// (FASCAM): its mines attack with this mount.
    pub lays: Option<usize>,
    /// Terrain it leaves at its final point (a smoke cloud or screen).
    pub leaves: Option<LeavesDef>,
    /// The cloud that lingers where it lands (`f::Cloud`): the weapon ids that destroy it.
    pub cloud: Option<Vec<String>>,
    /// The entries (`upgrade:<id>` in `Rules::sas`) of the single-use upgrades that meet the
    /// cloud (`f::Cloud::stopped_by`).
    pub cloud_stopped_by: Vec<String>,
    /// A seeking submunition (`f::AttackProfile::seeks`): the model types it attacks, painted
    /// enemies in its area; it waits for one until the firer's next activation.
    pub seeks: Option<Vec<f::ModelType>>,
    /// What its blast destroys outright in its area (`f::Destroys`).
    pub destroys: Option<f::Destroys>,
}

/// Terrain an attack leaves where it lands (`f::Leaves`), its terrain resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct LeavesDef {
    pub terrain: usize,
    /// (length, width) of a strip; `None`: a circle of the attack's area.
    pub strip: Option<(f64, f64)>,
    pub dice: DiceExpr,
    pub halved: bool,
    pub add: u32,
    pub counts: f::LastsFor,
}

/// A strike of a battlefield strike package, as `call-strike` plays it.
#[derive(Debug, Clone)]
pub struct StrikeDef {
    pub id: String,
    pub name: String,
    pub package: f::StrikePackage,
    pub cost: u32,
    /// Its attack as a weapon mount (range, RAV, special attributes, pre-set TP).
    pub mount: MountDef,
    /// Special attributes that call it on their own terms, besides the ruleset's strike caller.
    pub called_by: Vec<StrikeTerms>,
    pub missile: Option<MissileDef>,
}

/// A strike that flies in as a model (`f::StrikeMissile`): the card it flies as (the model's,
/// with the strike's attack as its one weapon), the launcher weapon, and its moves.
#[derive(Debug, Clone)]
pub struct MissileDef {
    pub card: usize,
    pub launcher: Option<String>,
    pub first_moves: u32,
    pub moves: u32,
}

/// On what terms a model calls a strike: the ruleset's strike caller pays from the side's pool
/// with the `call-strike` action's AP; another special attribute (`called_by`) may differ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrikeTerms {
    /// The special attribute that calls (`None`: the ruleset's strike caller).
    pub sa: Option<SaIx>,
    /// AP the call costs; `None`: the action's cost.
    pub ap: Option<u32>,
    /// The strike's cost leaves the side's pool.
    pub pays: bool,
    /// Dice and target point of a roll the call must pass first.
    pub authorization: Option<(DiceExpr, i32)>,
}

impl StrikeTerms {
    /// The ruleset's strike caller's terms.
    pub const CALLER: StrikeTerms = StrikeTerms { sa: None, ap: None, pays: true, authorization: None };
}

impl MountDef {
    /// The properties its special attributes give it (indirect fire, minimum range, area of
    /// effect, out-of-ammo, critical shift, state test, damage against infantry in the open).
    pub fn derive(&mut self, sas: &[SaDef]) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, &self.sas, t);
        self.indirect |= sum(ModifierTarget::IndirectFire).is_some();
        self.min_range = f64::from(sum(ModifierTarget::MinimumRange).unwrap_or(0));
        self.aoe = f64::from(sum(ModifierTarget::AreaOfEffect).unwrap_or(0));
        self.out_of_ammo_on = sum(ModifierTarget::OutOfAmmo).unwrap_or(0).max(0) as u32;
        self.crit_shift = sum(ModifierTarget::CriticalSuccess).unwrap_or(0);
        self.open_infantry_factor = sum(ModifierTarget::DamageVsOpenInfantry).unwrap_or(1).max(1) as u32;
        self.state_test = self.sas.iter().find_map(|(s, rating)| {
            sas[*s as usize]
                .effects
                .iter()
                .filter(|e| e.target == ModifierTarget::StateTest)
                .find_map(|e| e.state.map(|st| (if e.per_rating { e.value * rating } else { e.value }, st)))
        });
    }

    /// The launcher loaded with `p`'s munition (named `munition`).
    fn loaded(&self, p: &ProfileDef, munition: &str, munition_id: &str, sas: &[SaDef]) -> MountDef {
        let mut m = self.clone();
        // A launcher already loaded keeps its own name under the new load.
        let base = match &self.munition {
            Some(mu) => self.name.strip_suffix(&format!(" ({mu})")).unwrap_or(&self.name),
            None => &self.name,
        };
        m.name = format!("{base} ({munition})");
        m.munition = Some(munition.to_owned());
        m.munition_id = Some(munition_id.to_owned());
        m.preset_tp = p.base_tp;
        if let Some(base) = &p.fires_as {
            m.range = base.range;
            m.indirect = base.indirect;
            m.requires_target_lock = base.requires_target_lock;
            m.cannot_target = base.cannot_target.clone();
            m.rav = vec![base.rav.first().copied().unwrap_or((None, None)); m.rav.len()];
            for &(sa, rating) in &base.sas {
                if !m.sas.iter().any(|(x, _)| *x == sa) {
                    m.sas.push((sa, rating));
                }
            }
        }
        m.single_use = p.single_use;
        m.laser_guided = p.laser_guided;
        m.dropped = p.dropped;
        m.strip = p.strip;
        m.lays = p.lays;
        m.leaves = p.leaves.clone();
        m.cloud = p.cloud.clone();
        m.cloud_stopped_by.clone_from(&p.cloud_stopped_by);
        m.destroys = p.destroys.clone();
        m.seeks = p.seeks.clone();
        // A bomb is an indirect attack (its area, the pre-set dice), made from above.
        m.indirect |= p.dropped.is_some();
        if let Some(rav) = p.rav {
            m.rav = vec![rav; m.rav.len()];
        }
        if let Some(r) = p.range {
            m.range = r;
        }
        for &(sa, rating) in &p.sas {
            match m.sas.iter_mut().find(|(x, _)| *x == sa) {
                Some(have) => have.1 = rating,
                None => m.sas.push((sa, rating)),
            }
        }
        m.derive(sas);
        m
    }
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
    pub airframe: Option<f::Airframe>,
    pub task: f::Task,
    /// Damage-result reduction (the Quick-Start's Reinforced), normalised to "points off the margin".
    pub damage_result: i32,
    /// Points off the damage-table lookup of a penetrating hit (the full rules' Reinforced).
    pub damage_table_result: i32,
    /// MV given back of what damage and criticals take (Relentless).
    pub mv_loss_cut: i32,
    /// Every successful repair counts as a critical success (Rugged).
    pub repair_critical: bool,
    /// No free facing change in move actions (Reduced Turn).
    pub no_free_turn: bool,
    /// Mounts and dismounts ground transports for 0 AP (Storm).
    pub free_mount: bool,
    /// Its target-locks on enemies within this many inches pass to its squad mates (EST).
    pub share_lock: Option<f64>,
    /// The reach (inches) of its TAG laser designator, if it has one (`Game::painted`).
    pub tag: Option<f64>,
    /// It may dismount from an aircraft in flight (Airborne).
    pub airborne: bool,
    /// Gun ports its riders fire through, each once a turn (Gun Port).
    pub gun_ports: u32,
    /// Its reach in a chain of indirect fire (Chain-Fire Pod), and whether it may start one.
    pub chain_fire: Option<(f64, bool)>,
    pub tv: u32,
    /// The asset (index) whose weapon emplacement this card is (`Model::emplacement`).
    pub emplacement: Option<usize>,
    /// Upgrades switched on by the Special action (`Upgrade::switch`): while the model is in some
    /// of their states it plays as another card with their grants (`Game::card`).
    pub switch: Option<Box<Switch>>,
}

/// The cards a model with switched upgrades plays as (`CardDef::switch`).
#[derive(Debug, Clone)]
pub struct Switch {
    /// The states, one per switched upgrade (at most [`Switch::MAX`]).
    pub states: Vec<StateIx>,
    /// The card for each non-empty set of states on: `cards[mask - 1]`, bit `i` for `states[i]`.
    pub cards: Vec<usize>,
}

impl Switch {
    pub const MAX: usize = 4;
    /// The card index `base` plays as for a model in `has` of the states.
    pub fn card(&self, base: usize, has: impl Fn(StateIx) -> bool) -> usize {
        let mask = self.states.iter().enumerate().filter(|(_, s)| has(**s)).fold(0usize, |m, (i, _)| m | (1 << i));
        if mask == 0 { base } else { self.cards.get(mask - 1).copied().unwrap_or(base) }
    }
}

impl CardDef {
    /// A strike caller (a model with the ruleset's caller special attribute, FIST) carries every
    /// strike package's attack as a further mount after its weapons, fired only by `call-strike`;
    /// whether its side has the pool for one is decided when it calls.
    /// The card of an asset that attacks on its own (a minefield): its attack as its one weapon,
    /// no move, no armour; it never stands on the table.
    pub fn for_asset(id: &str, name: &str, mount: MountDef) -> CardDef {
        CardDef {
            weapons: vec![mount],
            ..CardDef::blank(format!("asset:{id}"), name.to_owned(), f::ModelType::Structure, 1)
        }
    }

    /// A card of `columns` columns with zero values, no weapons and every card effect off: what
    /// the compiler fills in from a model document, its special attributes and upgrades.
    pub fn blank(id: String, name: String, model_type: f::ModelType, columns: usize) -> CardDef {
        CardDef {
            id,
            name,
            model_type,
            move_class: 0,
            columns,
            mv: vec![0; columns],
            av: vec![0; columns],
            dc: vec![None; columns],
            exp: vec![None; columns],
            ccv: vec![(None, None); columns],
            weapons: Vec::new(),
            sas: Vec::new(),
            hard: false,
            soft: false,
            ammo_reserve: 0,
            base_radius: 0.0,
            airframe: None,
            task: f::Task::Attack,
            damage_result: 0,
            damage_table_result: 0,
            mv_loss_cut: 0,
            repair_critical: false,
            no_free_turn: false,
            free_mount: false,
            share_lock: None,
            tag: None,
            airborne: false,
            gun_ports: 0,
            chain_fire: None,
            tv: 0,
            emplacement: None,
            switch: None,
        }
    }

    /// Join `list` (and what its members grant in turn: the SA an upgrade grants may grant more)
    /// to the card's special attributes — a rating adds to one it has — and apply their card
    /// effects, values included.
    pub fn grant(&mut self, sas: &[SaDef], list: &[(SaIx, i32)]) {
        let added = SaDef::with_grants(sas, list);
        for &(sa, rating) in &added {
            match self.sas.iter_mut().find(|(x, _)| *x == sa) {
                Some(have) => have.1 = have.1.saturating_add(rating),
                None => self.sas.push((sa, rating)),
            }
        }
        self.apply_effects(sas, &added, true);
    }

    /// Give a card with the close-defense special attribute its reaction's mount (once).
    pub fn arm_close_defense(&mut self, cd: Option<&CloseDefenseDef>) {
        let Some(cd) = cd else { return };
        if self.weapons.iter().any(|w| w.reaction) || !self.sas.iter().any(|(x, _)| *x == cd.sa) {
            return;
        }
        let mut m = cd.mount.clone();
        m.rav = vec![m.rav.first().copied().unwrap_or((None, None)); self.columns];
        self.weapons.push(m);
    }

    pub fn arm_strikes(&mut self, strikes: &[StrikeDef], caller: Option<SaIx>) {
        if self.weapons.iter().any(|w| w.strike.is_some()) {
            return;
        }
        for s in strikes {
            if self.strike_terms(s, caller).is_none() {
                continue;
            }
            let mut m = s.mount.clone();
            m.rav = vec![m.rav.first().copied().unwrap_or((None, None)); self.columns];
            self.weapons.push(m);
        }
    }

    /// On what terms this card calls strike `s`: as the ruleset's strike caller (`caller`), else
    /// through a special attribute of the strike's `called_by`; `None`: it does not call it.
    pub fn strike_terms(&self, s: &StrikeDef, caller: Option<SaIx>) -> Option<StrikeTerms> {
        let has = |sa: SaIx| self.sas.iter().any(|(x, _)| *x == sa);
        if caller.is_some_and(has) {
            return Some(StrikeTerms::CALLER);
        }
        s.called_by.iter().find(|t| t.sa.is_some_and(has)).copied()
    }

    /// Add the card effects of `added` (special attributes with their ratings) to the card: hard
    /// or soft, ammo reserve, damage-result reduction, critical repairs and — with `values`, for
    /// upgrades and for cards written as their bare chassis — MV, AV and DC. A special attribute's
    /// MV, AV and DC effects are part of the card's design: printed values already hold them (the
    /// Dictator-B's Improved Armor), so compiling a printed card does not apply them again.
    pub fn apply_effects(&mut self, sas: &[SaDef], added: &[(SaIx, i32)], values: bool) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, added, t);
        self.hard |= sum(ModifierTarget::HardTarget).is_some();
        self.soft |= sum(ModifierTarget::SoftTarget).is_some();
        self.ammo_reserve =
            self.ammo_reserve.saturating_add(sum(ModifierTarget::AmmoReserve).unwrap_or(0).max(0) as u32);
        self.damage_result -= sum(ModifierTarget::DamageResult).unwrap_or(0);
        self.damage_table_result -= sum(ModifierTarget::DamageTableResult).unwrap_or(0);
        self.mv_loss_cut -= sum(ModifierTarget::MvLoss).unwrap_or(0);
        self.repair_critical |= sum(ModifierTarget::RepairCritical).is_some();
        self.no_free_turn |= sum(ModifierTarget::NoFreeTurn).is_some();
        self.free_mount |= sum(ModifierTarget::FreeMount).is_some();
        if let Some(inches) = sum(ModifierTarget::ShareLock) {
            self.share_lock = Some(f64::from(inches.max(0)).max(self.share_lock.unwrap_or(0.0)));
        }
        self.airborne |= sum(ModifierTarget::Airborne).is_some();
        let (starts, joins) = (sum(ModifierTarget::ChainFire), sum(ModifierTarget::ChainFireJoin));
        if let Some(reach) = starts.max(joins) {
            let (old_reach, old_starts) = self.chain_fire.unwrap_or((0.0, false));
            self.chain_fire = Some((f64::from(reach.max(0)).max(old_reach), starts.is_some() || old_starts));
        }
        self.gun_ports = self.gun_ports.saturating_add(sum(ModifierTarget::GunPorts).unwrap_or(0).max(0) as u32);
        if let Some(inches) = sum(ModifierTarget::Tag) {
            self.tag = Some(f64::from(inches.max(0)).max(self.tag.unwrap_or(0.0)));
        }
        if values {
            self.apply_values(sas, added);
        }
    }

    /// Add the MV, AV and DC effects (and a repair value where the card has no DC) of `added`
    /// to the card's columns: an upgrade fitted to it, or the design of a card written as its
    /// bare chassis (`values: chassis`).
    pub fn apply_values(&mut self, sas: &[SaDef], added: &[(SaIx, i32)]) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, added, t);
        let shift = |col: &mut Vec<u32>, by: i32, keep_zero: bool| {
            for v in col.iter_mut().filter(|v| !keep_zero || **v > 0) {
                *v = (*v as i32).saturating_add(by).max(0) as u32;
            }
        };
        // A column at MV 0 stays immobile: an upgrade does not repair it.
        shift(&mut self.mv, sum(ModifierTarget::MoveValue).unwrap_or(0), true);
        shift(&mut self.av, sum(ModifierTarget::ArmorValue).unwrap_or(0), false);
        let dc = sum(ModifierTarget::DamageControl).unwrap_or(0);
        for v in self.dc.iter_mut().flatten() {
            *v = v.saturating_add(dc);
        }
        if let Some(value) = sum(ModifierTarget::RepairValue) {
            for v in self.dc.iter_mut().filter(|v| v.is_none()) {
                *v = Some(value);
            }
        }
    }
}

impl SaDef {
    /// `list` with the special attributes its members grant (and theirs in turn), each once.
    pub fn with_grants(sas: &[SaDef], list: &[(SaIx, i32)]) -> Vec<(SaIx, i32)> {
        let mut out = list.to_vec();
        let mut next = 0;
        while next < out.len() {
            let (sa, _) = out[next];
            for &(g, rating) in &sas[sa as usize].grants {
                if !out.iter().any(|(x, _)| *x == g) {
                    out.push((g, rating));
                }
            }
            next += 1;
        }
        out
    }

    /// Sum of the unconditional (no `when:`) effects on `target` over (SA, rating) pairs; `None`
    /// when none has one.
    pub fn card_effect(sas: &[SaDef], list: &[(SaIx, i32)], target: ModifierTarget) -> Option<i32> {
        let mut found = None;
        for (s, rating) in list {
            for e in sas[*s as usize].effects.iter().filter(|e| e.target == target && e.when.is_empty()) {
                let v = if e.per_rating { e.value * rating } else { e.value };
                found = Some(found.unwrap_or(0) + v);
            }
        }
        found
    }
}

/// A munition's attack profile for one launcher weapon.
#[derive(Debug, Clone)]
pub struct ProfileDef {
    /// The launcher's weapon id.
    pub launcher: String,
    /// (hard, soft) RAV; `None` keeps the launcher's.
    pub rav: Option<(Option<u8>, Option<u8>)>,
    pub sas: Vec<(SaIx, i32)>,
    pub range: Option<f64>,
    /// A pre-set base target point (rolled on the ruleset's pre-set dice).
    pub base_tp: Option<i32>,
    /// Threat value, per damage track when `per_track`.
    pub tv: u32,
    pub per_track: bool,
    /// The weapon it fires as (`fires_as`): range, fire mode and the rest, under the profile's.
    pub fires_as: Option<Box<MountDef>>,
    pub single_use: bool,
    pub laser_guided: bool,
    pub dropped: Option<f::Dropped>,
    /// (length, width) of a strip-shaped area.
    pub strip: Option<(f64, f64)>,
    /// The minefield it lays and the terrain it leaves where it lands (`MountDef::lays`,
    /// `MountDef::leaves`).
    pub lays: Option<usize>,
    pub leaves: Option<LeavesDef>,
    pub cloud: Option<Vec<String>>,
    pub cloud_stopped_by: Vec<String>,
    pub destroys: Option<f::Destroys>,
    /// A seeking submunition (`f::AttackProfile::seeks`): the model types it attacks.
    pub seeks: Option<Vec<f::ModelType>>,
}

/// `procedures.close_defense` compiled: the special attribute that has it, the trait of the
/// attackers it answers, how close they must be, its AP cost, and the attack, as the mount a
/// card with the special attribute carries (`CardDef::arm_close_defense`).
#[derive(Debug, Clone)]
pub struct CloseDefenseDef {
    pub sa: SaIx,
    pub against: f::ModelTrait,
    pub reach: f64,
    pub cost: u32,
    pub mount: MountDef,
}

/// An upgrade as the engine fits it (`Rules::fit`).
#[derive(Debug, Clone)]
pub struct UpgradeDef {
    pub id: String,
    pub name: String,
    /// Its own entry in `Rules::sas` (id `upgrade:<id>`): effects, script and hooks.
    pub sa: SaIx,
    /// Special attributes it grants, with their ratings (uses for limited ones).
    pub grants: Vec<(SaIx, i32)>,
    /// Threat value, per damage track when `per_track`.
    pub tv: u32,
    pub per_track: bool,
    /// A munition's profiles, one per launcher it fits.
    pub profiles: Vec<ProfileDef>,
    /// Its grants are alternatives for one weapon type (`Fitting::choice`).
    pub choose_grant: bool,
    /// Each purchase is used once (`Upgrade::single_use`).
    pub single_use: bool,
    /// It may be bought several times for one model (`Upgrade::repeatable`).
    pub repeatable: bool,
    /// The state its Special action switches on; its grants apply only while the model is in it.
    pub switch: Option<StateIx>,
    /// Target states its munition homes on without a target-lock.
    pub homes_on: Vec<StateIx>,
    /// Its ranks or sizes: (id, cost, the rating of its grants).
    pub variants: Vec<(String, u32, Option<i32>)>,
}

/// An upgrade to fit (`Rules::fit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fitting<'a> {
    /// Index in `Rules::upgrades`.
    pub upgrade: usize,
    /// For a munition, the launcher weapon it is loaded in (every launcher its profiles name,
    /// when `None`); for an upgrade that chooses a grant, the weapon type that takes it.
    pub weapon: Option<&'a str>,
    /// The grant taken, of an upgrade whose grants are alternatives.
    pub choice: Option<&'a str>,
    /// The rank or size bought, of an upgrade with variants (its own cost and grant rating).
    pub variant: Option<&'a str>,
    /// How many are bought (a repeatable upgrade's `times`; 1 otherwise).
    pub times: u32,
}

impl<'a> Fitting<'a> {
    pub fn plain(upgrade: usize) -> Self {
        Fitting { upgrade, weapon: None, choice: None, variant: None, times: 1 }
    }
}

/// A model a scenario places: card, position (or in its zone), facing (or towards the centre).
pub type Placed = (usize, Option<[f64; 2]>, Option<f64>);

#[derive(Debug, Clone)]
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
    pub objectives: Option<ObjectiveDef>,
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

/// C3 uses, states resolved to indices.
#[derive(Debug, Clone)]
pub struct C3Def {
    pub uses: Vec<cav_format::vocab::C3Use>,
    pub inspire: DiceExpr,
    pub motivate_ap: u32,
    pub rally_clears: Vec<StateIx>,
}

/// A scenario's scored areas, sides resolved to indices.
#[derive(Debug, Clone)]
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

#[derive(Debug, Clone)]
pub struct HvoDef {
    pub at: [f64; 2],
    pub radius: f64,
    pub rescuer: usize,
    pub edge: f::BoardEdge,
    pub others_after_moved: bool,
}

#[derive(Debug, Clone)]
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

/// A way of firing over low terrain next to the model (`sight.fire_over`).
#[derive(Debug, Clone, PartialEq)]
pub struct FireOverDef {
    pub sa: Option<SaIx>,
    /// Weapon ids whose carriers may fire over (instead of a special attribute).
    pub weapons: Vec<String>,
    /// Terrain (indices) a model standing in fires over (instead of terrain beside it).
    pub terrain: Vec<usize>,
    pub model_types: Vec<f::ModelType>,
    pub within: f64,
    pub max_elevation: i32,
    pub counts_as: Option<f::Cover>,
    /// A snapshot (`f::FireOver::snapshot`).
    pub snapshot: bool,
}

/// The numbers of the procedures, one typed section per part of the rules as the ruleset pack
/// gives them (`procedures:` of the ruleset document), ids resolved to indices. A section that
/// is `None` is a rule the ruleset does not have.
#[derive(Debug, Clone)]
pub struct Proc {
    pub rolls: Rolls,
    pub movement: Movement,
    pub sight: f::SightRules,
    /// `sight.fire_over` with its special attributes resolved (an unknown one is never held).
    pub fire_over: Vec<FireOverDef>,
    pub damage: Damage,
    pub repair: f::RepairRules,
    pub setup: f::SetupRules,
    pub run_n_gun: Option<f::RunNGunRules>,
    pub defensive_fire: Option<DefensiveFire>,
    /// Counter-battery fire: the special attribute that answers, and how near a strike point
    /// must land to call for it.
    pub counter_battery: Option<(SaIx, f64)>,
    /// The close-defense reaction (Anti-Infantry), armed on the cards with its special attribute.
    pub close_defense: Option<CloseDefenseDef>,
    pub overwatch: Option<Overwatch>,
    pub close_combat: f::CloseCombatRules,
    pub break_away: Option<f::BreakRules>,
    /// An attack with several weapon types rolls them all at the farthest band; when one of
    /// them is out of range, at this band (index).
    pub mixed_weapons_out_of_range: Option<usize>,
    pub multiple_targets: Option<f::MultipleTargetRules>,
    pub transport: Option<Transport>,
    pub towing: Option<f::TowingRules>,
    pub salvo: Option<f::SalvoRules>,
    /// Flight, its landing-field terrains resolved.
    pub flight: Option<Flight>,
    /// Digging in: (cover, terrain indices it cannot be done in).
    pub dig_in: Option<(f::Cover, Vec<usize>)>,
    pub charge: Option<f::ChargeRules>,
    /// Strike packages: the strike-point roll's target point.
    pub strike_point_tp: Option<i32>,
    pub regroup: Option<f::RegroupRules>,
    pub stomp: Option<f::StompRules>,
    pub structure_movement: Option<f::StructureMovementRules>,
    /// Structure attacks, the collapse terrain resolved.
    pub structure_attacks: Option<(f::StructureAttackRules, usize)>,
    /// (state, inches forward, traits that gain it with any move).
    pub fast_state: Option<(StateIx, f64, Vec<ModelTrait>)>,
    /// (state, traits that never gain it).
    pub still_state: Option<(StateIx, Vec<ModelTrait>)>,
    /// Each model type the ruleset plays, by `ModelType as usize` (`None`: not played).
    pub model_types: [Option<ModelTypeDef>; MODEL_TYPES],
}

/// Rolls in general.
#[derive(Debug, Clone)]
pub struct Rolls {
    pub ten_plus_natural: u32,
    pub ten_plus_rolls: Vec<f::RollKind>,
    pub out_of_ammo_die: DiceExpr,
    pub out_of_ammo_empties: f::AmmoEmpties,
    pub out_of_ammo_step: u32,
    /// RAV an NA weapon counts as (low enough never to hurt).
    pub na_rav: i32,
}

/// Movement, terrain ids resolved.
#[derive(Debug, Clone)]
pub struct Movement {
    pub free_turn_degrees: f64,
    pub extra_turn_cost: u32,
    pub minimum_move: f64,
    pub open_ground_cost: u32,
    /// MV per inch added for each further type of combined terrain.
    pub combined_terrain_extra: u32,
    pub road_cost: u32,
    pub road_bonus: u32,
    /// Extra MV per inch backwards: over open ground, by terrain index, elsewhere (None = barred).
    pub reverse_open: Option<u32>,
    pub reverse_cost: HashMap<usize, u32>,
    pub reverse_other: Option<u32>,
    pub contact_distance: f64,
}

/// Damage, pilot checks and destruction, ids resolved.
#[derive(Debug, Clone)]
pub struct Damage {
    /// `None`: the card's EXP value.
    pub pilot_check_tp: Option<i32>,
    pub pilot_fumble_damage: u32,
    pub pilot_fail_state: StateIx,
    pub prone_state: StateIx,
    pub wreck_terrain: usize,
    pub wreck_minimum_radius: f64,
    pub dispersed: Option<f::DispersedDamage>,
    pub mission_kill: f::MissionKillRules,
    pub out_of_action: Option<f::OutOfActionRules>,
}

/// Defensive fire, the band resolved.
#[derive(Debug, Clone, Copy)]
pub struct DefensiveFire {
    /// Index of the farthest band it may reach.
    pub max_band: usize,
    /// It takes no modifier that helps it.
    pub drops_bonuses: bool,
}

/// Over-watch, the state resolved.
#[derive(Debug, Clone, Copy)]
pub struct Overwatch {
    /// AP cost of a new delayed shot for a model that stays on over-watch.
    pub refire_cost: u32,
    /// The state a model gains when it goes on over-watch.
    pub state: Option<StateIx>,
}

/// A model type as the ruleset plays it.
#[derive(Debug, Clone, Copy)]
pub struct ModelTypeDef {
    pub traits: Traits,
    /// Elevation of a standing model.
    pub height: i32,
    /// Base width for cards that give none.
    pub base_size: f64,
    /// Degrees the firing arcs turn left or right.
    pub torso_twist: f64,
}

/// A battlefield asset (Appendix C): a terrain piece (`terrain`), or something a side holds off
/// the table and uses (`Game::held`).
#[derive(Debug, Clone, PartialEq)]
pub struct AssetDef {
    pub id: String,
    pub name: String,
    pub terrain: Option<usize>,
    /// Cards of the holder's colour each one adds to every turn's draw deck (SIGINT).
    pub deck_cards: u32,
    /// Used up to send a drawn card to the bottom of the deck (Recon Drone).
    pub skip_card: bool,
    /// Used up in an end phase to refill the side's Ammo Bins (Resupply Drop).
    pub reload_ammo_bins: bool,
    /// Used up by a `field-repair` action: damage points mended, lingering damage excepted, and
    /// the lingering points mended instead when only those are left (Field Repair Modules).
    pub field_repair: u32,
    pub field_repair_lingering: u32,
    /// A wall a combat engineer lays with `lay-barrier` (length, thickness in inches).
    pub laid_wall: Option<(f64, f64)>,
    /// A minefield: what it attacks, its charges, and the card its attack is the one weapon of
    /// (the laying side's off-table model that makes the attacks, `Game::minefields`).
    pub mines: Option<(f::MinesAgainst, u32, usize)>,
    /// A weapon emplacement: the action points each of its weapons has in the side's shared
    /// activation.
    pub emplacement_ap: Option<u32>,
    /// A piece a roster sets down before deployment (terrain or a minefield, not an
    /// emplacement), with its footprint: (radius, 0) or (length, width).
    pub piece: Option<(f64, f64)>,
    /// Terrain (indices) a buyer may set down instead of `terrain` (`f::Asset::variants`).
    pub variants: Vec<usize>,
}

impl AssetDef {
    /// Whether the asset acts from a side's hand (`Game::held`) rather than as a terrain piece.
    pub fn held(&self) -> bool {
        self.deck_cards > 0
            || self.skip_card
            || self.reload_ammo_bins
            || self.field_repair > 0
            || self.laid_wall.is_some()
    }
}

/// Everything the engine needs, indexed.
#[derive(Debug, Clone)]
pub struct Rules {
    pub id: String,
    pub name: String,
    pub action_points: u32,
    /// Squad types: (id, most models).
    pub squad_types: Vec<(String, u32)>,
    /// Who a draw-deck card activates (a model, or a squad), and the deck's cards.
    pub activation: f::ActivationMode,
    pub draw_deck: f::DrawDeckRules,
    pub standard: DiceExpr,
    /// The exact odds of the standard roll (controllers weigh their options with them).
    pub standard_odds: crate::dice::Odds,
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
    /// A strike package's strike-point roll (`tables.strike_package_modifiers`).
    pub strike_package_mods: Vec<Mod>,
    pub pilot_mods: Vec<Mod>,
    pub close_combat_mods: Vec<Mod>,
    pub break_mods: Vec<Mod>,
    pub damage: LookupTable,
    pub close_combat_damage: Option<LookupTable>,
    pub critical: LookupTable,
    pub random_terrain: Option<LookupTable>,
    /// Victory levels by the winner-to-loser score ratio in tenths (full rules); without it a game
    /// that reaches its turn limit is a draw.
    pub victory_levels: Option<LookupTable>,
    /// Attacks on structures: damage by final result, and the critical table.
    pub structure_damage: Option<LookupTable>,
    pub structure_critical: Option<LookupTable>,
    pub states: Vec<StateDef>,
    pub move_classes: Vec<String>,
    pub terrains: Vec<TerrainDef>,
    /// Special attributes, then one entry per upgrade (`upgrades[i].sa`) that carries the
    /// upgrade's own effects, script and hooks onto the cards it is fitted to.
    pub sas: Vec<SaDef>,
    pub upgrades: Vec<UpgradeDef>,
    /// Battlefield assets: the terrain piece each is on the table, or what it does from a
    /// side's hand.
    pub assets: Vec<AssetDef>,
    /// The models' cards, then any fitted with upgrades (`Rules::fit`).
    pub cards: Vec<CardDef>,
    /// Battlefield strike packages (Appendix D) and the special attribute that calls them.
    pub strikes: Vec<StrikeDef>,
    pub strike_caller: Option<SaIx>,
    /// The special attribute a model needs to use the assets placed during play (Combat
    /// Engineer, `force_building.asset_user_sa`): the `field-repair` action.
    pub asset_user: Option<SaIx>,
    /// The special attribute of which a side fields one model of a kind at most (Unique,
    /// `force_building.unique_sa`).
    pub unique_sa: Option<SaIx>,
    /// Special attributes whose models serve only in one squad type (Specialist,
    /// `force_building.reserved`).
    pub reserved: Vec<(SaIx, String)>,
    /// The special attribute whose rating adds C3 points to its force group's pool (001 L1290-1300).
    pub c3_sa: Option<SaIx>,
    /// The pre-set dice (`dice.preset_tp`: 3d6 keep the highest two).
    pub preset: Option<DiceExpr>,
    pub scenarios: Vec<ScenarioDef>,
    pub proc: Proc,
    /// Normalisation factor: +1 when the ruleset adds modifiers to the roll, −1 when to the target.
    pub sign: i32,
    /// The options the engine reads, typed.
    pub engine_options: EngineOptions,
    /// C3 points and what they buy, when the ruleset has them.
    pub c3: Option<C3Def>,
    /// Every option of the ruleset with the reading it chose (`id`, value), for scripts to read.
    pub options: Vec<(String, String)>,
    /// AP cost of each action type, by id.
    pub action_costs: HashMap<String, u32>,
    /// Special attributes whose models take an action type for 0 AP, by action id.
    pub action_free_with: HashMap<String, Vec<SaIx>>,
    /// The model types that may take an action type, and those it may be aimed at, by action id
    /// (only action types that limit either).
    /// (Ordered: the compiled rules' `Debug` form is their fingerprint, `cav_lab::same_rules`.)
    pub action_model_types: std::collections::BTreeMap<String, ActionTypes>,
}

/// Which model types may take an action type and be its target; empty = all.
#[derive(Debug, Clone, Default)]
pub struct ActionTypes {
    pub by: Vec<f::ModelType>,
    /// Upgrades (as the special attributes they compile to) that open the action to any model type.
    pub open_with: Vec<SaIx>,
    pub at: Vec<f::ModelType>,
}

/// A set of model traits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traits(u32);

/// Flight: nap of the earth and where fixed-wing aircraft land (terrain indices).
#[derive(Debug, Clone, Default)]
pub struct Flight {
    pub noe_extra_cost: u32,
    pub noe_exposed_within: f64,
    pub landing_fields: Vec<usize>,
}

/// Transports: the special attribute whose rating is the slots, the slots a rider takes, and
/// riders (by special attribute) that take more.
#[derive(Debug, Clone, Default)]
pub struct Transport {
    pub sa: u16,
    pub slots_per_rider: u32,
    pub heavy: Vec<(u16, u32)>,
    /// Carriers of non-infantry riders (a dropship).
    pub carriers: Vec<Carrier>,
}

/// A carrier of non-infantry riders: special attribute, slots per level, slots per rider type.
pub type Carrier = (u16, u32, Vec<(f::ModelType, u32)>);

impl Traits {
    pub fn of(traits: &[ModelTrait]) -> Traits {
        Traits(traits.iter().fold(0, |acc, t| acc | 1 << (*t as u32)))
    }
    pub fn has(self, t: ModelTrait) -> bool {
        self.0 & (1 << (t as u32)) != 0
    }
}

impl Rules {
    /// The card model `m` plays as (`CardDef::switch`).
    pub fn card_of(&self, m: &crate::game::Model) -> &CardDef {
        &self.cards[self.card_ix_of(m)]
    }

    /// The index of the card model `m` plays as: its own, or one its switched upgrades give.
    pub fn card_ix_of(&self, m: &crate::game::Model) -> usize {
        match &self.cards[m.card].switch {
            None => m.card,
            Some(sw) => sw.card(m.card, |s| m.has_state(s)),
        }
    }

    pub fn card(&self, id: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.id == id)
    }

    /// The id of `card` with `upgrades` fitted: `model+upgrade+munition@launcher`.
    pub fn fitted_id(&self, card: usize, upgrades: &[Fitting]) -> String {
        let mut id = self.cards[card].id.clone();
        for f in upgrades {
            id.push('+');
            id.push_str(&self.upgrades[f.upgrade].id);
            if let Some(w) = f.weapon {
                id.push('@');
                id.push_str(w);
            }
            if let Some(c) = f.choice {
                id.push('=');
                id.push_str(c);
            }
            if let Some(v) = f.variant {
                id.push('#');
                id.push_str(v);
            }
            if f.times > 1 {
                id.push_str(&format!("*{}", f.times));
            }
        }
        id
    }

    pub fn upgrade(&self, id: &str) -> Option<usize> {
        self.upgrades.iter().position(|u| u.id == id)
    }

    /// The card of `card` with `upgrades` fitted (001 Appendix B): its threat value grows by their
    /// cost, their granted special attributes join the card's (a rating adds to one it has), each
    /// upgrade rides on the card as its own special attribute (its modifiers, script and hooks
    /// play like an SA's; the `upgrade-<id>` condition tests it), and their card effects (MV, AV,
    /// hard or soft, ammo reserve, damage result) change the card's values. The fitted card is
    /// added once, under the id `model+upgrade+…`; its index is returned.
    ///
    /// A munition loads its profile into each launcher mount it is fitted to: the mount fires
    /// the munition's RAV and special attributes (its cost per launcher joins the TV). A second
    /// munition of one launcher is a further mount, an alternative to the first (`launcher`).
    pub fn fit(&mut self, card: usize, upgrades: &[Fitting]) -> usize {
        if upgrades.is_empty() {
            return card;
        }
        let id = self.fitted_id(card, upgrades);
        if let Some(i) = self.card(&id) {
            return i;
        }
        let mut c = self.cards[card].clone();
        // A reaction the card has of its own is not made single-use by an upgrade granting it again.
        let had_reaction = c.weapons.iter().any(|w| w.reaction);
        let mut spent_once = None;
        let tracks = c.columns.saturating_sub(1) as u32;
        let cost = |tv: u32, per_track: bool| if per_track { tv.saturating_mul(tracks) } else { tv };
        let mut added = Vec::new();
        // Grants switched on by the Special action, by state: on cards of their own.
        let mut switched: Vec<(StateIx, Vec<(SaIx, i32)>)> = Vec::new();
        for &Fitting { upgrade, weapon, choice, variant, times } in upgrades {
            let up = &self.upgrades[upgrade];
            let times = times.clamp(1, 99);
            // An unknown variant costs and grants as the upgrade itself: the force check names it.
            let rank = variant.and_then(|v| up.variants.iter().find(|r| r.0 == v));
            let tv = rank.map_or(up.tv, |r| r.1);
            c.tv = c.tv.saturating_add(cost(tv, up.per_track).saturating_mul(times));
            added.push((up.sa, times as i32));
            if up.choose_grant {
                // The chosen grant goes to the named weapon's mounts, RAV effects and all (a
                // missing or unknown choice grants nothing: the force check names it).
                let chosen = up.grants.iter().find(|(sa, _)| choice == Some(self.sas[*sa as usize].id.as_str()));
                if let (Some(&(sa, rating)), Some(w)) = (chosen, weapon) {
                    let by = |t| SaDef::card_effect(&self.sas, &[(sa, rating)], t).unwrap_or(0);
                    let (hard, soft) = (by(ModifierTarget::HardRav), by(ModifierTarget::SoftRav));
                    let add = |v: Option<u8>, by: i32| v.map(|v| (i32::from(v) + by).clamp(0, 255) as u8);
                    for m in c.weapons.iter_mut().filter(|m| m.weapon == w) {
                        m.sas.push((sa, rating));
                        m.derive(&self.sas);
                        for r in &mut m.rav {
                            *r = (add(r.0, hard), add(r.1, soft));
                        }
                    }
                }
            } else {
                let grants = up.grants.iter().map(|&(sa, rating)| (sa, rank.and_then(|r| r.2).unwrap_or(rating)));
                match up.switch {
                    Some(state) if switched.len() < Switch::MAX => switched.push((state, grants.collect())),
                    // (More switched upgrades than a card can play: the force check refuses them.)
                    Some(_) => {}
                    None => added.extend(grants),
                }
                if up.single_use {
                    spent_once = Some(up.sa);
                }
            }
            for p in up.profiles.iter().filter(|p| weapon.is_none_or(|w| w == p.launcher)) {
                let launchers: Vec<usize> = (0..c.weapons.len())
                    .filter(|&i| c.weapons[i].weapon == p.launcher && c.weapons[i].launcher.is_none())
                    .collect();
                for i in launchers {
                    c.tv = c.tv.saturating_add(cost(p.tv, p.per_track));
                    let mut loaded = c.weapons[i].loaded(p, &up.name, &up.id, &self.sas);
                    loaded.homes_on.clone_from(&up.homes_on);
                    // A launcher whose damage is its ammunition fires the first munition loaded;
                    // any other launcher keeps its own load beside the munition.
                    if c.weapons[i].munition.is_none() && c.weapons[i].ammo_dependent {
                        c.weapons[i] = loaded;
                    } else {
                        c.weapons.push(MountDef { launcher: Some(i), ..loaded });
                    }
                }
            }
        }
        c.grant(&self.sas, &added);
        c.arm_close_defense(self.proc.close_defense.as_ref());
        if let Some(sa) = spent_once.filter(|_| !had_reaction) {
            for w in c.weapons.iter_mut().filter(|w| w.reaction) {
                w.charges = Some(sa);
            }
        }
        if self.proc.strike_point_tp.is_some() {
            c.arm_strikes(&self.strikes, self.strike_caller);
        }
        if !switched.is_empty() {
            // One card per set of switches on, each the fitted card with those grants as well
            // (same weapons, so a model's per-mount records fit every one of them).
            let mut cards = Vec::new();
            for mask in 1usize..(1 << switched.len()) {
                let mut on = c.clone();
                let mut extra = Vec::new();
                let mut names = Vec::new();
                for (_, (state, grants)) in switched.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0) {
                    extra.extend(grants.iter().copied());
                    names.push(self.states.get(*state as usize).map_or("?", |s| s.id.as_str()));
                }
                on.id = format!("{id}~{}", names.join("~"));
                on.grant(&self.sas, &extra);
                self.cards.push(on);
                cards.push(self.cards.len() - 1);
            }
            c.switch = Some(Box::new(Switch { states: switched.iter().map(|(s, _)| *s).collect(), cards }));
        }
        c.id = id;
        self.cards.push(c);
        self.cards.len() - 1
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
    /// Whether models of this type have the trait.
    pub fn has_trait(&self, model_type: f::ModelType, t: ModelTrait) -> bool {
        self.model_type(model_type).is_some_and(|x| x.traits.has(t))
    }
    /// How the ruleset plays models of this type (compile refuses cards of types it does not).
    pub fn model_type(&self, model_type: f::ModelType) -> Option<&ModelTypeDef> {
        self.proc.model_types[model_type as usize].as_ref()
    }
}
