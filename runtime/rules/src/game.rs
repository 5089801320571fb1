//! Game state and the procedures of play. Pure: the only inputs are the compiled [`Rules`], the
//! injected [`Dice`], the [`Controller`] that decides, and the [`Hooks`] that special attributes
//! plug into; the only output is events in a [`Sink`].

use cav_format::{Cover, HookPoint, ModelType, ModifierScale, ModifierTarget, RollKind, StateDuration, TargetClass};

use crate::compile::{Cond, Cost, Mod, Rules, StateIx};
use crate::dice::{Dice, DiceExpr};
use crate::event::{Event, ModApplied, Roll, Sink};
use crate::geom::{P, Polygon, angle_diff};
use crate::hooks::{HookCtx, Hooks};

/// A terrain area on the board.
#[derive(Debug, Clone)]
pub struct Area {
    pub terrain: usize,
    pub poly: Polygon,
    pub center: P,
    pub radius: f64,
}

#[derive(Debug, Clone)]
pub struct Board {
    pub size: [f64; 2],
    pub areas: Vec<Area>,
}

/// A model's state on the table.
#[derive(Debug, Clone)]
pub struct Unit {
    pub name: String,
    pub side: usize,
    pub card: usize,
    pub pos: P,
    pub facing: f64,
    pub damage: u32,
    /// (state, activation count at whose end it ends; u32::MAX = not by activations)
    pub states: Vec<(StateIx, u32)>,
    pub prone: bool,
    pub lock: Option<usize>,
    pub out_of_ammo: Vec<bool>,
    pub ammo_reserve: u32,
    pub crit_combat: i32,
    pub crit_ap: i32,
    pub ap_set: Option<u32>,
    pub mv_add: i32,
    pub mv_factor: f64,
    pub no_combat: bool,
    pub zeroed: bool,
    pub destroyed: bool,
    pub left_board: bool,
    pub mission_kill: bool,
    pub activated: bool,
    pub activations: u32,
    pub pending: Pending,
    /// Last strike point fired at, attempts made there, and whether it was hit.
    pub strike_memory: Option<(P, u32, bool)>,
    /// In base contact with an enemy after a close-combat assault: it must break to leave.
    pub engaged: bool,
    /// Used defensive fire (or over-watch fire) this turn: no more combat actions this turn.
    pub fired_this_turn: bool,
    pub overwatch: bool,
    /// Failed a break this turn (−1 in close combat for the rest of the turn).
    pub failed_break: bool,
}

impl Unit {
    pub fn on_table(&self) -> bool {
        !self.destroyed && !self.left_board
    }
    pub fn has_state(&self, s: StateIx) -> bool {
        self.states.iter().any(|(x, _)| *x == s)
    }
}

/// Effects waiting for the end of the current activation.
#[derive(Debug, Clone, Default)]
pub struct Pending {
    pub damage: u32,
    pub pilot_check: Option<i32>,
    pub states: Vec<StateIx>,
    pub criticals: u32,
}

/// What a controller may ask a model to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Move straight towards a point (one move action), turning to face it first.
    Move {
        to: P,
    },
    /// Move backwards towards a point behind the model, keeping its facing (one move action).
    Reverse {
        to: P,
    },
    StandUp,
    GoProne,
    TargetLock {
        target: usize,
    },
    /// One combat action: the listed weapon mounts fire at `target`; `indirect` fires at its strike point.
    Fire {
        target: usize,
        weapons: Vec<usize>,
        indirect: bool,
    },
    /// A salvo fire strike: several weapons of one type, one combat roll.
    Salvo {
        target: usize,
        weapons: Vec<usize>,
    },
    /// Two move actions and one direct-fire assault, at reduced MV and accuracy.
    RunNGun {
        to: P,
        target: usize,
        weapons: Vec<usize>,
    },
    /// A close-combat assault on an enemy in base contact.
    CloseCombat {
        target: usize,
    },
    /// Leave close combat: a roll, then up to part of the MV away towards `to`.
    Break {
        to: P,
    },
    /// Hold a direct-fire assault for an enemy that moves in sight later.
    Overwatch,
    Repair,
    /// End the activation.
    Pass,
}

/// Decides for the models of one or more sides.
pub trait Controller {
    /// Choose the next action for `unit`, which has `ap` action points left.
    fn decide(&mut self, game: &Game, unit: usize, ap: u32) -> Action;
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
}

#[derive(Debug, Clone, PartialEq)]
pub enum EngineError {
    IllegalAction { unit: String, action: String, reason: String },
    Hook { message: String },
    DiceExhausted,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::IllegalAction { unit, action, reason } => {
                write!(f, "illegal action by {unit}: {action}: {reason}")
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

/// The whole game state.
#[derive(Debug, Clone)]
pub struct Game<'r> {
    pub rules: &'r Rules,
    pub board: Board,
    pub units: Vec<Unit>,
    pub sides: Vec<String>,
    pub turn: u32,
    pub active: Option<usize>,
    /// Non-repeatable actions the active model has used this activation.
    pub used: Vec<&'static str>,
    /// The last line-of-sight answers, keyed by models, positions and terrain count: a decision
    /// asks the same question for every weapon.
    sight_memo: std::cell::RefCell<Vec<(SightKey, (bool, Cover))>>,
    pub damage_dealt: Vec<u32>,
}

/// What one weapon would do against a target right now.
#[derive(Debug, Clone, PartialEq)]
pub enum Shot {
    Direct { band: usize, distance: f64 },
    Indirect { band: usize, distance: f64 },
    No(String),
}

impl<'r> Game<'r> {
    pub fn new(rules: &'r Rules, board: Board, sides: Vec<String>) -> Self {
        Game {
            rules,
            board,
            units: Vec::new(),
            damage_dealt: vec![0; sides.len()],
            sides,
            turn: 0,
            active: None,
            used: Vec::new(),
            sight_memo: std::cell::RefCell::new(Vec::new()),
        }
    }

    pub fn add_unit(&mut self, card: usize, side: usize, pos: P, facing: f64) -> usize {
        let c = &self.rules.cards[card];
        let side_name = self.sides.get(side).cloned().unwrap_or_default();
        let n = self.units.iter().filter(|u| u.side == side && u.card == card).count();
        let name =
            if n == 0 { format!("{} {}", side_name, c.name) } else { format!("{} {} #{}", side_name, c.name, n + 1) };
        self.units.push(Unit {
            name,
            side,
            card,
            pos,
            facing,
            damage: 0,
            states: Vec::new(),
            prone: false,
            lock: None,
            out_of_ammo: vec![false; c.weapons.len()],
            ammo_reserve: c.ammo_reserve,
            crit_combat: 0,
            crit_ap: 0,
            ap_set: None,
            mv_add: 0,
            mv_factor: 1.0,
            no_combat: false,
            zeroed: false,
            destroyed: false,
            left_board: false,
            mission_kill: false,
            activated: false,
            activations: 0,
            pending: Pending::default(),
            strike_memory: None,
            engaged: false,
            fired_this_turn: false,
            overwatch: false,
            failed_break: false,
        });
        self.units.len() - 1
    }

    /// Damage-track column in use.
    pub fn column(&self, u: usize) -> usize {
        let unit = &self.units[u];
        (unit.damage as usize).min(self.rules.cards[unit.card].columns - 1)
    }

    pub fn card(&self, u: usize) -> &crate::compile::CardDef {
        &self.rules.cards[self.units[u].card]
    }

    /// Distance base edge to base edge.
    pub fn distance(&self, a: usize, b: usize) -> f64 {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        (ua.pos.dist(ub.pos) - self.card(a).base_radius - self.card(b).base_radius).max(0.0)
    }

    pub fn enemies(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.units[u].side;
        (0..self.units.len()).filter(move |&i| self.units[i].side != side && self.units[i].on_table())
    }

    fn state_blocks(&self, u: usize, f: impl Fn(&crate::compile::StateDef) -> bool) -> bool {
        self.units[u].states.iter().any(|(s, _)| f(&self.rules.states[*s as usize]))
    }

    /// Current move value: card column, criticals and states.
    pub fn move_value(&self, u: usize) -> u32 {
        let unit = &self.units[u];
        if self.state_blocks(u, |s| s.no_move) {
            return 0;
        }
        let base = self.card(u).mv[self.column(u)] as i32 + unit.mv_add;
        let states: i32 = unit.states.iter().map(|(s, _)| self.rules.states[*s as usize].move_value).sum();
        (((base + states).max(0) as f64) * unit.mv_factor).floor() as u32
    }

    pub fn can_fight(&self, u: usize) -> bool {
        let unit = &self.units[u];
        !unit.no_combat
            && !self.state_blocks(u, |s| s.no_combat || s.no_actions && s.duration == StateDuration::Permanent)
    }

    /// Ground level under a point (hills raise it).
    fn ground(&self, p: P) -> i32 {
        self.board
            .areas
            .iter()
            .filter(|a| {
                self.rules.terrains[a.terrain].raises_ground && a.center.dist(p) <= a.radius && a.poly.contains(p)
            })
            .map(|a| self.rules.terrains[a.terrain].elevation)
            .max()
            .unwrap_or(0)
    }

    fn height(&self, u: usize) -> i32 {
        let unit = &self.units[u];
        let own = if unit.prone {
            self.rules.proc.prone_height
        } else {
            self.rules.proc.model_height[self.card(u).model_type as usize].unwrap_or(0) // checked by compile
        };
        own + self.ground(unit.pos)
    }

    /// Line of sight and the best cover that counts between attacker and defender.
    /// `only_defenders_own`: guided missiles and rockets ignore intervening cover (000 L686).
    pub fn sight(&self, a: usize, d: usize, only_defenders_own: bool) -> (bool, Cover) {
        let key = SightKey {
            a,
            d,
            own: only_defenders_own,
            pa: self.units[a].pos,
            pd: self.units[d].pos,
            prone: (self.units[a].prone, self.units[d].prone),
            areas: self.board.areas.len(),
        };
        if let Some((_, v)) = self.sight_memo.borrow().iter().find(|(k, _)| *k == key) {
            return *v;
        }
        let v = self.sight_uncached(a, d, only_defenders_own);
        let mut memo = self.sight_memo.borrow_mut();
        if memo.len() >= 8 {
            memo.remove(0);
        }
        memo.push((key, v));
        v
    }

    fn sight_uncached(&self, a: usize, d: usize, only_defenders_own: bool) -> (bool, Cover) {
        let (pa, pd) = (self.units[a].pos, self.units[d].pos);
        let (ha, hd) = (self.height(a), self.height(d));
        let (ra, rd) = (self.card(a).base_radius, self.card(d).base_radius);
        let adj = self.rules.proc.adjacent_cover;
        let mut best = Cover::None;
        for area in &self.board.areas {
            let t = &self.rules.terrains[area.terrain];
            if t.cover == Cover::None || t.raises_ground && t.elevation <= 0 {
                continue;
            }
            // Cheap rejects first: areas far from both ends and from the line between them.
            if crate::geom::seg_point_dist(pa, pd, area.center) > area.radius + ra.max(rd) + adj {
                continue;
            }
            // Ground a model stands on raises it; it is no cover for or against that model.
            if t.raises_ground && (area.poly.contains(pa) || area.poly.contains(pd)) {
                continue;
            }
            let standing_in = area.poly.contains(pd);
            if only_defenders_own && !standing_in {
                continue;
            }
            if !standing_in && !area.poly.touches_segment(pa, pd) {
                continue;
            }
            // The three ways cover counts (000 L670-676), cheapest first.
            let counts = standing_in || area.poly.distance(pa) <= ra + adj || area.poly.distance(pd) <= rd + adj || {
                let height = t.elevation + if t.raises_ground { 0 } else { self.ground(area.center) };
                height >= ha && height >= hd
            };
            if counts && cover_rank(t.cover) > cover_rank(best) {
                best = t.cover;
            }
        }
        (best != Cover::Blocking, best)
    }

    /// Can mount `w` of `a` attack `d` now, and how?
    pub fn shot(&self, a: usize, w: usize, d: usize, indirect: bool) -> Shot {
        let unit = &self.units[a];
        let card = self.card(a);
        let Some(m) = card.weapons.get(w) else { return Shot::No("no such weapon".into()) };
        if unit.out_of_ammo[w] {
            return Shot::No("out of ammo".into());
        }
        let Some(target) = self.units.get(d) else { return Shot::No("no such model".into()) };
        if !target.on_table() {
            return Shot::No("target is gone".into());
        }
        let tc = self.card(d).model_type;
        if m.cannot_target.iter().any(|c| match c {
            TargetClass::Infantry => matches!(tc, ModelType::Infantry | ModelType::PoweredInfantry),
            TargetClass::Aircraft | TargetClass::AircraftInFlight => tc == ModelType::Aircraft,
            TargetClass::Structure => tc == ModelType::Structure,
        }) {
            return Shot::No("cannot attack that kind of model".into());
        }
        if m.requires_target_lock && unit.lock != Some(d) {
            return Shot::No("needs a target-lock".into());
        }
        if indirect && !(m.indirect || m.requires_target_lock) {
            return Shot::No("cannot fire indirectly".into());
        }
        if !indirect && m.indirect {
            return Shot::No("fires only indirectly".into());
        }
        let dist = self.distance(a, d);
        if m.min_range > 0.0 && dist <= m.min_range {
            return Shot::No(format!("inside minimum range {}\"", m.min_range));
        }
        let Some(band) = self.rules.bands.iter().position(|b| dist <= m.range * b.multiplier) else {
            return Shot::No("out of range".into());
        };
        if indirect {
            return Shot::Indirect { band, distance: dist };
        }
        if !self.in_arc(a, w, d) {
            return Shot::No("outside the weapon's firing arc".into());
        }
        let (los, _) = self.sight(a, d, m.requires_target_lock);
        if !los {
            return Shot::No("no line of sight".into());
        }
        Shot::Direct { band, distance: dist }
    }

    /// Is `d` inside the firing arc of mount `w` of `a`? Front mounts (F, L, R arms) fire into
    /// the front arc, B into the rear, T all round; a torso twist widens the front and rear arcs.
    pub fn in_arc(&self, a: usize, w: usize, d: usize) -> bool {
        let card = self.card(a);
        let m = &card.weapons[w];
        if m.mounts.contains(&cav_format::Mount::T)
            || matches!(card.model_type, ModelType::Infantry | ModelType::PoweredInfantry)
        {
            return true;
        }
        let p = &self.rules.proc;
        let twist = p.torso_twist[card.model_type as usize];
        let bearing = self.units[a].pos.bearing(self.units[d].pos);
        let off = angle_diff(self.units[a].facing, bearing).abs();
        let rear = !m.mounts.is_empty() && m.mounts.iter().all(|x| *x == cav_format::Mount::B);
        let off = if rear { 180.0 - off } else { off };
        off <= p.arc_half_width + twist + 1e-9
    }

    fn rav(&self, a: usize, w: usize, d: usize) -> i32 {
        if self.units[a].zeroed {
            return 0;
        }
        let (hard, soft) = self.card(a).weapons[w].rav[self.column(a)];
        let dc = self.card(d);
        let v = if dc.soft && !dc.hard { soft } else { hard };
        v.map_or(-100, i32::from)
    }
}

/// What a line-of-sight answer depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SightKey {
    a: usize,
    d: usize,
    own: bool,
    pa: P,
    pd: P,
    prone: (bool, bool),
    areas: usize,
}

fn cover_rank(c: Cover) -> u8 {
    match c {
        Cover::None => 0,
        Cover::Light => 1,
        Cover::Heavy => 2,
        Cover::Blocking => 3,
    }
}

/// Per-roll facts conditions are tested against.
#[derive(Debug, Clone, Copy, Default)]
struct Situation {
    attacker: usize,
    defender: Option<usize>,
    weapon: Option<usize>,
    band: Option<usize>,
    distance: f64,
    cover: Option<Cover>,
    primary: bool,
    salvo_extra: i32,
    attempts: i32,
    los_to_point: bool,
    supporters: i32,
    failed_break: bool,
    defensive: bool,
    weapons_fired: i32,
}

/// Runs games: owns the dice, the log, the hooks and the controller for one game.
pub struct Engine<'a, 'r> {
    pub game: Game<'r>,
    pub dice: &'a mut dyn Dice,
    pub log: &'a mut dyn Sink,
    pub hooks: &'a mut dyn Hooks,
}

macro_rules! emit {
    ($self:expr, $e:expr) => {
        if $self.log.enabled() {
            $self.log.push($e);
        }
    };
}

// The procedures, by part of the turn (after `emit!`, which they use).
mod combat;
mod damage;
mod movement;

impl<'a, 'r> Engine<'a, 'r> {
    fn rules(&self) -> &'r Rules {
        self.game.rules
    }

    /// The card of a unit, borrowed from the rules (not from the game state).
    fn cardr(&self, u: usize) -> &'r crate::compile::CardDef {
        let r: &'r Rules = self.game.rules;
        &r.cards[self.game.units[u].card]
    }

    fn hook(&mut self, point: HookPoint, unit: usize, mods: &mut Vec<ModApplied>) -> Result<(), EngineError> {
        self.hook_with(point, unit, None, None, mods).map(|_| ())
    }

    /// Call the hooks at `point`; returns the reason if a hook forbids what is declared.
    fn hook_with(
        &mut self,
        point: HookPoint,
        unit: usize,
        target: Option<usize>,
        weapon: Option<usize>,
        mods: &mut Vec<ModApplied>,
    ) -> Result<Option<String>, EngineError> {
        if !self.hooks.wants(point) {
            return Ok(None);
        }
        let mut ctx = HookCtx { point, unit, target, weapon, modifiers: mods, forbid: None, value: None };
        self.hooks.call(&self.game, &mut ctx).map_err(|message| EngineError::Hook { message })?;
        let forbid = ctx.forbid;
        for text in self.hooks.take_prints() {
            emit!(self, Event::ScriptPrint { unit, text });
        }
        Ok(forbid)
    }

    /// `attack_targets`: hooks may shrink the area (never grow it) and add to the attack's RAV.
    fn hook_area(&mut self, a: usize, aimed: Option<usize>, w: usize, radius: f64) -> Result<(f64, i32), EngineError> {
        if !self.hooks.wants(HookPoint::AttackTargets) {
            return Ok((radius, 0));
        }
        let mut mods = Vec::new();
        let mut ctx = HookCtx {
            point: HookPoint::AttackTargets,
            unit: a,
            target: aimed,
            weapon: Some(w),
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
        self.game.turn += 1;
        emit!(self, Event::TurnStart { turn: self.game.turn });
        for u in &mut self.game.units {
            u.activated = false;
            u.fired_this_turn = false;
            u.failed_break = false;
        }
        // Draw deck: one card per model on the table, shuffled with the game's dice.
        let mut deck: Vec<usize> = self.game.units.iter().filter(|u| u.on_table()).map(|u| u.side).collect();
        for i in (1..deck.len()).rev() {
            let j = self.dice.roll(i as u32 + 1) as usize - 1;
            deck.swap(i, j);
        }
        for side in deck {
            let Some(u) = (0..self.game.units.len()).find(|&i| {
                let x = &self.game.units[i];
                x.side == side && x.on_table() && !x.activated
            }) else {
                continue;
            };
            self.activate(u, ctrl)?;
            if let Some(end) = self.victory() {
                emit!(self, Event::TurnEnd { turn: self.game.turn });
                return Ok(Some(self.finish(end)));
            }
        }
        emit!(self, Event::TurnEnd { turn: self.game.turn });
        Ok(None)
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
            .filter(|&s| self.game.units.iter().any(|u| u.side == s && u.on_table()))
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

    fn cost(&self, id: &str) -> u32 {
        let c = &self.rules().costs;
        match id {
            "move" => c.move_,
            "target-lock" => c.target_lock,
            "combat" => c.combat,
            "salvo-fire" => c.salvo,
            "run-n-gun" => c.run_n_gun,
            "close-combat" => c.close_combat,
            "break" => c.break_,
            "overwatch" => c.overwatch,
            "repair" => c.repair,
            other => self.rules().action_costs.get(other).copied().unwrap_or(1),
        }
    }

    /// Run one activation of `u` (normally the draw deck decides; scenario tests call this directly).
    pub fn activate(&mut self, u: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        self.game.active = Some(u);
        self.game.units[u].activated = true;
        self.game.units[u].lock = None; // a target-lock lasts until the model's next activation
        let unit = &self.game.units[u];
        let base = unit.ap_set.unwrap_or(self.rules().action_points) as i32 + unit.crit_ap;
        let mut ap = if self.game.state_blocks(u, |s| s.no_actions) { 0 } else { base.max(0) as u32 };
        emit!(self, Event::Activation { unit: u, ap });
        self.hook(HookPoint::Activation, u, &mut Vec::new())?;
        self.game.used.clear();
        let mut steps = 0;
        while ap > 0 && self.game.units[u].on_table() {
            steps += 1;
            if steps > 32 {
                break; // a controller that never passes
            }
            let action = ctrl.decide(&self.game, u, ap);
            // Only an illegal action pays for describing itself.
            let (unit_name, described) = (self.game.units[u].name.clone(), action.clone());
            let illegal = move |reason: &str| EngineError::IllegalAction {
                unit: unit_name.clone(),
                action: format!("{described:?}"),
                reason: reason.to_owned(),
            };
            // (what it counts as for "once per activation", whether it repeats, its cost id)
            let (id, repeatable, cost_id) = match &action {
                Action::Pass => break,
                Action::Move { .. } | Action::Reverse { .. } | Action::StandUp | Action::GoProne => {
                    ("move", true, "move")
                }
                Action::TargetLock { .. } => ("target-lock", false, "target-lock"),
                Action::Fire { .. } => ("combat", false, "combat"),
                Action::Salvo { .. } => ("combat", false, "salvo-fire"),
                Action::RunNGun { .. } => ("combat", false, "run-n-gun"),
                Action::CloseCombat { .. } => ("combat", false, "close-combat"),
                Action::Break { .. } => ("break", true, "break"),
                Action::Overwatch => ("overwatch", false, "overwatch"),
                Action::Repair => ("repair", false, "repair"),
            };
            let mut cost = self.cost(cost_id);
            if matches!(action, Action::Overwatch) && self.game.units[u].overwatch {
                cost = self.rules().proc.overwatch_refire_cost.unwrap_or(cost);
            }
            if cost > ap {
                return Err(illegal("not enough action points"));
            }
            if !repeatable && self.game.used.contains(&id) {
                return Err(illegal("a non-repeatable action may be used once per activation"));
            }
            if id == "combat" && self.game.units[u].fired_this_turn {
                return Err(illegal("the model used defensive or over-watch fire this turn"));
            }
            if id == "combat" && (!self.game.can_fight(u) || self.game.units[u].prone) {
                return Err(illegal("the model cannot use the combat action now"));
            }
            if !matches!(action, Action::Overwatch) {
                self.game.units[u].overwatch = false; // any other action ends over-watch
            }
            match action {
                Action::Move { to } => {
                    if self.game.units[u].engaged {
                        return Err(illegal("a model in close combat must break before it moves away"));
                    }
                    self.do_move(u, to, None, ctrl).map_err(|r| illegal(&r))?
                }
                Action::Reverse { to } => {
                    if self.game.units[u].engaged {
                        return Err(illegal("a model in close combat must break before it moves away"));
                    }
                    self.do_move_mode(u, to, None, true, ctrl).map_err(|r| illegal(&r))?
                }
                Action::RunNGun { to, target, weapons } => {
                    let Some((pen, low, low_pen)) = self.rules().proc.run_n_gun else {
                        return Err(illegal("this ruleset has no run 'n gun"));
                    };
                    if self.game.units[u].engaged {
                        return Err(illegal("a model in close combat must break before it moves away"));
                    }
                    let mv = self.game.move_value(u);
                    let per_move = mv.saturating_sub(if mv <= low { low_pen } else { pen });
                    // Two move actions' worth of reduced MV, then the assault.
                    self.do_move(u, to, Some(per_move * 2), ctrl).map_err(|r| illegal(&r))?;
                    let count: u32 =
                        weapons.iter().filter_map(|&w| self.cardr(u).weapons.get(w)).map(|m| m.quantity).sum();
                    self.fire(u, target, &weapons, false, count as i32, ctrl).map_err(|r| match r {
                        FireError::Illegal(r) => illegal(&r),
                        FireError::Engine(e) => e,
                    })?;
                }
                Action::CloseCombat { target } => self.close_combat(u, target).map_err(|r| match r {
                    FireError::Illegal(r) => illegal(&r),
                    FireError::Engine(e) => e,
                })?,
                Action::Break { to } => {
                    if !self.game.units[u].engaged {
                        return Err(illegal("the model is not in close combat"));
                    }
                    self.break_away(u, to, ctrl).map_err(|r| match r {
                        FireError::Illegal(r) => illegal(&r),
                        FireError::Engine(e) => e,
                    })?;
                }
                Action::Overwatch => {
                    self.game.units[u].overwatch = true;
                    emit!(self, Event::Overwatch { unit: u });
                }
                Action::StandUp => {
                    if !self.game.units[u].prone && !self.has_stand_up_state(u) {
                        return Err(illegal("the model is not down"));
                    }
                    self.game.units[u].prone = false;
                    let states = &self.rules().states;
                    let ended: Vec<StateIx> = self.game.units[u]
                        .states
                        .iter()
                        .filter(|(s, _)| states[*s as usize].duration == StateDuration::UntilStandUp)
                        .map(|(s, _)| *s)
                        .collect();
                    self.game.units[u].states.retain(|(s, _)| !ended.contains(s));
                    emit!(self, Event::StoodUp { unit: u });
                    for s in ended {
                        emit!(self, Event::StateEnded { unit: u, state: self.rules().states[s as usize].name.clone() });
                    }
                }
                Action::GoProne => {
                    if self.game.units[u].prone {
                        return Err(illegal("already prone"));
                    }
                    self.game.units[u].prone = true;
                    let s = self.rules().proc.prone_state;
                    self.add_state(u, s);
                    emit!(self, Event::WentProne { unit: u });
                }
                Action::TargetLock { target } => {
                    if target >= self.game.units.len()
                        || !self.game.units[target].on_table()
                        || self.game.units[target].side == self.game.units[u].side
                    {
                        return Err(illegal("not an enemy model on the table"));
                    }
                    self.hook(HookPoint::TargetLock, u, &mut Vec::new())?;
                    self.game.units[u].lock = Some(target);
                    emit!(self, Event::TargetLock { unit: u, target });
                }
                Action::Fire { target, weapons, indirect } => {
                    self.fire(u, target, &weapons, indirect, 0, ctrl).map_err(|r| match r {
                        FireError::Illegal(r) => illegal(&r),
                        FireError::Engine(e) => e,
                    })?;
                }
                Action::Salvo { target, weapons } => {
                    self.salvo(u, target, &weapons, ctrl).map_err(|r| match r {
                        FireError::Illegal(r) => illegal(&r),
                        FireError::Engine(e) => e,
                    })?;
                }
                Action::Pass => {}
                Action::Repair => {
                    if self.card_dc(u).is_none() {
                        return Err(illegal("the model has no damage-control value"));
                    }
                    self.repair(u)?;
                }
            }
            self.game.used.push(id);
            ap -= cost;
        }
        self.end_activation(u)
    }

    fn has_stand_up_state(&self, u: usize) -> bool {
        self.game.state_blocks(u, |s| s.duration == StateDuration::UntilStandUp)
    }

    fn card_dc(&self, u: usize) -> Option<i32> {
        self.cardr(u).dc[self.game.column(u)]
    }

    /// Sum the modifiers of a table and the attacker's declarative effects for one roll.
    fn modifiers(&self, table: &[Mod], target: ModifierTarget, s: &Situation, own: bool) -> Vec<ModApplied> {
        let g = &self.game;
        // Names cost an allocation each; without a log only the values matter.
        let logging = self.log.enabled();
        let name = |n: &str| if logging { n.to_owned() } else { String::new() };
        let r = self.rules();
        let mut out = Vec::new();
        let a = s.attacker;
        for m in table {
            let times = match self.cond_times(m.cond, s) {
                0 => continue,
                t => t,
            };
            if m.also.iter().any(|c| self.cond_times(*c, s) == 0) {
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
                if e.when.iter().all(|c| self.cond_times(*c, s) > 0) {
                    let v = if e.per_rating { e.value * rating } else { e.value } * r.sign;
                    out.push(ModApplied { source: name(&def.name), value: v });
                }
            }
        }
        // States: a table row naming the state takes precedence over its generic modifier.
        let named = |st: StateIx, attacker_side: bool| {
            table.iter().any(|m| match m.cond {
                Cond::AttackerState(x) => attacker_side && x == st,
                Cond::DefenderState(x) => !attacker_side && x == st,
                _ => false,
            })
        };
        if own {
            for (st, _) in &g.units[a].states {
                let def = &r.states[*st as usize];
                if def.own_roll_modifier != 0 && !named(*st, true) {
                    out.push(ModApplied { source: name(&def.name), value: def.own_roll_modifier });
                }
            }
        }
        if let Some(d) = s.defender {
            for (st, _) in &g.units[d].states {
                let def = &r.states[*st as usize];
                if def.attacker_modifier != 0 && !named(*st, false) {
                    out.push(ModApplied {
                        source: if logging { format!("target {}", def.name) } else { String::new() },
                        value: def.attacker_modifier,
                    });
                }
            }
        }
        if target == ModifierTarget::CombatRoll && g.units[a].crit_combat != 0 {
            out.push(ModApplied { source: name("critical damage"), value: g.units[a].crit_combat });
        }
        out
    }

    /// How many times a condition holds (0 = not; the SA rating for SA conditions).
    fn cond_times(&self, c: Cond, s: &Situation) -> i32 {
        let g = &self.game;
        let a = &g.units[s.attacker];
        let b = |x: bool| i32::from(x);
        match c {
            Cond::Always => 1,
            Cond::PointBlank => b(self.rules().point_blank.is_some_and(|pb| s.distance <= pb) && s.defender.is_some()),
            Cond::LightCover => b(s.cover == Some(Cover::Light)),
            Cond::HeavyCover => b(s.cover == Some(Cover::Heavy)),
            Cond::SalvoFire => b(s.salvo_extra > 0),
            Cond::ConsecutiveAttempt => b(s.attempts > 0),
            Cond::LosToStrikePoint => b(s.los_to_point),
            Cond::Band(i) => b(s.band == Some(usize::from(i))),
            Cond::PrimaryRoll => b(s.primary),
            Cond::TargetLocked => b(s.defender.is_some() && a.lock == s.defender),
            Cond::QuadCav => b(g.card(s.attacker).model_type == ModelType::QuadCav),
            Cond::AttackerState(st) => b(a.has_state(st)),
            Cond::DefenderState(st) => b(s.defender.is_some_and(|d| g.units[d].has_state(st))),
            Cond::AttackerSa(sa) => {
                let card = g.card(s.attacker);
                let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
                card.sas.iter().chain(weapon_sas).find(|(x, _)| *x == sa).map_or(0, |(_, r)| (*r).max(1))
            }
            Cond::DefenderSa(sa) => {
                s.defender.map_or(0, |d| g.card(d).sas.iter().find(|(x, _)| *x == sa).map_or(0, |(_, r)| (*r).max(1)))
            }
            Cond::RunNGun => b(s.weapons_fired > 0),
            Cond::DefensiveFire => b(s.defensive),
            Cond::CloseCombatSupport => s.supporters,
            Cond::FailedBreak => b(s.failed_break),
            Cond::FriendsInContact | Cond::EnemiesInContact => 0, // wired with the break action
            Cond::MultipleTargets | Cond::Unsupported => 0,
        }
    }

    /// Roll `expr`, add modifiers, compare with a target point.
    #[allow(clippy::too_many_arguments)]
    fn roll(
        &mut self,
        unit: usize,
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
        let total = sum + mods.iter().map(|m| m.value).sum::<i32>();
        let success = target.map(|t| !fumble && (total >= t || (ten_plus && nat >= r.proc.ten_plus_natural)));
        let margin = target.map(|t| total - t);
        emit!(
            self,
            Event::Roll(Roll {
                unit,
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

    fn ten_plus(&self, k: RollKind) -> bool {
        self.rules().proc.ten_plus_rolls.contains(&k)
    }
}

enum FireError {
    Illegal(String),
    Engine(EngineError),
}

#[derive(Debug, Clone, Copy)]
struct RollOut {
    total: i32,
    success: bool,
    margin: i32,
    fumble: bool,
    crit: bool,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
