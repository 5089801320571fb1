//! Unit coherency (`procedures.coherency`; Sythopian Wars, 002 L104, L288): a unit's models keep
//! within a chain distance of one another and within a spread of every other. A move may not end
//! a model out of coherency — counting how far the unit mates still to act this activation may
//! yet move, since a unit moves one model at a time — unless the model was out of it already and
//! ends nearer its unit ("they must attempt to get back"). As the unit's activation ends, a model
//! out of coherency is reported, and one in a `left_behind` state (a stunned model the unit moved
//! away from) is removed as slain, its hit points taken off the damage the unit holds.

use super::Feature;
use crate::game::*;

pub(crate) static COHERENCY: Feature = Feature {
    enabled: |r| r.proc.coherency.is_some(),
    configured_by: |r| r.proc.coherency.as_ref().map(|_| "`procedures.coherency`"),
    move_declared: Some(refuse_incoherent_move),
    squad_activation_end: Some(check_unit),
    ..Feature::new(cav_format::vocab::Feature::Coherency)
};

impl Game<'_> {
    /// How far model `m`, at `at`, stands out of coherency with its unit: 0 when it is in
    /// coherency, else the inches by which the nearest unit mate is beyond the chain (or the
    /// farthest beyond the spread, whichever is more). Each mate counts as nearer by `reach(mate)`,
    /// what it may still move. A model alone in its unit is always in coherency.
    fn coherency_gap(&self, m: usize, at: P, reach: impl Fn(usize) -> f64) -> f64 {
        let Some(rule) = self.rules.proc.coherency.as_ref() else { return 0.0 };
        let Some(squad) = self.models[m].squad else { return 0.0 };
        let r = self.card(m).base_radius;
        let spread = rule.spread_moves.map(|k| k * f64::from(self.card(m).movement.first().copied().unwrap_or(0)));
        let (mut nearest, mut beyond_spread) = (None::<f64>, 0.0f64);
        for &o in &self.squads[squad].members {
            if o == m || !self.models[o].on_table() {
                continue;
            }
            let edge = (at.dist(self.models[o].pos) - r - self.card(o).base_radius).max(0.0) - reach(o);
            nearest = Some(nearest.map_or(edge, |n| n.min(edge)));
            if let Some(s) = spread {
                beyond_spread = beyond_spread.max(edge - s);
            }
        }
        let Some(nearest) = nearest else { return 0.0 };
        (nearest - rule.chain).max(beyond_spread).max(0.0)
    }

    /// What unit mate `o` may still move this activation: its move value while its unit is
    /// activating and it has not acted yet (and may act), else nothing.
    fn still_to_move(&self, o: usize) -> f64 {
        let me = &self.models[o];
        let activating = me.squad.is_some() && me.squad == self.unit_activating;
        if !activating || me.activated || self.state_blocks(o, |s| s.no_actions) {
            return 0.0;
        }
        f64::from(self.move_value(o))
    }

    /// Whether a move of `model` towards `to` keeps it in coherency (or, out of it already,
    /// brings it nearer) where it ends: at `to`, or as far along as its move value reaches
    /// in the open. The bots ask before they move.
    pub fn coherent_move(&self, model: usize, to: P) -> bool {
        self.coherent_move_by(model, to, 1.0)
    }

    /// `coherent_move` for a move that goes `times` the move value (a run).
    pub fn coherent_move_by(&self, model: usize, to: P, times: f64) -> bool {
        let from = self.models[model].pos;
        let reach = f64::from(self.move_value(model)) * times;
        let to = if to.dist(from) > reach { from + (to - from).scale(reach / to.dist(from)) } else { to };
        let gap = self.coherency_gap(model, to, |o| self.still_to_move(o));
        gap <= 1e-9 || gap < self.coherency_gap(model, self.models[model].pos, |o| self.still_to_move(o)) - 1e-9
    }
}

/// A move that would end out of coherency is refused (002 L104: a model "cannot be purposefully
/// placed" out of it).
fn refuse_incoherent_move(g: &Game, model: usize, to: P, times: f64) -> Result<(), String> {
    if g.coherent_move_by(model, to, times) {
        return Ok(());
    }
    let Some(rule) = g.rules.proc.coherency.as_ref() else { return Ok(()) };
    let spread = match rule.spread_moves {
        Some(k) => format!(" and within {k}× its move of every other"),
        None => String::new(),
    };
    Err(format!(
        "it would end out of its unit's coherency: within {}\" of another model of its unit{spread}, counting how far those still to act may move",
        rule.chain
    ))
}

/// As a unit's activation ends: its models out of coherency are reported; one in a `left_behind`
/// state is removed as slain and the unit's held damage loses its hit points (002 L288).
fn check_unit(e: &mut Engine, squad: usize) -> Result<(), EngineError> {
    let Some(rule) = e.rules().proc.coherency.as_ref() else { return Ok(()) };
    let g = &e.game;
    let out: Vec<usize> = (g.squads[squad].members.iter().copied())
        .filter(|&m| g.models[m].on_table() && g.coherency_gap(m, g.models[m].pos, |_| 0.0) > 1e-9)
        .collect();
    if out.is_empty() {
        return Ok(());
    }
    for m in out {
        let g = &e.game;
        let lost = rule.left_behind.iter().any(|&s| g.models[m].has_state(s));
        emit!(e, Event::OutOfCoherency { model: m, lost });
        if !lost {
            continue;
        }
        let hp = e.cardr(m).columns as u32;
        e.game.models[m].pending.damage += hp.saturating_sub(e.game.models[m].damage);
        e.resolve_pending(m)?;
        let held = e.game.squads[squad].held;
        if held > 0 {
            e.hold(squad, -(hp.min(held) as i32));
        }
    }
    Ok(())
}
