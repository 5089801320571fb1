//! The Move action (001 L2693-2729) and what the rulebook also makes a Move action: moving
//! backwards, standing up, going prone. All four pay the `move` action type and repeat; the
//! moving itself (terrain, turning, contact, over-watch interrupts) is `game/movement.rs`.

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{ModifierTarget, StateDuration};

use super::{Action, ActionError, ActionKind, ENGAGED};
use crate::compile::StateIx;
use crate::event::Event;
use crate::game::movement::Stride;
use crate::game::{Controller, Engine, Game, Lasts, Mark};
use crate::geom::P;

/// The model came onto the table this activation: its first action is a move (any kind of Move
/// action ends it).
pub static ENTERING: Mark = Mark { name: "entering", lasts: Lasts::NextAction };

/// A model in close combat must break first.
fn not_engaged(game: &Game, model: usize) -> Result<(), String> {
    if game.models[model].has(&ENGAGED) {
        return Err("a model in close combat must break before it moves away".into());
    }
    Ok(())
}

/// Straight towards a point, turning to face it first (`move`), backwards towards a point
/// behind the model, keeping its facing (`reverse`), or sideways or diagonally forwards keeping
/// its facing (`shift`: a model with Improved Handling).
pub struct Move {
    stride: Stride,
}

pub static FORWARD: Move = Move { stride: Stride::Forward };
pub static BACKWARD: Move = Move { stride: Stride::Reverse };
pub static SHIFT: Move = Move { stride: Stride::Shift };

impl ActionKind for Move {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        match self.stride {
            Stride::Forward => ActionWord::Move.id(),
            Stride::Reverse => "reverse",
            Stride::Shift => "shift",
        }
    }
    fn repeatable(&self) -> bool {
        true
    }
    /// Taken as several Move actions in one, it costs them all.
    fn cost(&self, game: &Game, _model: usize, action: &Action) -> Option<u32> {
        let one = game.rules.action_costs.get(self.id().id()).copied()?;
        Some(one.saturating_mul(action.moves.max(1)))
    }
    fn moves_to(&self, _: &Game, action: &Action) -> Option<P> {
        action.to
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        not_engaged(game, model)?;
        if action.moves == 0 {
            return Err("a move is at least one Move action".into());
        }
        if action.moves > 1 && action.noe {
            return Err("nap of the earth is flown one Move action at a time".into());
        }
        if self.stride == Stride::Shift
            && !game.own_effect_holds(model, ModifierTarget::LateralShift)
            && !game.own_effect_holds(model, ModifierTarget::Drift)
        {
            return Err("only a model with Improved Handling shifts without turning".into());
        }
        if action.noe {
            if game.rules.proc.flight.is_none() {
                return Err("this ruleset has no nap-of-the-earth flight".into());
            }
            if !game.flying(model) {
                return Err("only an aircraft in flight flies nap of the earth".into());
            }
        }
        if game.models[model].landed {
            return Err("a landed aircraft takes off before it moves".into());
        }
        let to = action.to()?;
        if self.stride == Stride::Shift {
            let mut from = game.models[model].pos;
            for &leg in action.path.iter().chain([&to]) {
                game.shift_cost_factor(model, from, leg)?;
                from = leg;
            }
        }
        if let Some((piece, room)) = game.full_piece_at(model, to) {
            return Err(format!(
                "the {piece} there is full: it holds {room} model{}",
                if room == 1 { "" } else { "s" }
            ));
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let mut to = action.to().map_err(ActionError::Illegal)?;
        match engine.movement_hook(model, None)? {
            Ok(budget) => {
                // Several Move actions as one move: their MV and free facing changes together.
                let moves = action.moves.max(1);
                engine.game.models[model].free_turns = moves;
                let budget = match budget {
                    _ if moves == 1 => budget,
                    Some(b) => Some(b.saturating_mul(moves)),
                    None => Some(engine.game.move_value(model).saturating_mul(moves)),
                };
                if action.noe {
                    // Nap of the earth spends the whole MV (001 L3734-3741): the move runs on
                    // past the point towards which it was declared until the MV is used.
                    let g = &engine.game;
                    let extra = g.rules.proc.flight.as_ref().map_or(0, |f| f.noe_extra_cost);
                    let mv = budget.unwrap_or_else(|| g.move_value(model));
                    let reach = f64::from(mv) / f64::from(g.rules.proc.movement.open_ground_cost + extra).max(1.0);
                    let from = g.models[model].pos;
                    if to.dist(from) > 1e-9 {
                        to = from + (to - from).scale(reach / to.dist(from));
                    }
                    if !engine.game.models[model].features.flight.noe {
                        engine.game.models[model].features.flight.noe = true;
                        emit!(engine, Event::Flight { model, what: "noe" });
                    }
                }
                // A path: its legs in turn, on one budget.
                let mut spent = 0;
                for &corner in &action.path {
                    let left = budget.unwrap_or_else(|| engine.game.move_value(model)).saturating_sub(spent);
                    spent += engine
                        .do_move_mode(model, corner, Some(left), self.stride, ctrl)
                        .map_err(ActionError::Illegal)?;
                    if engine.game.models[model].pos.dist(corner) > 1e-6 {
                        return Ok(()); // stopped short of a corner: the move ends there
                    }
                }
                let budget = if action.path.is_empty() {
                    budget
                } else {
                    Some(budget.unwrap_or_else(|| engine.game.move_value(model)).saturating_sub(spent))
                };
                let moved = match budget {
                    Some(0) => Ok(0),
                    b => engine.do_move_mode(model, to, b, self.stride, ctrl),
                };
                engine.game.models[model].features.flight.noe_last = action.noe;
                moved.map(|_| ()).map_err(ActionError::Illegal)
            }
            Err(reason) => {
                emit!(engine, Event::Forbidden { model, what: "move", reason });
                Ok(())
            }
        }
    }
}

/// Stand up from prone (and end the states that last until the model stands up).
pub struct StandUp;

impl ActionKind for StandUp {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "stand-up"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, _: &Action) -> Result<(), String> {
        let down = game.models[model].prone || game.state_blocks(model, |s| s.duration == StateDuration::UntilStandUp);
        if !down {
            return Err("the model is not down".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.stand_up(model);
        Ok(())
    }
}

impl Engine<'_, '_> {
    /// The model stands up: no longer prone, and the states lasting until it stands end.
    pub(crate) fn stand_up(&mut self, model: usize) {
        self.game.models[model].prone = false;
        let states = &self.rules().states;
        let ended: Vec<StateIx> = self.game.models[model]
            .states
            .iter()
            .filter(|(s, _)| states[*s as usize].duration == StateDuration::UntilStandUp)
            .map(|(s, _)| *s)
            .collect();
        self.game.models[model].states.retain(|(s, _)| !ended.contains(s));
        emit!(self, Event::StoodUp { model });
        for s in ended {
            emit!(self, Event::StateEnded { model, state: self.rules().states[s as usize].name.clone() });
        }
    }
}

/// Go prone (the ruleset's prone state).
pub struct GoProne;

impl ActionKind for GoProne {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "go-prone"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, _: &Action) -> Result<(), String> {
        if game.rules.proc.damage.prone_state.is_none() {
            return Err("this ruleset has no prone state: nobody goes prone".into());
        }
        if game.models[model].prone {
            return Err("already prone".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.game.models[model].prone = true;
        if let Some(state) = engine.rules().proc.damage.prone_state {
            engine.add_own_state(model, state)?;
        }
        emit!(engine, Event::WentProne { model });
        Ok(())
    }
}

impl Action {
    pub fn move_to(to: P) -> Action {
        Action::new(FORWARD.name()).at(to)
    }
    /// A shift keeping the facing (Improved Handling's drift or lateral shift).
    pub fn shift(to: P) -> Action {
        Action::new(SHIFT.name()).at(to)
    }
    pub fn reverse(to: P) -> Action {
        Action::new(BACKWARD.name()).at(to)
    }
    pub fn stand_up() -> Action {
        Action::new(StandUp.name())
    }
    pub fn go_prone() -> Action {
        Action::new(GoProne.name())
    }
}
