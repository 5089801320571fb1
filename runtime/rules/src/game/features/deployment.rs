//! Models that come onto the table during play: from ambush (001 L6519-6535), by orbital drop
//! (001 L10235-10277), and those deploying rolling or delayed, which enter at an edge.

use super::Feature;
use crate::game::*;

kept! {
    /// What deployment keeps: the landing zone each squad dropping in named this turn (squad, turn,
    /// zone); per side, the pieces held back with its ambushing models (asset, variant terrain), set
    /// down under one as it is placed (`setup.ambush.pieces`).
    pub struct Kept {
        pub drop_zones: Vec<(usize, u32, P)>,
        pub ambush_pieces: Vec<Vec<(usize, Option<usize>)>>,
    }
}

/// Deploying during play.
pub(crate) static DEPLOYMENT: Feature =
    Feature { activated: Some(activated), ..Feature::new(cav_format::vocab::Feature::Deployment) };

fn activated(e: &mut Engine, model: usize, ap: &mut u32, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
    let me = &e.game.models[model];
    if (me.ambush || me.dropping) && me.waiting.is_some_and(|t| t <= e.game.turn) {
        let dropping = me.dropping;
        e.spring_ambush(model, ctrl)?;
        if e.game.models[model].waiting.is_some() {
            *ap = 0; // still hidden: nowhere to spring from yet, or its player waits
        } else if dropping {
            // The drop is the activation's move action.
            let cost = e.rules().proc.setup.orbital_drop.as_ref().map_or(0, |d| d.cost);
            *ap = ap.saturating_sub(cost);
        }
    }
    e.enter_table(model);
    Ok(())
}

impl Engine<'_, '_> {
    /// A model held back in ambush is placed where its controller says (001 L6519-6535), facing
    /// the nearest enemy, free to act; a place the ruleset forbids is an illegal choice.
    fn spring_ambush(&mut self, model: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        // A squad dropping in lands on one zone (001 L10249-10251): its first model names it this
        // turn, its mates drop at the same (each drifting from it).
        let (squad, turn) =
            (self.game.models[model].squad.filter(|_| self.game.models[model].dropping), self.game.turn);
        let named = squad.and_then(|s| {
            self.game.features.deployment.drop_zones.iter().find(|z| (z.0, z.1) == (s, turn)).map(|z| z.2)
        });
        let Some(mut at) = named.or_else(|| ctrl.ambush_at(&self.game, model)) else { return Ok(()) };
        // (A zone named for the squad was checked as it was named.)
        if let Some(reason) = self.game.ambush_refusal(model, at).filter(|_| named.is_none()) {
            return Err(EngineError::IllegalAction {
                model: self.game.models[model].name.clone(),
                action: format!("ambush at ({:.2}, {:.2})", at.x, at.y),
                reason,
            });
        }
        if let (Some(s), None) = (squad, named) {
            self.game.features.deployment.drop_zones.retain(|z| z.1 == turn);
            self.game.features.deployment.drop_zones.push((s, turn, at));
        }
        // An orbital drop drifts from the landing zone named, and is set beside any base it lands on.
        if self.game.models[model].dropping {
            let ctx = HookCtx::new(HookPoint::Drift, model);
            at = self.drift(model, at, 0, ctx)?;
            at = self.game.beside_bases(model, at);
        }
        let facing = self
            .game
            .enemies(model)
            .filter(|&e| self.game.models[e].on_table())
            .min_by(|&a, &b| at.dist(self.game.models[a].pos).total_cmp(&at.dist(self.game.models[b].pos)))
            .map_or(self.game.models[model].facing, |e| at.bearing(self.game.models[e].pos));
        let me = &mut self.game.models[model];
        let ambush = me.ambush;
        (me.pos, me.facing, me.waiting, me.ambush, me.dropping) = (at, facing, None, false, false);
        let name = me.name.clone();
        let side = self.game.sides[me.side].clone();
        emit!(self, Event::Deployed { model, name, side, at, facing });
        // A fighting position, revetment or trench held back with it goes down under it.
        if ambush {
            crate::setup::bring_ambush_piece(&mut self.game, model, &mut *self.log);
        }
        Ok(())
    }

    /// A model deploying during play (rolling, delayed) comes onto the table as it activates;
    /// its first action must be a move.
    fn enter_table(&mut self, model: usize) {
        let me = &mut self.game.models[model];
        // (A model held back in ambush or for a drop is placed as it springs, not on an edge.)
        if me.waiting.is_none_or(|t| t > self.game.turn) || me.ambush || me.dropping {
            return;
        }
        me.waiting = None;
        me.mark(&crate::game::actions::ENTERING);
        let (at, facing, name) = (me.pos, me.facing, me.name.clone());
        let side = self.game.sides[me.side].clone();
        emit!(self, Event::Deployed { model, name, side, at, facing });
    }
}
