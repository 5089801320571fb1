//! The engine: the game state plus the dice, the event sink and the hooks, and the calls to the
//! hooks (handlers' effects applied). What it does in play lives beside it: `turn`, `activation`,
//! `rolls`, and one module per procedure.

use super::*;

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
    /// A handler moved or turned a model (`ctx.move_model`, `ctx.turn_model`), even where the
    /// forced move went nowhere.
    pub forced: bool,
}

impl Answer {
    /// The modifiers of one quantity, taken out.
    pub fn take(&mut self, q: Quantity) -> Vec<ModApplied> {
        // Most answers hold none: nothing to split then.
        if !self.mods.iter().any(|(x, _)| *x == q) {
            return Vec::new();
        }
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
    #[inline]
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
    pub(super) fn run_hooks(&mut self, mut ctx: HookCtx) -> Result<Answer, EngineError> {
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
            Effect::MoveModel { model, x, y } => {
                log(self, HookEffect::MoveModel, Some(model), None, None, Some(format!("to ({x:.1}, {y:.1})")));
                answer.forced = true;
                self.forced_move(model, P::new(x, y))
                    .map_err(|e| EngineError::Hook { message: format!("{source} ({point}): `ctx.move_model`: {e}") })?;
            }
            Effect::PlaceMarker { sa, id, x, y } => {
                log(self, HookEffect::PlaceMarker, None, None, None, Some(format!("{id} at ({x:.1}, {y:.1})")));
                let at = match &self.game.rules.hexes {
                    Some(h) => h.centre(h.hex_at(P::new(x, y))),
                    None => P::new(x, y),
                };
                let markers = &mut self.game.markers;
                match markers.iter().position(|m| m.sa == sa && m.id == id) {
                    Some(i) => markers[i].at = at,
                    None if markers.len() >= cav_format::limits::SCRIPT_MARKERS => {
                        let reason = format!("{source}: {} markers lie on the board already", markers.len());
                        emit!(self, Event::Forbidden { model: by, what: "marker", reason });
                        return Ok(());
                    }
                    None => markers.push(crate::game::state::Marker { sa, id: id.clone(), at }),
                }
                let source = self.rules().sas[sa as usize].name.clone();
                emit!(self, Event::MarkerPlaced { source, id, at });
            }
            Effect::RemoveMarker { sa, id } => {
                log(self, HookEffect::RemoveMarker, None, None, None, Some(id.clone()));
                if let Some(i) = self.game.markers.iter().position(|m| m.sa == sa && m.id == id) {
                    self.game.markers.remove(i);
                    let source = self.rules().sas[sa as usize].name.clone();
                    emit!(self, Event::MarkerRemoved { source, id });
                }
            }
            Effect::PlaceModel { model, x, y } => {
                log(self, HookEffect::PlaceModel, Some(model), None, None, Some(format!("at ({x:.1}, {y:.1})")));
                answer.forced = true;
                if let Err(reason) = self.place_model(model, P::new(x, y)) {
                    emit!(self, Event::Forbidden { model, what: "placement", reason: format!("{source}: {reason}") });
                }
            }
            Effect::RemoveModel { model, destroyed } => {
                let how = if destroyed { "destroyed" } else { "left_board" };
                log(self, HookEffect::RemoveModel, Some(model), None, None, Some(how.to_owned()));
                if self.game.models[model].on_table() {
                    if destroyed {
                        self.destroy(model);
                    } else {
                        self.game.models[model].left_board = true;
                        emit!(self, Event::LeftBoard { model });
                    }
                }
            }
            Effect::TableRow { model, table, key } => {
                let name = self.rules().lookup_tables[table].id.clone();
                log(self, HookEffect::TableRow, Some(model), None, Some(f64::from(key)), Some(name));
                let mut budget = cav_format::limits::MAX_TABLE_ROLLS;
                let points = self.table_row(model, table, key, 0, &mut budget)?;
                let p = &mut self.game.models[model].pending;
                p.damage = p.damage.saturating_add(points);
                if self.game.active.is_none() {
                    self.resolve_pending(model)?;
                }
            }
            Effect::TurnModel { model, facing } => {
                log(self, HookEffect::TurnModel, Some(model), None, Some(facing), None);
                answer.forced = true;
                self.forced_turn(model, facing);
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
            Effect::SetFlag(set) => {
                let crate::hooks::FlagSet { sa, scope, key, value } = *set;
                let model = match scope {
                    super::FlagScope::Model(m) => Some(m),
                    _ => None,
                };
                let number = match value {
                    Some(super::FlagValue::Number(x)) => Some(x),
                    _ => None,
                };
                let shown = value.as_ref().map_or_else(|| "nil".to_owned(), |v| v.to_string());
                log(self, HookEffect::SetFlag, model, None, number, Some(format!("{scope}: {key} = {shown}")));
                self.game
                    .flags
                    .set(sa, scope, &key, value)
                    .map_err(|e| EngineError::Hook { message: format!("{source} ({point}): `ctx.set_flag`: {e}") })?;
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
    pub(crate) fn has_stand_up_state(&self, model: usize) -> bool {
        self.game.state_blocks(model, |s| s.duration == StateDuration::UntilStandUp)
    }

    pub(crate) fn card_dc(&self, model: usize) -> Option<i32> {
        self.cardr(model).damage_control[self.game.column(model)]
    }
}

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
