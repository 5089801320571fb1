//! The scripted controller: hands the engine a test's actions when asked, checks the action points
//! left and the checks due between actions, and makes the player's choices the test gives.

use super::*;

/// The test's event log, its length shared with the controller (which marks where each step's
/// events begin and end, for a step's `absent:`).
pub(super) struct Log {
    pub(super) events: Vec<Event>,
    pub(super) len: std::rc::Rc<std::cell::Cell<usize>>,
}

impl crate::event::Sink for Log {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, e: Event) {
        self.events.push(e);
        self.len.set(self.events.len());
    }
}

/// The events of one step: `(step index, first event, end)`.
pub(super) type Span = (usize, usize, usize);

/// Checks due at one moment: `(step index, test id → expected state)`.
pub(super) type Check<'t> = (usize, &'t BTreeMap<Id, TestModelState>);

/// One action of an activation, with what is checked once it has resolved.
pub(super) struct Planned<'t> {
    pub(super) step: usize,
    pub(super) action: Action,
    pub(super) ap_left: Option<u32>,
    /// The refusal the step expects (`refused:`).
    pub(super) refused: Option<&'t str>,
    /// Its own `check:` and the check steps that follow it.
    pub(super) then: Vec<Check<'t>>,
}

/// The action last handed to the engine, until the engine asks again (or the activation ends).
pub(super) struct Given<'t> {
    pub(super) step: usize,
    pub(super) model: usize,
    pub(super) ap_left: Option<u32>,
    pub(super) refused: Option<&'t str>,
    pub(super) then: Vec<Check<'t>>,
    pub(super) ap_before: u32,
    pub(super) cost: u32,
}

/// Plays back a test's actions and choices.
pub(super) struct Scripted<'t> {
    pub(super) t: &'t Test,
    pub(super) ids: &'t HashMap<String, usize>,
    pub(super) plan: VecDeque<Planned<'t>>,
    pub(super) given: Option<Given<'t>>,
    /// Checks of the last action of the activation, made once the activation has ended.
    pub(super) after: Vec<Check<'t>>,
    /// Weapons each model fires when it may react (defensive or over-watch fire).
    pub(super) reactions: HashMap<usize, Vec<usize>>,
    pub(super) choices: HashMap<usize, &'t TestChoices>,
    /// Choices the engine offered: (model, what).
    pub(super) offered: HashSet<(usize, String)>,
    pub(super) failures: Vec<String>,
    /// The log's length, and where the action given last began in it.
    pub(super) log_len: std::rc::Rc<std::cell::Cell<usize>>,
    pub(super) began: Option<(usize, usize)>,
    /// Where each step's events lie in the log.
    pub(super) spans: Vec<Span>,
    /// Action points the acting model paid to answer reactions during the action given last.
    pub(super) answer_paid: u32,
}

impl<'t> Scripted<'t> {
    pub(super) fn new(t: &'t Test, ids: &'t HashMap<String, usize>) -> Self {
        let by_model = |k: &Id| ids.get(k.as_str()).copied();
        Scripted {
            t,
            ids,
            plan: VecDeque::new(),
            given: None,
            after: Vec::new(),
            reactions: t.reactions.iter().filter_map(|(k, v)| by_model(k).map(|i| (i, v.clone()))).collect(),
            choices: t.choices.iter().filter_map(|(k, v)| by_model(k).map(|i| (i, v))).collect(),
            offered: HashSet::new(),
            failures: Vec::new(),
            log_len: Default::default(),
            began: None,
            spans: Vec::new(),
            answer_paid: 0,
        }
    }

    /// The step whose action was given last has ended here.
    pub(super) fn close_span(&mut self) {
        if let Some((step, from)) = self.began.take() {
            self.spans.push((step, from, self.log_len.get()));
        }
    }

    pub(super) fn name(&self, model: usize) -> String {
        self.ids.iter().find(|(_, i)| **i == model).map_or_else(|| format!("#{model}"), |(k, _)| k.clone())
    }

    /// The action last given has resolved: check the AP left (`ap_now` when the engine asked
    /// again, else what its cost left), and make its checks now or after the activation.
    pub(super) fn settle(&mut self, game: &Game, g: Given<'t>, ap_now: Option<u32>, checks_now: bool) {
        if let Some(want) = g.refused {
            self.failures
                .push(format!("step {}: the rules took the action, expected a refusal containing {want:?}", g.step));
        }
        let paid = std::mem::take(&mut self.answer_paid);
        if let Some(want) = g.ap_left {
            let got = ap_now.unwrap_or(g.ap_before.saturating_sub(g.cost).saturating_sub(paid));
            if got != want {
                let who = self.name(g.model);
                self.failures.push(format!("step {}: `{who}` has {got} action points left, expected {want}", g.step));
            }
        }
        if checks_now {
            for (step, want) in g.then {
                check_models(game, self.ids, want, &format!("step {step} check: "), &mut self.failures);
            }
        } else {
            self.after.extend(g.then);
        }
    }

    /// After the test: every choice it gives must have come up.
    pub(super) fn unused_choices(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, c) in &self.t.choices {
            let Some(&m) = self.ids.get(id.as_str()) else { continue };
            let was = |what: &str| self.offered.contains(&(m, what.to_owned()));
            if c.defensive_fire.is_some() && !was("defensive-fire") {
                out.push(format!("choices.{id}.defensive_fire: the engine never offered `{id}` defensive fire"));
            }
            if let Some(o) = &c.overwatch {
                if o.weapons.is_empty() && !was("overwatch-offered") {
                    out.push(format!("choices.{id}.overwatch: `{id}` never had the chance to fire on over-watch"));
                } else if !o.weapons.is_empty() && !was("overwatch") {
                    let at = o.at.map_or(String::new(), |[x, y]| format!(" with the mover at ({x}, {y})"));
                    out.push(format!("choices.{id}.overwatch: `{id}` never fired on over-watch{at}"));
                }
            }
            if c.ambush_at.is_some() && !was("ambush") {
                out.push(format!("choices.{id}.ambush_at: `{id}` was never placed from ambush"));
            }
            if c.jump_at.is_some() && !was("airborne-jump") {
                out.push(format!("choices.{id}.jump_at: `{id}` never rode an aircraft in flight as it moved"));
            }
            if c.self_destruct && !was("self-destruct") {
                out.push(format!("choices.{id}.self_destruct: `{id}` had no missile in flight as it activated"));
            }
            if c.close_defense && !was("close-defense") {
                out.push(format!(
                    "choices.{id}.close_defense: the engine never offered `{id}` its close-defense reaction"
                ));
            }
            if !c.counter_battery.is_empty() && !was("counter-battery") {
                out.push(format!("choices.{id}.counter_battery: the engine never offered `{id}` counter-battery fire"));
            }
            if c.reaction.is_some() && !was("reaction") {
                out.push(format!("choices.{id}.reaction: `{id}` was never offered a reaction"));
            }
            if c.answer.is_some() && !was("answer") {
                out.push(format!("choices.{id}.answer: `{id}` was never attacked where it could answer"));
            }
            if c.relocate_strike_point.is_some() && !was("relocate") {
                out.push(format!(
                    "choices.{id}.relocate_strike_point: the engine never asked `{id}` where to move a fumbled strike point"
                ));
            }
            for sa in &c.decline {
                if !was(&format!("sa:{sa}")) {
                    out.push(format!(
                        "choices.{id}.decline: declining `{sa}` had no effect: the engine never asked `{id}` whether to use it (Controller::use_special_attribute)"
                    ));
                }
            }
        }
        out
    }
}

impl Controller for Scripted<'_> {
    fn decide(&mut self, game: &Game, model: usize, ap: u32) -> Action {
        let next = self.plan.pop_front();
        if let Some(g) = self.given.take() {
            self.settle(game, g, Some(ap), next.is_some());
        }
        let Some(p) = next else { return Action::pass() };
        self.close_span();
        self.began = Some((p.step, self.log_len.get()));
        let cost = actions::find(p.action.kind).and_then(|k| actions::cost_of(k, game, model, &p.action)).unwrap_or(0);
        self.given = Some(Given {
            step: p.step,
            model,
            ap_left: p.ap_left,
            refused: p.refused,
            then: p.then,
            ap_before: ap,
            cost,
        });
        p.action
    }
    fn refused(&mut self, game: &Game, _: usize, reason: &str) -> bool {
        // Only a step that expects the refusal takes it back; any other stops the test with it.
        let Some(g) = self.given.take() else { return false };
        let Some(want) = g.refused else {
            self.given = Some(g);
            return false;
        };
        if !reason.contains(want) {
            self.failures
                .push(format!("step {}: refused because {reason:?}, expected a refusal containing {want:?}", g.step));
        }
        // Its checks see the state the refusal left unchanged.
        for (step, want) in g.then {
            check_models(game, self.ids, want, &format!("step {step} check: "), &mut self.failures);
        }
        true
    }
    /// In a ruleset's reaction window that offers combat, a model the test's `reactions:` lists
    /// fires those mounts at the acting model; the others let it pass.
    fn react(&mut self, game: &Game, window: usize, reactor: usize, actor: usize) -> Option<Action> {
        let offered = &game.rules.reaction_windows[window].actions;
        if let Some(step) = self.choices.get(&reactor).and_then(|c| c.reaction.as_ref()) {
            // (A step naming no action of the window is the window's refusal to report.)
            let action = match super::steps::step_action(step, self.ids, game) {
                Ok(action) => action,
                Err(why) => {
                    self.failures.push(format!("choices.{}.reaction: {why}", self.name(reactor)));
                    return None;
                }
            };
            self.offered.insert((reactor, "reaction".into()));
            return Some(action);
        }
        let offers = offered.iter().any(|a| a.as_str() == "combat");
        let weapons = self.reactions.get(&reactor).filter(|w| offers && !w.is_empty())?;
        self.offered.insert((reactor, "reaction".into()));
        Some(Action::fire(actor, weapons.clone()))
    }
    fn defensive_fire(&mut self, _: &Game, defender: usize, _: usize) -> Option<Vec<usize>> {
        if let Some(w) = self.choices.get(&defender).and_then(|c| c.defensive_fire.as_ref()) {
            self.offered.insert((defender, "defensive-fire".into()));
            return if w.is_empty() { None } else { Some(w.clone()) };
        }
        self.reactions.get(&defender).cloned()
    }
    fn ambush_at(&mut self, game: &Game, model: usize) -> Option<P> {
        match self.choices.get(&model).and_then(|c| c.ambush_at) {
            Some([x, y]) => {
                self.offered.insert((model, "ambush".into()));
                Some(P::new(x, y))
            }
            None => game.ambush_spots(model).first().copied(),
        }
    }
    fn airborne_jump(&mut self, _: &Game, rider: usize, _: usize) -> Option<P> {
        self.offered.insert((rider, "airborne-jump".into()));
        self.choices.get(&rider).and_then(|c| c.jump_at).map(|[x, y]| P::new(x, y))
    }
    fn self_destruct(&mut self, _: &Game, caller: usize, _: usize) -> bool {
        self.offered.insert((caller, "self-destruct".into()));
        self.choices.get(&caller).is_some_and(|c| c.self_destruct)
    }
    fn close_defense(&mut self, _: &Game, model: usize, _: usize) -> bool {
        self.offered.insert((model, "close-defense".into()));
        self.choices.get(&model).is_some_and(|c| c.close_defense)
    }
    fn counter_battery(&mut self, _: &Game, model: usize, _: usize) -> Option<Vec<usize>> {
        self.offered.insert((model, "counter-battery".into()));
        match self.choices.get(&model).map(|c| &c.counter_battery).filter(|w| !w.is_empty()) {
            Some(w) => Some(w.clone()),
            None => self.reactions.get(&model).cloned(),
        }
    }
    fn overwatch_fire(&mut self, game: &Game, watcher: usize, mover: usize) -> Option<Vec<usize>> {
        if let Some(o) = self.choices.get(&watcher).and_then(|c| c.overwatch.as_ref()) {
            self.offered.insert((watcher, "overwatch-offered".into()));
            if o.weapons.is_empty() {
                return None;
            }
            if let Some([x, y]) = o.at
                && game.models[mover].pos.dist(P::new(x, y)) > OVERWATCH_AT
            {
                return None;
            }
            self.offered.insert((watcher, "overwatch".into()));
            return Some(o.weapons.clone());
        }
        self.reactions.get(&watcher).cloned()
    }
    fn relocate_strike_point(&mut self, _: &Game, _: usize, defender: usize, _: &[P]) -> Option<P> {
        // Any point: the engine refuses an illegal one, naming why.
        let [x, y] = self.choices.get(&defender)?.relocate_strike_point?;
        self.offered.insert((defender, "relocate".into()));
        Some(P::new(x, y))
    }
    fn spend_c3(&mut self, _: &Game, model: usize, what: cav_format::vocab::C3Use) -> bool {
        self.choices.get(&model).is_some_and(|c| c.spend_c3.contains(&what))
    }
    /// Only a test's `choices: {answer: …}` answers reactions (it spends action points).
    fn answer_reactions(
        &mut self,
        game: &Game,
        model: usize,
        attacker: usize,
        options: &[crate::AttackAnswer],
    ) -> Option<usize> {
        self.choices.get(&model).and_then(|c| c.answer.as_ref())?;
        let pick = self.answer_attack(game, model, attacker, options)?;
        let cost = game.rules.attack.as_ref().and_then(|a| a.opposed.as_ref()?.acting_answer_cost);
        self.answer_paid += cost.unwrap_or(0);
        Some(pick)
    }
    fn answer_attack(&mut self, game: &Game, model: usize, _: usize, options: &[crate::AttackAnswer]) -> Option<usize> {
        let Some(a) = self.choices.get(&model).and_then(|c| c.answer.as_ref()) else {
            return (!options.is_empty()).then_some(0);
        };
        self.offered.insert((model, "answer".into()));
        let answers = &game.rules.attack.as_ref()?.opposed.as_ref()?.answers;
        let with = a.with.as_ref()?;
        if !answers.iter().any(|x| x.id == with.as_str()) {
            let ids: Vec<&str> = answers.iter().map(|x| x.id.as_str()).collect();
            let failure = format!(
                "choices.{}.answer.with: the ruleset has no answer `{with}` (it has: {})",
                self.name(model),
                ids.join(", ")
            );
            if !self.failures.contains(&failure) {
                self.failures.push(failure);
            }
            return None;
        }
        // An answer the model does not have now (no weapon that can fire back) is not taken:
        // the test sees the attack unanswered.
        options
            .iter()
            .position(|o| answers[o.answer].id == with.as_str() && a.weapon.is_none_or(|w| o.weapon == Some(w)))
    }
    fn use_special_attribute(&mut self, _: &Game, model: usize, sa: &str, _: Option<usize>, _: Option<usize>) -> bool {
        let Some(c) = self.choices.get(&model) else { return true };
        if c.decline.iter().any(|d| d.as_str() == sa) {
            self.offered.insert((model, format!("sa:{sa}")));
            return false;
        }
        true
    }
}
