//! The controller: who decides for a side's models (a player, a bot, a test's plan), asked by
//! the engine at each choice the rules leave to a player.

use super::*;

/// Decides for the models of one or more sides.
/// One answer a target may make to an attack (`procedures.attack.opposed`): its index in the
/// ruleset's answers, and for one that shoots back, the weapon mount it fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackAnswer {
    pub answer: usize,
    pub weapon: Option<usize>,
}

pub trait Controller {
    /// Choose the next action for `model`, which has `ap` action points left.
    fn decide(&mut self, game: &Game, model: usize, ap: u32) -> Action;
    /// The rules refused the action last declared for `model`, for `reason`, before any of it
    /// happened: `true` takes it back (the controller is asked again), `false` stops the game
    /// with the refusal.
    fn refused(&mut self, _game: &Game, _model: usize, _reason: &str) -> bool {
        false
    }
    /// Where a critical fumble's strike point goes, chosen by the defender: any legal point
    /// (`options` are a few the engine suggests); `None` leaves it to the engine. An illegal
    /// point stops the game with the reason.
    fn relocate_strike_point(&mut self, _game: &Game, _attacker: usize, _defender: usize, _options: &[P]) -> Option<P> {
        None
    }
    /// `defender`, attacked by `attacker` before it activated this turn, may shoot back with
    /// these weapons at the end of the attacker's assaults.
    fn defensive_fire(&mut self, _game: &Game, _defender: usize, _attacker: usize) -> Option<Vec<usize>> {
        None
    }
    /// `model`, which has Counter-Battery, may answer `attacker`'s artillery at once with these
    /// indirect-fire weapons, at the attacker's place (`procedures.counter_battery`).
    fn counter_battery(&mut self, _game: &Game, _model: usize, _attacker: usize) -> Option<Vec<usize>> {
        None
    }
    /// Where `rider`, Airborne and aboard the flying `transport`, jumps as a move of the aircraft
    /// ends (the point of its path nearest this is where it lands); `None`: it stays aboard.
    fn airborne_jump(&mut self, _game: &Game, _rider: usize, _transport: usize) -> Option<P> {
        None
    }
    /// Whether the missile `missile` that `caller` called self-destructs as its caller activates,
    /// instead of flying on (001 L11265-11267).
    fn self_destruct(&mut self, _game: &Game, _caller: usize, _missile: usize) -> bool {
        false
    }
    /// `model`, attacked from close quarters by `attacker`, may strike first with its
    /// close-defense reaction (`procedures.close_defense`, Anti-Infantry).
    fn close_defense(&mut self, _game: &Game, _model: usize, _attacker: usize) -> bool {
        false
    }
    /// Where `model`, held back in ambush, is placed as it activates; `None` keeps it hidden this
    /// activation. By default: the legal place nearest to an enemy (`Game::ambush_spots`).
    fn ambush_at(&mut self, game: &Game, model: usize) -> Option<P> {
        game.ambush_spots(model).first().copied()
    }
    /// `watcher` on over-watch may stop `mover` now and fire these weapons at it.
    fn overwatch_fire(&mut self, _game: &Game, _watcher: usize, _mover: usize) -> Option<Vec<usize>> {
        None
    }
    /// Whether `model` uses its optional special attribute `sa` (the SA's id) for what is being
    /// resolved now (`weapon`, against `target`); `false` declines it (SMART's trade of area for
    /// RAV, …). Asked before each action, for every special attribute marked `optional` on the
    /// model or on the weapons the action declares; a declined one neither modifies rolls nor
    /// runs its script's handlers during that action.
    fn use_special_attribute(
        &mut self,
        _game: &Game,
        _model: usize,
        _sa: &str,
        _weapon: Option<usize>,
        _target: Option<usize>,
    ) -> bool {
        true
    }
    /// Whether `side` sends the card just drawn (a card of side `card`) to the bottom of the draw
    /// deck with a recon drone it holds (asked once a turn per side holding one, while it has
    /// not used one this turn). By default: the first card of an enemy that would activate a
    /// model.
    fn skip_card(&mut self, game: &Game, side: usize, card: usize) -> bool {
        card != side
            && game.units(card).iter().flatten().any(|&m| game.models[m].in_play() && !game.models[m].activated)
    }
    /// What `reactor` does in reaction window `window` (`Rules::reaction_windows`) to `actor`'s
    /// declared action: one of the window's action types, or `None` (the default: it lets it be).
    fn react(&mut self, _game: &Game, _window: usize, _reactor: usize, _actor: usize) -> Option<Action> {
        None
    }
    /// How `model` answers `attacker`'s attack as it is declared: one of `options` (the answers
    /// it has, `Rules::attack`'s `opposed.answers`, one per weapon that can fire back for an
    /// answer that shoots), or `None` to let it be. By default: the first.
    fn answer_attack(
        &mut self,
        _game: &Game,
        _model: usize,
        _attacker: usize,
        options: &[AttackAnswer],
    ) -> Option<usize> {
        (!options.is_empty()).then_some(0)
    }
    /// How the acting `model` answers the attacks reactions aim at it during its action, paying
    /// action points of its activation (`opposed.acting_answer_cost`): one of `options` (the
    /// answers that only oppose), or `None` to keep its action points. Asked at the first such
    /// attack (`attacker`'s). By default: none.
    fn answer_reactions(
        &mut self,
        _game: &Game,
        _model: usize,
        _attacker: usize,
        _options: &[AttackAnswer],
    ) -> Option<usize> {
        None
    }
    /// Which of `units` (each its models, those activated least this turn first) `side` pays a
    /// point of its pool to activate, in a pooled turn (`turn_order`). By default: the first.
    fn choose_unit(&mut self, _game: &Game, _side: usize, _units: &[Vec<usize>]) -> usize {
        0
    }
    /// Whether `model`'s force spends a C3 point now on `what`, asked as the model activates:
    /// Rally first, then Motivate. (Inspire is declared with an action: [`Action::inspire`].) Asked
    /// only when the force has a point and the ruleset offers the use.
    fn spend_c3(&mut self, _game: &Game, _model: usize, _what: C3Use) -> bool {
        false
    }
    /// Seize the Initiative: a model of a friendly squad that has not activated this turn, to
    /// activate now with `squad` for a C3 point (asked as the squad's activation begins, when the
    /// ruleset offers it and the force has a point); `None` declines.
    fn seize_initiative(&mut self, _game: &Game, _squad: usize) -> Option<usize> {
        None
    }
    /// The pre-game move of a model whose task allows one (`setup.pre_game_move`): where it goes
    /// with one move action before the first turn; `None` stays.
    fn pre_game_move(&mut self, _game: &Game, _model: usize) -> Option<P> {
        None
    }
}
