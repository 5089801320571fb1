//! One activation: action points, the checks every action shares before its module resolves it,
//! optional special attributes, and models coming onto the table from ambush or a drop.

use super::resume::UnderWay;
use super::*;

/// A model whose unit an enemy aimed an action at this turn (action types `not_if_targeted`).
pub static TARGETED: Mark = Mark { name: "targeted", lasts: Lasts::Turn };

impl Game<'_> {
    /// Why the rules refuse `model` declaring `action` (of `kind`, costing `cost`, with `ap`
    /// left), if they do: checked before anything of it happens (a searching bot asks it of the
    /// actions it weighs).
    pub(crate) fn declaration_refusal(
        &self,
        model: usize,
        kind: &dyn actions::ActionKind,
        action: &Action,
        cost: u32,
        ap: u32,
    ) -> Option<String> {
        let g = self;
        let me = &g.models[model];
        if cost > ap {
            return Some("not enough action points".into());
        }
        let ty = actions::type_id(kind, action, g.rules);
        match action.declared.map(|d| g.rules.own_actions.get(d as usize)) {
            Some(None) => return Some("this ruleset has no such action type".into()),
            Some(Some(own)) if own.kind != kind.name() => {
                return Some(format!("the {} action is a {}, not a {}", own.id, own.kind, kind.name()));
            }
            _ => {}
        }
        if let Some(why) = g.action_closed(model, ty, action.target) {
            return Some(why);
        }
        if let Some((s, _)) = me.states.iter().find(|(s, _)| g.rules.states[*s as usize].forbids.contains(&kind.id())) {
            return Some(format!("the model is {}: no {} action", g.rules.states[*s as usize].name, kind.id().id()));
        }
        if me.has(&actions::ENTERING) && kind.id() != ActionWord::Move {
            return Some("a model coming onto the table moves first".into());
        }
        if me.features.transport.aboard.is_some() && !kind.taken_aboard(g, model) {
            return Some("a model riding in a transport may only dismount (or fire through a free gun port)".into());
        }
        if !action.split.is_empty() && !kind.splits() {
            return Some("only the combat action's fire may split between targets".into());
        }
        let counts_as = kind.counts_as();
        if !kind.repeatable() && g.used.contains(&counts_as) {
            return Some("a non-repeatable action may be used once per activation".into());
        }
        if let Some(slots) = g.rules.slot_uses.get(ty) {
            let taken = slots.mask & g.slots_taken(model);
            if taken != 0 {
                let slot = &g.rules.action_slots[taken.trailing_zeros() as usize];
                return Some(format!("the unit has used its {slot} action this turn"));
            }
            if slots.any && g.free_slot(model, slots.mask).is_none() {
                return Some("the unit has no action left this turn".into());
            }
        }
        if counts_as == ActionWord::Combat {
            if me.has(&actions::combat::FIRED_OUT_OF_TURN) {
                return Some("the model used defensive or over-watch fire this turn".into());
            }
            if !g.can_fight(model) || me.prone {
                return Some("the model cannot use the combat action now".into());
            }
            if g.in_close_combat(model) {
                return Some("the model is in close combat: its ranged weapons are of no use".into());
            }
        }
        if let Some(v) = action.declared.and_then(|d| g.rules.own_actions.get(d as usize)?.needs_terrain_value)
            && g.terrain_value(me.pos, v).is_none()
        {
            let name = g.rules.terrain_values.get(usize::from(v)).map_or("", String::as_str);
            return Some(format!("the terrain here allows no {name}"));
        }
        if let Some(to) = kind.moves_to(g, action) {
            // (A ruleset's own move may go further than the move value: a run.)
            let times = action.declared.map_or(1.0, |d| g.rules.own_actions[d as usize].move_times);
            for f in features::each(g.schedule.move_declared) {
                if let Some(Err(why)) = f.move_declared.map(|check| check(g, model, to, times)) {
                    return Some(why);
                }
            }
        }
        kind.check(g, model, action).err()
    }
}

impl Engine<'_, '_> {
    /// Resolve `action` by its kind; taken as a ruleset's own action type, as that type says: a
    /// move of it goes its `move_times` the move value and stops short of cover where it
    /// `avoids_cover`, its rolled attacks make its `attack_rolls`, and its model gains the state
    /// it `gives` once it has resolved.
    pub(super) fn resolve_action(
        &mut self,
        kind: &dyn actions::ActionKind,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let Some((d, own)) = action.declared.and_then(|d| Some((d, self.rules().own_actions.get(d as usize)?))) else {
            return kind.resolve(self, model, action, ctrl);
        };
        emit!(self, Event::ActionTaken { model, action: own.name.clone() });
        let before = self.game.acting_as.replace(d);
        let resolved = kind.resolve(self, model, action, ctrl);
        self.own_action_done(model, action, before, resolved)
    }

    /// The end of an action taken as the ruleset's own action type (`Action::declared`): what
    /// that type gives once the action resolved; `before` is what the model acted as before.
    pub(super) fn own_action_done(
        &mut self,
        model: usize,
        action: &Action,
        before: Option<u16>,
        resolved: Result<(), ActionError>,
    ) -> Result<(), ActionError> {
        let Some(own) = action.declared.and_then(|d| self.rules().own_actions.get(d as usize)) else {
            return resolved;
        };
        self.game.acting_as = before;
        resolved?;
        if let Some(s) = own.gives {
            self.add_state(model, s)?;
        }
        if own.recovers {
            self.rally(model)?;
        }
        if own.returns_slain {
            self.return_slain(model);
        }
        Ok(())
    }

    /// The first action of a unit's activation aimed at one unit (`one_target_per_unit`) names
    /// the unit its models aim at until the activation ends.
    fn declare_unit_target(&mut self, model: usize, action: &str, target: Option<usize>) {
        let one_target = self.rules().action_model_types.get(action).is_some_and(|t| t.one_target);
        if let (true, Some(s), Some(t)) = (one_target, self.game.models[model].squad, target)
            && t < self.game.models.len()
        {
            self.game.squads[s].target.get_or_insert(t);
        }
    }

    /// `actor` aimed an action at `target`: an enemy's unit is targeted this turn, where some
    /// action type cares (`not_if_targeted`).
    pub(super) fn mark_targeted(&mut self, actor: usize, target: Option<usize>) {
        let g = &mut self.game;
        let Some(t) = target.filter(|&t| g.rules.marks_targeted && t < g.models.len()) else { return };
        if g.models[t].side == g.models[actor].side {
            return;
        }
        for m in 0..g.models.len() {
            if g.same_unit(m, t) {
                g.models[m].mark(&TARGETED);
            }
        }
    }

    /// Run one activation of `model` (normally the draw deck decides; scenario tests call this
    /// directly). Here are only the checks every action shares — action points and cost, once per
    /// activation, combat after reacting, can the model fight; the rest is the action's module.
    pub fn activate(&mut self, model: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        if self.game.models[model].out_of_action {
            return Err(EngineError::IllegalAction {
                model: self.game.models[model].name.clone(),
                action: "activation".into(),
                reason: "the model is out of action".into(),
            });
        }
        self.game.active = Some(model);
        self.game.models[model].activated = true;
        // Out of a squad's activation the model is its unit's only actor: a new declaration.
        if !self.game.squad_activating
            && let Some(s) = self.game.models[model].squad
        {
            self.game.squads[s].target = None;
        }
        self.game.models[model].path.clear();
        // A target-lock lasts until the next activation of the model that took it: its own, and
        // those it shared with its squad (EST), which the mates keep through their activations.
        if self.game.models[model].lock_from.is_none() {
            self.game.models[model].lock = None;
        }
        for m in &mut self.game.models {
            if m.lock_from == Some(model) {
                (m.lock, m.lock_from) = (None, None);
            }
        }
        for f in features::each(self.game.schedule.before_activation) {
            if let Some(run) = f.before_activation {
                run(self, model, ctrl);
            }
        }
        let once = self.game.models[model].ap_once.take();
        let me = &self.game.models[model];
        let set = match (once, me.ap_set) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let base = (set.unwrap_or_else(|| self.game.action_points(model)).min(i32::MAX as u32) as i32)
            .saturating_add(me.crit_ap);
        let base = base - std::mem::take(&mut self.game.models[model].ap_owed) as i32;
        let states = &self.rules().states;
        let base =
            base + self.game.models[model].states.iter().map(|(s, _)| states[*s as usize].action_points).sum::<i32>();
        let blocked = self.game.state_blocks(model, |s| s.no_actions);
        for f in features::each(self.game.schedule.activation_start) {
            if let Some(run) = f.activation_start {
                run(self, model);
            }
        }
        // `activation`: handlers may change the action points (a model that may not act stays at 0).
        let more = self.call_hooks(HookCtx::new(HookPoint::Activation, model))?.sum(Quantity::Ap);
        let mut ap = if blocked { 0 } else { base.saturating_add(more).max(0) as u32 };
        for f in features::each(self.game.schedule.action_points) {
            if let Some(run) = f.action_points {
                ap = run(self, model, ap, ctrl);
            }
        }
        emit!(self, Event::Activation { model, ap });
        self.game.used.clear();
        self.game.reacted_now.clear();
        self.game.slots_now = 0;
        self.game.extra_targets = 0;
        self.game.activation_over = false;
        self.begin_activation(model);
        for f in features::each(self.game.schedule.activated) {
            if let Some(run) = f.activated {
                run(self, model, &mut ap, ctrl)?;
            }
        }
        self.actions(model, ap, 0, ctrl)
    }

    /// The actions of `model`'s activation, `ap` action points left after `steps` asked for,
    /// then its end.
    pub(crate) fn actions(
        &mut self,
        model: usize,
        mut ap: u32,
        mut steps: u32,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        while ap > 0 && self.game.models[model].in_play() && !self.game.activation_over {
            steps += 1;
            if steps > 32 {
                break; // a controller that never passes
            }
            let action = ctrl.decide(&self.game, model, ap);
            if action.is_pass() {
                break;
            }
            let illegal = |game: &Game, reason: &str| EngineError::IllegalAction {
                model: game.models[model].name.clone(),
                action: format!("{action:?}"),
                reason: reason.to_owned(),
            };
            let Some(kind) = actions::find(action.kind) else {
                return Err(illegal(&self.game, "no such action"));
            };
            let Some(cost) = actions::cost_of(kind, &self.game, model, &action) else {
                // (A controller may take it back: a bot asking for an action of another game.)
                let reason = "this ruleset has no such action type";
                if ctrl.refused(&self.game, model, reason) {
                    continue;
                }
                return Err(illegal(&self.game, reason));
            };
            let counts_as = kind.counts_as();
            // A declaration the rules refuse changes nothing: the controller may take it back
            // and declare another action (a test's `refused:` step), or the game stops with it.
            if let Some(reason) = self.game.declaration_refusal(model, kind, &action, cost, ap) {
                if ctrl.refused(&self.game, model, &reason) {
                    continue;
                }
                return Err(illegal(&self.game, &reason));
            }
            let ty = actions::type_id(kind, &action, self.rules());
            self.declare_unit_target(model, ty, action.target);
            self.mark_targeted(model, action.target);
            // Marks that last until the next action end now (an action that wants one sets it again).
            self.game.models[model].marks.retain(|m| m.lasts != Lasts::NextAction);
            self.game.declined = self.ask_optional(model, &action, ctrl);
            for f in features::each(self.game.schedule.action_declared) {
                if let Some(run) = f.action_declared {
                    run(self, model, &action, counts_as);
                }
            }
            self.game.forfeited = None;
            // The acting model may answer the reactions' attacks on it with what its activation
            // has left once this action is paid (`opposed.acting_answer_cost`).
            let answer_cost = self.rules().attack.as_ref().and_then(|a| a.opposed.as_ref()?.acting_answer_cost);
            if answer_cost.is_some() {
                let ap_left = ap.saturating_sub(cost);
                self.game.acting_answer = Some(ActingAnswer { model, ap_left, asked: false, choice: None, roll: None });
            }
            if let Err(e) = self.reaction_windows(model, &action, cav_format::rules::ReactionOrder::Before, ctrl) {
                self.game.acting_answer = None;
                return Err(e);
            }
            self.game.models[model].free_turns = 1;
            self.game.fumbles.clear();
            let path_from = self.game.models[model].path.len().saturating_sub(1);
            let acting_before = self.game.acting_as;
            let resolved = self.resolve_action(kind, model, &action, ctrl);
            let under_way = UnderWay { model, kind, cost, answer_cost, path_from, acting_before, ap, steps };
            if self.game.checkpoint.is_some() {
                self.keep_under_way(&under_way, &action);
            }
            ap = self.action_done(&under_way, &action, resolved, ctrl)?;
        }
        self.end_activation(model)
    }

    /// What follows an action's resolution in its activation: the reactions after it, the
    /// features' turn, what it used; the action points left.
    #[inline(always)]
    pub(super) fn action_done(
        &mut self,
        step: &UnderWay,
        action: &Action,
        resolved: Result<(), ActionError>,
        ctrl: &mut dyn Controller,
    ) -> Result<u32, EngineError> {
        let UnderWay { model, kind, cost, answer_cost, path_from, ap, .. } = *step;
        let after = match resolved {
            Ok(()) => self.reaction_windows(model, action, cav_format::rules::ReactionOrder::After, ctrl),
            Err(_) => Ok(()),
        };
        let answered = self.game.acting_answer.take().is_some_and(|a| a.choice.is_some());
        after?;
        if resolved.is_ok() {
            for f in features::each(self.game.schedule.action_resolved) {
                if let Some(run) = f.action_resolved {
                    run(self, model, path_from, ctrl)?;
                }
            }
        }
        self.spend_single_use();
        self.game.declined.clear();
        self.game.features.c3.inspired = false;
        match resolved {
            Ok(()) => {}
            Err(ActionError::Illegal(reason)) => {
                return Err(EngineError::IllegalAction {
                    model: self.game.models[model].name.clone(),
                    action: format!("{action:?}"),
                    reason,
                });
            }
            Err(ActionError::Engine(e)) => return Err(e),
        }
        self.game.used.push(kind.counts_as());
        if let Some(slots) = self.rules().slot_uses.get(actions::type_id(kind, action, self.rules())) {
            let any = if slots.any { self.game.free_slot(model, slots.mask).map_or(0, |bit| 1 << bit) } else { 0 };
            self.game.slots_now |= slots.mask | any;
        }
        let mut ap = ap - cost;
        if answered {
            ap = ap.saturating_sub(answer_cost.unwrap_or(0));
        }
        Ok(ap)
    }

    /// Ask the controller about each optional special attribute that could act in this action:
    /// the model's own and those of the weapons it declares. Returns the declined ones.
    pub(super) fn ask_optional(
        &mut self,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Vec<(u16, Option<usize>)> {
        let r = self.rules();
        let card = self.cardr(model);
        let own = card.sas.iter().map(|s| (s.0, None));
        let weapons = action.weapons.iter().filter_map(|&w| card.weapons.get(w).map(|m| (w, m)));
        let of_weapons = weapons.flat_map(|(w, m)| m.sas.iter().map(move |s| (s.0, Some(w))));
        let mut declined = Vec::new();
        for (sa, weapon) in own.chain(of_weapons) {
            let def = &r.sas[sa as usize];
            if def.optional && !ctrl.use_special_attribute(&self.game, model, &def.id, weapon, action.target) {
                declined.push((sa, weapon));
            }
        }
        declined
    }
}
