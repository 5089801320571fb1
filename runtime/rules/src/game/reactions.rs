//! Reaction windows (`reaction_windows:` of the ruleset): as a model declares an action, the
//! models of the other sides the window names may each take one of its action types out of turn,
//! before or after the declared action — the reacting side's controller choosing which, or none.

use super::*;

/// A model that reacted this turn (windows with `once_a_turn`).
pub static REACTED: Mark = Mark { name: "reacted", lasts: Lasts::Turn };

impl Engine<'_, '_> {
    /// Open the ruleset's windows of `order` on `actor` declaring `action`: each eligible model
    /// is asked, in model order, and its reaction resolves at once. Its cost is owed by its next
    /// activation.
    pub(super) fn reaction_windows(
        &mut self,
        actor: usize,
        action: &Action,
        order: cav_format::rules::ReactionOrder,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let windows = &self.rules().reaction_windows;
        let window_slots = &self.rules().reaction_slots;
        // The target of direct fire answers it in its answers' window, not through the window.
        let answers_in = self.rules().attack.as_ref().and_then(|a| a.opposed.as_ref()?.window);
        let answering = action.target.filter(|_| !action.weapons.is_empty() && !action.indirect);
        for (w, window) in windows.iter().enumerate().filter(|(_, w)| w.resolves == order) {
            use cav_format::rules::{Reactors, WindowOpens};
            if window.opens == WindowOpens::AimedAtModel && action.target.is_none() {
                continue;
            }
            if !window.opened_by.is_empty() {
                let ty = actions::find(action.kind).map(|k| actions::type_id(k, action, self.rules()));
                if !window.opened_by.iter().any(|a| Some(a.as_str()) == ty) {
                    continue;
                }
            }
            let g = &self.game;
            let side = g.models[actor].side;
            let eligible = |m: usize| {
                let me = &g.models[m];
                !(answers_in == Some(w) && answering == Some(m))
                    && me.side != side
                    && me.on_table()
                    && !me.out_of_action
                    && !(window.once_a_turn && me.has(&REACTED))
                    && !(window.once_an_activation && g.reacted_now.contains(&m))
                    && window.within.is_none_or(|d| me.pos.dist(g.models[actor].pos) <= d)
                    && !g.forfeited.is_some_and(|f| g.same_unit(f, m))
                    && match window_slots.get(w).copied().unwrap_or(0) {
                        0 => window.actions.iter().any(|a| g.slots_allow(m, a.as_str())),
                        mask => mask & g.slots_taken(m) == 0,
                    }
            };
            let reactors: Vec<usize> = match window.who {
                Reactors::Target => action.target.filter(|&t| eligible(t)).into_iter().collect(),
                Reactors::InSight => (0..g.models.len()).filter(|&m| eligible(m) && g.sees(m, actor)).collect(),
                Reactors::TargetUnit => match action.target.filter(|&t| t < g.models.len()) {
                    Some(t) => (0..g.models.len()).filter(|&m| g.same_unit(m, t) && eligible(m)).collect(),
                    None => Vec::new(),
                },
                Reactors::OtherUnit => match action.target.filter(|&t| t < g.models.len()) {
                    Some(t) => (0..g.models.len())
                        .filter(|&m| g.models[m].side == g.models[t].side && !g.same_unit(m, t) && eligible(m))
                        .collect(),
                    None => Vec::new(),
                },
            };
            // (`other_unit`: the first model to react names the one unit that does.)
            let mut unit: Option<usize> = None;
            for &reactor in &reactors {
                if !self.game.models[actor].on_table() || !self.game.models[reactor].on_table() {
                    continue;
                }
                if window.who == Reactors::OtherUnit && unit.is_some_and(|u| !self.game.same_unit(u, reactor)) {
                    continue;
                }
                let before = self.game.reacted_now.len();
                self.react(w, reactor, actor, ctrl)?;
                if self.game.reacted_now.len() > before {
                    unit.get_or_insert(reactor);
                    if window.target_forfeits {
                        self.game.forfeited = action.target;
                    }
                }
            }
            // What one model of a unit used reacting, its unit used (one command for all).
            for &reactor in &reactors {
                if let Some(s) = self.game.models[reactor].squad {
                    let used = self.game.models[reactor].slots_used;
                    for m in self.game.squads[s].members.clone() {
                        self.game.models[m].slots_used |= used;
                    }
                }
            }
        }
        Ok(())
    }

    /// `reactor` may react in window `w` to `actor`: its controller chooses, the rules check (a
    /// reaction they refuse is said and does not happen).
    fn react(&mut self, w: usize, reactor: usize, actor: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, reactor).target(actor))?.forbid {
            emit!(self, Event::Forbidden { model: reactor, what: "reaction", reason });
            return Ok(());
        }
        let Some(reaction) = ctrl.react(&self.game, w, reactor, actor) else { return Ok(()) };
        // The reactor acts out of turn: the acting model's per-action state waits for it.
        let g = &mut self.game;
        let saved = (
            g.active.replace(reactor),
            std::mem::take(&mut g.used),
            std::mem::take(&mut g.slots_now),
            std::mem::take(&mut g.declined),
            std::mem::take(&mut g.extra_targets),
            std::mem::take(&mut g.features.c3.inspired),
            std::mem::take(&mut g.fumbles),
        );
        let was_reacting = std::mem::replace(&mut self.game.reacting, true);
        let out = self.react_now(w, reactor, actor, &reaction, ctrl);
        self.game.reacting = was_reacting;
        let g = &mut self.game;
        (g.active, g.used, g.slots_now, g.declined, g.extra_targets, g.features.c3.inspired, g.fumbles) = saved;
        out
    }

    /// What the ruleset calls a point of its pool.
    fn pool_name(&self) -> String {
        match &self.rules().turn {
            crate::compile::TurnSequence::Pooled(order) => order.pool.name.clone(),
            crate::compile::TurnSequence::DrawDeck(_) => String::new(),
        }
    }

    fn react_now(
        &mut self,
        w: usize,
        reactor: usize,
        actor: usize,
        reaction: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let window = &self.rules().reaction_windows[w];
        let checked = match actions::find(reaction.kind) {
            None => Err("no such action".to_owned()),
            Some(kind)
                if !window.actions.iter().any(|a| a.as_str() == actions::type_id(kind, reaction, self.rules())) =>
            {
                Err(format!(
                    "the window `{}` offers no {} action",
                    window.id,
                    actions::type_id(kind, reaction, self.rules())
                ))
            }
            Some(kind) => match actions::cost_of(kind, &self.game, reactor, reaction) {
                None => Err("this ruleset has no such action type".to_owned()),
                // Every check of a declaration but the action points: a reaction is paid later.
                Some(cost) => match self.game.declaration_refusal(reactor, kind, reaction, cost, u32::MAX) {
                    Some(reason) => Err(reason),
                    None => Ok((kind, cost)),
                },
            },
        };
        let side = self.game.models[reactor].side;
        // A unit reacts (and pays) once for all its models: a squad mate reacted to this activation already.
        let g = &self.game;
        let mate_reacted = g.reacted_now.iter().any(|&m| m != reactor && g.same_unit(m, reactor));
        let pays = !(window.counts_as_activation && mate_reacted);
        let checked = checked.and_then(|x| match window.cost {
            cav_format::rules::ReactionCost::Pool if pays && self.game.pools.get(side).is_none_or(|&p| p == 0) => {
                Err("its side has no point of its pool left this turn".to_owned())
            }
            _ => Ok(x),
        });
        let (kind, cost) = match checked {
            Ok(x) => x,
            Err(reason) => {
                emit!(self, Event::Forbidden { model: reactor, what: "reaction", reason });
                return Ok(());
            }
        };
        let (window_id, action) = (window.id.0.clone(), kind.name());
        emit!(self, Event::Reacted { model: reactor, target: actor, window: window_id, action });
        self.game.models[reactor].mark(&REACTED);
        self.mark_targeted(reactor, reaction.target);
        self.game.reacted_now.push(reactor);
        match window.cost {
            cav_format::rules::ReactionCost::OwedAp => self.game.models[reactor].ap_owed += cost,
            cav_format::rules::ReactionCost::Pool if !pays => {}
            cav_format::rules::ReactionCost::Pool => {
                self.game.pools[side] -= 1;
                let (name, pool, left) = (self.game.sides[side].clone(), self.pool_name(), self.game.pools[side]);
                emit!(self, Event::PoolSpent { side: name, model: reactor, pool, left });
            }
            cav_format::rules::ReactionCost::Free => {}
        }
        if window.counts_as_activation && pays {
            let owed = &mut self.game.owed_activations;
            owed.resize(owed.len().max(side + 1), 0);
            owed[side] += 1;
        }
        self.game.models[reactor].free_turns = 1;
        let path_from = self.game.models[reactor].path.len().saturating_sub(1);
        let resolved = self.resolve_action(kind, reactor, reaction, ctrl);
        if resolved.is_ok() {
            for f in features::each(self.game.schedule.action_resolved) {
                if let Some(run) = f.action_resolved {
                    run(self, reactor, path_from, ctrl)?;
                }
            }
        }
        // What the reaction used of the reactor's action slots, it used for the turn: the window's
        // own where it names them, else its action's.
        let window_mask = self.rules().reaction_slots.get(w).copied().unwrap_or(0);
        if window_mask != 0 {
            self.game.models[reactor].slots_used |= window_mask;
        } else if let Some(slots) = self.rules().slot_uses.get(actions::type_id(kind, reaction, self.rules())) {
            let any = if slots.any { self.game.free_slot(reactor, slots.mask).map_or(0, |bit| 1 << bit) } else { 0 };
            self.game.models[reactor].slots_used |= slots.mask | any;
        }
        match resolved {
            Ok(()) => Ok(()),
            Err(ActionError::Illegal(reason)) => Err(EngineError::IllegalAction {
                model: self.game.models[reactor].name.clone(),
                action: format!("{reaction:?}"),
                reason,
            }),
            Err(ActionError::Engine(e)) => Err(e),
        }
    }
}
