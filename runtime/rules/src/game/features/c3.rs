//! C3 (command, control and communications) points: a force's pool and what a point buys
//! (rally, motivate, inspire, seize the initiative).

use super::Feature;
use crate::game::*;

kept! {
    /// What C3 keeps: per side, the points left in its force's pool; and whether a point declared
    /// with the current action inspires its next target-point roll.
    pub struct Kept {
        pub pool: Vec<u32>,
        pub inspired: bool,
    }
}

/// C3 points (the ruleset's `c3:`).
pub(crate) static C3: Feature = Feature {
    configured_by,
    enabled,
    squad_activates: Some(squad_activates),
    before_activation: Some(before_activation),
    action_points: Some(action_points),
    action_declared: Some(action_declared),
    ..Feature::new(cav_format::vocab::Feature::C3)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.c3.is_some().then_some("the ruleset's `c3:`")
}

fn enabled(rules: &Rules) -> bool {
    rules.c3.is_some()
}

fn squad_activates(e: &mut Engine, squad: usize, ctrl: &mut dyn Controller) -> Result<Option<usize>, EngineError> {
    Ok(e.seize_initiative(squad, ctrl))
}

/// Rally before anything else: it may lift a state that would cost this model its actions.
fn before_activation(e: &mut Engine, model: usize, ctrl: &mut dyn Controller) {
    if e.c3_offers(model, C3Use::Rally) && ctrl.spend_c3(&e.game, model, C3Use::Rally) {
        e.spend_c3(model, C3Use::Rally);
        let side = e.game.models[model].side;
        let clears = e.rules().c3.as_ref().map(|c| c.rally_clears.clone()).unwrap_or_default();
        for m in e.game.models.iter_mut().filter(|m| m.side == side) {
            m.states.retain(|(s, _)| !clears.contains(s));
        }
    }
}

fn action_points(e: &mut Engine, model: usize, mut ap: u32, ctrl: &mut dyn Controller) -> u32 {
    if ap > 0 && e.c3_offers(model, C3Use::Motivate) && ctrl.spend_c3(&e.game, model, C3Use::Motivate) {
        ap = ap.saturating_add(e.rules().c3.as_ref().map_or(0, |c| c.motivate_ap));
        e.spend_c3(model, C3Use::Motivate);
    }
    ap
}

/// A C3 point declared with the action inspires its next target-point roll (`rolls`).
fn action_declared(e: &mut Engine, model: usize, action: &Action, _: ActionWord) {
    if action.inspire && e.c3_offers(model, C3Use::Inspire) {
        e.spend_c3(model, C3Use::Inspire);
        e.game.features.c3.inspired = true;
    }
}

impl Engine<'_, '_> {
    /// Does the model's force have a C3 point, and does the ruleset offer `what`?
    fn c3_offers(&self, model: usize, what: C3Use) -> bool {
        let side = self.game.models[model].side;
        self.game.features.c3.pool.get(side).is_some_and(|&n| n > 0)
            && self.rules().c3.as_ref().is_some_and(|c| c.uses.contains(&what))
    }

    /// Seize the Initiative (001 L1314-1318): the controller may attach a model of a friendly squad
    /// that has not activated this turn to `squad`, which activates now; the model activates with
    /// it (and not again with its own squad this turn).
    fn seize_initiative(&mut self, squad: usize, ctrl: &mut dyn Controller) -> Option<usize> {
        let first = *self.game.squads[squad].members.first()?;
        if !self.c3_offers(first, C3Use::SeizeTheInitiative) {
            return None;
        }
        let m = ctrl.seize_initiative(&self.game, squad)?;
        let g = &self.game;
        let model = g.models.get(m)?;
        let from = model.squad.filter(|&s| s != squad && g.squads[s].side == g.squads[squad].side)?;
        let fresh = g.squads[from].members.iter().all(|&x| !g.models[x].activated);
        if !fresh || !model.on_table() {
            return None;
        }
        self.spend_c3(m, C3Use::SeizeTheInitiative);
        Some(m)
    }

    fn spend_c3(&mut self, model: usize, what: C3Use) {
        let side = self.game.models[model].side;
        let left = {
            let pool = &mut self.game.features.c3.pool[side];
            *pool = pool.saturating_sub(1);
            *pool
        };
        let side = self.game.sides[side].clone();
        emit!(self, Event::C3Spent { side, model, what: what.id().to_owned(), left });
    }
}
