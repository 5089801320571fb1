//! Regroup (001 L5722-5780): at the start of its activation a model of an under-strength squad
//! names a model of another friendly under-strength squad that has not activated this turn; the
//! two squads become one (of their shared type, else the ruleset's `regroup.mixed_becomes`),
//! models beyond the new type's maximum leave play, and every model still to act this activation
//! — the partner squad's included, which activates with it — has the ruleset's `regroup.ap_left`
//! AP. The draw deck follows from the squads at the next turn. Read as once per activation.

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};

pub struct Regroup;

/// Most models a squad type holds (`u32::MAX` for a type the ruleset does not list).
fn max_models(game: &Game, kind: &str) -> u32 {
    game.rules.squad_types.iter().find(|(id, _)| id == kind).map_or(u32::MAX, |(_, n)| *n)
}

fn in_play(game: &Game, squad: usize) -> Vec<usize> {
    game.squads[squad].members.iter().copied().filter(|&m| game.models[m].in_play()).collect()
}

impl ActionKind for Regroup {
    fn id(&self) -> ActionWord {
        ActionWord::Regroup
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.rules.proc.regroup.is_none() {
            return Err("this ruleset has no regroup".into());
        }
        if !game.used.is_empty() {
            return Err("regroup is declared at the start of the activation".into());
        }
        let Some(mine) = game.models[model].squad else { return Err("the model serves in no squad".into()) };
        let t = action.target()?;
        let partner = game.models.get(t).and_then(|m| m.squad).filter(|&s| s != mine);
        let Some(partner) = partner.filter(|&s| game.squads[s].side == game.squads[mine].side) else {
            return Err("regroup names a model of another friendly squad".into());
        };
        if game.squads[partner].members.iter().any(|&m| game.models[m].activated) {
            return Err("the partner squad has activated this turn".into());
        }
        for s in [mine, partner] {
            let q = &game.squads[s];
            if in_play(game, s).len() as u32 >= max_models(game, &q.kind) {
                return Err(format!("{} is not under strength", q.name));
            }
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let t = action.target().map_err(ActionError::Illegal)?;
        let g = &engine.game;
        let (Some(mine), Some(partner)) = (g.models[model].squad, g.models[t].squad) else {
            return Err(ActionError::Illegal("regroup needs two squads".into()));
        };
        let Some(rule) = g.rules.proc.regroup.clone() else { return Ok(()) };
        let kind = if g.squads[mine].kind == g.squads[partner].kind {
            g.squads[mine].kind.clone()
        } else {
            rule.mixed_becomes.as_str().to_owned()
        };
        let max = max_models(g, &kind) as usize;
        let mut members = in_play(g, mine);
        let joining = in_play(g, partner);
        let room = max.saturating_sub(members.len());
        let (fits, surplus) = joining.split_at(joining.len().min(room));
        let (fits, surplus) = (fits.to_vec(), surplus.to_vec());
        for &m in &fits {
            engine.game.models[m].squad = Some(mine);
        }
        members.extend(&fits);
        // Models the new squad has no room for leave play (they count as lost to the opponent).
        for &m in &surplus {
            emit!(engine, Event::Abandoned { model: m, reason: "left out of the regrouped squad".into() });
            engine.game.models[m].destroyed = true;
            engine.game.models[m].squad = None;
        }
        let (name, joined) = (engine.game.squads[mine].name.clone(), engine.game.squads[partner].name.clone());
        engine.game.squads[partner].members.clear();
        engine.game.squads[mine].members = members.clone();
        engine.game.squads[mine].kind = kind.clone();
        for &m in &members {
            if m != model && !engine.game.models[m].activated {
                engine.game.models[m].ap_once = Some(rule.ap_left);
            }
        }
        engine.game.joined.extend(fits);
        emit!(engine, Event::Regrouped { squad: name, joined, kind, models: members.len() as u32 });
        Ok(())
    }
}

impl Action {
    /// Regroup with the squad of `partner` (a model of it).
    pub fn regroup(partner: usize) -> Action {
        Action::new(Regroup.name()).on(partner)
    }
}
