//! A searching bot for any ruleset: at each decision of the sides it plays it lists the actions
//! the ruleset declares that the model may take now, plays each out through the real engine to
//! the end of the turn (the rest of the activation and of the unit's, then the units still to
//! act, the rules bot choosing for all; a few dice samples each, the same samples for every
//! candidate), and declares the one whose outcome scores best.
//!
//! What it weighs is generic: the actions come from `actions::ALL` as the ruleset prices them
//! and the engine's own declaration checks accept them; targets, points and weapons come from
//! the board (the nearest enemies and friends, the rules bot's approach, the scenario's
//! objective, the way home). A weapon that cannot hit by the ruleset's roll odds, or whose hit
//! roll could not succeed in a rollout, is not declared. The score is material (each model's TV,
//! scaled down by damage and a mission kill) and a pull toward the scenario's objective; the
//! rules bot's own choice is kept unless another beats it by a margin (the best of many noisy
//! estimates is flattered by luck) and keeps that lead over further samples. Shots to come and
//! threats were tried as terms of the score and made it weaker (docs/speed.md, "The searching
//! bot"). For each action it counts the decisions the engine would accept it at, and the engine's
//! reasons where not, so a report can say why an action was never used.
//!
//! Deterministic: its dice are its own, seeded from the game's seed and the decision's number,
//! and it plays its rollouts with hooks of its own, so the game's dice and script budgets see
//! nothing of them. Its cost is counted in rollouts, never in time.

use cav_format::vocab::ActionKind as ActionWord;

use crate::bot::Bot;
use crate::dice::SeededDice;
use crate::game::actions;
use crate::game::{Action, AttackAnswer, Controller, Engine, Game, Shot};
use crate::geom::P;
use crate::hooks::Hooks;

/// How much a searching bot looks at per decision.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Dice samples each candidate is played with.
    pub samples: u32,
    /// Candidates weighed at most (the rules bot's own choice and passing always among them).
    pub candidates: usize,
    /// Enemies (nearest first) and friends considered as targets.
    pub targets: usize,
    /// Worth (in TV, per sample) another candidate must gain over the rules bot's choice to be
    /// declared instead.
    pub margin: f64,
    /// Further samples a candidate that would overrule the rules bot's choice is played with
    /// (and the choice with it) before it is declared.
    pub confirm: u32,
}

impl Default for Budget {
    /// Tuned on mirrored full-rules 1,000-TV "This is WAR!" games against the rules bot
    /// (docs/speed.md, "The searching bot"): more samples win more games and cost as many more rollouts.
    fn default() -> Self {
        Budget { samples: 8, candidates: 24, targets: 5, margin: 10.0, confirm: 8 }
    }
}

/// What a searching bot did over a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Decisions searched.
    pub decisions: u64,
    /// Activations played out (candidates × samples).
    pub rollouts: u64,
    /// Of those, the ones the rules stopped (a candidate the engine refused on the way).
    pub refused: u64,
    /// Decisions where it declared something other than the rules bot's choice.
    pub overruled: u64,
    /// How each action the ruleset has met the search, by side index and action name (the
    /// engine's, or the ruleset's own action type's id).
    pub offers: std::collections::BTreeMap<(usize, String), Offer>,
}

/// How one action met a side's searching bot over its decisions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offer {
    /// Decisions at which the engine accepted some declaration of it.
    pub available: u64,
    /// Decisions at which it was among the candidates played out (the rules bot's choice counts).
    pub weighed: u64,
    /// At the other decisions, why the engine refused every declaration tried (numbers made `#`),
    /// each reason counted once per decision.
    pub refused: std::collections::BTreeMap<String, u64>,
}

/// A refusal's reason with its numbers as `#`, so reasons that differ only in a distance or a
/// count are counted together.
fn in_general(why: &str) -> String {
    let mut out = String::with_capacity(why.len());
    let mut in_number = false;
    let mut chars = why.chars().peekable();
    while let Some(c) = chars.next() {
        let digit = c.is_ascii_digit() || (in_number && c == '.' && chars.peek().is_some_and(char::is_ascii_digit));
        if digit {
            if !in_number {
                out.push('#');
            }
        } else {
            out.push(c);
        }
        in_number = digit;
    }
    out
}

/// The searching controller: the sides in `searching` decide by search; every other question
/// (reactions, answers, the other sides' decisions) goes to the rules bot.
pub struct Search<'h> {
    rules_bot: Bot,
    /// The bot that plays a candidate's activation out.
    policy: Bot,
    hooks: &'h mut dyn Hooks,
    searching: Vec<bool>,
    seed: u64,
    budget: Budget,
    /// A decision the real game refused (model, its activation count): the rest of that
    /// activation goes to the rules bot.
    fallback: Option<(usize, u32)>,
    /// What the hit rolls its rollouts saw had of succeeding.
    roll_chance: crate::odds::RollChance,
    pub stats: Stats,
}

impl<'h> Search<'h> {
    /// A searching bot for the sides marked in `searching` (by side index), seeded with the
    /// game's `seed`, playing its rollouts with `hooks` (not the game's own: a host of its own).
    pub fn new(hooks: &'h mut dyn Hooks, searching: Vec<bool>, seed: u64, budget: Budget) -> Search<'h> {
        Search {
            rules_bot: Bot::default(),
            policy: Bot::default(),
            hooks,
            searching,
            seed,
            budget,
            fallback: None,
            roll_chance: crate::odds::RollChance::default(),
            stats: Stats::default(),
        }
    }

    /// The candidates for `model` with `ap` left: the rules bot's choice first (ties go to it),
    /// passing, then every action of the ruleset's the engine would accept now.
    fn candidates(&mut self, g: &Game, model: usize, ap: u32) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        let push = |out: &mut Vec<Action>, a: Action| {
            if !out.contains(&a) {
                out.push(a);
            }
        };
        let chosen = sharpened(g, model, self.rules_bot.decide(g, model, ap));
        if let Some(a) = chosen {
            push(&mut out, a);
        }
        push(&mut out, Action::pass());
        let me = &g.models[model];
        let by_distance = |it: &mut dyn Iterator<Item = usize>| {
            let mut v: Vec<usize> = it.collect();
            v.sort_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)).then(a.cmp(&b)));
            v.truncate(self.budget.targets);
            v
        };
        let enemies = by_distance(&mut g.fighting_enemies(model));
        let friends = by_distance(
            &mut (0..g.models.len()).filter(|&f| f != model && g.models[f].side == me.side && g.models[f].on_table()),
        );
        // Points worth going to: the rules bot's approach to each enemy, right up to it, the
        // scenario's objective, the way home.
        let best = self.rules_bot.best_distance(g, model);
        let mut points: Vec<P> = Vec::new();
        for &e in &enemies {
            points.extend(self.rules_bot.approach(g, model, e, best).to);
            points.push(g.models[e].pos);
        }
        points.extend(g.objective_for(model));
        points.push(g.withdraw_point(model));
        // Every action the ruleset has, as the engine's kind and as each of the ruleset's own
        // action types taken as it; each keeps at most `per_kind` declarations the engine accepts.
        let per_kind = self.budget.candidates;
        let side = me.side;
        let mut kinds: Vec<Vec<Action>> = Vec::new();
        for kind in actions::ALL {
            let own = g.rules.own_actions.iter().enumerate().filter(|(_, o)| o.kind == kind.name());
            let forms = std::iter::once(None).chain(own.map(|(i, _)| u16::try_from(i).ok()));
            for declared in forms {
                let probe = Action { declared, ..Action::new(kind.name()) };
                if !g.rules.action_costs.contains_key(actions::type_id(*kind, &probe, g.rules)) {
                    continue; // the ruleset does not have this action
                }
                let name = actions::name_of(&probe, g.rules).to_owned();
                let fires = kind.counts_as() == ActionWord::Combat;
                let mut variants: Vec<Action> = vec![probe.clone()];
                for &e in &enemies {
                    variants.push(probe.clone().on(e));
                    if fires {
                        for indirect in [false, true] {
                            if let Some(ws) = useful_weapons(g, model, e, indirect) {
                                variants.push(Action { indirect, ..probe.clone().on(e).with(ws.clone()) });
                                // A move that fires on the way: from halfway to the approach.
                                if let Some(to) = self.rules_bot.approach(g, model, e, best).to {
                                    let via = me.pos + (to - me.pos).scale(0.5);
                                    variants.push(Action {
                                        indirect,
                                        via: Some(via),
                                        ..probe.clone().on(e).with(ws).at(to)
                                    });
                                }
                            }
                        }
                    } else {
                        // An action that names a strike the model carries (to call it).
                        let strikes = g.card(model).weapons.iter().enumerate().filter(|(_, m)| m.strike.is_some());
                        variants.extend(strikes.map(|(w, _)| probe.clone().on(e).with(vec![w])));
                    }
                }
                variants.extend(friends.iter().map(|&f| probe.clone().on(f)));
                variants.extend(points.iter().map(|&p| probe.clone().at(p)));
                let mut accepted: Vec<Action> = Vec::new();
                let mut reasons: Vec<String> = Vec::new();
                let mut bare: Option<String> = None;
                for a in variants {
                    if accepted.len() >= per_kind {
                        break;
                    }
                    let Some(cost) = actions::cost_of(*kind, g, model, &a) else { continue };
                    match g.declaration_refusal(model, *kind, &a, cost, ap) {
                        None => accepted.push(a),
                        // The bare action's reason ("needs a target") says least: kept only if
                        // no fuller declaration gave one. Short of action points, the reason it
                        // would meet with enough is the one that says why.
                        Some(why) if accepted.is_empty() => {
                            let why = match cost > ap {
                                true => g.declaration_refusal(model, *kind, &a, cost, cost).unwrap_or(why),
                                false => why,
                            };
                            let why = in_general(&why);
                            if a == probe {
                                bare = Some(why);
                            } else if !reasons.contains(&why) {
                                reasons.push(why);
                            }
                        }
                        Some(_) => {}
                    }
                }
                if reasons.is_empty() {
                    reasons.extend(bare);
                }
                let offer = self.stats.offers.entry((side, name)).or_default();
                if accepted.is_empty() {
                    for why in reasons {
                        *offer.refused.entry(why).or_default() += 1;
                    }
                } else {
                    offer.available += 1;
                    kinds.push(accepted);
                }
            }
        }
        // The first of each kind, then the second of each, up to the budget: every kind gets a
        // say, and no kind crowds out the rest.
        let mut round = 0;
        while out.len() < self.budget.candidates && kinds.iter().any(|k| k.len() > round) {
            for k in &kinds {
                if let Some(a) = k.get(round)
                    && out.len() < self.budget.candidates
                {
                    push(&mut out, a.clone());
                }
            }
            round += 1;
        }
        let mut names: Vec<&str> = out.iter().map(|a| actions::name_of(a, g.rules)).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            if let Some(offer) = self.stats.offers.get_mut(&(side, name.to_owned())) {
                offer.weighed += 1;
            }
        }
        out
    }

    /// Play `candidate` out with dice sample `sample`: the rest of `model`'s activation, the rest
    /// of its unit's, then the units still to act this turn in an order the rollout's dice draw,
    /// every choice but the candidate the rules bot's. The score of where that leaves the game
    /// for `model`'s side, or `None` where the rules stopped it (an illegal candidate).
    fn rollout(
        &mut self,
        g: &Game,
        model: usize,
        ap: u32,
        candidate: &Action,
        sample: u64,
        hopeless: &mut Vec<String>,
    ) -> Option<f64> {
        self.stats.rollouts += 1;
        let mut dice = SeededDice::new(mix(self.seed, self.stats.decisions, sample));
        self.policy.forced = Some(candidate.clone());
        let mut watch =
            HitRolls { rules: g.rules, model, open: true, pending: None, chance: &mut self.roll_chance, hopeless };
        let mut engine = Engine { game: g.clone(), dice: &mut dice, log: &mut watch, hooks: &mut *self.hooks };
        let played = Self::play_out(&mut engine, model, ap, &mut self.policy);
        self.policy.forced = None;
        match played {
            Ok(()) => Some(score(&engine.game, model)),
            Err(_) => {
                self.stats.refused += 1;
                None
            }
        }
    }

    /// The summed score of `candidate` over the samples, and the names of the weapons whose hit
    /// roll could not succeed in any of them; `None` where the rules stopped a rollout.
    fn weigh(
        &mut self,
        g: &Game,
        model: usize,
        ap: u32,
        candidate: &Action,
        samples: std::ops::Range<u64>,
    ) -> Option<(f64, Vec<String>)> {
        let mut hopeless = Vec::new();
        let mut total = 0.0;
        for s in samples {
            total += self.rollout(g, model, ap, candidate, s, &mut hopeless)?;
        }
        Some((total, hopeless))
    }

    fn play_out(engine: &mut Engine, model: usize, ap: u32, policy: &mut Bot) -> Result<(), crate::game::EngineError> {
        engine.actions(model, ap, 0, policy)?;
        // In a squad's activation its mates act next, and what the attacks did lands as the
        // squad's activation ends.
        if engine.game.squad_activating {
            let mates: Vec<usize> =
                engine.game.unit_activating.map_or(Vec::new(), |s| engine.game.squads[s].members.clone());
            for m in mates {
                if engine.game.models[m].in_play() && !engine.game.models[m].activated {
                    engine.activate(m, policy)?;
                }
            }
            engine.end_squad_activation()?;
        }
        // (Bounded: a unit that cannot activate is drawn again at most this often.)
        for _ in 0..engine.game.models.len() {
            let g = &engine.game;
            let mut units: Vec<Vec<usize>> = (0..g.sides.len()).flat_map(|side| g.units(side)).collect();
            units.retain(|u| u.iter().any(|&m| g.models[m].in_play() && !g.models[m].activated));
            if units.is_empty() {
                break;
            }
            let pick = (engine.dice.roll(units.len() as u32) as usize).clamp(1, units.len()) - 1;
            if engine.activate_unit(units.swap_remove(pick), policy)?.is_some() {
                break; // the game ended
            }
        }
        Ok(())
    }

    fn search(&mut self, g: &Game, model: usize, ap: u32) -> Action {
        self.stats.decisions += 1;
        // Each decision's rollouts are a game of their own for the hooks (fresh budgets).
        self.hooks.new_game_same_rules();
        let mut candidates = self.candidates(g, model, ap);
        let samples = self.budget.samples.max(1);
        // What another candidate must gain over the rules bot's choice to replace it: the best
        // of many noisy estimates is flattered by luck.
        let margin = self.budget.margin * f64::from(samples);
        let first = 0..u64::from(samples);
        let mut best: Option<(f64, usize)> = None;
        let mut kept: Option<f64> = None;
        for (i, c) in candidates.iter_mut().enumerate() {
            let Some((mut total, hopeless)) = self.weigh(g, model, ap, c, first.clone()) else { continue };
            // A shot its rollouts found could not hit is left out, and the rest weighed again.
            if !hopeless.is_empty() && !c.weapons.is_empty() {
                let card = g.card(model);
                c.weapons.retain(|&w| card.weapons.get(w).is_none_or(|m| !hopeless.contains(&m.name)));
                if c.weapons.is_empty() {
                    continue;
                }
                let Some((again, _)) = self.weigh(g, model, ap, c, first.clone()) else { continue };
                total = again;
            }
            if i == 0 {
                kept = Some(total);
            }
            let needs = match best {
                None => f64::NEG_INFINITY,
                Some((b, 0)) => b + margin,
                // Strictly better only: a tie keeps the earlier.
                Some((b, _)) => b + 1e-9,
            };
            if best.is_none() || total > needs {
                best = Some((total, i));
            }
        }
        let Some((total, mut i)) = best else { return Action::pass() };
        // Overruling the rules bot is checked on further samples: the winner's lead must hold.
        if let Some(kept) = kept.filter(|_| i != 0 && self.budget.confirm > 0) {
            let all = samples.saturating_add(self.budget.confirm);
            let more = u64::from(samples)..u64::from(all);
            let all = f64::from(all);
            let challenger = self.weigh(g, model, ap, &candidates[i], more.clone()).map(|(t, _)| t + total);
            let holder = self.weigh(g, model, ap, &candidates[0], more).map(|(t, _)| t + kept);
            match (challenger, holder) {
                (Some(c), Some(h)) if c > h + self.budget.margin * all => {}
                (Some(_), None) => {}
                _ => i = 0,
            }
        }
        if i != 0 {
            self.stats.overruled += 1;
        }
        candidates.into_iter().nth(i).unwrap_or_else(Action::pass)
    }
}

/// The rollout's event sink: it watches the acting model's attacks until its activation ends and
/// keeps the names of the weapons whose hit roll (an attack's first roll with a target) could
/// not succeed; after that it asks for no events at all.
struct HitRolls<'a> {
    rules: &'a crate::Rules,
    model: usize,
    open: bool,
    /// The weapon of the attack whose hit roll is next.
    pending: Option<String>,
    chance: &'a mut crate::odds::RollChance,
    hopeless: &'a mut Vec<String>,
}

impl crate::event::Sink for HitRolls<'_> {
    fn enabled(&self) -> bool {
        self.open
    }
    fn narrative(&self) -> bool {
        false
    }
    fn push(&mut self, e: crate::Event) {
        use crate::Event;
        match e {
            Event::Attack { model, weapon, .. } if model == self.model => self.pending = Some(weapon),
            Event::Roll(r) if r.model == self.model && r.target.is_some() => {
                if let Some(weapon) = self.pending.take()
                    && self.chance.of(self.rules, &r) == Some(0.0)
                    && !self.hopeless.contains(&weapon)
                {
                    self.hopeless.push(weapon);
                }
            }
            Event::ActivationEnd { model } if model == self.model => self.open = false,
            _ => {}
        }
    }
}

/// A well-mixed seed for rollout `sample` of decision `decision` in the game seeded `seed`
/// (splitmix64's finaliser).
fn mix(seed: u64, decision: u64, sample: u64) -> u64 {
    let mut z = seed ^ decision.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ sample.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The weapons of `model` that can fire at `target` now (directly, or indirectly) with some
/// chance of an effect by the ruleset's odds, one per launcher; `None` if there are none.
fn useful_weapons(g: &Game, model: usize, target: usize, indirect: bool) -> Option<Vec<usize>> {
    let shooter = g.shooter(model);
    let card = g.card(model);
    let launcher = |w: usize| card.weapons[w].launcher.unwrap_or(w);
    let mut kept: Vec<usize> = Vec::new();
    for w in 0..card.weapons.len() {
        if kept.iter().any(|&k| launcher(k) == launcher(w)) {
            continue;
        }
        let Some(shot) = shooter.shot(w, target, indirect) else { continue };
        let direct = matches!(shot, Shot::Direct { .. });
        if direct == indirect {
            continue;
        }
        if Bot::value(g, model, target, &[(w, shot)]) > 0.0 {
            kept.push(w);
        }
    }
    (!kept.is_empty()).then_some(kept)
}

/// The rules bot's choice with the weapons that cannot hit left out (`None` when none is left).
fn sharpened(g: &Game, model: usize, action: Action) -> Option<Action> {
    let fires = actions::find(action.kind).is_some_and(|k| k.counts_as() == ActionWord::Combat);
    let Some(target) = action.target.filter(|_| fires && !action.weapons.is_empty() && action.split.is_empty()) else {
        return Some(action);
    };
    let useful = useful_weapons(g, model, target, action.indirect)?;
    let weapons: Vec<usize> = action.weapons.iter().copied().filter(|w| useful.contains(w)).collect();
    (!weapons.is_empty()).then_some(Action { weapons, ..action })
}

/// What a model is worth to its side: its TV, less for damage taken (its share of its damage
/// track, counting what waits to land) and half after a mission kill; nothing once out of play.
fn worth(g: &Game, m: usize) -> f64 {
    let me = &g.models[m];
    if !me.in_play() {
        return 0.0;
    }
    let card = &g.rules.cards[me.card];
    let left = 1.0 - f64::from(me.damage.saturating_add(me.pending.damage)) / card.columns.max(1) as f64;
    let kill = if me.mission_kill { 0.5 } else { 1.0 };
    f64::from(card.tv.max(1)) * left.clamp(0.0, 1.0) * kill
}

/// Where the game stands for `model`'s side: its models' worth less every enemy's, less a little
/// for each inch `model` stays from its objective (in a scenario scored by areas).
fn score(g: &Game, model: usize) -> f64 {
    let side = g.models[model].side;
    let material: f64 = (0..g.models.len())
        .filter(|&m| !g.models[m].asset)
        .map(|m| if g.models[m].side == side { worth(g, m) } else { -worth(g, m) })
        .sum();
    let me = &g.models[model];
    let goal = match g.objective_for(model) {
        Some(p) if me.on_table() => p.dist(me.pos) * 0.01 * worth(g, model),
        _ => 0.0,
    };
    material - goal
}

impl Controller for Search<'_> {
    fn decide(&mut self, g: &Game, model: usize, ap: u32) -> Action {
        let side = g.models[model].side;
        let now = (model, g.models[model].activations);
        if !self.searching.get(side).copied().unwrap_or(false) || self.fallback == Some(now) {
            return self.rules_bot.decide(g, model, ap);
        }
        self.search(g, model, ap)
    }
    fn refused(&mut self, g: &Game, model: usize, reason: &str) -> bool {
        let side = g.models[model].side;
        let now = (model, g.models[model].activations);
        if self.searching.get(side).copied().unwrap_or(false) && self.fallback != Some(now) {
            // Its rollouts found the action legal: the real game should too. Should they part,
            // the rules bot finishes the activation rather than ask again.
            self.fallback = Some(now);
            return true;
        }
        self.rules_bot.refused(g, model, reason)
    }
    fn relocate_strike_point(&mut self, g: &Game, attacker: usize, defender: usize, options: &[P]) -> Option<P> {
        self.rules_bot.relocate_strike_point(g, attacker, defender, options)
    }
    fn defensive_fire(&mut self, g: &Game, defender: usize, attacker: usize) -> Option<Vec<usize>> {
        let ws = self.rules_bot.defensive_fire(g, defender, attacker)?;
        sharpened(g, defender, Action::fire(attacker, ws)).map(|a| a.weapons)
    }
    fn counter_battery(&mut self, g: &Game, model: usize, attacker: usize) -> Option<Vec<usize>> {
        self.rules_bot.counter_battery(g, model, attacker)
    }
    fn airborne_jump(&mut self, g: &Game, rider: usize, transport: usize) -> Option<P> {
        self.rules_bot.airborne_jump(g, rider, transport)
    }
    fn self_destruct(&mut self, g: &Game, caller: usize, missile: usize) -> bool {
        self.rules_bot.self_destruct(g, caller, missile)
    }
    fn close_defense(&mut self, g: &Game, model: usize, attacker: usize) -> bool {
        self.rules_bot.close_defense(g, model, attacker)
    }
    fn ambush_at(&mut self, g: &Game, model: usize) -> Option<P> {
        self.rules_bot.ambush_at(g, model)
    }
    fn overwatch_fire(&mut self, g: &Game, watcher: usize, mover: usize) -> Option<Vec<usize>> {
        let ws = self.rules_bot.overwatch_fire(g, watcher, mover)?;
        sharpened(g, watcher, Action::fire(mover, ws)).map(|a| a.weapons)
    }
    fn use_special_attribute(
        &mut self,
        g: &Game,
        model: usize,
        sa: &str,
        weapon: Option<usize>,
        target: Option<usize>,
    ) -> bool {
        self.rules_bot.use_special_attribute(g, model, sa, weapon, target)
    }
    fn skip_card(&mut self, g: &Game, side: usize, card: usize) -> bool {
        self.rules_bot.skip_card(g, side, card)
    }
    fn react(&mut self, g: &Game, window: usize, reactor: usize, actor: usize) -> Option<Action> {
        let a = self.rules_bot.react(g, window, reactor, actor)?;
        sharpened(g, reactor, a)
    }
    fn answer_attack(&mut self, g: &Game, model: usize, attacker: usize, options: &[AttackAnswer]) -> Option<usize> {
        self.rules_bot.answer_attack(g, model, attacker, options)
    }
    fn answer_reactions(&mut self, g: &Game, model: usize, attacker: usize, options: &[AttackAnswer]) -> Option<usize> {
        self.rules_bot.answer_reactions(g, model, attacker, options)
    }
    fn choose_unit(&mut self, g: &Game, side: usize, units: &[Vec<usize>]) -> usize {
        self.rules_bot.choose_unit(g, side, units)
    }
    fn spend_c3(&mut self, g: &Game, model: usize, what: cav_format::vocab::C3Use) -> bool {
        self.rules_bot.spend_c3(g, model, what)
    }
    fn seize_initiative(&mut self, g: &Game, squad: usize) -> Option<usize> {
        self.rules_bot.seize_initiative(g, squad)
    }
    fn pre_game_move(&mut self, g: &Game, model: usize) -> Option<P> {
        self.rules_bot.pre_game_move(g, model)
    }
}
