//! The two scenarios with pieces of their own (001 L2194-2216, L2333-2375): the high-value
//! operative of a rescue, carried off the table by the rescuer, and the salvage containers that
//! become active turn by turn and score for the side that salvages them. Their numbers are the
//! scenario's `objectives:` (`hvo:`, `containers:`); the engine calls in here after a move, when a
//! model is destroyed, at the start and end of a turn and at the end of an activation.

use cav_format::{BoardEdge, VictoryKind};

use super::Feature;
use crate::event::Event;
use crate::game::{Engine, EngineError, Game, GameEnd};
use crate::geom::P;

/// Where the high-value operative is and who carries it.
#[derive(Debug, Clone)]
pub struct HvoState {
    pub pos: P,
    pub carrier: Option<usize>,
    /// The rescuer has moved it from where it started (others may take it from then on).
    pub moved: bool,
    /// It left the table: `Some(true)` carried across the rescuer's edge by the rescuer.
    pub gone: Option<bool>,
}

/// One salvage container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerState {
    Dormant,
    Active,
    /// Salvaged by a side; it scores and leaves when the turn ends.
    Salvaged(usize),
    Gone,
}

#[derive(Debug, Clone)]
pub struct Container {
    pub at: P,
    pub state: ContainerState,
    /// Per side: activations of its models near it, unopposed, since it was last contested.
    pub progress: Vec<u32>,
}

kept! {
    /// What missions keep: the rescue's high-value operative, where the scenario has one, and the
    /// salvage containers, where it has them (number = index + 1).
    pub struct Kept {
        pub hvo: Option<HvoState>,
        pub containers: Vec<Container>,
    }
}

/// The rescue's operative and the salvage containers.
pub(crate) static MISSIONS: Feature = Feature {
    configured_by,
    turn_start: Some(turn_start),
    model_moved: Some(model_moved),
    activation_end: Some(activation_end),
    scoring: Some(scoring),
    ..Feature::new(cav_format::vocab::Feature::Missions)
};

fn configured_by(rules: &crate::compile::Rules) -> Option<&'static str> {
    rules
        .scenarios
        .iter()
        .any(|s| s.objectives.as_ref().is_some_and(|o| o.hvo.is_some() || o.containers.is_some()))
        .then_some("a scenario with `objectives.hvo` or `objectives.containers`")
}

fn turn_start(e: &mut Engine) -> Result<(), EngineError> {
    e.activate_containers();
    Ok(())
}

fn model_moved(e: &mut Engine, model: usize, _: &[P]) -> Result<(), EngineError> {
    e.hvo_after_move(model);
    Ok(())
}

fn activation_end(e: &mut Engine, model: usize) {
    e.salvage(model);
}

fn scoring(e: &mut Engine) {
    e.score_containers();
}

impl Game<'_> {
    /// The scenario's HVO and containers, placed (called when the game is set up).
    pub(crate) fn place_mission_pieces(&mut self) {
        let Some(o) = self.rules.scenarios.get(self.scenario.unwrap_or(usize::MAX)).and_then(|s| s.objectives.as_ref())
        else {
            return;
        };
        if let Some(h) = &o.hvo {
            self.features.missions.hvo =
                Some(HvoState { pos: P::new(h.at[0], h.at[1]), carrier: None, moved: false, gone: None });
        }
        if let Some(c) = &o.containers {
            let sides = self.sides.len();
            self.features.missions.containers = c
                .at
                .iter()
                .map(|&[x, y]| Container { at: P::new(x, y), state: ContainerState::Dormant, progress: vec![0; sides] })
                .collect();
        }
    }

    fn hvo_def(&self) -> Option<&crate::compile::HvoDef> {
        self.rules.scenarios.get(self.scenario?)?.objectives.as_ref()?.hvo.as_ref()
    }

    fn containers_def(&self) -> Option<&crate::compile::ContainersDef> {
        self.rules.scenarios.get(self.scenario?)?.objectives.as_ref()?.containers.as_ref()
    }

    /// Models that may salvage or contest a container: on the table, not mission-killed or out of
    /// action.
    fn salvager(&self, model: usize) -> bool {
        let m = &self.models[model];
        m.on_table() && m.features.missiles.missile.is_none() && !m.mission_kill && !m.out_of_action
    }

    /// May the model step to `p` off the table carrying the HVO home?
    pub(crate) fn may_carry_off(&self, model: usize, p: P) -> bool {
        let (Some(h), Some(state)) = (self.hvo_def(), &self.features.missions.hvo) else { return false };
        state.carrier == Some(model) && self.models[model].side == h.rescuer && beyond(h.edge, p, self.board.size)
    }

    /// Where a bot should go for the mission: home with the HVO, to the HVO when it may take it,
    /// or to the nearest active container.
    pub(crate) fn mission_goal(&self, model: usize) -> Option<P> {
        let me = &self.models[model];
        if let (Some(h), Some(state)) = (self.hvo_def(), &self.features.missions.hvo) {
            if state.gone.is_some() {
                return None;
            }
            if state.carrier == Some(model) {
                let [w, d] = self.board.size;
                return Some(match h.edge {
                    BoardEdge::Left => P::new(-5.0, me.pos.y),
                    BoardEdge::Right => P::new(w + 5.0, me.pos.y),
                    BoardEdge::Bottom => P::new(me.pos.x, -5.0),
                    BoardEdge::Top => P::new(me.pos.x, d + 5.0),
                });
            }
            let may_take = me.side == h.rescuer || !h.others_after_moved || state.moved;
            return (state.carrier.is_none() && may_take).then_some(state.pos);
        }
        self.features
            .missions
            .containers
            .iter()
            .filter(|c| c.state == ContainerState::Active)
            .map(|c| c.at)
            .min_by(|a, b| a.dist(me.pos).total_cmp(&b.dist(me.pos)))
    }
}

impl Game<'_> {
    /// How close to its objective a bot must get: onto the HVO to pick it up, else near enough
    /// (inside an area, within reach of a container).
    pub fn objective_reach(&self) -> f64 {
        if self.features.missions.hvo.is_some() { 0.5 } else { 3.0 }
    }

    /// Whether the model stands near an active container (a bot stays there to salvage it).
    pub fn salvaging(&self, model: usize) -> bool {
        let Some(c) = self.containers_def() else { return false };
        self.salvager(model)
            && self
                .features
                .missions
                .containers
                .iter()
                .any(|x| x.state == ContainerState::Active && x.at.dist(self.models[model].pos) <= c.radius)
    }
}

/// Is `p` past the board's `edge`?
fn beyond(edge: BoardEdge, p: P, [w, d]: [f64; 2]) -> bool {
    match edge {
        BoardEdge::Left => p.x < 0.0,
        BoardEdge::Right => p.x > w,
        BoardEdge::Bottom => p.y < 0.0,
        BoardEdge::Top => p.y > d,
    }
}

impl Engine<'_, '_> {
    /// After a model's move: the HVO goes with its carrier (leaving the table with it), and a
    /// model in base contact with the free figure picks it up, if its side may.
    pub(crate) fn hvo_after_move(&mut self, model: usize) {
        let Some(h) = self.game.hvo_def().cloned() else { return };
        let Some(state) = &self.game.features.missions.hvo else { return };
        if state.gone.is_some() {
            return;
        }
        let m = &self.game.models[model];
        if state.carrier == Some(model) {
            let (pos, side, off) = (m.pos, m.side, m.left_board);
            let state = self.game.features.missions.hvo.as_mut().expect("checked above");
            state.pos = pos;
            state.moved |= side == h.rescuer;
            if off {
                state.gone = Some(side == h.rescuer && beyond(h.edge, pos, self.game.board.size));
            }
            return;
        }
        let may_take = m.side == h.rescuer || !h.others_after_moved || state.moved;
        let r = self.game.card(model).base_radius;
        let contact = self.rules().proc.movement.contact_distance;
        if state.carrier.is_none()
            && may_take
            && self.game.salvager(model)
            && m.pos.dist(state.pos) <= r + h.radius + contact
        {
            let state = self.game.features.missions.hvo.as_mut().expect("checked above");
            state.carrier = Some(model);
            emit!(self, Event::HvoTaken { model });
        }
    }

    /// A carrier destroyed drops the figure where it stood.
    pub(crate) fn hvo_carrier_lost(&mut self, model: usize) {
        let Some(state) = self.game.features.missions.hvo.as_mut() else { return };
        if state.carrier == Some(model) && state.gone.is_none() {
            state.carrier = None;
            let at = state.pos;
            emit!(self, Event::HvoDropped { model, at });
        }
    }

    /// A rescue ends when the HVO leaves the table, or when the rescuer has no model left.
    pub(crate) fn rescue_decided(&self) -> Option<GameEnd> {
        if self.game.victory != VictoryKind::Rescue {
            return None;
        }
        let h = self.game.hvo_def()?;
        let state = self.game.features.missions.hvo.as_ref()?;
        let rescuer = &self.game.sides[h.rescuer];
        let why = match state.gone {
            Some(true) => {
                return Some(self.rescue_end(true, format!("{rescuer} carried the high-value operative home")));
            }
            Some(false) => format!("the high-value operative left the table without {rescuer}"),
            None if !self.game.models.iter().any(|m| m.side == h.rescuer && m.in_play()) => {
                format!("{rescuer} has no model left to carry the high-value operative")
            }
            None => return None,
        };
        Some(self.rescue_end(false, why))
    }

    /// At the turn limit of a rescue, the rescuer has failed.
    pub(crate) fn rescue_at_limit(&self) -> Option<GameEnd> {
        if self.game.victory != VictoryKind::Rescue {
            return None;
        }
        let rescuer = &self.game.sides[self.game.hvo_def()?.rescuer];
        let limit = self.game.turn_limit;
        Some(self.rescue_end(false, format!("turn limit {limit} reached: {rescuer} did not carry the operative home")))
    }

    fn rescue_end(&self, rescued: bool, reason: String) -> GameEnd {
        let rescuer = self.game.hvo_def().map_or(0, |h| h.rescuer);
        let winner = if rescued { Some(rescuer) } else { (0..self.game.sides.len()).find(|&s| s != rescuer) };
        GameEnd { winner, turns: self.game.turn, reason, damage_dealt: self.game.damage_dealt.clone(), level: None }
    }

    /// The start of a turn: from the scenario's turn on, the die names a dormant container to
    /// activate (re-rolled on one already activated); once enough have been, the rest leave.
    pub(crate) fn activate_containers(&mut self) {
        let Some(c) = self.game.containers_def().cloned() else { return };
        let activated =
            |g: &Game| g.features.missions.containers.iter().filter(|x| x.state != ContainerState::Dormant).count();
        let dormant =
            |g: &Game| g.features.missions.containers.iter().filter(|x| x.state == ContainerState::Dormant).count();
        let once = self.rules().engine_options.salvage_rolls == cav_format::vocab::SalvageRolls::FirstTurnOnly;
        if self.game.turn < c.from_turn
            || (once && self.game.turn > c.from_turn)
            || dormant(&self.game) == 0
            || activated(&self.game) >= c.active_max as usize
        {
            return;
        }
        // Re-roll a number already activated, or one the die names beyond the containers; a die
        // that can never name a dormant one (a pack's mistake) gives up after a bounded number.
        for _ in 0..cav_format::limits::MAX_REROLLS {
            let n = c.die.roll(self.dice).1;
            let Some(k) = usize::try_from(n).ok().and_then(|n| n.checked_sub(1)) else { continue };
            if self.game.features.missions.containers.get(k).is_some_and(|x| x.state == ContainerState::Dormant) {
                self.game.features.missions.containers[k].state = ContainerState::Active;
                emit!(self, Event::Container { number: k as u32 + 1, what: "active", side: None });
                break;
            }
        }
        if activated(&self.game) >= c.active_max as usize {
            for k in 0..self.game.features.missions.containers.len() {
                if self.game.features.missions.containers[k].state == ContainerState::Dormant {
                    self.game.features.missions.containers[k].state = ContainerState::Gone;
                    emit!(self, Event::Container { number: k as u32 + 1, what: "removed", side: None });
                }
            }
        }
    }

    /// The end of an activation: each active container near the model counts one more
    /// unopposed activation for its side (or is contested, and its count starts again); enough
    /// activations, or enough of the side's models near it at once, salvage it.
    pub(crate) fn salvage(&mut self, active: usize) {
        let Some(c) = self.game.containers_def().cloned() else { return };
        if !self.game.salvager(active) {
            return;
        }
        let side = self.game.models[active].side;
        for k in 0..self.game.features.missions.containers.len() {
            let at = self.game.features.missions.containers[k].at;
            if self.game.features.missions.containers[k].state != ContainerState::Active
                || self.game.models[active].pos.dist(at) > c.radius
            {
                continue;
            }
            let near = |friends: bool| {
                (0..self.game.models.len())
                    .filter(|&m| self.game.salvager(m) && (self.game.models[m].side == side) == friends)
                    .filter(|&m| self.game.models[m].pos.dist(at) <= c.radius)
                    .count() as u32
            };
            let (friends, enemies) = (near(true), near(false));
            let progress = &mut self.game.features.missions.containers[k].progress[side];
            if enemies > 0 {
                *progress = 0;
                continue;
            }
            *progress += 1;
            if *progress >= c.activations || friends >= c.models {
                self.game.features.missions.containers[k].state = ContainerState::Salvaged(side);
                let name = self.game.sides[side].clone();
                emit!(self, Event::Container { number: k as u32 + 1, what: "salvaged", side: Some(name) });
            }
        }
    }

    /// The end of a turn: salvaged containers leave the table and score for their side.
    pub(crate) fn score_containers(&mut self) {
        let Some(points) = self.game.containers_def().map(|c| c.points) else { return };
        for k in 0..self.game.features.missions.containers.len() {
            if let ContainerState::Salvaged(side) = self.game.features.missions.containers[k].state {
                self.game.features.missions.containers[k].state = ContainerState::Gone;
                let total = &mut self.game.objective_points[side];
                *total = total.saturating_add(points);
                let name = self.game.sides[side].clone();
                emit!(self, Event::ObjectiveScored { side: name, points, areas: 0 });
            }
        }
    }
}
