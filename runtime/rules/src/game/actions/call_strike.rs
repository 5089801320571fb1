//! Calling in a battlefield strike package (001 L11009-11071, L1259-1277): a strike caller (a
//! model with the ruleset's `strike_caller_sa`, FIST) takes its Special action to request one
//! strike of a package its side bought: the strike's cost leaves the side's pool for that
//! package, and the strike lands on a point within the strike's range of the caller's centre. The
//! strike-point roll has no range band (`procedures.strike_packages.strike_point_tp`); a miss
//! drifts; every model under the strike's area is then attacked with the strike's profile, on
//! the pre-set dice against its base target point (`Engine::area_attack`).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::compile::StrikeTerms;
use crate::event::Event;
use crate::game::{Controller, Engine, Game};
use crate::geom::P;

pub struct CallStrike;

/// The strike `action` names and on what terms `model` calls it.
fn terms(game: &Game, model: usize, action: &Action) -> Option<(usize, StrikeTerms)> {
    let &[w] = action.weapons.as_slice() else { return None };
    let card = game.card(model);
    let s = card.weapons.get(w).and_then(|m| m.strike)?;
    card.strike_terms(&game.rules.strikes[s as usize], game.rules.strike_caller).map(|t| (w, t))
}

/// The strike mount named, the point aimed at, and the aimed model if the call names one.
fn call(game: &Game, model: usize, action: &Action) -> Result<(usize, P), String> {
    if game.rules.proc.strike_point_tp.is_none() {
        return Err("this ruleset has no strike packages".into());
    }
    if action.weapons.len() != 1 {
        return Err("call-strike names one strike".into());
    }
    let Some((w, terms)) = terms(game, model, action) else {
        return Err("only a strike caller calls strikes, and only the strikes it carries".into());
    };
    let Some(s) = game.card(model).weapons[w].strike else { return Err("not a strike".into()) };
    let def = &game.rules.strikes[s as usize];
    let side = game.models[model].side;
    let left = game.features.strikes.pools[side].get(&def.package).copied().unwrap_or(0);
    if terms.pays && left < def.cost {
        return Err(format!(
            "{} costs {} TV and the side's {:?} strike pool holds {left}",
            def.name, def.cost, def.package
        ));
    }
    let aim = match (action.to, action.target) {
        (Some(p), _) => p,
        (None, Some(t)) if t < game.models.len() && game.models[t].on_table() => game.models[t].pos,
        _ => return Err("call-strike needs a point (`to`) or a model on the table (`target`)".into()),
    };
    // A missile flies wherever it is sent; anything else lands within its range.
    if def.missile.is_some() {
        return Ok((w, aim));
    }
    if def.mount.range <= 0.0 {
        return Err(format!("{} is not called on a point (its range is not a distance): not played yet", def.name));
    }
    // Measured from the centre of the calling model (001 L11053-11055).
    let d = game.models[model].pos.dist(aim);
    if d > def.mount.range + 1e-9 {
        return Err(format!("the point is {d:.1}\" from the caller, beyond {}'s {}\"", def.name, def.mount.range));
    }
    if !game.on_board(aim) {
        return Err("the point is off the board".into());
    }
    Ok((w, aim))
}

impl ActionKind for CallStrike {
    fn id(&self) -> ActionWord {
        ActionWord::CallStrike
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    /// The call-strike action's cost, or what the caller's terms say (Satellite Uplink: 0 AP).
    fn cost(&self, game: &Game, model: usize, action: &Action) -> Option<u32> {
        let cost = game.rules.action_costs.get(self.id().id()).copied()?;
        Some(terms(game, model, action).and_then(|(_, t)| t.ap).unwrap_or(cost))
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        call(game, model, action).map(|_| ())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let (w, aim) = call(&engine.game, model, action).map_err(ActionError::Illegal)?;
        let r = engine.rules();
        let Some(s) = engine.cardr(model).weapons[w].strike else { return Ok(()) };
        let def = &r.strikes[s as usize];
        let side = engine.game.models[model].side;
        let terms = terms(&engine.game, model, action).map_or(StrikeTerms::CALLER, |(_, t)| t);
        // The authorization the caller's terms ask for (the BattleNet's 1d6 against 6): no strike
        // without it.
        if let Some((dice, tp)) = terms.authorization {
            let out = engine.roll(model, "authorization", dice, Vec::new(), Some(tp), None, false);
            if !out.success {
                return Ok(());
            }
        }
        let cost = if terms.pays { def.cost } else { 0 };
        let pool = engine.game.features.strikes.pools[side].entry(def.package).or_default();
        *pool = pool.saturating_sub(cost);
        let pool_left = *pool;
        emit!(engine, Event::StrikeCalled { model, strike: def.name.clone(), at: aim, cost, pool_left });
        if def.missile.is_some() {
            return Ok(engine.launch_missile(model, s as usize, aim)?);
        }
        let point = engine.strike_package_point(model, w, aim, action.target)?;
        // What it leaves where it lands (a minefield, a smoke screen) comes first, then any
        // attack. A strip (a smoke screen, a gunship's corridor) runs the way declared (`via`),
        // else square to the caller's line to the point.
        let from = engine.game.models[model].pos;
        let heading = action.via.map_or(from.bearing(point) + 90.0, |v| point.bearing(v));
        engine.area_attack(model, w, point, action.target, 0, Some(heading))?;
        Ok(())
    }
}

impl Action {
    /// Call in the strike the caller carries as mount `mount`, at `to`.
    pub fn call_strike(mount: usize, to: P) -> Action {
        Action { weapons: vec![mount], to: Some(to), ..Action::new(CallStrike.name()) }
    }
}
