//! Laying a nano barrier (001 L10600-10646): a model with the asset-user special attribute
//! (Combat Engineer) spends its Special action to lay a wall asset its side holds: a rectangle of
//! the asset's `laid_wall_length` by `laid_wall_width` inches that extends from the model's base
//! towards `to`, made of the asset's terrain piece (its elevation gives its cover). The asset is
//! used up; the wall stands for the rest of the game.

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Area, Controller, Engine, Game};
use crate::geom::{P, Polygon};

pub struct LayBarrier;

/// The side's held wall asset (its slot in `held_assets::Kept::held`) with a terrain piece, if any.
pub(crate) fn wall_asset(game: &Game, side: usize) -> Option<usize> {
    game.features.held_assets.held[side].iter().position(|&(a, n)| {
        let def = &game.rules.assets[a];
        n > 0 && def.laid_wall.is_some() && def.terrain.is_some()
    })
}

/// The wall's corners: `length` inches from the base edge of `model` towards `to`, `width` across.
fn wall(game: &Game, model: usize, to: P, (length, width): (f64, f64)) -> Option<Polygon> {
    let at = game.models[model].pos;
    if to.dist(at) < 1e-9 {
        return None;
    }
    let along = P::heading(at.bearing(to));
    let across = P::new(along.y, -along.x).scale(width / 2.0);
    let start = at + along.scale(game.card(model).base_radius);
    let end = start + along.scale(length);
    Some(Polygon { points: vec![start + across, end + across, end - across, start - across] })
}

impl ActionKind for LayBarrier {
    fn id(&self) -> ActionWord {
        ActionWord::LayBarrier
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if !game.asset_user(model) {
            return Err(
                "only a model with the ruleset's asset-user special attribute (Combat Engineer) lays barriers".into()
            );
        }
        let Some(slot) = wall_asset(game, game.models[model].side) else {
            return Err("the side holds no barrier to lay".into());
        };
        let Some(to) = action.to else { return Err("give the direction the wall extends towards (`to`)".into()) };
        let size = game.rules.assets[game.features.held_assets.held[game.models[model].side][slot].0]
            .laid_wall
            .unwrap_or_default();
        let poly = wall(game, model, to, size).ok_or("the wall needs a direction away from the model")?;
        if !poly.points.iter().all(|&p| game.on_board(p)) {
            return Err("the wall would stand off the board".into());
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
        let side = engine.game.models[model].side;
        let (Some(slot), Some(to)) = (wall_asset(&engine.game, side), action.to) else {
            return Err(ActionError::Illegal("no barrier to lay".into()));
        };
        let asset = engine.game.features.held_assets.held[side][slot].0;
        let def = &engine.game.rules.assets[asset];
        let (Some(terrain), Some(size)) = (def.terrain, def.laid_wall) else {
            return Err(ActionError::Illegal("no barrier to lay".into()));
        };
        let Some(poly) = wall(&engine.game, model, to, size) else {
            return Err(ActionError::Illegal("the wall needs a direction".into()));
        };
        emit!(engine, Event::SpecialAction { model, target: None });
        let center = poly.points.iter().fold(P::default(), |acc, p| acc + *p).scale(0.25);
        let radius = poly.points.iter().map(|p| p.dist(center)).fold(0.0, f64::max);
        let game = &mut engine.game;
        game.board.areas.push(Area { terrain, poly, center, radius, lasts: None });
        game.board_version += 1;
        game.features.held_assets.held[side][slot].1 -= 1;
        let left = game.features.held_assets.held[side][slot].1;
        let (name, side_name) = (game.rules.assets[asset].name.clone(), game.sides[side].clone());
        let detail = format!("a {}\"×{}\" wall laid from ({:.1}, {:.1})", size.0, size.1, center.x, center.y);
        emit!(engine, Event::AssetUsed { side: side_name, asset: name, detail, left });
        Ok(())
    }
}

impl Action {
    /// Lay a held barrier from the model's base towards `to`.
    pub fn lay_barrier(to: P) -> Action {
        Action::new(LayBarrier.name()).at(to)
    }
}
