//! The turn: the game's start, the draw deck, activating the units its cards name, the end
//! phase, and when the game ends.

use super::*;

/// A card of the draw deck: the side whose colour it is, and the unit (its first model) it is
/// assigned to while that unit waits to drop in (an orbital drop's own card, 001 L10235-10241).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    pub side: usize,
    pub drop: Option<usize>,
}

impl Engine<'_, '_> {
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
        // The forces as chosen, then each model as built: a script may refuse either, and the
        // game does not start.
        for (point, what) in [(HookPoint::ForceSelection, "force selection"), (HookPoint::Build, "build")] {
            if !self.hooks.wants(point) {
                continue;
            }
            for model in 0..self.game.models.len() {
                // Every model of the forces: riders and reserves too, not the assets.
                let m = &self.game.models[model];
                if m.asset || m.destroyed || m.features.missiles.missile.is_some() {
                    continue;
                }
                if let Some(reason) = self.call_hooks(HookCtx::new(point, model))?.forbid {
                    emit!(self, Event::Forbidden { model, what, reason: reason.clone() });
                    return Err(EngineError::IllegalAction {
                        model: self.game.models[model].name.clone(),
                        action: what.into(),
                        reason,
                    });
                }
            }
        }
        self.each_model(HookPoint::GameSetup)
    }

    /// Before the first turn, each model whose task the ruleset names may make one move action
    /// (001 L2650-2656), the sides taking turns from one the dice pick (the book lets the draw
    /// deck set the order).
    pub(super) fn pre_game_moves(&mut self, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        let tasks = self.rules().proc.setup.pre_game_move.clone();
        if tasks.is_empty() {
            return Ok(());
        }
        let mut queues: Vec<Vec<usize>> = (0..self.game.sides.len())
            .map(|s| {
                (0..self.game.models.len())
                    .filter(|&m| self.game.models[m].side == s && self.game.models[m].on_table())
                    .filter(|&m| self.cardr(m).task.is_some_and(|t| tasks.contains(&t)))
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
    pub(super) fn each_model(&mut self, point: HookPoint) -> Result<(), EngineError> {
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
    pub(super) fn draw_deck(&mut self) -> Result<Vec<Card>, EngineError> {
        let crate::compile::TurnSequence::DrawDeck(deck_rules) = self.rules().turn.clone() else {
            return Ok(Vec::new());
        };
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
        for f in features::each(self.game.schedule.deck_built) {
            if let Some(run) = f.deck_built {
                run(self, &mut deck);
            }
        }
        Ok(deck)
    }

    /// The end of a turn: `end_phase` handlers for every model on the table, the features' end
    /// phase, single-use mounts spent, the features' turn end, states lasting the turn end, the
    /// features' scoring, then `TurnEnd`.
    pub fn end_turn(&mut self) -> Result<(), EngineError> {
        self.each_model(HookPoint::EndPhase)?;
        for f in features::each(self.game.schedule.end_phase) {
            if let Some(run) = f.end_phase {
                run(self)?;
            }
        }
        self.spend_single_use();
        for f in features::each(self.game.schedule.turn_end) {
            if let Some(run) = f.turn_end {
                run(self)?;
            }
        }
        self.states_end_with_the_turn();
        for f in features::each(self.game.schedule.scoring) {
            if let Some(run) = f.scoring {
                run(self);
            }
        }
        self.game.flags.end(super::FlagScope::Turn);
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
        if let crate::compile::TurnSequence::Pooled(order) = &self.rules().turn {
            let order = order.clone();
            return self.play_pooled_turn(&order, ctrl);
        }
        // Draw deck: the cards of the sides and their units, shuffled with the game's dice.
        let mut deck = self.begin_turn()?;
        for i in (1..deck.len()).rev() {
            let j = self.dice.roll(i as u32 + 1) as usize - 1;
            deck.swap(i, j);
        }
        let mut at = 0;
        while at < deck.len() {
            // Features act on the card about to be drawn (a held recon drone may send it to the
            // bottom of the deck, once a side a turn).
            for f in features::each(self.game.schedule.card_drawn) {
                if let Some(run) = f.card_drawn {
                    run(self, &mut deck, at, ctrl);
                }
            }
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
            let Some(unit) = dropping.cloned().or_else(|| {
                units
                    .into_iter()
                    .find(|u| u.iter().any(|&m| !self.game.models[m].activated) && !waits_to_drop(&self.game, u))
            }) else {
                continue;
            };
            if let Some(end) = self.activate_unit(unit, ctrl)? {
                return Ok(Some(end));
            }
        }
        self.end_turn()?;
        Ok(None)
    }

    /// Squad `squad` begins its activation (per-squad rules; `models` of it on the table): what
    /// the features do before any of its models acts. The models that join it, if any.
    pub fn squad_activates(
        &mut self,
        squad: usize,
        models: u32,
        ctrl: &mut dyn Controller,
    ) -> Result<Vec<usize>, EngineError> {
        self.game.squads[squad].target = None;
        self.game.unit_activating = Some(squad);
        let q = &self.game.squads[squad];
        let (name, side) = (q.name.clone(), self.game.sides[q.side].clone());
        emit!(self, Event::SquadActivation { squad: name, side, models });
        let mut joined = Vec::new();
        for f in features::each(self.game.schedule.squad_activates) {
            if let Some(run) = f.squad_activates {
                joined.extend(run(self, squad, ctrl)?);
            }
        }
        Ok(joined)
    }

    /// Activate a unit: its squad's activation (per-squad rules), then each of its
    /// models still to activate; the end of the game if one of them decided it.
    pub(crate) fn activate_unit(
        &mut self,
        mut unit: Vec<usize>,
        ctrl: &mut dyn Controller,
    ) -> Result<Option<GameEnd>, EngineError> {
        if let Some(s) =
            self.game.models[unit[0]].squad.filter(|_| self.rules().activation == cav_format::ActivationMode::PerSquad)
        {
            let models = unit.len() as u32;
            unit.extend(self.squad_activates(s, models, ctrl)?);
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
        // What one model of the unit used, the unit used (one command for all, 002 L116-124).
        let slots = unit.iter().fold(0, |acc, &m| acc | self.game.models[m].slots_used);
        for &m in &unit {
            self.game.models[m].slots_used = slots;
        }
        if let Some(end) = self.victory() {
            self.end_turn()?;
            return Ok(Some(self.finish(end)));
        }
        Ok(None)
    }

    /// A pooled turn (`turn_order`): each side's pool filled, then the sides pay a point each to
    /// activate a unit — alternating, or each spending all it can before the next side acts —
    /// until no side can pay for a unit that may still activate. A unit may activate up to
    /// `activations_per_unit` times (0: no limit but the pool).
    fn play_pooled_turn(
        &mut self,
        order: &cav_format::rules::TurnOrder,
        ctrl: &mut dyn Controller,
    ) -> Result<Option<GameEnd>, EngineError> {
        self.begin_turn()?;
        let sides = self.game.sides.len();
        if sides == 0 {
            self.end_turn()?;
            return Ok(None);
        }
        let p = &order.pool;
        let pool: Vec<u32> = (0..sides)
            .map(|s| {
                let models = self.game.models.iter().filter(|m| m.side == s && m.on_table()).count() as u32;
                let units = self.game.units(s).len() as u32;
                p.per_side
                    .saturating_add(p.per_unit.saturating_mul(units))
                    .saturating_add(p.per_model.saturating_mul(models))
                    .min(cav_format::limits::MAX_POOL)
            })
            .collect();
        for (s, &points) in pool.iter().enumerate() {
            let (side, pool) = (self.game.sides[s].clone(), p.name.clone());
            emit!(self, Event::PoolFilled { side, pool, points });
        }
        // (Kept in the game: a reaction may be paid from it.)
        self.game.pools = pool;
        self.game.owed_activations = vec![0; sides];
        // Activations so far this turn, by model (a unit counts its most activated model).
        let mut times: Vec<u32> = vec![0; self.game.models.len()];
        let limit = order.activations_per_unit;
        let eligible = |g: &Game, times: &mut Vec<u32>, side: usize| {
            times.resize(g.models.len(), 0);
            let mut units: Vec<(u32, Vec<usize>)> = g
                .units(side)
                .into_iter()
                .map(|u| (u.iter().map(|&m| times[m]).max().unwrap_or(0), u))
                .filter(|(n, _)| limit == 0 || *n < limit)
                .collect();
            units.sort_by_key(|(n, _)| *n);
            units.into_iter().map(|(_, u)| u).collect::<Vec<_>>()
        };
        let mut side = match order.first {
            cav_format::rules::FirstSide::Roll => self.dice.roll(sides as u32) as usize - 1,
            cav_format::rules::FirstSide::SideOrder => 0,
        };
        // Player turns: the sides whose turn is over.
        let mut done = vec![false; sides];
        loop {
            let can: Vec<bool> = (0..sides)
                .map(|s| !done[s] && self.game.pools[s] > 0 && !eligible(&self.game, &mut times, s).is_empty())
                .collect();
            if !can.iter().any(|&c| c) {
                break;
            }
            if !can[side] {
                if order.scheme == cav_format::rules::TurnScheme::PlayerTurns {
                    done[side] = true;
                }
                side = (side + 1) % sides;
                continue;
            }
            // A reaction that was this side's activation: the turn passes to the next side.
            if order.scheme == cav_format::rules::TurnScheme::Alternating
                && self.game.owed_activations.get(side).is_some_and(|&n| n > 0)
                && can.iter().enumerate().any(|(s, &c)| c && s != side)
            {
                self.game.owed_activations[side] -= 1;
                emit!(self, Event::ActivationPassed { side: self.game.sides[side].clone() });
                side = (side + 1) % sides;
                continue;
            }
            let units = eligible(&self.game, &mut times, side);
            let unit = units[ctrl.choose_unit(&self.game, side, &units).min(units.len() - 1)].clone();
            self.game.pools[side] -= 1;
            for &m in &unit {
                times[m] += 1;
                self.game.models[m].activated = false;
            }
            let (name, pool_name) = (self.game.sides[side].clone(), p.name.clone());
            let left = self.game.pools[side];
            emit!(self, Event::PoolSpent { side: name, model: unit[0], pool: pool_name, left });
            if let Some(end) = self.activate_unit(unit, ctrl)? {
                return Ok(Some(end));
            }
            if order.scheme == cav_format::rules::TurnScheme::Alternating {
                side = (side + 1) % sides;
            }
        }
        self.game.pools.clear();
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
            model.slots_used = 0;
            model.marks.retain(|m| m.lasts != Lasts::Turn);
        }
        for f in features::each(self.game.schedule.turn_start) {
            if let Some(run) = f.turn_start {
                run(self)?;
            }
        }
        self.draw_deck()
    }

    pub(super) fn finish(&mut self, end: GameEnd) -> GameEnd {
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
}
