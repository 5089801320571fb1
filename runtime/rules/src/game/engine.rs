//! The engine: the game state plus the dice, the event sink and the hooks. The turn loop, the
//! draw deck, activations (the checks every action shares, then the action's own module), roll
//! modifiers and conditions, and the calls to the hooks.

use super::*;

/// Decides for the models of one or more sides.
/// A card of the draw deck: the side whose colour it is, and the unit (its first model) it is
/// assigned to while that unit waits to drop in (an orbital drop's own card, 001 L10235-10241).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    pub side: usize,
    pub drop: Option<usize>,
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

#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    IllegalAction { model: String, action: String, reason: String },
    Hook { message: String },
    DiceExhausted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::IllegalAction { model, action, reason } => {
                write!(f, "illegal action by {model}: {action}: {reason}")
            }
            EngineError::Hook { message } => write!(f, "hook failed: {message}"),
            EngineError::DiceExhausted => write!(f, "the forced dice ran out"),
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GameEnd {
    pub winner: Option<usize>,
    pub turns: u32,
    pub reason: String,
    pub damage_dealt: Vec<u32>,
    /// The victory level, when the ruleset scores one (full rules).
    pub level: Option<String>,
}

/// Per-roll facts conditions are tested against.
#[derive(Debug, Clone, Copy, Default)]
pub struct Situation {
    pub attacker: usize,
    pub defender: Option<usize>,
    pub weapon: Option<usize>,
    pub band: Option<usize>,
    pub distance: f64,
    pub cover: Option<Cover>,
    /// Points of cover beyond the cover type's own (woods stacking).
    pub cover_extra: i32,
    pub primary: bool,
    pub salvo_extra: i32,
    pub attempts: i32,
    pub los_to_point: bool,
    pub supporters: i32,
    pub failed_break: bool,
    pub defensive: bool,
    pub weapons_fired: i32,
    /// Targets of the attack beyond the first (split fire, a lock elsewhere).
    pub extra_targets: i32,
    /// A direct-fire combat roll.
    pub direct: bool,
    /// A close-combat roll.
    pub close_combat: bool,
    /// A roll for a strike package called in (its strike point, its attacks).
    pub strike: bool,
}

/// What the handlers of one moment asked for that the moment's procedure uses: modifiers by
/// quantity (with their sources), the first forbid, a changed value.
#[derive(Debug, Default)]
pub struct Answer {
    pub mods: Vec<(Quantity, ModApplied)>,
    pub forbid: Option<String>,
    pub value: Option<f64>,
    /// The die of the roll in progress to throw again (the first asked for).
    pub reroll: Option<usize>,
    /// The dice the combat roll throws instead of the standard ones (the last asked for).
    pub dice: Option<crate::dice::DiceExpr>,
}

impl Answer {
    /// The modifiers of one quantity, taken out.
    pub fn take(&mut self, q: Quantity) -> Vec<ModApplied> {
        let (of_q, rest) = std::mem::take(&mut self.mods).into_iter().partition(|(x, _)| *x == q);
        self.mods = rest;
        of_q.into_iter().map(|(_, m)| m).collect()
    }
    /// The sum of the modifiers of one quantity (saturating: script values are bounded, but
    /// many of them must not wrap).
    pub fn sum(&self, q: Quantity) -> i32 {
        self.mods.iter().filter(|(x, _)| *x == q).fold(0i32, |a, (_, m)| a.saturating_add(m.value))
    }
}

/// Runs games: owns the dice, the log, the hooks and the controller for one game.
pub struct Engine<'a, 'r> {
    pub game: Game<'r>,
    pub dice: &'a mut dyn Dice,
    pub log: &'a mut dyn Sink,
    pub hooks: &'a mut dyn Hooks,
}

impl<'a, 'r> Engine<'a, 'r> {
    pub(crate) fn rules(&self) -> &'r Rules {
        self.game.rules
    }

    /// The card of a model, borrowed from the rules (not from the game state).
    pub(crate) fn cardr(&self, model: usize) -> &'r crate::compile::CardDef {
        let r: &'r Rules = self.game.rules;
        r.card_of(&self.game.models[model])
    }

    /// Call the hooks of a moment and apply what the handlers queued, in order: damage, states
    /// and ammo now; modifiers, a forbid and a changed value are returned for the caller's
    /// procedure to use. A failing handler stops the game before anything is applied.
    pub(crate) fn call_hooks(&mut self, ctx: HookCtx) -> Result<Answer, EngineError> {
        if !self.hooks.wants_at(&self.game, ctx.point, ctx.model, ctx.target, ctx.weapon) {
            return Ok(Answer::default());
        }
        self.run_hooks(ctx)
    }

    /// `call_hooks(ctx.clone())` for a caller that keeps `ctx` for a later moment: the copy is
    /// made only when a handler may run (`wants_at`, asked once as `call_hooks` asks it).
    pub(crate) fn call_hooks_on_copy(&mut self, ctx: &HookCtx) -> Result<Answer, EngineError> {
        if !self.hooks.wants_at(&self.game, ctx.point, ctx.model, ctx.target, ctx.weapon) {
            return Ok(Answer::default());
        }
        self.run_hooks(ctx.clone())
    }

    /// The handlers of `ctx`'s moment, once `wants_at` said they may run.
    fn run_hooks(&mut self, mut ctx: HookCtx) -> Result<Answer, EngineError> {
        let called = self.hooks.call(&self.game, self.dice, &mut ctx);
        for text in self.hooks.take_prints() {
            emit!(self, Event::ScriptPrint { model: ctx.model, text });
        }
        for r in std::mem::take(&mut ctx.rolls) {
            emit!(self, Event::Roll(r));
        }
        called.map_err(|message| EngineError::Hook { message })?;
        let mut answer = Answer::default();
        for q in ctx.effects {
            self.apply_effect(ctx.point, q, &mut answer)?;
        }
        Ok(answer)
    }

    fn apply_effect(&mut self, point: HookPoint, q: Queued, answer: &mut Answer) -> Result<(), EngineError> {
        let Queued { by, source, effect } = q;
        let point = point.id();
        let log = |e: &mut Self,
                   effect: HookEffect,
                   model: Option<usize>,
                   quantity: Option<Quantity>,
                   value: Option<f64>,
                   detail: Option<String>| {
            emit!(
                e,
                Event::ScriptEffect {
                    point,
                    by,
                    source: source.clone(),
                    effect: effect.id(),
                    model,
                    quantity: quantity.map(|q| q.id()),
                    value,
                    detail
                }
            );
        };
        match effect {
            Effect::Modifier { quantity, label, value } => {
                log(self, HookEffect::AddModifier, None, Some(quantity), Some(f64::from(value)), Some(label.clone()));
                answer.mods.push((quantity, ModApplied { source: format!("{source}: {label}"), value, charge: None }));
            }
            Effect::Forbid { reason } => {
                log(self, HookEffect::Forbid, None, None, None, Some(reason.clone()));
                answer.forbid.get_or_insert(format!("{source}: {reason}"));
            }
            Effect::SetValue(x) => {
                log(self, HookEffect::SetValue, None, None, Some(x), None);
                answer.value = Some(x);
            }
            Effect::Damage { model, points } => {
                log(self, HookEffect::DealDamage, Some(model), None, Some(f64::from(points)), None);
                let p = &mut self.game.models[model].pending;
                p.damage = p.damage.saturating_add(points);
                // Damage lands with the activation's other damage; outside one, at once.
                if self.game.active.is_none() {
                    self.resolve_pending(model)?;
                }
            }
            Effect::ApplyState { model, state } => {
                let name = self.rules().states[state as usize].id.clone();
                log(self, HookEffect::ApplyState, Some(model), None, None, Some(name));
                self.add_state(model, state)?;
            }
            Effect::ClearState { model, state } => {
                let name = self.rules().states[state as usize].id.clone();
                log(self, HookEffect::ClearState, Some(model), None, None, Some(name));
                self.clear_state(model, state)?;
            }
            Effect::SetDice(dice) => {
                log(self, HookEffect::SetDice, None, None, None, Some(dice.to_string()));
                answer.dice = Some(dice);
            }
            Effect::Reroll { die } => {
                log(self, HookEffect::Reroll, None, None, Some(die as f64 + 1.0), None);
                answer.reroll.get_or_insert(die);
            }
            Effect::PlaceTerrain { terrain, x, y, radius, activations } => {
                let name = self.rules().terrains[terrain].id.clone();
                log(self, HookEffect::PlaceTerrain, None, None, Some(radius), Some(name));
                let at = P::new(x, y);
                let laid =
                    crate::game::state::Laid { by, left: activations, counts: cav_format::LastsFor::Activations };
                self.lay_terrain(terrain, Polygon::regular(at, radius, 24), at, radius, laid, (radius, 0.0, 0.0))
                    .map_err(|e| EngineError::Hook {
                        message: format!("{source} ({point}): `ctx.place_terrain`: {e}"),
                    })?;
            }
            Effect::RefillAmmoBins { model } => {
                let full = self.cardr(model).ammo_reserve;
                log(self, HookEffect::RefillAmmoBins, Some(model), None, Some(f64::from(full)), None);
                self.game.models[model].ammo_reserve = full;
            }
            Effect::SpendAmmo { model, mount } | Effect::RestoreAmmo { model, mount } => {
                let spend = matches!(effect, Effect::SpendAmmo { .. });
                let name = self.cardr(model).weapons.get(mount).map(|w| w.name.clone());
                let fx = if spend { HookEffect::SpendAmmo } else { HookEffect::RestoreAmmo };
                log(self, fx, Some(model), None, Some(mount as f64), name);
                if let Some(x) = self.game.models[model].out_of_ammo.get_mut(mount) {
                    *x = spend;
                }
            }
        }
        Ok(())
    }

    /// Play until a side wins or the turn limit is reached.
    pub fn play(&mut self, ctrl: &mut dyn Controller) -> Result<GameEnd, EngineError> {
        loop {
            if let Some(end) = self.play_turn(ctrl)? {
                return Ok(end);
            }
        }
    }

    /// The game begins (after deployment, before the first turn): `game_setup` for every model
    /// on the table. `play` calls it; a caller driving turns or activations itself calls it once.
    pub fn start(&mut self) -> Result<(), EngineError> {
        if self.game.started {
            return Ok(());
        }
        self.game.started = true;
        self.game.scripted = self.hooks.active();
        self.choose_commanders();
        self.hooks.new_game();
        self.each_model(HookPoint::GameSetup)
    }

    /// Before the first turn, each model whose task the ruleset names may make one move action
    /// (001 L2650-2656), the sides taking turns from one the dice pick (the book lets the draw
    /// deck set the order).
    fn pre_game_moves(&mut self, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        let tasks = self.rules().proc.setup.pre_game_move.clone();
        if tasks.is_empty() {
            return Ok(());
        }
        let mut queues: Vec<Vec<usize>> = (0..self.game.sides.len())
            .map(|s| {
                (0..self.game.models.len())
                    .filter(|&m| self.game.models[m].side == s && self.game.models[m].on_table())
                    .filter(|&m| tasks.contains(&self.cardr(m).task))
                    .collect()
            })
            .collect();
        if queues.iter().all(Vec::is_empty) {
            return Ok(());
        }
        let mut side = self.dice.roll(queues.len() as u32) as usize - 1;
        while queues.iter().any(|q| !q.is_empty()) {
            if !queues[side].is_empty() {
                let model = queues[side].remove(0);
                if let Some(to) = ctrl.pre_game_move(&self.game, model) {
                    let budget = match self.movement_hook(model, None)? {
                        Ok(b) => b,
                        Err(reason) => {
                            emit!(self, Event::Forbidden { model, what: "move", reason });
                            continue;
                        }
                    };
                    if let Err(reason) = self.do_move(model, to, budget, ctrl) {
                        emit!(self, Event::Forbidden { model, what: "pre-game move", reason });
                    }
                }
            }
            side = (side + 1) % queues.len();
        }
        Ok(())
    }

    /// Call a hook point once for every model on the table, in model order.
    fn each_model(&mut self, point: HookPoint) -> Result<(), EngineError> {
        if !self.hooks.wants(point) {
            return Ok(());
        }
        for model in 0..self.game.models.len() {
            if self.game.models[model].on_table() {
                self.call_hooks(HookCtx::new(point, model))?;
            }
        }
        Ok(())
    }

    /// The draw deck of this turn, a side per card (001 L2403-2415, 000 L297): the ruleset's
    /// cards per side, its cards per activation unit (model or squad) on the table, and the cards
    /// units that left play leave behind (option `draw-deck-removal`). `draw_deck` handlers may
    /// keep a model out (it does not activate this turn); a unit with no model left adds no card.
    fn draw_deck(&mut self) -> Result<Vec<Card>, EngineError> {
        let deck_rules = self.rules().draw_deck.clone();
        let mut deck = Vec::new();
        let of = |side: usize, n: usize| std::iter::repeat_n(Card { side, drop: None }, n);
        for side in 0..self.game.sides.len() {
            deck.extend(of(side, deck_rules.per_side as usize));
        }
        let mut units: Vec<(usize, Vec<usize>)> = Vec::new();
        for side in 0..self.game.sides.len() {
            units.extend(self.game.units(side).into_iter().map(|u| (side, u)));
        }
        // Units in model order, as the models were deployed.
        units.sort_by_key(|(_, u)| u.first().copied());
        for (side, unit) in units {
            let mut drawn = false;
            // A unit to drop in this turn has a card of its own among its cards.
            let drop = unit.iter().copied().find(|&m| self.game.drops_now(m)).map(|_| unit[0]);
            for model in unit {
                if self.hooks.wants(HookPoint::DrawDeck)
                    && let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::DrawDeck, model))?.forbid
                {
                    emit!(self, Event::Forbidden { model, what: "draw", reason });
                    self.game.models[model].activated = true;
                    continue;
                }
                drawn = true;
            }
            if drawn && deck_rules.per_unit > 0 {
                deck.push(Card { side, drop });
                deck.extend(of(side, deck_rules.per_unit as usize - 1));
            }
        }
        if self.rules().engine_options.deck_removal == cav_format::vocab::DeckRemoval::OneCard {
            let left = deck_rules.per_unit.saturating_sub(1) as usize;
            for side in 0..self.game.sides.len() {
                deck.extend(of(side, left * self.game.units_gone(side)));
            }
        }
        // Cards of a side's colour its held assets add (SIGINT, 001 L10946-10960).
        for side in 0..self.game.sides.len() {
            let mut room = cav_format::limits::HELD_DECK_CARDS;
            for i in 0..self.game.held[side].len() {
                let (asset, count) = self.game.held[side][i];
                let def = &self.rules().assets[asset];
                let cards = def.deck_cards.saturating_mul(count).min(room);
                room -= cards;
                if cards == 0 {
                    continue;
                }
                deck.extend(of(side, cards as usize));
                let (name, side_name) = (def.name.clone(), self.game.sides[side].clone());
                let detail =
                    format!("{cards} card(s) of {side_name}'s colour in the draw deck ({} cards in all)", deck.len());
                emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left: count });
            }
        }
        Ok(deck)
    }

    /// A side holding an asset that skips a drawn card (a recon drone) may send `deck[at]` to the
    /// bottom of the deck, once a turn (001 L10823-10840): the controller of the side decides.
    fn skip_card(&mut self, deck: &mut Vec<Card>, at: usize, ctrl: &mut dyn Controller) {
        for side in 0..self.game.sides.len() {
            if self.game.skipped_in_turn[side] == self.game.turn {
                continue;
            }
            let Some(slot) = self.game.held[side].iter().position(|&(a, n)| n > 0 && self.rules().assets[a].skip_card)
            else {
                continue;
            };
            let asset = self.game.held[side][slot].0;
            if !ctrl.skip_card(&self.game, side, deck[at].side) {
                continue;
            }
            self.game.skipped_in_turn[side] = self.game.turn;
            self.game.held[side][slot].1 -= 1;
            let card = deck.remove(at);
            deck.push(card);
            let (name, side_name) = (self.rules().assets[asset].name.clone(), self.game.sides[side].clone());
            let detail = format!("{}'s card goes to the bottom of the draw deck", self.game.sides[card.side]);
            let left = self.game.held[side][slot].1;
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left });
            return;
        }
    }

    /// The end phase's use of held assets: a side whose models have spent Ammo Bins refills them
    /// all with an asset that reloads them (a resupply drop, 001 L10870-10882), used up.
    fn reload_ammo_bins(&mut self) {
        for side in 0..self.game.sides.len() {
            let Some(slot) =
                self.game.held[side].iter().position(|&(a, n)| n > 0 && self.rules().assets[a].reload_ammo_bins)
            else {
                continue;
            };
            let spent: Vec<usize> = (0..self.game.models.len())
                .filter(|&m| {
                    let me = &self.game.models[m];
                    me.side == side && me.on_table() && me.ammo_reserve < self.game.card(m).ammo_reserve
                })
                .collect();
            if spent.is_empty() {
                continue;
            }
            for &m in &spent {
                self.game.models[m].ammo_reserve = self.game.card(m).ammo_reserve;
            }
            self.game.held[side][slot].1 -= 1;
            let asset = self.game.held[side][slot].0;
            let (name, side_name) = (self.rules().assets[asset].name.clone(), self.game.sides[side].clone());
            let detail = format!("the Ammo Bins of {} model(s) refilled", spent.len());
            let left = self.game.held[side][slot].1;
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left });
        }
    }

    /// The end of a turn: `end_phase` for every model on the table, the scenario's objectives
    /// scored, then `TurnEnd`.
    pub fn end_turn(&mut self) -> Result<(), EngineError> {
        self.each_model(HookPoint::EndPhase)?;
        self.orphan_missiles()?;
        self.spend_single_use();
        self.reload_ammo_bins();
        self.drift_clouds();
        self.lift_laid_terrain(None);
        self.seekers_fall(None);
        self.structures_burn()?;
        self.states_end_with_the_turn();
        self.score_containers();
        if let Some((side, points, areas)) = self.score_objectives() {
            let name = self.game.sides[side].clone();
            emit!(self, Event::ObjectiveScored { side: name, points, areas });
        }
        emit!(self, Event::TurnEnd { turn: self.game.turn });
        Ok(())
    }

    /// One game turn; returns the end of the game if it ended.
    pub fn play_turn(&mut self, ctrl: &mut dyn Controller) -> Result<Option<GameEnd>, EngineError> {
        self.start()?;
        if self.game.turn == 0 {
            self.pre_game_moves(ctrl)?;
        }
        if let Some(end) = self.victory() {
            return Ok(Some(self.finish(end)));
        }
        if self.game.turn >= self.game.turn_limit {
            let end = self.at_turn_limit();
            return Ok(Some(self.finish(end)));
        }
        // Draw deck: the cards of the sides and their units, shuffled with the game's dice.
        let mut deck = self.begin_turn()?;
        for i in (1..deck.len()).rev() {
            let j = self.dice.roll(i as u32 + 1) as usize - 1;
            deck.swap(i, j);
        }
        let mut at = 0;
        while at < deck.len() {
            // A held recon drone may send the card to the bottom of the deck, once a side a turn.
            self.skip_card(&mut deck, at, ctrl);
            let Card { side, drop } = deck[at];
            at += 1;
            // A unit waiting to drop in activates on its own card only (001 L10235-10241), which
            // once it is down is a card of its side like any other (L10273-10277).
            let waits_to_drop = |g: &Game, u: &[usize]| u.iter().any(|&m| g.drops_now(m));
            let units = self.game.units(side);
            // (The card names the unit's first model; its squad still finds the unit should that
            // model be gone.)
            let g = &self.game;
            let same_unit = |m: usize, first: usize| {
                m == first || g.models[m].squad.is_some_and(|s| g.models[first].squad == Some(s))
            };
            let dropping = drop
                .and_then(|first| units.iter().find(|u| u.iter().any(|&m| same_unit(m, first)) && waits_to_drop(g, u)));
            // Else the side's first unit with a model still to activate; a card of a side with
            // none left is skipped.
            let Some(mut unit) = dropping.cloned().or_else(|| {
                units
                    .into_iter()
                    .find(|u| u.iter().any(|&m| !self.game.models[m].activated) && !waits_to_drop(&self.game, u))
            }) else {
                continue;
            };
            if let Some(s) = self.game.models[unit[0]]
                .squad
                .filter(|_| self.rules().activation == cav_format::ActivationMode::PerSquad)
            {
                let squad = self.game.squads[s].name.clone();
                let side = self.game.sides[side].clone();
                emit!(self, Event::SquadActivation { squad, side, models: unit.len() as u32 });
                if let Some(joined) = self.seize_initiative(s, ctrl) {
                    unit.push(joined);
                }
            }
            self.game.squad_activating = unit.len() > 1;
            let mut next = 0;
            while let Some(&m) = unit.get(next) {
                next += 1;
                if !self.game.models[m].in_play() || self.game.models[m].activated {
                    continue;
                }
                self.activate(m, ctrl)?;
                // A regrouped partner squad activates with this one.
                unit.append(&mut self.game.joined);
                if let Some(end) = self.victory() {
                    self.end_squad_activation()?;
                    self.end_turn()?;
                    return Ok(Some(self.finish(end)));
                }
            }
            self.end_squad_activation()?;
            if let Some(end) = self.victory() {
                self.end_turn()?;
                return Ok(Some(self.finish(end)));
            }
        }
        self.end_turn()?;
        Ok(None)
    }

    /// The start of a turn: the turn count goes up, every model may activate again and marks
    /// that last a turn end. (Scenario tests call this and [`end_turn`](Self::end_turn) around
    /// the activations they choose.)
    /// The draw deck is built (`draw_deck` handlers may keep a model's card out): returns its
    /// cards, not yet shuffled.
    pub fn begin_turn(&mut self) -> Result<Vec<Card>, EngineError> {
        self.game.turn += 1;
        emit!(self, Event::TurnStart { turn: self.game.turn });
        for model in &mut self.game.models {
            model.activated = false;
            model.marks.retain(|m| m.lasts != Lasts::Turn);
        }
        self.activate_containers();
        self.draw_deck()
    }

    fn finish(&mut self, end: GameEnd) -> GameEnd {
        emit!(
            self,
            Event::GameEnd {
                winner: end.winner.map(|w| self.game.sides[w].clone()),
                turns: end.turns,
                reason: end.reason.clone()
            }
        );
        end
    }

    /// Does the model's force have a C3 point, and does the ruleset offer `what`?
    fn c3_offers(&self, model: usize, what: C3Use) -> bool {
        let side = self.game.models[model].side;
        self.game.c3.get(side).is_some_and(|&n| n > 0)
            && self.rules().c3.as_ref().is_some_and(|c| c.uses.contains(&what))
    }

    /// Seize the Initiative (001 L1314-1318): the controller may attach a model of a friendly squad
    /// that has not activated this turn to `squad`, which activates now; the model activates with
    /// it (and not again with its own squad this turn).
    fn seize_initiative(&mut self, squad: usize, ctrl: &mut dyn Controller) -> Option<usize> {
        let first = *self.game.squads[squad].members.first()?;
        if !self.c3_offers(first, C3Use::SeizeTheInitiative) {
            return None;
        }
        let m = ctrl.seize_initiative(&self.game, squad)?;
        let g = &self.game;
        let model = g.models.get(m)?;
        let from = model.squad.filter(|&s| s != squad && g.squads[s].side == g.squads[squad].side)?;
        let fresh = g.squads[from].members.iter().all(|&x| !g.models[x].activated);
        if !fresh || !model.on_table() {
            return None;
        }
        self.spend_c3(m, C3Use::SeizeTheInitiative);
        Some(m)
    }

    /// Why the rules refuse `model` declaring `action` (of `kind`, costing `cost`, with `ap`
    /// left), if they do: checked before anything of it happens.
    fn declaration_refusal(
        &self,
        model: usize,
        kind: &dyn actions::ActionKind,
        action: &Action,
        cost: u32,
        ap: u32,
    ) -> Option<String> {
        let g = &self.game;
        let me = &g.models[model];
        if cost > ap {
            return Some("not enough action points".into());
        }
        if let Some(why) = g.action_closed(model, kind.id().id(), action.target) {
            return Some(why);
        }
        if let Some((s, _)) = me.states.iter().find(|(s, _)| g.rules.states[*s as usize].forbids.contains(&kind.id())) {
            return Some(format!("the model is {}: no {} action", g.rules.states[*s as usize].name, kind.id().id()));
        }
        if me.has(&actions::ENTERING) && kind.id() != ActionWord::Move {
            return Some("a model coming onto the table moves first".into());
        }
        if me.aboard.is_some() && !kind.taken_aboard(g, model) {
            return Some("a model riding in a transport may only dismount (or fire through a free gun port)".into());
        }
        if !action.split.is_empty() && !kind.splits() {
            return Some("only the combat action's fire may split between targets".into());
        }
        let counts_as = kind.counts_as();
        if !kind.repeatable() && g.used.contains(&counts_as) {
            return Some("a non-repeatable action may be used once per activation".into());
        }
        if counts_as == ActionWord::Combat {
            if me.has(&actions::combat::FIRED_OUT_OF_TURN) {
                return Some("the model used defensive or over-watch fire this turn".into());
            }
            if !g.can_fight(model) || me.prone {
                return Some("the model cannot use the combat action now".into());
            }
        }
        kind.check(g, model, action).err()
    }

    fn spend_c3(&mut self, model: usize, what: C3Use) {
        let side = self.game.models[model].side;
        let left = {
            let pool = &mut self.game.c3[side];
            *pool = pool.saturating_sub(1);
            *pool
        };
        let side = self.game.sides[side].clone();
        emit!(self, Event::C3Spent { side, model, what: what.id().to_owned(), left });
    }

    /// Last side with models on the table wins (in an exit scenario, the higher score once a side
    /// has none left).
    pub fn victory(&self) -> Option<GameEnd> {
        if let Some(end) = self.exits_decided().or_else(|| self.rescue_decided()) {
            return Some(end);
        }
        let alive: Vec<usize> = (0..self.game.sides.len())
            .filter(|&s| self.game.models.iter().any(|u| u.side == s && u.in_play()))
            .collect();
        match alive.len() {
            0 => Some(GameEnd {
                winner: None,
                turns: self.game.turn,
                reason: "no models left on either side: a draw".into(),
                damage_dealt: self.game.damage_dealt.clone(),
                level: None,
            }),
            1 => Some(GameEnd {
                winner: Some(alive[0]),
                turns: self.game.turn,
                reason: "last side standing".into(),
                damage_dealt: self.game.damage_dealt.clone(),
                level: None,
            }),
            _ => self.commander_lost(),
        }
    }

    /// A model held back in ambush is placed where its controller says (001 L6519-6535), facing
    /// the nearest enemy, free to act; a place the ruleset forbids is an illegal choice.
    fn spring_ambush(&mut self, model: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        // A squad dropping in lands on one zone (001 L10249-10251): its first model names it this
        // turn, its mates drop at the same (each drifting from it).
        let (squad, turn) =
            (self.game.models[model].squad.filter(|_| self.game.models[model].dropping), self.game.turn);
        let named = squad.and_then(|s| self.game.drop_zones.iter().find(|z| (z.0, z.1) == (s, turn)).map(|z| z.2));
        let Some(mut at) = named.or_else(|| ctrl.ambush_at(&self.game, model)) else { return Ok(()) };
        // (A zone named for the squad was checked as it was named.)
        if let Some(reason) = self.game.ambush_refusal(model, at).filter(|_| named.is_none()) {
            return Err(EngineError::IllegalAction {
                model: self.game.models[model].name.clone(),
                action: format!("ambush at ({:.2}, {:.2})", at.x, at.y),
                reason,
            });
        }
        if let (Some(s), None) = (squad, named) {
            self.game.drop_zones.retain(|z| z.1 == turn);
            self.game.drop_zones.push((s, turn, at));
        }
        // An orbital drop drifts from the landing zone named, and is set beside any base it lands on.
        if self.game.models[model].dropping {
            let ctx = HookCtx::new(HookPoint::Drift, model);
            at = self.drift(model, at, 0, ctx)?;
            at = self.game.beside_bases(model, at);
        }
        let facing = self
            .game
            .enemies(model)
            .filter(|&e| self.game.models[e].on_table())
            .min_by(|&a, &b| at.dist(self.game.models[a].pos).total_cmp(&at.dist(self.game.models[b].pos)))
            .map_or(self.game.models[model].facing, |e| at.bearing(self.game.models[e].pos));
        let me = &mut self.game.models[model];
        let ambush = me.ambush;
        (me.pos, me.facing, me.waiting, me.ambush, me.dropping) = (at, facing, None, false, false);
        let name = me.name.clone();
        let side = self.game.sides[me.side].clone();
        emit!(self, Event::Deployed { model, name, side, at, facing });
        // A fighting position, revetment or trench held back with it goes down under it.
        if ambush {
            crate::setup::bring_ambush_piece(&mut self.game, model, &mut *self.log);
        }
        Ok(())
    }

    /// Run one activation of `model` (normally the draw deck decides; scenario tests call this
    /// directly). Here are only the checks every action shares — action points and cost, once per
    /// activation, combat after reacting, can the model fight; the rest is the action's module.
    pub fn activate(&mut self, model: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        if self.game.models[model].out_of_action {
            return Err(EngineError::IllegalAction {
                model: self.game.models[model].name.clone(),
                action: "activation".into(),
                reason: "the model is out of action".into(),
            });
        }
        self.game.active = Some(model);
        self.game.models[model].activated = true;
        self.game.models[model].path.clear();
        // A target-lock lasts until the next activation of the model that took it: its own, and
        // those it shared with its squad (EST), which the mates keep through their activations.
        if self.game.models[model].lock_from.is_none() {
            self.game.models[model].lock = None;
        }
        for m in &mut self.game.models {
            if m.lock_from == Some(model) {
                (m.lock, m.lock_from) = (None, None);
            }
        }
        // Rally before anything else: it may lift a state that would cost this model its actions.
        if self.c3_offers(model, C3Use::Rally) && ctrl.spend_c3(&self.game, model, C3Use::Rally) {
            self.spend_c3(model, C3Use::Rally);
            let side = self.game.models[model].side;
            let clears = self.rules().c3.as_ref().map(|c| c.rally_clears.clone()).unwrap_or_default();
            for m in self.game.models.iter_mut().filter(|m| m.side == side) {
                m.states.retain(|(s, _)| !clears.contains(s));
            }
        }
        let once = self.game.models[model].ap_once.take();
        let me = &self.game.models[model];
        let set = match (once, me.ap_set) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let base = set.unwrap_or(self.rules().action_points) as i32 + me.crit_ap;
        let base = base - std::mem::take(&mut self.game.models[model].ap_owed) as i32;
        let states = &self.rules().states;
        let base =
            base + self.game.models[model].states.iter().map(|(s, _)| states[*s as usize].action_points).sum::<i32>();
        let blocked = self.game.state_blocks(model, |s| s.no_actions);
        self.lift_laid_terrain(Some(model));
        self.seekers_fall(Some(model));
        // `activation`: handlers may change the action points (a model that may not act stays at 0).
        let more = self.call_hooks(HookCtx::new(HookPoint::Activation, model))?.sum(Quantity::Ap);
        let mut ap = if blocked { 0 } else { base.saturating_add(more).max(0) as u32 };
        // A weapon emplacement fires once on its side's card.
        if let Some(limit) = self.cardr(model).emplacement.and_then(|a| self.rules().assets[a].emplacement_ap) {
            ap = ap.min(limit);
        }
        if ap > 0 && self.c3_offers(model, C3Use::Motivate) && ctrl.spend_c3(&self.game, model, C3Use::Motivate) {
            ap = ap.saturating_add(self.rules().c3.as_ref().map_or(0, |c| c.motivate_ap));
            self.spend_c3(model, C3Use::Motivate);
        }
        emit!(self, Event::Activation { model, ap });
        self.game.used.clear();
        self.game.extra_targets = 0;
        self.game.activation_over = false;
        let me = &self.game.models[model];
        if (me.ambush || me.dropping) && me.waiting.is_some_and(|t| t <= self.game.turn) {
            let dropping = me.dropping;
            self.spring_ambush(model, ctrl)?;
            if self.game.models[model].waiting.is_some() {
                ap = 0; // still hidden: nowhere to spring from yet, or its player waits
            } else if dropping {
                // The drop is the activation's move action.
                let cost = self.rules().proc.setup.orbital_drop.as_ref().map_or(0, |d| d.cost);
                ap = ap.saturating_sub(cost);
            }
        }
        self.enter_table(model);
        self.begin_activation(model);
        // The missiles it called fly with it.
        self.missiles_with(model, ctrl)?;
        let mut steps = 0;
        while ap > 0 && self.game.models[model].in_play() && !self.game.activation_over {
            steps += 1;
            if steps > 32 {
                break; // a controller that never passes
            }
            let action = ctrl.decide(&self.game, model, ap);
            if action.is_pass() {
                break;
            }
            let illegal = |game: &Game, reason: &str| EngineError::IllegalAction {
                model: game.models[model].name.clone(),
                action: format!("{action:?}"),
                reason: reason.to_owned(),
            };
            let Some(kind) = actions::find(action.kind) else {
                return Err(illegal(&self.game, "no such action"));
            };
            let Some(cost) = actions::cost_of(kind, &self.game, model, &action) else {
                return Err(illegal(&self.game, "this ruleset has no such action type"));
            };
            let counts_as = kind.counts_as();
            // A declaration the rules refuse changes nothing: the controller may take it back
            // and declare another action (a test's `refused:` step), or the game stops with it.
            if let Some(reason) = self.declaration_refusal(model, kind, &action, cost, ap) {
                if ctrl.refused(&self.game, model, &reason) {
                    continue;
                }
                return Err(illegal(&self.game, &reason));
            }
            // Marks that last until the next action end now (an action that wants one sets it again).
            self.game.models[model].marks.retain(|m| m.lasts != Lasts::NextAction);
            self.game.declined = self.ask_optional(model, &action, ctrl);
            if action.inspire && self.c3_offers(model, C3Use::Inspire) {
                self.spend_c3(model, C3Use::Inspire);
                self.game.inspired = true;
            }
            // Flying nap of the earth ends with a combat action (001 L3749-3750); an NoE move
            // says so itself, any other action is not one.
            if counts_as == ActionWord::Combat {
                self.end_noe(model);
            }
            self.game.models[model].noe_last = false;
            self.game.models[model].free_turns = 1;
            self.game.mined.clear();
            self.game.fumbles.clear();
            let path_from = self.game.models[model].path.len().saturating_sub(1);
            let resolved = kind.resolve(self, model, &action, ctrl);
            if resolved.is_ok() && self.game.models[model].on_table() {
                self.lay_trail(model, path_from);
                if self.game.models[model].path.len() > path_from + 1 {
                    self.airborne_jumps(model, ctrl)?;
                }
            }
            if resolved.is_ok() && !self.game.seekers.is_empty() {
                self.seekers_search()?;
            }
            self.spend_single_use();
            self.game.declined.clear();
            self.game.inspired = false;
            match resolved {
                Ok(()) => {}
                Err(ActionError::Illegal(reason)) => return Err(illegal(&self.game, &reason)),
                Err(ActionError::Engine(e)) => return Err(e),
            }
            self.game.used.push(counts_as);
            ap -= cost;
        }
        self.end_activation(model)
    }

    /// Ask the controller about each optional special attribute that could act in this action:
    /// the model's own and those of the weapons it declares. Returns the declined ones.
    fn ask_optional(&mut self, model: usize, action: &Action, ctrl: &mut dyn Controller) -> Vec<(u16, Option<usize>)> {
        let r = self.rules();
        let card = self.cardr(model);
        let own = card.sas.iter().map(|s| (s.0, None));
        let weapons = action.weapons.iter().filter_map(|&w| card.weapons.get(w).map(|m| (w, m)));
        let of_weapons = weapons.flat_map(|(w, m)| m.sas.iter().map(move |s| (s.0, Some(w))));
        let mut declined = Vec::new();
        for (sa, weapon) in own.chain(of_weapons) {
            let def = &r.sas[sa as usize];
            if def.optional && !ctrl.use_special_attribute(&self.game, model, &def.id, weapon, action.target) {
                declined.push((sa, weapon));
            }
        }
        declined
    }

    pub(crate) fn has_stand_up_state(&self, model: usize) -> bool {
        self.game.state_blocks(model, |s| s.duration == StateDuration::UntilStandUp)
    }

    pub(crate) fn card_dc(&self, model: usize) -> Option<i32> {
        self.cardr(model).dc[self.game.column(model)]
    }

    /// The sum of `model`'s own declarative effects on `target` that carry `when:` conditions,
    /// tested in the situation `s` (whose attacker may be another model: the AV a hit meets).
    /// Their unconditional effects are in the card already.
    pub(crate) fn conditional_effects(&self, model: usize, target: ModifierTarget, s: &Situation) -> i32 {
        let r = self.rules();
        self.game
            .card(model)
            .sas
            .iter()
            .flat_map(|&(sa, rating)| r.sas[sa as usize].effects.iter().map(move |e| (e, rating)))
            .filter(|(e, _)| e.target == target && !e.when.is_empty())
            .filter(|(e, _)| e.when.iter().all(|c| c.times(&self.game, s) > 0))
            .map(|(e, rating)| if e.per_rating { e.value * rating } else { e.value })
            .sum()
    }

    /// Sum the modifiers of a table and the attacker's declarative effects for one roll.
    pub(crate) fn modifiers(&self, table: &[Mod], target: ModifierTarget, s: &Situation, own: bool) -> Vec<ModApplied> {
        let g = &self.game;
        // Names cost an allocation each; without a log only the values matter.
        let logging = self.log.enabled();
        let name = |n: &str| if logging { n.to_owned() } else { String::new() };
        let r = self.rules();
        let mut out = Vec::new();
        let a = s.attacker;
        for m in table {
            let times = match m.cond.times(g, s) {
                0 => continue,
                t => t,
            };
            if m.also.iter().any(|c| c.times(g, s) == 0) {
                continue;
            }
            let mut v = match m.scale {
                ModifierScale::Once => m.value,
                ModifierScale::PerRating | ModifierScale::PerCount => m.value * times,
                ModifierScale::PerAdditional => m.value * times,
                ModifierScale::PerWeapon => m.value * s.weapons_fired.max(1),
            };
            if let Some(max) = m.max {
                let max = if m.max_per_weapon { max.abs() * s.weapons_fired.max(1) } else { max.abs() };
                v = v.clamp(-max, max);
            }
            if v != 0 {
                out.push(ModApplied { source: name(&m.name), value: v, charge: None });
            }
        }
        // Declarative effects of the attacker's and the weapon's special attributes.
        let card = g.card(a);
        let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        let declined = |sa: u16, weapon: Option<usize>| g.active == Some(a) && g.declined.contains(&(sa, weapon));
        let of_card = card.sas.iter().map(|x| (x, None));
        for ((sa, rating), mount) in of_card.chain(weapon_sas.iter().map(|x| (x, s.weapon))) {
            if declined(*sa, mount) || mount.is_some_and(|w| !g.mount_sa_holds(a, w, *sa, s.defender)) {
                continue;
            }
            let def = &r.sas[*sa as usize];
            // A single-use upgrade's rating is its purchases: one helps this roll, if any is left.
            if def.charges && g.models[a].charges_spent(*sa) >= (*rating).max(0) as u32 {
                continue;
            }
            for e in def.effects.iter().filter(|e| e.target == target) {
                if e.when.iter().all(|c| c.times(g, s) > 0) {
                    let per_rating = e.per_rating && !def.charges;
                    let v = if per_rating { e.value * rating } else { e.value } * r.sign;
                    out.push(ModApplied { source: name(&def.name), value: v, charge: def.charges.then_some(*sa) });
                }
            }
        }
        // States: a table row naming the state takes precedence over its generic modifier.
        let named = |st: StateIx, attacker_side: bool| {
            let def = if attacker_side { &conditions::ATTACKER_STATE } else { &conditions::DEFENDER_STATE };
            table.iter().any(|m| m.cond.is(def, st))
                || attacker_side
                    && conditions::ATTACKER_DISRUPTED.names(&r.states[st as usize].id)
                    && table.iter().any(|m| m.cond.is(&conditions::ATTACKER_DISRUPTED, 0))
        };
        if own {
            for (st, _) in &g.models[a].states {
                let def = &r.states[*st as usize];
                if def.own_roll_modifier != 0 && !named(*st, true) {
                    out.push(ModApplied { source: name(&def.name), value: def.own_roll_modifier, charge: None });
                }
            }
        }
        if let Some(d) = s.defender {
            for (st, _) in &g.models[d].states {
                let def = &r.states[*st as usize];
                if def.attacker_modifier != 0 && !named(*st, false) {
                    out.push(ModApplied {
                        source: if logging { format!("target {}", def.name) } else { String::new() },
                        value: def.attacker_modifier,
                        charge: None,
                    });
                }
            }
        }
        if target == ModifierTarget::CombatRoll && g.models[a].crit_combat != 0 {
            out.push(ModApplied { source: name("critical damage"), value: g.models[a].crit_combat, charge: None });
        }
        out
    }

    /// Roll `expr`, add modifiers, compare with a target point.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn roll(
        &mut self,
        model: usize,
        kind: &'static str,
        expr: DiceExpr,
        mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> RollOut {
        let thrown = expr.roll_total(self.dice);
        self.judge(model, kind, expr, thrown, mods, target, crit_at, ten_plus)
    }

    /// A combat roll: the dice, then `combat_dice` (handlers see the natural dice and may still
    /// add `roll` modifiers or act), then the judgement.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn combat_roll(
        &mut self,
        ctx: HookCtx,
        kind: &'static str,
        expr: DiceExpr,
        mut mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> Result<RollOut, EngineError> {
        // `combat_dice` handlers read each die (and may throw one again); else only the total counts.
        let mut thrown =
            if self.hooks.wants(HookPoint::CombatDice) { expr.roll(self.dice) } else { expr.roll_total(self.dice) };
        let model = ctx.model;
        // A C3 point declared with the action inspires its first target-point roll.
        if target.is_some()
            && std::mem::take(&mut self.game.inspired)
            && let Some(c3) = &self.rules().c3
        {
            let (_, extra) = c3.inspire.roll_total(self.dice);
            mods.push(ModApplied { source: "C3: Inspire".into(), value: extra, charge: None });
        }
        // (Asked before the roll is copied into the context: most combat rolls have no handler.)
        if self.hooks.wants_at(&self.game, HookPoint::CombatDice, model, ctx.target, ctx.weapon) {
            let total = mods.iter().fold(thrown.1, |t, m| t.saturating_add(m.value));
            let mut ctx = ctx;
            ctx.point = HookPoint::CombatDice;
            ctx.roll = Some(Roll {
                model,
                kind: kind.into(),
                dice: expr.label(),
                natural: thrown.0.clone(),
                mods: mods.clone(),
                total,
                target,
                margin: target.map(|t| total.saturating_sub(t)),
                success: None,
                critical: None,
            });
            let mut answer = self.call_hooks(ctx)?;
            mods.extend(answer.take(Quantity::Roll));
            // A re-roll (Full-Auto) throws one die again, never out of a critical fumble.
            let nat = thrown.1.saturating_sub(expr.plus).max(0) as u32;
            let fumbled = expr == self.rules().standard && nat <= self.rules().critical_fumble;
            if let Some(die) = answer.reroll.filter(|&d| d < thrown.0.len() && !fumbled) {
                thrown.0[die] = self.dice.roll(expr.sides);
                thrown.1 = expr.total_of(&thrown.0);
            }
        }
        Ok(self.judge(model, kind, expr, thrown, mods, target, crit_at, ten_plus))
    }

    #[allow(clippy::too_many_arguments)]
    fn judge(
        &mut self,
        model: usize,
        kind: &'static str,
        expr: DiceExpr,
        (natural, sum): (Vec<u32>, i32),
        mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> RollOut {
        // The natural total of the dice kept (3d6 keeping the highest two: those two).
        let nat = sum.saturating_sub(expr.plus).max(0) as u32;
        let r = self.rules();
        // Critical fumbles and successes belong to the ruleset's standard roll (2d6) and the dice
        // that stand in for it keeping as many (3d6 or 4d6 keeping two), not to single dice such
        // as the out-of-ammo d6.
        let kept = expr.keep_highest.unwrap_or(expr.count);
        let standard_like =
            expr == r.standard || (expr.sides == r.standard.sides && kept == r.standard.count && expr.plus == 0);
        let fumble = standard_like && nat <= r.critical_fumble;
        let crit = crit_at.is_some_and(|c| nat >= c) && !fumble;
        let mut mods = mods;
        // The single-use upgrades this roll took are spent, one purchase each.
        let mut taken: Vec<u16> = mods.iter().filter_map(|m| m.charge).collect();
        taken.dedup();
        for sa in taken {
            self.game.models[model].spend_charge(sa);
        }
        if crit && let Some(bonus) = r.critical_bonus {
            let (_, v) = bonus.roll_total(self.dice);
            mods.push(ModApplied { source: "critical success bonus die".into(), value: v, charge: None });
        }
        // Saturating: modifiers come from packs and scripts, and must not wrap a total around.
        let total = mods.iter().fold(sum, |total, m| total.saturating_add(m.value));
        let success = target.map(|t| !fumble && (total >= t || (ten_plus && nat >= r.proc.rolls.ten_plus_natural)));
        let margin = target.map(|t| total.saturating_sub(t));
        emit!(
            self,
            Event::Roll(Roll {
                model,
                kind: kind.into(),
                dice: expr.label(),
                natural,
                mods,
                total,
                target,
                margin,
                success,
                critical: if fumble {
                    Some("fumble")
                } else if crit {
                    Some("success")
                } else {
                    None
                },
            })
        );
        RollOut { total, success: success.unwrap_or(false), margin: margin.unwrap_or(0), fumble, crit }
    }

    pub(crate) fn ten_plus(&self, k: RollKind) -> bool {
        self.rules().proc.rolls.ten_plus_rolls.contains(&k)
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct RollOut {
    pub(crate) total: i32,
    pub(crate) success: bool,
    pub(crate) margin: i32,
    pub(crate) fumble: bool,
    pub(crate) crit: bool,
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
