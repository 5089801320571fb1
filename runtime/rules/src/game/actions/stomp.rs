//! Stomp (001 L5623-5629): a move action by which a CAV in base contact with a helpless enemy —
//! prone, or of a type that cannot stand against it (vehicles), on its last damage column —
//! destroys it. Who may stomp and whom: the ruleset's `procedures.stomp` and option `stomp-targets`.

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};

pub struct Stomp;

impl ActionKind for Stomp {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "stomp"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        let Some(rule) = &game.rules.proc.stomp else { return Err("this ruleset has no stomp".into()) };
        if !game.rules.type_in(&rule.by, game.card(model).model_type) {
            return Err("this model type does not stomp".into());
        }
        let t = action.target()?;
        let Some(other) = game.models.get(t).filter(|o| o.side != game.models[model].side && o.on_table()) else {
            return Err("a stomp needs an enemy model on the table".into());
        };
        if game.distance(model, t) > game.rules.proc.movement.contact_distance {
            return Err("the model to stomp must be in base contact".into());
        }
        let ty = game.card(t).model_type;
        let standing_ok = !game.rules.engine_options.stomp_prone_only && game.rules.type_in(&rule.standing, ty);
        if !(other.prone && game.rules.type_in(&rule.prone, ty) || standing_ok) {
            let ids = |ts: &[cav_format::ModelType]| ts.iter().map(|t| t.id()).collect::<Vec<_>>().join(", ");
            let standing = if game.rules.engine_options.stomp_prone_only { String::new() } else { ids(&rule.standing) };
            return Err(format!(
                "a {} is stomped only when prone and of a type in [{}], or of a type in [{standing}]",
                game.rules.type_name(ty),
                ids(&rule.prone)
            ));
        }
        let left = game.card(t).columns.saturating_sub(game.column(t)) as u32;
        if left > rule.columns_left {
            return Err(format!(
                "only a model with at most {} damage-track column(s) left is stomped ({left} left)",
                rule.columns_left
            ));
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
        emit!(engine, Event::SpecialAction { model, target: Some(t) });
        engine.destroy(t);
        Ok(())
    }
}

impl Action {
    pub fn stomp(target: usize) -> Action {
        Action::new(Stomp.name()).on(target)
    }
}
