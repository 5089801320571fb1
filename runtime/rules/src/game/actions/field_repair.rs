//! Field repair (001 L10663-10690): a model with the asset-user special attribute (Combat
//! Engineer) spends its Special action to use a field repair asset its side holds on a friend in
//! base contact: damage mended with no roll, lingering damage only where the asset says so
//! (`AssetDef::field_repair`, `field_repair_lingering`). The asset is used up.

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};

pub struct FieldRepair;

/// Damage points `asset` would mend on `target` now: non-lingering damage first, lingering damage
/// only when nothing else is left and the asset can mend it.
fn mends(game: &Game, asset: usize, target: usize) -> u32 {
    let def = &game.rules.assets[asset];
    // Without repair rules no damage lingers.
    let lingering = game.rules.proc.repair.as_ref().map_or(0, |r| r.lingering_damage);
    let damage = game.models[target].damage;
    if damage > lingering { def.field_repair.min(damage - lingering) } else { def.field_repair_lingering.min(damage) }
}

/// The side's held field repair asset (its slot in `held_assets::Kept::held`) that would mend most on
/// `target`, if any would mend something.
fn best_asset(game: &Game, side: usize, target: usize) -> Option<(usize, u32)> {
    game.features.held_assets.held[side]
        .iter()
        .enumerate()
        .filter(|(_, (a, n))| *n > 0 && game.rules.assets[*a].field_repair > 0)
        .map(|(slot, &(a, _))| (slot, mends(game, a, target)))
        .filter(|&(_, points)| points > 0)
        .max_by_key(|&(slot, points)| (points, std::cmp::Reverse(slot)))
}

/// Why `model` cannot field-repair `target` now, if it cannot (a fixed sentence: controllers ask
/// about every model at every decision, and only `check` needs it as text).
fn refusal(game: &Game, model: usize, target: usize) -> Option<&'static str> {
    if !game.asset_user(model) {
        return Some(
            "only a model with the ruleset's asset-user special attribute (Combat Engineer) uses field repair assets",
        );
    }
    let (me, it) = (&game.models[model], &game.models[target]);
    if target == model || it.side != me.side || !it.on_table() {
        return Some("field repair mends another model of the side, on the table");
    }
    if game.card(target).damage_control[game.column(target)].is_none() {
        return Some("the model has no damage-control value: field repair cannot mend it");
    }
    if game.distance(model, target) > game.rules.proc.movement.contact_distance {
        return Some("field repair needs base contact");
    }
    if best_asset(game, me.side, target).is_none() {
        return Some("the side holds no field repair asset that would mend this model's damage");
    }
    None
}

/// A friend `model` could field-repair now (the most damaged), for controllers.
pub fn field_repair_target(game: &Game, model: usize) -> Option<usize> {
    (0..game.models.len())
        .filter(|&t| refusal(game, model, t).is_none())
        .max_by_key(|&t| (game.models[t].damage, std::cmp::Reverse(t)))
}

impl ActionKind for FieldRepair {
    fn id(&self) -> ActionWord {
        ActionWord::FieldRepair
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        let target = action.target()?;
        if target >= game.models.len() {
            return Err("no such model".into());
        }
        refusal(game, model, target).map_or(Ok(()), |why| Err(why.to_owned()))
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        let side = engine.game.models[model].side;
        let Some((slot, points)) = best_asset(&engine.game, side, target) else {
            return Err(ActionError::Illegal("no field repair asset would mend it".into()));
        };
        emit!(engine, Event::SpecialAction { model, target: Some(target) });
        let game = &mut engine.game;
        game.features.held_assets.held[side][slot].1 -= 1;
        let (asset, left) = game.features.held_assets.held[side][slot];
        game.models[target].damage -= points;
        let column = game.column(target);
        let (name, side_name) = (game.rules.assets[asset].name.clone(), game.sides[side].clone());
        let detail = format!("{points} damage point(s) mended, no roll");
        emit!(engine, Event::AssetUsed { side: side_name, asset: name, detail, left });
        emit!(engine, Event::Repaired { model: target, points, column });
        Ok(())
    }
}

impl Action {
    /// Use a held field repair asset on `target` (a friend in base contact).
    pub fn field_repair(target: usize) -> Action {
        Action::new(FieldRepair.name()).on(target)
    }
}
