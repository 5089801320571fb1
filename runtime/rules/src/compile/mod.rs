//! The compiled rules the engine plays: every table indexed, every condition id resolved to a
//! [`Cond`], every number normalised so a positive modifier always helps the roller. The engine's
//! hot path then needs no string lookups. `cav-compile` builds them from a loaded ruleset.

use std::collections::BTreeMap;

use cav_format::vocab::EngineOptions;

use cav_format::{self as f, ModelTrait, ModifierTarget};

use crate::dice::DiceExpr;

mod assets;
mod board;
mod cards;
mod mounts;
mod procedures;
mod roll_kinds;
mod scenario;
mod special_attributes;
mod states;
mod tables;
mod terrain;

pub use assets::*;
pub use board::*;
pub use cards::*;
pub use mounts::*;
pub use procedures::*;
pub use roll_kinds::*;
pub use scenario::*;
pub use special_attributes::*;
pub use states::*;
pub use tables::*;
pub use terrain::*;

pub type StateIx = u16;

/// A value worked out from the rules when first asked (the odds of a roll kind's dice). It is not
/// part of what the rules say: their `Debug` form, the fingerprint `cav_lab::same_rules`
/// compares, shows it as one word whether or not it was asked for, and compiled rules kept by
/// `cav` are stored without it.
#[derive(Clone, Default)]
pub struct WorkedOut<T>(std::sync::OnceLock<T>);

impl<T> std::ops::Deref for WorkedOut<T> {
    type Target = std::sync::OnceLock<T>;
    fn deref(&self) -> &std::sync::OnceLock<T> {
        &self.0
    }
}

impl<T> std::fmt::Debug for WorkedOut<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WorkedOut")
    }
}

/// A model type the ruleset declares (`model_types:`), by its place in `Proc::model_types`.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeIx(pub u8);

impl TypeIx {
    /// No declared type: the card of an asset that attacks on its own, which has no traits.
    pub const NONE: TypeIx = TypeIx(u8::MAX);
}
pub type SaIx = u16;

/// The action slots an action type uses: `mask`, and one more free slot when `any`.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotUse {
    pub mask: u32,
    pub any: bool,
}

/// How a turn orders its activations.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub enum TurnSequence {
    /// Cards drawn from a shuffled deck, each naming a side.
    DrawDeck(f::DrawDeckRules),
    /// Activations paid from each side's pool, alternating or in player turns.
    Pooled(f::TurnOrder),
}

/// Action points by an attribute's value (`f::ActionPointsBy`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ActionPointsBy {
    /// Index into `Rules::attributes`.
    pub attribute: usize,
    /// (At most this value, these points), rising; `None`: any higher value.
    pub steps: Vec<(Option<i32>, u32)>,
}

/// Everything the engine needs, indexed.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    pub id: String,
    pub name: String,
    pub action_points: u32,
    /// Action points by an attribute (`action_points_by`).
    pub action_points_by: Option<ActionPointsBy>,
    /// Squad types: (id, most models).
    pub squad_types: Vec<(String, u32)>,
    /// What activates together (a model, or a squad), and how the turn orders activations.
    pub activation: f::ActivationMode,
    pub turn: TurnSequence,
    pub standard: DiceExpr,
    /// The exact chance an engine roll with no modifier reaches the bands' target points, judged
    /// by the ruleset's roll kinds: what controllers weigh their options with (`engine_chance`).
    pub engine_odds: TargetOdds,
    /// The odds of the standard dice, where no roll kind judges the engine's rolls.
    #[serde(skip)]
    pub standard_odds: WorkedOut<crate::dice::Odds>,
    /// `None` only where nothing drifts (`compile/src/required.rs`; the engine refuses a drift
    /// without it).
    pub drift: Option<DiceExpr>,
    /// The attributes the ruleset's models carry (`attributes:`): their ids, in the order of
    /// every card's `CardDef::attributes`.
    pub attributes: Vec<String>,
    /// The attributes the ruleset's weapons carry (`weapon_attributes:`), in the order of every
    /// mount's `MountDef::attributes`.
    pub weapon_attributes: Vec<String>,
    /// The weapon attribute with `role: rav` (its mounts' values are `MountDef::rav`, chosen by
    /// the target: `Game::rav`); `None`: no document writes a RAV.
    pub weapon_rav: Option<usize>,
    /// The board's hexes (`board: {topology: hex}`); `None`: continuous inches.
    pub hexes: Option<HexGeometry>,
    /// The parts one MV is cut into to pay terrain costs (`TerrainDef::costs`): the least common
    /// multiple of the fractional costs' denominators; 1 where none is a fraction.
    pub mv_parts: u32,
    /// A direct-fire shot by roll kinds and attributes (`procedures.attack`); `None`: the
    /// standard roll against the band, RAV against AV, the damage table.
    pub attack: Option<AttackProc>,
    /// Close combat by roll kinds, fought as each command ends (`procedures.melee`).
    pub melee: Option<MeleeProc>,
    /// The roll kinds the ruleset names (`roll_kinds:`), and its contests (`contests:`).
    pub roll_kinds: Vec<RollRule>,
    pub contests: Vec<ContestRule>,
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
    /// The damage roll of each hit under `attack` (`damage_roll_modifiers`).
    pub damage_roll_mods: Vec<Mod>,
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
    /// The tables a result may roll on (`roll_on`, `roll_again`) and the attack's damage table
    /// (`AttackProc::damage_table`), by the indices rows and the attack hold.
    pub lookup_tables: Vec<LookupTable>,
    /// Each attribute's bounds (`attributes:` `min`/`max`), in `attributes` order: what a lasting
    /// change (`Row::attributes`) stays within.
    pub attribute_bounds: Vec<(i32, i32)>,
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
    /// The ruleset's `features:` (`None`: every feature the engine has).
    pub features: Option<Vec<f::vocab::Feature>>,
    /// C3 points and what they buy, when the ruleset has them.
    pub c3: Option<C3Def>,
    /// Every option of the ruleset with the reading it chose (`id`, value), for scripts to read.
    pub options: Vec<(String, String)>,
    /// AP cost of each action type, by id.
    pub action_costs: BTreeMap<String, u32>,
    /// The ruleset's own action types (`does:`), each a kind of one of the engine's actions.
    pub own_actions: Vec<OwnAction>,
    /// The values its terrain carries (`terrain_values:`): their names, as players read them,
    /// and their ids (scripts' `values` keys).
    pub terrain_values: Vec<String>,
    pub terrain_value_ids: Vec<String>,
    /// Moments the other side may react out of turn (`reaction_windows`).
    pub reaction_windows: Vec<f::ReactionWindow>,
    /// The action slots each window's reactions use (`uses:`, as a mask), by window.
    pub reaction_slots: Vec<u32>,
    /// The ruleset's action slots (`action_slots`), bit `i` of a slot mask being slot `i`.
    pub action_slots: Vec<String>,
    /// The slots each action type uses, by action id (only those that use any).
    pub slot_uses: std::collections::BTreeMap<String, SlotUse>,
    /// Special attributes whose models take an action type for 0 AP, by action id.
    pub action_free_with: BTreeMap<String, Vec<SaIx>>,
    /// The model types that may take an action type, and those it may be aimed at, by action id
    /// (only action types that limit either).
    /// (Ordered: the compiled rules' `Debug` form is their fingerprint, `cav_lab::same_rules`.)
    pub action_model_types: std::collections::BTreeMap<String, ActionTypes>,
    /// Some action type is closed to a unit an enemy targeted this turn: the engine marks the
    /// units aimed at (`not_if_targeted`).
    pub marks_targeted: bool,
}

/// A set of model traits.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traits(u32);

impl Traits {
    pub fn of(traits: &[ModelTrait]) -> Traits {
        Traits(traits.iter().fold(0, |acc, t| acc | 1 << (*t as u32)))
    }
    pub fn has(self, t: ModelTrait) -> bool {
        self.0 & (1 << (t as u32)) != 0
    }
}

/// The chance an engine roll with no modifier reaches the target points the ruleset's range
/// bands name (what bots weigh shots with), worked out once; another target point is worked out
/// when asked.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct TargetOdds {
    /// (target point, chance by `TargetOdds::slot`), by target point.
    known: Vec<(i32, [f64; 4])>,
}

impl TargetOdds {
    /// The chances of `tps` for `rules`' engine rolls.
    pub fn new(rules: &Rules, tps: impl IntoIterator<Item = i32>) -> TargetOdds {
        let mut tps: Vec<i32> = tps.into_iter().collect();
        tps.sort_unstable();
        tps.dedup();
        let known = tps.into_iter().map(|tp| (tp, std::array::from_fn(|i| Self::work_out(rules, tp, i)))).collect();
        TargetOdds { known }
    }

    /// Where the chance of an engine roll (a 10+ one where `ten_plus`; counting its critical's
    /// bonus where `critical`) sits.
    fn slot(ten_plus: bool, critical: bool) -> usize {
        usize::from(ten_plus) * 2 + usize::from(critical)
    }

    fn work_out(rules: &Rules, tp: i32, slot: usize) -> f64 {
        let (ten_plus, critical) = (slot >= 2, slot % 2 == 1);
        match rules.engine_roll(ten_plus) {
            Some(kind) => kind.chance_with(0, tp, critical),
            None => rules.standard_odds().at_least(tp),
        }
    }
}

impl Rules {
    /// The chance an engine roll (a 10+ roll where `ten_plus`; one whose procedure reads a
    /// critical where `critical`) with no modifier reaches `tp`, as its roll kind judges it.
    pub fn engine_chance(&self, tp: i32, ten_plus: bool, critical: bool) -> f64 {
        let slot = TargetOdds::slot(ten_plus, critical);
        match self.engine_odds.known.binary_search_by_key(&tp, |(t, _)| *t) {
            Ok(i) => self.engine_odds.known[i].1[slot],
            Err(_) => TargetOdds::work_out(self, tp, slot),
        }
    }

    /// The odds of the standard dice alone (worked out once).
    fn standard_odds(&self) -> &crate::dice::Odds {
        self.standard_odds.get_or_init(|| self.standard.odds())
    }

    /// The roll kind judging the engine's rolls of the standard dice (`procedures.rolls.kind`),
    /// or its 10+ rolls (`ten_plus_kind`); `None`: they only compare result and target.
    pub fn engine_roll(&self, ten_plus: bool) -> Option<&RollRule> {
        let k = if ten_plus { self.proc.rolls.ten_plus_kind } else { self.proc.rolls.kind };
        k.and_then(|k| self.roll_kinds.get(k))
    }

    /// Judge an engine roll of `expr` (the dice kept summing to `sum`; with modifiers and any
    /// critical bonus, to `total`): the one judgement of the engine's rolls and a script's
    /// `ctx.roll_dice`, by the ruleset's roll kind, so criticals are counted one way.
    pub fn verdict(
        &self,
        expr: DiceExpr,
        sum: i32,
        total: i32,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> Verdict {
        match self.engine_roll(ten_plus) {
            Some(kind) => kind.verdict(expr, sum, total, target, crit_at),
            None => Verdict {
                natural: sum.saturating_sub(expr.plus).max(0) as u32,
                fumble: false,
                crit: false,
                success: target.map(|t| total >= t),
                margin: target.map(|t| total.saturating_sub(t)),
            },
        }
    }

    /// Where the engine's rolls (its 10+ rolls where `ten_plus`) are critical, shifted by
    /// `shift` (`None`: they never are).
    pub fn critical_at(&self, shift: i32, ten_plus: bool) -> Option<u32> {
        self.engine_roll(ten_plus).and_then(|k| k.critical_at(shift))
    }

    /// The dice a critical of the engine's rolls adds (and a close-combat fumble hands over).
    pub fn critical_bonus(&self) -> Option<DiceExpr> {
        self.engine_roll(false).and_then(RollRule::critical_bonus)
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
    ///
    /// Rosters and test models fit through here, so `cav show --with`, play and tests cannot
    /// disagree. A special attribute's MV/AV effects are part of a card's design (the printed
    /// values hold them) and are not applied again; an upgrade's are. An upgrade bought at a rank
    /// (`variants`: the Officer) takes that rank's cost and grant rating; one bought several
    /// times adds its cost and rating per purchase, which a `single_use` upgrade spends one roll
    /// or reaction at a time (`Model::charges_used`). An upgrade switched on by the Special action
    /// (`switch`: a state) keeps its grants off the fitted card: one further card is made per set
    /// of switches on, and `Game::card` returns the one the model's states select.
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
    pub fn has_trait(&self, model_type: TypeIx, t: ModelTrait) -> bool {
        self.model_type(model_type).is_some_and(|x| x.traits.has(t))
    }
    /// How the ruleset plays models of this type (every card's type is one it declares).
    pub fn model_type(&self, model_type: TypeIx) -> Option<&ModelTypeDef> {
        self.proc.model_types.get(model_type.0 as usize)
    }
    /// The word the ruleset declares the type by.
    pub fn type_name(&self, model_type: TypeIx) -> &str {
        self.model_type(model_type).map_or("", |t| t.name.as_str())
    }
    /// The declared type named `name`.
    pub fn type_ix(&self, name: &str) -> Option<TypeIx> {
        self.proc.model_types.iter().position(|t| t.name == name).map(|i| TypeIx(i as u8))
    }
    /// Whether a list of type names a pack gives (empty or not) names this type.
    pub fn type_in(&self, list: &[f::ModelType], model_type: TypeIx) -> bool {
        let name = self.type_name(model_type);
        list.iter().any(|t| t.0 == name)
    }
}

/// A ruleset's own action type (`action_type` with `does:`): Sythopian Wars' RUN, a move.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct OwnAction {
    /// The ruleset's word, its action type's id (`run`).
    pub id: String,
    /// As the narrative says it (`RUN`).
    pub name: String,
    /// The engine action's name it is taken as ([`crate::game::actions::ActionKind::name`]).
    #[serde(deserialize_with = "engine_action")]
    pub kind: EngineAction,
    /// A move goes this many times the move value.
    pub move_times: f64,
    /// A move stops at the edge of cover.
    pub avoids_cover: bool,
    /// The state the model gains as it resolves.
    pub gives: Option<StateIx>,
    /// The hit rolls of its attacks under `procedures.attack` (empty: the attack's own).
    pub attack_rolls: Vec<Term>,
    /// Each model taking it makes the unit pool's recovery test (a rally).
    pub recovers: bool,
    /// The unit's slain models return while it stands on its table edge.
    pub returns_slain: bool,
    /// Taken only where the model's terrain has this value (`Rules::terrain_values`' index).
    pub needs_terrain_value: Option<u16>,
}

/// An engine action's name. (Named, so serde does not take the field as one borrowed from its
/// input: `engine_action` gives the engine's own `'static` name instead.)
pub type EngineAction = &'static str;

/// An engine action's name read back from compiled rules kept by `cav` (`cav-cli`'s rules
/// cache): only one of the engine's own names is taken.
fn engine_action<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let name = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
    crate::game::actions::find(&name)
        .map(|k| k.name())
        .ok_or_else(|| serde::de::Error::custom(format!("no engine action `{name}`")))
}
