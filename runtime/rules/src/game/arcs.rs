//! Firing arcs (001 L3757-3911): the quarters around a model's facing and which mounts reach
//! into which, torso twists included.

use cav_format::ModelTrait;

use super::state::Game;
use crate::geom::{P, angle_diff};

/// The four firing arcs of a model (001 L3757-3911): quarters around its facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arc {
    Front,
    Right,
    Back,
    Left,
}

impl Arc {
    pub fn name(self) -> &'static str {
        match self {
            Arc::Front => "front",
            Arc::Right => "right",
            Arc::Back => "back",
            Arc::Left => "left",
        }
    }
}

impl Game<'_> {
    /// Is `target` inside the firing arc of mount `weapon` of `attacker`? Front mounts (F, L, R arms) fire into
    /// the front arc, B into the rear, T all round; a torso twist widens the front and rear arcs.
    pub fn in_arc(&self, attacker: usize, weapon: usize, target: usize) -> bool {
        self.in_arc_at(attacker, weapon, self.models[target].pos)
    }

    /// `in_arc` for a point of the board (a structure aimed at).
    pub fn in_arc_at(&self, attacker: usize, weapon: usize, at: P) -> bool {
        self.in_arc_turned(attacker, weapon, at, || self.turn_to(attacker, at))
    }

    /// Does `model` see `other`: a line of sight and, where the ruleset narrows what models see
    /// (`sight.vision_half_width`), `other` inside that front arc (all round with
    /// `all-round-arc`)?
    pub fn sees(&self, model: usize, other: usize) -> bool {
        let card = self.card(model);
        let in_front = match self.rules.proc.sight.vision_half_width {
            Some(half) if !self.rules.has_trait(card.model_type, ModelTrait::AllRoundArc) => {
                self.turn_to(model, self.models[other].pos).abs() <= half + 1e-9
            }
            _ => true,
        };
        in_front && self.sight(model, other, false).0
    }

    /// How far `attacker` would turn to face `at`, in degrees (signed, -180 to 180).
    pub(super) fn turn_to(&self, attacker: usize, at: P) -> f64 {
        let a = &self.models[attacker];
        angle_diff(a.facing, a.pos.bearing(at))
    }

    /// `in_arc_at`, with `turn` giving `turn_to(attacker, at)` when the arc depends on it.
    pub(super) fn in_arc_turned(&self, attacker: usize, weapon: usize, at: P, turn: impl FnOnce() -> f64) -> bool {
        let card = self.card(attacker);
        let m = &card.weapons[weapon];
        if m.mounts.contains(&cav_format::Mount::T) || self.rules.has_trait(card.model_type, ModelTrait::AllRoundArc) {
            return true;
        }
        if self.rules.has_trait(card.model_type, ModelTrait::MountArcs) {
            return self.copies_in_arc_at(attacker, weapon, at) > 0;
        }
        let p = &self.rules.proc;
        let off = turn().abs();
        let rear = !m.mounts.is_empty() && m.mounts.iter().all(|x| *x == cav_format::Mount::B);
        // The torso twist turns the front arc only: back-mounted weapons keep to the back arc
        // (001 L3781-3789).
        let twist = if rear { 0.0 } else { self.rules.model_type(card.model_type).map_or(0.0, |t| t.torso_twist) };
        let off = if rear { 180.0 - off } else { off };
        off <= p.sight.arc_half() + twist + 1e-9
    }

    /// How many of a weapon entry's copies may fire at `target`: all of them, except on a model
    /// whose mounts fire into their own arcs (`mount-arcs`), where a copy fires only if its
    /// mount's arc (one mount per copy; one mount for all copies) holds the target.
    pub fn copies_in_arc(&self, attacker: usize, weapon: usize, target: usize) -> u32 {
        self.copies_in_arc_at(attacker, weapon, self.models[target].pos)
    }

    /// `copies_in_arc` for a point of the board.
    pub fn copies_in_arc_at(&self, attacker: usize, weapon: usize, at: P) -> u32 {
        use cav_format::Mount;
        let card = self.card(attacker);
        let m = &card.weapons[weapon];
        if !self.rules.has_trait(card.model_type, ModelTrait::MountArcs) {
            return m.quantity;
        }
        let arc = self.arc_at(attacker, at);
        let covers = |x: &Mount| match x {
            Mount::T => true,
            Mount::F => arc == Arc::Front,
            Mount::L => arc == Arc::Left,
            Mount::R => arc == Arc::Right,
            Mount::B => arc == Arc::Back,
        };
        match m.mounts.as_slice() {
            [] => m.quantity,
            [one] => {
                if covers(one) {
                    m.quantity
                } else {
                    0
                }
            }
            many => many.iter().filter(|x| covers(x)).count().min(m.quantity as usize) as u32,
        }
    }

    /// The firing arc of `attacker` that `target` stands in (front where the quarter lines fall).
    pub fn arc_of(&self, attacker: usize, target: usize) -> Arc {
        self.arc_at(attacker, self.models[target].pos)
    }

    /// The firing arc of `attacker` a point lies in.
    pub fn arc_at(&self, attacker: usize, at: P) -> Arc {
        let a = &self.models[attacker];
        let off = angle_diff(a.facing, a.pos.bearing(at));
        let half = self.rules.proc.sight.arc_half();
        match off {
            o if o.abs() <= half + 1e-9 => Arc::Front,
            o if o.abs() >= 180.0 - half - 1e-9 => Arc::Back,
            o if o > 0.0 => Arc::Right,
            _ => Arc::Left,
        }
    }
}
