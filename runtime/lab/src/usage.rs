//! Action usage: per side, how often the bots took each action, each reaction, and how often each
//! special attribute acted, so a modder sees which of a unit's abilities a sim never exercised.
//!
//! What "used" means, per kind:
//! - **An action**: the controller declared it and the rules accepted the declaration (the
//!   engine's checks passed, so it resolved); a declaration the rules refused and the controller
//!   took back does not count, nor does a pass. Counted by the action's name as controllers and
//!   scenario tests write it (`move`, `reverse`, `fire`, `target-lock`), or by the ruleset's own
//!   action type's id where the action is taken as one (`run`). Counted by wrapping the
//!   controller ([`Counting`]): the engine logs no event for every declaration.
//! - **A reaction**: an out-of-turn action the log records: a reaction window's action
//!   (`reacted`, by its action type), over-watch fire, defensive fire, counter-battery fire and
//!   close defense (their events), by the reacting model's side.
//! - **A special attribute**: it acted in an event: a roll it changed (a non-zero modifier of the
//!   SA's own effects, of a modifier-table row whose condition asks for the SA, or a single-use
//!   charge spent), a hit whose margin, RAV or AV it changed, an effect its script applied
//!   (`script_effect`), an out-of-ammo result its ammo reserve saved. Each such event counts once
//!   per SA, under the side of the model that carries it (the roller or the target; a rule of
//!   the whole game, which no model carries, under the roller's side). An SA that acts only
//!   through a card value or a trait the engine reads (printed RAV, a model type) is named by no
//!   event and is never counted as used.
//!
//! "Available" is known cheaply only for special attributes: the games in which a model of the
//! side carried the SA (on its card or a weapon mount), and for an optional SA the times the
//! controller was asked whether to use it. For actions the report gives the decisions (the times
//! a side's controller was asked for an action): which actions were legal at each decision would
//! need the engine to enumerate them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use cav_format::ModifierTarget;
use cav_format::vocab::C3Use;
use cav_rules::compile::SaIx;
use cav_rules::game::{Controller, actions};
use cav_rules::geom::P;
use cav_rules::{Action, AttackAnswer, Event, Game, Rules};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sum;

/// How often one special attribute was carried and used by a side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SaUsage {
    /// Games in which a model of the side carried it (on its card or a weapon mount).
    pub carried: u64,
    /// Games in which it acted at least once for the side.
    pub games: u64,
    /// Times it acted: rolls and hits it changed, effects its script applied, out-of-ammo
    /// results its reserve saved (each event once).
    pub uses: u64,
    /// An optional SA: the times the controller was asked whether to use it for an action.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub offered: u64,
    /// Of those, the times it declined.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub declined: u64,
}

impl SaUsage {
    fn add(&mut self, o: &SaUsage) -> Result<(), String> {
        self.carried = sum(self.carried, o.carried)?;
        self.games = sum(self.games, o.games)?;
        self.uses = sum(self.uses, o.uses)?;
        self.offered = sum(self.offered, o.offered)?;
        self.declined = sum(self.declined, o.declined)?;
        Ok(())
    }
}

/// How one action met a side's searching bot: the decisions at which the engine would accept it,
/// those at which it was played out, and why it could not be declared at the others.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Offered {
    /// Decisions at which the engine accepted some declaration of it.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub available: u64,
    /// Decisions at which it was among the candidates played out.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub weighed: u64,
    /// At the other decisions, the engine's reasons for refusing every declaration tried (numbers
    /// written `#`), each counted once per decision.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub refused: BTreeMap<String, u64>,
}

impl Offered {
    fn add(&mut self, o: &Offered) -> Result<(), String> {
        self.available = sum(self.available, o.available)?;
        self.weighed = sum(self.weighed, o.weighed)?;
        crate::add_all(&mut self.refused, &o.refused)
    }

    /// The `n` reasons given most often, with their counts (by name among equals).
    pub fn main_refusals(&self, n: usize) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.refused.iter().map(|(r, &k)| (r.as_str(), k)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }
}

/// What one side used over the games (see the module's comment for what "used" means).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Usage {
    /// Times the side's controller was asked for an action (passes and refused declarations
    /// included): the decisions the actions below were chosen at.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub decisions: u64,
    /// Actions declared and accepted by the rules, by name (`move`, `fire`, a ruleset's own
    /// action type's id).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub actions: BTreeMap<String, u64>,
    /// Reactions taken, by name (`defensive-fire`, `overwatch-fire`, `counter-battery`,
    /// `close-defense`, or a reaction window's action type).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reactions: BTreeMap<String, u64>,
    /// Times the side's controller was asked whether to take each reaction (`defensive-fire`,
    /// `overwatch-fire`, `counter-battery`, `close-defense`; a reaction window's, by window).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reactions_offered: BTreeMap<String, u64>,
    /// For a side a searching bot played: each action the ruleset has, by name, as the search met
    /// it at its decisions (so a report can say why an action was never used).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub searched: BTreeMap<String, Offered>,
    /// Special attributes the side carried or used, by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sas: BTreeMap<String, SaUsage>,
    /// Shots the side's models made (as the weapons' counts: an attack, each further hit roll of
    /// an attack by roll kinds).
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub shots: u64,
    /// Of those, the hopeless ones: the hit roll could not succeed with its modifiers.
    #[serde(default, skip_serializing_if = "crate::is_zero")]
    pub hopeless: u64,
}

impl Usage {
    pub(crate) fn add(&mut self, o: &Usage) -> Result<(), String> {
        self.decisions = sum(self.decisions, o.decisions)?;
        crate::add_all(&mut self.actions, &o.actions)?;
        crate::add_all(&mut self.reactions, &o.reactions)?;
        crate::add_all(&mut self.reactions_offered, &o.reactions_offered)?;
        for (a, u) in &o.searched {
            self.searched.entry(a.clone()).or_default().add(u)?;
        }
        for (sa, u) in &o.sas {
            self.sas.entry(sa.clone()).or_default().add(u)?;
        }
        self.shots = sum(self.shots, o.shots)?;
        self.hopeless = sum(self.hopeless, o.hopeless)?;
        Ok(())
    }

    /// Games an SA was carried or used in are games played; a game it was used in is a use; a
    /// declined SA was offered.
    pub(crate) fn consistent(&self, side: &str, games: u64) -> Result<(), String> {
        if self.hopeless > self.shots {
            return Err(format!("`{side}`: {} hopeless shots of {}", self.hopeless, self.shots));
        }
        for (sa, u) in &self.sas {
            if u.carried > games || u.games > games || u.games > u.uses || u.declined > u.offered {
                return Err(format!(
                    "`{side}` special attribute `{sa}`: carried in {} and used in {} of {games} games, {} uses, \
                     declined {} of {} times offered",
                    u.carried, u.games, u.uses, u.declined, u.offered
                ));
            }
        }
        Ok(())
    }

    /// Uses of special attribute `sa` (its id).
    pub fn sa_uses(&self, sa: &str) -> u64 {
        self.sas.get(sa).map_or(0, |u| u.uses)
    }
}

/// What names a special attribute in the events: the sources of modifiers and hit changes (the
/// SA's name, a modifier-table row whose condition asks for it), and the SAs that give an ammo
/// reserve. Built once per run.
pub(crate) struct SaSources {
    by_source: HashMap<String, Vec<SaIx>>,
    reserve: Vec<SaIx>,
}

impl SaSources {
    pub(crate) fn new(rules: &Rules) -> SaSources {
        let mut by_source: HashMap<String, Vec<SaIx>> = HashMap::new();
        let mut add = |name: &str, sa: SaIx| {
            let v = by_source.entry(name.to_owned()).or_default();
            if !v.contains(&sa) {
                v.push(sa);
            }
        };
        for (i, sa) in rules.sas.iter().enumerate() {
            add(&sa.name, i as SaIx);
        }
        // The condition families that name an SA by its index (`sa-`, `defender-sa-`, `squad-sa-`).
        let families: Vec<_> =
            ["sa-", "defender-sa-", "squad-sa-"].into_iter().filter_map(cav_rules::game::conditions::find).collect();
        let tables = [
            &rules.combat_mods,
            &rules.indirect_mods,
            &rules.strike_point_mods,
            &rules.strike_package_mods,
            &rules.pilot_mods,
            &rules.close_combat_mods,
            &rules.damage_roll_mods,
            &rules.break_mods,
        ];
        for m in tables.into_iter().flatten() {
            for c in std::iter::once(&m.cond).chain(&m.also) {
                if families.contains(&c.id) && usize::from(c.arg) < rules.sas.len() {
                    add(&m.name, c.arg);
                }
            }
        }
        let reserve = (0..rules.sas.len())
            .filter(|&i| rules.sas[i].effects.iter().any(|e| e.target == ModifierTarget::AmmoReserve))
            .map(|i| i as SaIx)
            .collect();
        SaSources { by_source, reserve }
    }

    /// The SAs a modifier's or a hit change's source names (`A, B`: several SAs' names joined).
    fn named<'a>(&'a self, source: &'a str) -> impl Iterator<Item = SaIx> + 'a {
        let whole = self.by_source.get(source);
        let parts = whole.is_none().then(|| source.split(", ").filter_map(|p| self.by_source.get(p))).into_iter();
        whole.into_iter().chain(parts.flatten()).flatten().copied()
    }
}

/// One SA acting in an event: the models that may carry it, in the order asked (the first that
/// carries it is the user); `carried_only`: not counted when none does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct SaUse {
    sa: SaIx,
    models: [Option<usize>; 2],
    carried_only: bool,
}

/// What [`Counting`] and the event sink gather during one game, settled into per-side
/// [`Usage`] once it ends.
#[derive(Default)]
pub(crate) struct UsageTally {
    /// Reactions, by reacting model and name.
    reactions: BTreeMap<(usize, String), u64>,
    /// SA uses, each with its count.
    sa_uses: BTreeMap<SaUse, u64>,
    /// The target of the attack under way: the other model that may carry an SA a roll names.
    target: Option<usize>,
    /// Shots and hopeless shots, by shooting model.
    shots: BTreeMap<usize, (u64, u64)>,
}

impl UsageTally {
    /// `model` made `n` shots, `hopeless` of them hopeless.
    pub(crate) fn shots(&mut self, model: usize, n: u64, hopeless: u64) {
        let e = self.shots.entry(model).or_default();
        (e.0, e.1) = (e.0.saturating_add(n), e.1.saturating_add(hopeless));
    }

    pub(crate) fn push(&mut self, e: &Event, sources: Option<&SaSources>) {
        let mut uses = BTreeSet::new();
        let mut one = |sa: SaIx, models: [Option<usize>; 2], carried_only: bool| {
            uses.insert(SaUse { sa, models, carried_only });
        };
        let mut react = |model: usize, what: &str| *self.reactions.entry((model, what.to_owned())).or_default() += 1;
        match e {
            Event::Reacted { model, action, .. } => react(*model, action),
            Event::OverwatchFire { model, .. } => react(*model, "overwatch-fire"),
            Event::DefensiveFire { model, .. } => react(*model, "defensive-fire"),
            Event::CounterBattery { model, .. } => react(*model, "counter-battery"),
            Event::CloseDefense { model, .. } => react(*model, "close-defense"),
            Event::Attack { target, .. } => self.target = Some(*target),
            Event::CloseCombat { target, .. } => self.target = Some(*target),
            Event::ActivationEnd { .. } => self.target = None,
            _ => {}
        }
        let Some(sources) = sources else { return };
        match e {
            Event::Roll(r) => {
                for m in r.mods.iter().filter(|m| m.value != 0) {
                    let models = [Some(r.model), self.target];
                    if let Some(sa) = m.charge {
                        one(sa, models, false);
                    }
                    for sa in sources.named(&m.source) {
                        one(sa, models, false);
                    }
                }
            }
            Event::Hit { model, target, changes, .. } => {
                for c in changes.iter().filter(|c| c.value != 0) {
                    for sa in sources.named(&c.source) {
                        one(sa, [Some(*target), Some(*model)], false);
                    }
                }
            }
            Event::ScriptEffect { by, source, .. } => {
                for sa in sources.named(source) {
                    one(sa, [Some(*by), None], false);
                }
            }
            Event::OutOfAmmo { model, saved_by_reserve: true, .. } => {
                for &sa in &sources.reserve {
                    one(sa, [Some(*model), None], true);
                }
            }
            _ => {}
        }
        for u in uses {
            *self.sa_uses.entry(u).or_default() += 1;
        }
    }

    /// The game's usage per side index: the reactions and SA uses gathered, the SAs the models
    /// carried, and what the controller counted (`from_controller`).
    pub(crate) fn settle(self, game: &Game, mut usage: BTreeMap<usize, Usage>) -> BTreeMap<usize, Usage> {
        let side_of = |m: usize| game.models.get(m).map(|x| x.side);
        let carries = |m: usize, sa: SaIx| {
            game.models.get(m).is_some_and(|_| {
                let card = game.card(m);
                card.sas.iter().chain(card.weapons.iter().flat_map(|w| &w.sas)).any(|&(s, _)| s == sa)
            })
        };
        let sa_id = |sa: SaIx| game.rules.sas.get(sa as usize).map_or_else(|| format!("sa {sa}"), |d| d.id.clone());
        for (model, (n, hopeless)) in self.shots {
            if let Some(side) = side_of(model) {
                let u = usage.entry(side).or_default();
                (u.shots, u.hopeless) = (u.shots.saturating_add(n), u.hopeless.saturating_add(hopeless));
            }
        }
        for ((model, what), n) in self.reactions {
            if let Some(side) = side_of(model) {
                *usage.entry(side).or_default().reactions.entry(what).or_default() += n;
            }
        }
        let mut carried: BTreeSet<(usize, SaIx)> = BTreeSet::new();
        for (m, model) in game.models.iter().enumerate() {
            let card = game.card(m);
            for &(sa, _) in card.sas.iter().chain(card.weapons.iter().flat_map(|w| &w.sas)) {
                carried.insert((model.side, sa));
            }
        }
        for &(side, sa) in &carried {
            usage.entry(side).or_default().sas.entry(sa_id(sa)).or_default().carried = 1;
        }
        let mut used: BTreeSet<(usize, SaIx)> = BTreeSet::new();
        for (u, n) in self.sa_uses {
            let models = u.models.iter().flatten().copied();
            let by = models.clone().find(|&m| carries(m, u.sa));
            let by = if u.carried_only { by } else { by.or_else(|| models.clone().next()) };
            let Some(side) = by.and_then(side_of) else { continue };
            usage.entry(side).or_default().sas.entry(sa_id(u.sa)).or_default().uses += n;
            used.insert((side, u.sa));
        }
        for (side, sa) in used {
            usage.entry(side).or_default().sas.entry(sa_id(sa)).or_default().games = 1;
        }
        usage
    }
}

/// A controller that counts what the one it wraps decides: the decisions, the actions declared
/// and accepted, the optional SAs offered and declined. It forwards every method of
/// [`Controller`] unchanged, so the games are the wrapped controller's own (a method of the trait
/// it did not forward would play its default instead: `usage_counts_match_the_logs` compares the
/// games with the plain bot's).
pub(crate) struct Counting<'r, C> {
    pub(crate) inner: C,
    rules: &'r Rules,
    /// Per side index.
    pub(crate) usage: BTreeMap<usize, Usage>,
    /// The action last counted, until the rules refuse it: (side, name).
    last: Option<(usize, String)>,
}

impl<'r, C: Controller> Counting<'r, C> {
    pub(crate) fn new(inner: C, rules: &'r Rules) -> Self {
        Counting { inner, rules, usage: BTreeMap::new(), last: None }
    }

    /// `model`'s side was asked whether to take reaction `what`.
    fn offered(&mut self, game: &Game, model: usize, what: &str) {
        let u = self.usage.entry(game.models[model].side).or_default();
        *u.reactions_offered.entry(what.to_owned()).or_default() += 1;
    }
}

impl<C: Controller> Controller for Counting<'_, C> {
    fn decide(&mut self, game: &Game, model: usize, ap: u32) -> Action {
        let action = self.inner.decide(game, model, ap);
        let side = game.models[model].side;
        let u = self.usage.entry(side).or_default();
        u.decisions += 1;
        self.last = None;
        if !action.is_pass() {
            let name = actions::name_of(&action, self.rules).to_owned();
            *u.actions.entry(name.clone()).or_default() += 1;
            self.last = Some((side, name));
        }
        action
    }
    fn refused(&mut self, game: &Game, model: usize, reason: &str) -> bool {
        // The declaration changed nothing: it is not a use.
        if let Some((side, name)) = self.last.take()
            && let Some(n) = self.usage.get_mut(&side).and_then(|u| u.actions.get_mut(&name))
        {
            *n = n.saturating_sub(1);
        }
        self.inner.refused(game, model, reason)
    }
    fn relocate_strike_point(&mut self, game: &Game, attacker: usize, defender: usize, options: &[P]) -> Option<P> {
        self.inner.relocate_strike_point(game, attacker, defender, options)
    }
    fn defensive_fire(&mut self, game: &Game, defender: usize, attacker: usize) -> Option<Vec<usize>> {
        self.offered(game, defender, "defensive-fire");
        self.inner.defensive_fire(game, defender, attacker)
    }
    fn counter_battery(&mut self, game: &Game, model: usize, attacker: usize) -> Option<Vec<usize>> {
        self.offered(game, model, "counter-battery");
        self.inner.counter_battery(game, model, attacker)
    }
    fn airborne_jump(&mut self, game: &Game, rider: usize, transport: usize) -> Option<P> {
        self.inner.airborne_jump(game, rider, transport)
    }
    fn self_destruct(&mut self, game: &Game, caller: usize, missile: usize) -> bool {
        self.inner.self_destruct(game, caller, missile)
    }
    fn close_defense(&mut self, game: &Game, model: usize, attacker: usize) -> bool {
        self.offered(game, model, "close-defense");
        self.inner.close_defense(game, model, attacker)
    }
    fn ambush_at(&mut self, game: &Game, model: usize) -> Option<P> {
        self.inner.ambush_at(game, model)
    }
    fn overwatch_fire(&mut self, game: &Game, watcher: usize, mover: usize) -> Option<Vec<usize>> {
        self.offered(game, watcher, "overwatch-fire");
        self.inner.overwatch_fire(game, watcher, mover)
    }
    fn use_special_attribute(
        &mut self,
        game: &Game,
        model: usize,
        sa: &str,
        weapon: Option<usize>,
        target: Option<usize>,
    ) -> bool {
        let yes = self.inner.use_special_attribute(game, model, sa, weapon, target);
        let u = self.usage.entry(game.models[model].side).or_default().sas.entry(sa.to_owned()).or_default();
        u.offered += 1;
        u.declined += u64::from(!yes);
        yes
    }
    fn skip_card(&mut self, game: &Game, side: usize, card: usize) -> bool {
        self.inner.skip_card(game, side, card)
    }
    fn react(&mut self, game: &Game, window: usize, reactor: usize, actor: usize) -> Option<Action> {
        if let Some(w) = game.rules.reaction_windows.get(window) {
            self.offered(game, reactor, &format!("window:{}", w.id));
        }
        self.inner.react(game, window, reactor, actor)
    }
    fn answer_attack(&mut self, game: &Game, model: usize, attacker: usize, options: &[AttackAnswer]) -> Option<usize> {
        self.inner.answer_attack(game, model, attacker, options)
    }
    fn answer_reactions(
        &mut self,
        game: &Game,
        model: usize,
        attacker: usize,
        options: &[AttackAnswer],
    ) -> Option<usize> {
        self.inner.answer_reactions(game, model, attacker, options)
    }
    fn choose_unit(&mut self, game: &Game, side: usize, units: &[Vec<usize>]) -> usize {
        self.inner.choose_unit(game, side, units)
    }
    fn spend_c3(&mut self, game: &Game, model: usize, what: C3Use) -> bool {
        self.inner.spend_c3(game, model, what)
    }
    fn seize_initiative(&mut self, game: &Game, squad: usize) -> Option<usize> {
        self.inner.seize_initiative(game, squad)
    }
    fn pre_game_move(&mut self, game: &Game, model: usize) -> Option<P> {
        self.inner.pre_game_move(game, model)
    }
}
