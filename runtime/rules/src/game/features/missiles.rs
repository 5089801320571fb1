//! Strikes that fly in as models (the Cruise Missiles, 001 L11217-11339, `Strike::missile`):
//! launched by `call-strike` at the launch point, a missile moves at once and again each time
//! its caller activates (straight on, at each turn's end, once the caller is gone), towards the
//! point named and on past it, paying for its turns as its card says (Reduced Turn: every one),
//! and detonates against the first enemy model or structure it touches — once armed: until it
//! has flown its attack's minimum range, and through a launcher's straight first move, a contact
//! destroys it with no attack. Its caller's player may self-destruct it as the caller activates.
//! It is a model of the caller's side on the table — it can be shot down — but has no card in
//! the draw deck (`Game::units`).

use super::Feature;
use crate::game::*;

/// A missile in flight: the model that called it, the strike, the point it flies at, the
/// inches it has flown (it arms at its attack's minimum range) and whether its next move is the
/// launcher's straight first one (no facing change, not armed).
#[derive(Debug, Clone, Copy)]
pub struct Missile {
    pub caller: usize,
    pub strike: usize,
    pub aim: P,
    pub flown: f64,
    pub straight: bool,
}

/// What a model that is a missile keeps: its flight (`None`: not a missile).
#[derive(Debug, Clone, Default)]
pub struct OnModel {
    pub missile: Option<Missile>,
}

/// Missiles in flight.
pub(crate) static MISSILES: Feature = Feature {
    configured_by,
    activated: Some(activated),
    end_phase: Some(end_phase),
    ..Feature::new(cav_format::vocab::Feature::Missiles)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.strikes.iter().any(|s| s.missile.is_some()).then_some("a strike with `missile:`")
}

/// The missiles it called fly with it.
fn activated(e: &mut Engine, model: usize, _: &mut u32, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
    e.missiles_with(model, ctrl)
}

fn end_phase(e: &mut Engine) -> Result<(), EngineError> {
    e.orphan_missiles()
}

/// How finely a missile's path is searched for the first base it touches, in inches.
const STEP: f64 = 0.25;

impl Engine<'_, '_> {
    /// Launch strike `strike`'s missile for `caller` towards `aim`: in front of a friendly
    /// model on the table carrying the strike's launcher weapon, else on the board edge nearest
    /// the caller; then its first moves.
    pub(crate) fn launch_missile(&mut self, caller: usize, strike: usize, aim: P) -> Result<(), EngineError> {
        let r = self.rules();
        let Some(def) = r.strikes[strike].missile.as_ref() else { return Ok(()) };
        let g = &self.game;
        let side = g.models[caller].side;
        let radius = r.cards[def.card].base_radius;
        let launcher = def.launcher.as_deref().and_then(|w| {
            (0..g.models.len()).find(|&i| {
                g.models[i].side == side && g.models[i].on_table() && g.card(i).weapons.iter().any(|m| m.weapon == w)
            })
        });
        // From a launcher it leaves straight ahead of it (001 L11325-11327); from the edge it is
        // placed facing the point named.
        let (from, facing) = match launcher {
            Some(l) => {
                let facing = g.models[l].facing;
                (g.models[l].pos + P::heading(facing).scale(g.card(l).base_radius + radius + 0.05), facing)
            }
            None => {
                let p = g.models[caller].pos;
                let [w, h] = g.board.size;
                let edges = [
                    (p.x, P::new(radius, p.y)),
                    (w - p.x, P::new(w - radius, p.y)),
                    (p.y, P::new(p.x, radius)),
                    (h - p.y, P::new(p.x, h - radius)),
                ];
                let from = edges.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map_or(p, |e| e.1);
                (from, from.bearing(aim))
            }
        };
        let m = self.game.add_model(def.card, side, from, facing);
        let straight = launcher.is_some();
        self.game.models[m].features.missiles.missile = Some(Missile { caller, strike, aim, flown: 0.0, straight });
        let (name, side_name) = (self.game.models[m].name.clone(), self.game.sides[side].clone());
        emit!(self, Event::Deployed { model: m, name, side: side_name, at: from, facing });
        self.missile_flies(m, def.first_moves)
    }

    /// `moves` full moves of missile `m`: towards its aim while it is ahead (a launcher's first
    /// move straight ahead), then straight on, its turns paid out of its MV; it stops at the
    /// first base or structure its own base touches and detonates there (or, not yet armed, is
    /// destroyed), and leaves play off the board's edge.
    pub(crate) fn missile_flies(&mut self, m: usize, moves: u32) -> Result<(), EngineError> {
        for _ in 0..moves {
            let g = &self.game;
            let Some(missile) = g.models[m].features.missiles.missile else { return Ok(()) };
            if !g.models[m].on_table() {
                return Ok(());
            }
            let from = g.models[m].pos;
            let facing = g.models[m].facing;
            let heading =
                if missile.straight || from.dist(missile.aim) <= 1e-6 { facing } else { from.bearing(missile.aim) };
            let dir = P::heading(heading);
            // One facing change a move is free, but none with Reduced Turn (001 L8061-8065); each
            // paid one costs the ruleset's price per step of up to its free angle.
            let turns = g.paid_turns(m, angle_diff(facing, heading).abs(), true);
            let turn_cost = turns * self.rules().proc.movement.extra_turn_cost;
            let mv = f64::from(g.move_value(m).saturating_sub(turn_cost));
            let r = g.card(m).base_radius;
            let arming = g.card(m).weapons.first().map_or(0.0, |w| w.min_range);
            let [w, h] = g.board.size;
            let mut at = from;
            let mut hit: Option<Option<usize>> = None;
            let mut gone = false;
            let mut moved = 0.0;
            while moved + 1e-9 < mv {
                let next = from + dir.scale((moved + STEP).min(mv));
                if next.x < 0.0 || next.y < 0.0 || next.x > w || next.y > h {
                    gone = true;
                    at = next;
                    break;
                }
                // Its own side's models it flies over (they are on its guidance's friend list).
                let side = g.models[m].side;
                // (An emplacement is met through its bunker, the structure under it.)
                let touched = (0..g.models.len()).find(|&i| {
                    i != m
                        && g.models[i].side != side
                        && g.attackable(i)
                        && next.dist(g.models[i].pos) < r + g.card(i).base_radius
                });
                at = next;
                moved = (moved + STEP).min(mv);
                if let Some(t) = touched {
                    hit = Some(Some(t));
                    break;
                }
                if g.structure_at_point(next).is_some() {
                    hit = Some(None);
                    break;
                }
            }
            self.game.models[m].pos = at;
            self.game.models[m].facing = heading;
            let armed = !missile.straight && missile.flown + moved >= arming - 1e-9;
            let mut next = Missile { flown: missile.flown + moved, straight: false, ..missile };
            // Past (or at) its aim it flies straight on, not back.
            if !missile.straight && from.dist(missile.aim) <= moved + 1e-6 {
                next.aim = at + dir.scale(1000.0);
            }
            self.game.models[m].features.missiles.missile = Some(next);
            let mv_spent = (moved.ceil() as u32).saturating_add(turn_cost);
            emit!(self, Event::Moved { model: m, from, to: at, mv_spent, facing: heading });
            if gone {
                self.game.models[m].left_board = true;
                emit!(self, Event::LeftBoard { model: m });
                return Ok(());
            }
            if let Some(target) = hit {
                if !armed {
                    // Not armed yet: the contact destroys it, with no attack (001 L11329-11333).
                    self.game.models[m].destroyed = true;
                    emit!(self, Event::Abandoned { model: m, reason: "destroyed by a contact before it armed".into() });
                    return Ok(());
                }
                return self.detonate(m, at, target);
            }
        }
        Ok(())
    }

    /// The missile `m` detonates at `at` against `target` (or the structure there): its attack on
    /// the pre-set dice — over its area where it has one, what its blast destroys outright first
    /// (the attack's `destroys`) — and it is gone.
    fn detonate(&mut self, m: usize, at: P, target: Option<usize>) -> Result<(), EngineError> {
        if self.game.models[m].features.missiles.missile.is_none() {
            return Ok(());
        }
        emit!(self, Event::StrikePoint { model: m, at });
        let aoe = self.cardr(m).weapons[0].aoe;
        if aoe > 0.0 {
            // What the blast destroys outright comes first (`Engine::land`), then its attack.
            self.area_attack(m, 0, at, target, 0, None)?;
        } else if let Some(t) = target {
            self.preset_attack(m, 0, t, "missile")?;
        } else if let Some(area) = self.game.structure_at_point(at) {
            self.attack_structure(m, 0, area, None, at)?;
        }
        // Gone (no wreck: nothing of it is left to lie on the table).
        self.game.models[m].destroyed = true;
        emit!(self, Event::Abandoned { model: m, reason: "detonated".into() });
        Ok(())
    }

    /// Each missile `caller` called makes its moves as the caller activates, or self-destructs
    /// if the caller's player says so.
    pub(crate) fn missiles_with(&mut self, caller: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        let mine: Vec<usize> = (0..self.game.models.len())
            .filter(|&i| {
                self.game.models[i].features.missiles.missile.is_some_and(|x| x.caller == caller)
                    && self.game.models[i].on_table()
            })
            .collect();
        for m in mine {
            let Some(x) = self.game.models[m].features.missiles.missile else { continue };
            if ctrl.self_destruct(&self.game, caller, m) {
                self.game.models[m].destroyed = true;
                emit!(self, Event::Abandoned { model: m, reason: "self-destructed".into() });
                continue;
            }
            let moves = self.rules().strikes[x.strike].missile.as_ref().map_or(0, |d| d.moves);
            self.missile_flies(m, moves)?;
        }
        Ok(())
    }

    /// At a turn's end, each missile whose caller is out of play flies straight on.
    pub(crate) fn orphan_missiles(&mut self) -> Result<(), EngineError> {
        for m in 0..self.game.models.len() {
            let Some(x) = self.game.models[m].features.missiles.missile else { continue };
            if !self.game.models[m].on_table() || self.game.models[x.caller].in_play() {
                continue;
            }
            let ahead = self.game.models[m].pos + P::heading(self.game.models[m].facing).scale(1000.0);
            self.game.models[m].features.missiles.missile = Some(Missile { aim: ahead, ..x });
            let moves = self.rules().strikes[x.strike].missile.as_ref().map_or(0, |d| d.moves);
            self.missile_flies(m, moves)?;
        }
        // Outside any activation, what they did lands now.
        for i in 0..self.game.models.len() {
            self.resolve_pending(i)?;
        }
        Ok(())
    }
}
