//! The engine: the game state plus the dice, the event sink and the hooks. The turn loop, the
//! draw deck, activations (the checks every action shares, then the action's own module), roll
//! modifiers and conditions, and the calls to the hooks.

use super::*;

/// Decides for the models of one or more sides.
pub trait Controller {
    /// Choose the next action for `model`, which has `ap` action points left.
    fn decide(&mut self, game: &Game, model: usize, ap: u32) -> Action;
    /// Where a critical fumble's strike point goes (chosen by the defender); `None` keeps it.
    fn relocate_strike_point(&mut self, _game: &Game, _attacker: usize, _defender: usize, _options: &[P]) -> Option<P> {
        None
    }
    /// `defender`, attacked by `attacker` before it activated this turn, may shoot back with
    /// these weapons at the end of the attacker's assaults.
    fn defensive_fire(&mut self, _game: &Game, _defender: usize, _attacker: usize) -> Option<Vec<usize>> {
        None
    }
    /// `watcher` on over-watch may stop `mover` now and fire these weapons at it.
    fn overwatch_fire(&mut self, _game: &Game, _watcher: usize, _mover: usize) -> Option<Vec<usize>> {
        None
    }
    /// Whether `model` uses its optional special attribute `sa` (the SA's id) for what is being
    /// resolved now (`weapon`, against `target`); `false` declines it (SMART's trade of area for
    /// RAV, …). Not asked by the engine yet: scenario tests that decline an SA report that it was
    /// never offered.
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
    pub primary: bool,
    pub salvo_extra: i32,
    pub attempts: i32,
    pub los_to_point: bool,
    pub supporters: i32,
    pub failed_break: bool,
    pub defensive: bool,
    pub weapons_fired: i32,
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
        &r.cards[self.game.models[model].card]
    }

    pub(crate) fn hook(
        &mut self,
        point: HookPoint,
        model: usize,
        mods: &mut Vec<ModApplied>,
    ) -> Result<(), EngineError> {
        self.hook_with(point, model, None, None, mods).map(|_| ())
    }

    /// Call the hooks at `point`; returns the reason if a hook forbids what is declared.
    pub(crate) fn hook_with(
        &mut self,
        point: HookPoint,
        model: usize,
        target: Option<usize>,
        weapon: Option<usize>,
        mods: &mut Vec<ModApplied>,
    ) -> Result<Option<String>, EngineError> {
        if !self.hooks.wants(point) {
            return Ok(None);
        }
        let mut ctx = HookCtx { point, model, target, weapon, modifiers: mods, forbid: None, value: None };
        self.hooks.call(&self.game, &mut ctx).map_err(|message| EngineError::Hook { message })?;
        let forbid = ctx.forbid;
        for text in self.hooks.take_prints() {
            emit!(self, Event::ScriptPrint { model, text });
        }
        Ok(forbid)
    }

    /// `attack_targets`: hooks may shrink the area (never grow it) and add to the attack's RAV.
    pub(crate) fn hook_area(
        &mut self,
        attacker: usize,
        aimed: Option<usize>,
        weapon: usize,
        radius: f64,
    ) -> Result<(f64, i32), EngineError> {
        if !self.hooks.wants(HookPoint::AttackTargets) {
            return Ok((radius, 0));
        }
        let mut mods = Vec::new();
        let mut ctx = HookCtx {
            point: HookPoint::AttackTargets,
            model: attacker,
            target: aimed,
            weapon: Some(weapon),
            modifiers: &mut mods,
            forbid: None,
            value: Some(radius),
        };
        self.hooks.call(&self.game, &mut ctx).map_err(|message| EngineError::Hook { message })?;
        let r = ctx.value.unwrap_or(radius).clamp(0.0, radius);
        Ok((r, mods.iter().map(|m| m.value).sum()))
    }

    /// Play until a side wins or the turn limit is reached.
    pub fn play(&mut self, ctrl: &mut dyn Controller) -> Result<GameEnd, EngineError> {
        loop {
            if let Some(end) = self.play_turn(ctrl)? {
                return Ok(end);
            }
        }
    }

    /// One game turn; returns the end of the game if it ended.
    pub fn play_turn(&mut self, ctrl: &mut dyn Controller) -> Result<Option<GameEnd>, EngineError> {
        if let Some(end) = self.victory() {
            return Ok(Some(self.finish(end)));
        }
        if self.game.turn >= self.rules().turn_limit {
            let end = GameEnd {
                winner: None,
                turns: self.game.turn,
                reason: format!("turn limit {} reached: a draw", self.rules().turn_limit),
                damage_dealt: self.game.damage_dealt.clone(),
            };
            return Ok(Some(self.finish(end)));
        }
        self.begin_turn();
        // Draw deck: one card per model on the table, shuffled with the game's dice.
        let mut deck: Vec<usize> = self.game.models.iter().filter(|u| u.on_table()).map(|u| u.side).collect();
        for i in (1..deck.len()).rev() {
            let j = self.dice.roll(i as u32 + 1) as usize - 1;
            deck.swap(i, j);
        }
        for side in deck {
            let Some(u) = (0..self.game.models.len()).find(|&i| {
                let x = &self.game.models[i];
                x.side == side && x.on_table() && !x.activated
            }) else {
                continue;
            };
            self.activate(u, ctrl)?;
            if let Some(end) = self.victory() {
                self.end_turn();
                return Ok(Some(self.finish(end)));
            }
        }
        self.end_turn();
        Ok(None)
    }

    /// The start of a turn: the turn count goes up, every model may activate again and marks
    /// that last a turn end. (Scenario tests call this and [`end_turn`](Self::end_turn) around
    /// the activations they choose.)
    pub fn begin_turn(&mut self) {
        self.game.turn += 1;
        emit!(self, Event::TurnStart { turn: self.game.turn });
        for model in &mut self.game.models {
            model.activated = false;
            model.marks.retain(|m| m.lasts != Lasts::Turn);
        }
    }

    /// The end of a turn.
    pub fn end_turn(&mut self) {
        emit!(self, Event::TurnEnd { turn: self.game.turn });
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

    /// Last side with models on the table wins.
    pub fn victory(&self) -> Option<GameEnd> {
        let alive: Vec<usize> = (0..self.game.sides.len())
            .filter(|&s| self.game.models.iter().any(|u| u.side == s && u.on_table()))
            .collect();
        match alive.len() {
            0 => Some(GameEnd {
                winner: None,
                turns: self.game.turn,
                reason: "no models left on either side: a draw".into(),
                damage_dealt: self.game.damage_dealt.clone(),
            }),
            1 => Some(GameEnd {
                winner: Some(alive[0]),
                turns: self.game.turn,
                reason: "last side standing".into(),
                damage_dealt: self.game.damage_dealt.clone(),
            }),
            _ => None,
        }
    }

    /// Run one activation of `model` (normally the draw deck decides; scenario tests call this
    /// directly). Here are only the checks every action shares — action points and cost, once per
    /// activation, combat after reacting, can the model fight; the rest is the action's module.
    pub fn activate(&mut self, model: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        self.game.active = Some(model);
        self.game.models[model].activated = true;
        self.game.models[model].lock = None; // a target-lock lasts until the model's next activation
        let me = &self.game.models[model];
        let base = me.ap_set.unwrap_or(self.rules().action_points) as i32 + me.crit_ap;
        let base = base - std::mem::take(&mut self.game.models[model].ap_owed) as i32;
        let mut ap = if self.game.state_blocks(model, |s| s.no_actions) { 0 } else { base.max(0) as u32 };
        emit!(self, Event::Activation { model, ap });
        self.hook(HookPoint::Activation, model, &mut Vec::new())?;
        self.game.used.clear();
        let mut steps = 0;
        while ap > 0 && self.game.models[model].on_table() {
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
            let Some(cost) = kind.cost(&self.game, model) else {
                return Err(illegal(&self.game, "this ruleset has no such action type"));
            };
            if cost > ap {
                return Err(illegal(&self.game, "not enough action points"));
            }
            let counts_as = kind.counts_as();
            if !kind.repeatable() && self.game.used.contains(&counts_as) {
                return Err(illegal(&self.game, "a non-repeatable action may be used once per activation"));
            }
            if counts_as == ActionWord::Combat {
                if self.game.models[model].has(&actions::combat::FIRED_OUT_OF_TURN) {
                    return Err(illegal(&self.game, "the model used defensive or over-watch fire this turn"));
                }
                if !self.game.can_fight(model) || self.game.models[model].prone {
                    return Err(illegal(&self.game, "the model cannot use the combat action now"));
                }
            }
            // Marks that last until the next action end now (an action that wants one sets it again).
            self.game.models[model].marks.retain(|m| m.lasts != Lasts::NextAction);
            kind.check(&self.game, model, &action).map_err(|reason| illegal(&self.game, &reason))?;
            match kind.resolve(self, model, &action, ctrl) {
                Ok(()) => {}
                Err(ActionError::Illegal(reason)) => return Err(illegal(&self.game, &reason)),
                Err(ActionError::Engine(e)) => return Err(e),
            }
            self.game.used.push(counts_as);
            ap -= cost;
        }
        self.end_activation(model)
    }

    pub(crate) fn has_stand_up_state(&self, model: usize) -> bool {
        self.game.state_blocks(model, |s| s.duration == StateDuration::UntilStandUp)
    }

    pub(crate) fn card_dc(&self, model: usize) -> Option<i32> {
        self.cardr(model).dc[self.game.column(model)]
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
                ModifierScale::PerAdditional => m.value * s.salvo_extra.max(s.attempts).max(s.supporters),
                ModifierScale::PerWeapon => m.value * s.weapons_fired.max(1),
            };
            if let Some(max) = m.max {
                v = v.clamp(-max.abs(), max.abs());
            }
            if v != 0 {
                out.push(ModApplied { source: name(&m.name), value: v });
            }
        }
        // Declarative effects of the attacker's and the weapon's special attributes.
        let card = g.card(a);
        let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        for (sa, rating) in card.sas.iter().chain(weapon_sas) {
            let def = &r.sas[*sa as usize];
            for e in def.effects.iter().filter(|e| e.target == target) {
                if e.when.iter().all(|c| c.times(g, s) > 0) {
                    let v = if e.per_rating { e.value * rating } else { e.value } * r.sign;
                    out.push(ModApplied { source: name(&def.name), value: v });
                }
            }
        }
        // States: a table row naming the state takes precedence over its generic modifier.
        let named = |st: StateIx, attacker_side: bool| {
            let def = if attacker_side { &conditions::ATTACKER_STATE } else { &conditions::DEFENDER_STATE };
            table.iter().any(|m| m.cond.is(def, st))
        };
        if own {
            for (st, _) in &g.models[a].states {
                let def = &r.states[*st as usize];
                if def.own_roll_modifier != 0 && !named(*st, true) {
                    out.push(ModApplied { source: name(&def.name), value: def.own_roll_modifier });
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
                    });
                }
            }
        }
        if target == ModifierTarget::CombatRoll && g.models[a].crit_combat != 0 {
            out.push(ModApplied { source: name("critical damage"), value: g.models[a].crit_combat });
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
        let (natural, sum) = expr.roll(self.dice);
        let nat: u32 = natural.iter().sum();
        let r = self.rules();
        // Critical fumbles and successes belong to the ruleset's standard roll (2d6), not to
        // single dice such as the out-of-ammo d6.
        let fumble = expr == r.standard && nat <= r.critical_fumble;
        let crit = crit_at.is_some_and(|c| nat >= c) && !fumble;
        let mut mods = mods;
        if crit && let Some(bonus) = r.critical_bonus {
            let (_, v) = bonus.roll(self.dice);
            mods.push(ModApplied { source: "critical success bonus die".into(), value: v });
        }
        // Saturating: modifiers come from packs and scripts, and must not wrap a total around.
        let total = mods.iter().fold(sum, |total, m| total.saturating_add(m.value));
        let success = target.map(|t| !fumble && (total >= t || (ten_plus && nat >= r.proc.rolls.ten_plus_natural)));
        let margin = target.map(|t| total.saturating_sub(t));
        emit!(
            self,
            Event::Roll(Roll {
                model,
                kind,
                dice: expr.to_string(),
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
