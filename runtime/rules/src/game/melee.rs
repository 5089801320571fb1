//! Close combat by roll kinds (`procedures.melee`; Sythopian Wars, 002 L390-428): once any
//! command is over — before its damage lands, so blows and shots of one command land together —
//! every two enemy units with models within the melee reach of each other fight. Each model of
//! either in reach rolls its melee weapon's attacks (or the unarmed dice) against the nearest
//! enemy model in reach; the side with more hits deals one point plus the attack's Force for each
//! hit beyond the other's, and the hits left are paired, the higher Force dealing the difference.

use cav_format::limits::MAX_ATTACK_ROLLS;

use super::engine::Situation;
use super::*;
use crate::compile::{MeleeProc, Term};

/// One hit of a close combat: the fighter, the enemy model it struck, and the attack's Force.
#[derive(Debug, Clone, Copy)]
struct Blow {
    by: usize,
    on: usize,
    force: i32,
}

impl Game<'_> {
    /// Whether `model` is within the melee reach of an enemy model (`procedures.melee`): in close
    /// combat, where its ranged weapons are of no use (002 L418).
    pub fn in_close_combat(&self, model: usize) -> bool {
        if self.rules.melee.is_none() {
            return false;
        }
        self.models[model].on_table() && (0..self.models.len()).any(|o| self.in_reach(model, o))
    }

    /// Whether `model` and `other`, of enemy sides, stand within the melee reach of each other.
    pub(crate) fn in_reach(&self, model: usize, other: usize) -> bool {
        self.rules.melee.as_ref().is_some_and(|m| {
            self.models[other].side != self.models[model].side
                && self.models[other].on_table()
                && self.distance(model, other) <= m.reach + 1e-9
        })
    }

    /// The models of `model`'s unit (a model in no squad is a unit of its own).
    fn unit_of(&self, model: usize) -> Vec<usize> {
        match self.models[model].squad {
            Some(s) => self.squads[s].members.clone(),
            None => vec![model],
        }
    }
}

impl Engine<'_, '_> {
    /// As a command ends: every two enemy units in close combat fight, in the order their models
    /// first stand in reach (the player's choice of order, 002 L394, read as the table's).
    pub(crate) fn close_combats(&mut self) -> Result<(), EngineError> {
        let Some(m) = self.rules().melee.as_ref() else { return Ok(()) };
        let g = &self.game;
        let unit = |x: usize| g.models[x].squad.map_or(g.squads.len() + x, |s| s);
        // Each two units once, whichever model of either stands first.
        let mut seen = std::collections::BTreeSet::new();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for a in 0..g.models.len() {
            for b in a + 1..g.models.len() {
                let (ma, mb) = (&g.models[a], &g.models[b]);
                if ma.side == mb.side || !ma.on_table() || !mb.on_table() || g.distance(a, b) > m.reach + 1e-9 {
                    continue;
                }
                let (x, y) = (unit(a), unit(b));
                if seen.insert((x.min(y), x.max(y))) {
                    pairs.push((a, b));
                }
            }
        }
        for (a, b) in pairs {
            self.melee(m, a, b)?;
        }
        Ok(())
    }

    /// The close combat of `a`'s unit and `b`'s: both roll at once, then the hits are compared.
    fn melee(&mut self, m: &MeleeProc, a: usize, b: usize) -> Result<(), EngineError> {
        let (ours, theirs) = (self.game.unit_of(a), self.game.unit_of(b));
        let mut mine = self.blows(m, &ours, &theirs);
        let mut yours = self.blows(m, &theirs, &ours);
        let (hits, target_hits) = (mine.len() as u32, yours.len() as u32);
        emit!(self, Event::Melee { model: a, target: b, hits, target_hits });
        // The hits beyond the other side's are the winner's strongest; the hits left are paired
        // strongest with strongest (a reading: the text leaves both to the players).
        for side in [&mut mine, &mut yours] {
            side.sort_by_key(|x| std::cmp::Reverse(x.force));
        }
        let extra = mine.len().abs_diff(yours.len());
        let (more, fewer) = if mine.len() >= yours.len() { (&mine, &yours) } else { (&yours, &mine) };
        let points = |f: i32| u32::try_from(f).unwrap_or(0);
        let mut dealt: Vec<(Blow, u32)> =
            more[..extra].iter().map(|&x| (x, points(x.force).saturating_add(1))).collect();
        // The higher Force of each pair deals the difference.
        for (&x, &y) in more[extra..].iter().zip(fewer.iter()) {
            let (winner, by) = if x.force >= y.force {
                (x, x.force.saturating_sub(y.force))
            } else {
                (y, y.force.saturating_sub(x.force))
            };
            if by > 0 {
                dealt.push((winner, points(by)));
            }
        }
        for (blow, points) in dealt {
            let side = self.game.models[blow.by].side;
            self.game.damage_dealt[side] = self.game.damage_dealt[side].saturating_add(points);
            self.take_damage(blow.by, blow.on, points);
        }
        Ok(())
    }

    /// The hits of `fighters`' models in reach of `enemies`: each rolls its melee weapon's
    /// attacks (or the unarmed dice) against the nearest enemy model in reach, each die logged.
    fn blows(&mut self, m: &MeleeProc, fighters: &[usize], enemies: &[usize]) -> Vec<Blow> {
        let r = self.rules();
        let kind = &r.roll_kinds[m.hit.kind];
        let mut out = Vec::new();
        for &f in fighters {
            let g = &self.game;
            if !g.models[f].on_table() || !g.can_fight(f) {
                continue;
            }
            let near =
                enemies.iter().copied().filter(|&o| g.models[o].on_table() && g.distance(f, o) <= m.reach + 1e-9);
            let Some(on) = near.min_by(|&x, &y| g.distance(f, x).total_cmp(&g.distance(f, y))) else { continue };
            let fc = self.cardr(f);
            let weapon = fc.weapons.iter().position(|w| w.melee);
            let w = weapon.map_or(&[][..], |k| fc.weapons[k].attributes.as_slice());
            let (fa, oa) = (g.attributes(f), g.attributes(on));
            let sum = |terms: &[Term]| Term::sum(terms, &fa, &oa, w);
            let dice = sum(if weapon.is_some() { &m.attacks } else { &m.unarmed }).clamp(0, MAX_ATTACK_ROLLS);
            let force = if weapon.is_some() { sum(&m.force) } else { 0 };
            let s = Situation { attacker: f, defender: Some(on), weapon, close_combat: true, ..Situation::default() };
            let need = m.hit.bounded_target_in(kind, sum(&m.hit.target), 0, &self.game, &s);
            for _ in 0..dice {
                let t = kind.throw_for_verdict(self.dice, 0, Some(need), false);
                let hit = t.success == Some(true);
                emit!(self, Event::Roll(kind.logged(f, Vec::new(), t)));
                if hit {
                    out.push(Blow { by: f, on, force });
                }
            }
        }
        out
    }
}
