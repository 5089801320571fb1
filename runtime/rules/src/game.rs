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
        let target = &self.units[d];
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

    /// Cost in MV per inch and the ground level at a step of a move, or `None` where the model
    /// may not go (prohibited terrain touched at the step's end).
    fn step_cost(&self, u: usize, mid: P, next: P, step: f64) -> Option<(u32, i32, u32)> {
        let g = &self.game;
        let radius = g.card(u).base_radius;
        let mc = g.card(u).move_class;
        let (mut highest, mut count) = (0u32, 0u32);
        for a in &g.board.areas {
            if a.center.dist(next) > a.radius + radius + step {
                continue; // far away: no polygon test needed
            }
            let t = &g.rules.terrains[a.terrain];
            if t.costs[mc] == Cost::No && a.poly.distance(next) <= radius {
                return None;
            }
            // Terrain counts once any part of the base touches it (sampled mid-step).
            if a.poly.distance(mid) <= radius {
                let c = match t.costs[mc] {
                    Cost::PerInch(c) => c,
                    Cost::RoadBonus | Cost::No => 1,
                };
                highest = highest.max(c);
                count += 1;
            }
        }
        // Combined terrain: the highest cost plus 1 for each further type.
        let per_inch = if count == 0 { 1 } else { highest + count - 1 };
        let ground = g.ground(next);
        let climb = g
            .board
            .areas
            .iter()
            .filter(|a| {
                g.rules.terrains[a.terrain].raises_ground && a.center.dist(next) <= a.radius && a.poly.contains(next)
            })
            .map(|a| match g.rules.terrains[a.terrain].climb[mc] {
                Cost::PerInch(c) => c,
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        Some((per_inch, ground, climb))
    }

    /// One move action (or the moving part of a run 'n gun / break, with `budget` MV): straight
    /// towards `to`, turning first, paying terrain costs, stopping at base contact, and giving
    /// enemies on over-watch the chance to stop it and fire.
    fn do_move(&mut self, u: usize, to: P, budget: Option<u32>, ctrl: &mut dyn Controller) -> Result<(), String> {
        self.do_move_mode(u, to, budget, false, ctrl)
    }

    fn do_move_mode(
        &mut self,
        u: usize,
        to: P,
        budget: Option<u32>,
        reverse: bool,
        ctrl: &mut dyn Controller,
    ) -> Result<(), String> {
        let g = &self.game;
        let unit = &g.units[u];
        if unit.prone || self.has_stand_up_state(u) {
            return Err("the model must stand up first".into());
        }
        let mv = budget.unwrap_or_else(|| g.move_value(u));
        if mv == 0 && !unit.mission_kill {
            return Err("the model cannot move".into());
        }
        // Suppressed models may not close on any enemy.
        if g.state_blocks(u, |s| s.no_advance) {
            let closer = g.enemies(u).any(|e| to.dist(g.units[e].pos) < unit.pos.dist(g.units[e].pos) - 1e-9);
            if closer {
                return Err("a suppressed model may not move closer to an enemy".into());
            }
        }
        let from = unit.pos;
        let travel = if to.dist(from) > 1e-9 { from.bearing(to) } else { unit.facing };
        if reverse && angle_diff(unit.facing, travel).abs() < 90.0 {
            return Err("moving backwards needs a point behind the model".into());
        }
        // Backwards the model keeps its facing; forwards it turns to the direction of travel.
        let heading = if reverse { unit.facing } else { travel };
        let turn = angle_diff(unit.facing, heading).abs();
        let p = &self.rules().proc;
        let extra_turns = if turn <= p.free_turn_degrees + 1e-9 {
            0
        } else {
            ((turn - p.free_turn_degrees) / p.free_turn_degrees).ceil() as u32
        };
        let spent = extra_turns * p.extra_turn_cost;
        let radius = g.card(u).base_radius;
        let dir = P::heading(travel);
        let total = from.dist(to);
        let step: f64 = 0.5;
        // A move that stays on a road the whole way ignores the terrain the road crosses.
        let mc = g.card(u).move_class;
        let road_cost = |a: &Area| match g.rules.terrains[a.terrain].costs[mc] {
            Cost::PerInch(c) => Some((c, false)),
            Cost::RoadBonus => Some((1, true)),
            Cost::No => None,
        };
        let on_road = |p: P| {
            g.board
                .areas
                .iter()
                .find(|a| {
                    g.rules.terrains[a.terrain].road
                        && a.center.dist(p) <= a.radius + radius
                        && a.poly.distance(p) <= radius
                })
                .and_then(road_cost)
        };
        let samples = (total / step).ceil().max(1.0) as usize;
        let road = (0..samples)
            .map(|k| on_road(from + dir.scale((k as f64 + 0.5) * step).scale(1.0)))
            .collect::<Option<Vec<_>>>();
        let road = road.filter(|_| total > 0.0).and_then(|r| r.first().copied());
        let road_bonus = u32::from(road.is_some_and(|(_, bonus)| bonus));
        let (mut moved, mut inch_cost) = (0.0, 0.0f64);
        let mut ground = g.ground(from);
        let retreating = unit.mission_kill;
        self.game.units[u].facing = heading;
        while moved + 1e-9 < total {
            let g = &self.game;
            let d = step.min(total - moved);
            let mut next = from + dir.scale(moved + d);
            let mid = from + dir.scale(moved + d / 2.0);
            let Some((mut per_inch, new_ground, climb)) = self.step_cost(u, mid, next, step) else { break };
            if let Some((c, _)) = road {
                per_inch = c;
            }
            if reverse {
                match self.reverse_extra(u, mid) {
                    Some(x) => per_inch += x,
                    None => break,
                }
            }
            let climb = if new_ground > ground { climb * (new_ground - ground) as u32 } else { 0 };
            let mut step_cost = per_inch as f64 * d + climb as f64;
            let budget_now = budget.unwrap_or_else(|| g.move_value(u)) + road_bonus;
            let may_exceed = moved + d <= p.minimum_move + 1e-9 && extra_turns == 0;
            if spent as f64 + inch_cost + step_cost > budget_now as f64 + 1e-9 && !may_exceed {
                break;
            }
            // Stay on the board (a retreating model may leave it).
            let inside = next.x >= 0.0 && next.y >= 0.0 && next.x <= g.board.size[0] && next.y <= g.board.size[1];
            if !inside && !retreating {
                break;
            }
            // Stop at base contact: find the exact touching point along this step.
            let mut contact = false;
            if let Some(o) = (0..g.units.len()).find(|&i| {
                i != u && g.units[i].on_table() && g.units[i].pos.dist(next) < radius + g.card(i).base_radius
            }) {
                let want = radius + g.card(o).base_radius;
                let (mut lo, mut hi) = (moved, moved + d);
                for _ in 0..30 {
                    let m = (lo + hi) / 2.0;
                    if (from + dir.scale(m)).dist(g.units[o].pos) < want { hi = m } else { lo = m }
                }
                next = from + dir.scale(lo);
                step_cost *= (lo - moved) / d;
                contact = true;
            }
            ground = new_ground;
            inch_cost += step_cost;
            moved = if contact { moved + (next.dist(from) - moved).max(0.0) } else { moved + d };
            self.game.units[u].pos = next;
            if contact {
                break;
            }
            // Over-watch: an enemy holding its fire may stop the move here and shoot.
            if self.overwatch_check(u, ctrl).map_err(|e| e.to_string())? && !self.game.units[u].on_table() {
                break;
            }
        }
        let spent = spent + inch_cost.ceil() as u32;
        let pos = self.game.units[u].pos;
        let states = &self.game.rules.states;
        self.game.units[u].states.retain(|(s, _)| states[*s as usize].duration != StateDuration::UntilMoves);
        emit!(self, Event::Moved { unit: u, from, to: pos, mv_spent: spent.min(mv.max(1)), facing: heading });
        let b = self.game.board.size;
        if retreating && (pos.x < 0.0 || pos.y < 0.0 || pos.x > b[0] || pos.y > b[1]) {
            self.game.units[u].left_board = true;
            emit!(self, Event::LeftBoard { unit: u });
        }
        Ok(())
    }

    /// Extra MV per inch for moving backwards at a point; `None` where backwards is not allowed.
    fn reverse_extra(&self, u: usize, p: P) -> Option<u32> {
        let g = &self.game;
        let radius = g.card(u).base_radius;
        let pr = &g.rules.proc;
        let touched: Vec<usize> =
            g.board.areas.iter().filter(|a| a.poly.distance(p) <= radius).map(|a| a.terrain).collect();
        if touched.is_empty() {
            return pr.reverse_open;
        }
        touched
            .iter()
            .map(|t| pr.reverse_cost.get(t).copied().or(pr.reverse_other))
            .collect::<Option<Vec<u32>>>()?
            .into_iter()
            .max()
    }

    /// Enemies on over-watch that now see the mover may fire; their damage applies at once.
    fn overwatch_check(&mut self, mover: usize, ctrl: &mut dyn Controller) -> Result<bool, EngineError> {
        let side = self.game.units[mover].side;
        let mut fired = false;
        for w in 0..self.game.units.len() {
            let watcher = &self.game.units[w];
            if watcher.side == side || !watcher.overwatch || !watcher.on_table() || !self.game.units[mover].on_table() {
                continue;
            }
            let n = self.game.card(w).weapons.len();
            let can = (0..n).any(|k| matches!(self.game.shot(w, k, mover, false), Shot::Direct { .. }));
            if !can {
                continue;
            }
            let Some(weapons) = ctrl.overwatch_fire(&self.game, w, mover) else { continue };
            self.game.units[w].overwatch = false;
            self.game.units[w].fired_this_turn = true;
            emit!(self, Event::OverwatchFire { unit: w, target: mover });
            for k in weapons {
                if let Shot::Direct { band, distance } = self.game.shot(w, k, mover, false) {
                    for _ in 0..self.cardr(w).weapons[k].quantity {
                        if self.game.units[mover].on_table() && !self.game.units[w].out_of_ammo[k] {
                            self.attack_roll(w, k, mover, band, distance, 0, 0, false)?;
                        }
                    }
                }
            }
            self.resolve_pending(mover)?;
            fired = true;
        }
        Ok(fired)
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
                ModifierScale::PerRating => m.value * times,
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

    fn fire(
        &mut self,
        a: usize,
        d: usize,
        weapons: &[usize],
        indirect: bool,
        run_n_gun: i32,
        ctrl: &mut dyn Controller,
    ) -> Result<(), FireError> {
        if d >= self.game.units.len() || self.game.units[d].side == self.game.units[a].side {
            return Err(FireError::Illegal("the target is not an enemy model".into()));
        }
        if weapons.is_empty() {
            return Err(FireError::Illegal("no weapons declared".into()));
        }
        let mut shots = Vec::new();
        for &w in weapons {
            let shot = match self.game.shot(a, w, d, indirect) {
                Shot::No(reason) => Err(reason),
                s => match self
                    .hook_with(HookPoint::AttackDeclare, a, Some(d), Some(w), &mut Vec::new())
                    .map_err(FireError::Engine)?
                {
                    Some(reason) => Err(reason),
                    None => Ok(s),
                },
            };
            match shot {
                Err(reason) => {
                    let weapon = self.cardr(a).weapons.get(w).map(|m| m.name.clone()).unwrap_or_default();
                    emit!(self, Event::NoAttack { unit: a, target: d, weapon, reason });
                }
                Ok(s) => shots.push((w, s)),
            }
        }
        let answer = if shots.is_empty() { None } else { self.declare_defensive_fire(a, d, ctrl) };
        if indirect {
            // One strike-point roll for the whole assault, at the range of the first weapon.
            let Some(&(first, Shot::Indirect { band, distance })) = shots.first() else { return Ok(()) };
            let target_pos = self.game.units[d].pos;
            let point = self.strike_point(a, d, first, band, distance, target_pos, ctrl).map_err(FireError::Engine)?;
            for (w, _) in shots {
                self.area_attack(a, w, point, Some(d)).map_err(FireError::Engine)?;
            }
            return self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine);
        }
        for (w, shot) in shots {
            if !self.game.units[d].on_table() {
                break;
            }
            let Shot::Direct { band, distance } = shot else { continue };
            let m = &self.cardr(a).weapons[w];
            let quantity = m.quantity;
            for _ in 0..quantity {
                if !self.game.units[d].on_table() || self.game.units[a].out_of_ammo[w] {
                    break;
                }
                self.attack_roll(a, w, d, band, distance, 0, run_n_gun, false).map_err(FireError::Engine)?;
            }
        }
        self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine)
    }

    /// A model attacked before its own activation this turn may declare defensive fire.
    fn declare_defensive_fire(&mut self, a: usize, d: usize, ctrl: &mut dyn Controller) -> Option<Vec<usize>> {
        let max = self.rules().proc.defensive_fire_max_band?;
        let def = &self.game.units[d];
        if def.activated || def.fired_this_turn || !def.on_table() || def.prone || !self.game.can_fight(d) {
            return None;
        }
        let n = self.cardr(d).weapons.len();
        let possible =
            (0..n).any(|k| matches!(self.game.shot(d, k, a, false), Shot::Direct { band, .. } if band <= max));
        if !possible {
            return None;
        }
        let weapons = ctrl.defensive_fire(&self.game, d, a)?;
        self.game.units[d].fired_this_turn = true;
        emit!(self, Event::DefensiveFire { unit: d, target: a });
        Some(weapons)
    }

    /// Defensive fire resolves after the attacker's assaults, with the defender's pre-damage values.
    fn resolve_defensive_fire(&mut self, a: usize, d: usize, weapons: Option<Vec<usize>>) -> Result<(), EngineError> {
        let Some(weapons) = weapons else { return Ok(()) };
        let max = self.rules().proc.defensive_fire_max_band.unwrap_or(0);
        for k in weapons {
            let Shot::Direct { band, distance } = self.game.shot(d, k, a, false) else { continue };
            if band > max {
                continue;
            }
            for _ in 0..self.cardr(d).weapons[k].quantity {
                if self.game.units[a].on_table() && !self.game.units[d].out_of_ammo[k] {
                    self.attack_roll(d, k, a, band, distance, 0, 0, true)?;
                }
            }
        }
        Ok(())
    }

    /// Close combat: an opposed roll of 2d6 + CCV each; the winner's margin is read on the
    /// close-combat damage table (a tie hurts both).
    fn close_combat(&mut self, a: usize, d: usize) -> Result<(), FireError> {
        let r = self.rules();
        let Some(table) = r.close_combat_damage.as_ref() else {
            return Err(FireError::Illegal("this ruleset has no close combat".into()));
        };
        if d >= self.game.units.len()
            || self.game.units[d].side == self.game.units[a].side
            || !self.game.units[d].on_table()
        {
            return Err(FireError::Illegal("the target is not an enemy model".into()));
        }
        let contact = r.proc.contact_distance;
        if self.game.distance(a, d) > contact {
            return Err(FireError::Illegal("close combat needs base-to-base contact".into()));
        }
        let supporters = (0..self.game.units.len())
            .filter(|&i| {
                i != a
                    && self.game.units[i].side == self.game.units[a].side
                    && self.game.units[i].on_table()
                    && self.game.distance(i, d) <= contact
            })
            .count() as i32;
        let supporters = supporters.min(r.proc.close_combat_max_attackers.map_or(i32::MAX, |m| m as i32 - 1));
        emit!(self, Event::CloseCombat { unit: a, target: d, supporters: supporters as u32 });
        let ccv = |g: &Game, x: usize, y: usize| {
            let (h, s) = g.card(x).ccv[g.column(x)];
            let yc = g.card(y);
            let v = if yc.soft && !yc.hard { s } else { h };
            if g.units[x].zeroed { 0 } else { v.map_or(0, i32::from) }
        };
        let roll_for = |this: &mut Self, x: usize, y: usize, sup: i32| {
            let s = Situation {
                attacker: x,
                defender: Some(y),
                supporters: sup,
                failed_break: this.game.units[x].failed_break,
                ..Situation::default()
            };
            let mut mods = this.modifiers(&r.close_combat_mods, ModifierTarget::CombatRoll, &s, true);
            mods.insert(0, ModApplied { source: "close-combat value".into(), value: ccv(&this.game, x, y) });
            this.roll(x, "close-combat", r.standard, mods, None, Some(r.critical_success), false)
        };
        let ra = roll_for(self, a, d, supporters);
        let rd = roll_for(self, d, a, 0);
        // A critical fumble hands the opponent an extra die.
        let bonus = |this: &mut Self, who: usize| {
            let Some(b) = r.critical_bonus else { return 0 };
            let (faces, v) = b.roll(this.dice);
            emit!(
                this,
                Event::Roll(Roll {
                    unit: who,
                    kind: "fumble-bonus",
                    dice: b.to_string(),
                    natural: faces,
                    mods: vec![],
                    total: v,
                    target: None,
                    margin: None,
                    success: None,
                    critical: None
                })
            );
            v
        };
        let ta = ra.total + if rd.fumble { bonus(self, a) } else { 0 };
        let td = rd.total + if ra.fumble { bonus(self, d) } else { 0 };
        self.game.units[a].engaged = true;
        self.game.units[d].engaged = true;
        let (winner, loser, margin) = if ta >= td { (a, d, ta - td) } else { (d, a, td - ta) };
        let Some(row) = table.row(margin).cloned() else { return Ok(()) };
        let tie = ta == td;
        emit!(self, Event::DamageResult { target: loser, row: row.name.clone(), damage: row.damage + row.damage_both });
        if tie && row.damage_both > 0 {
            self.game.units[a].pending.damage += row.damage_both;
            self.game.units[d].pending.damage += row.damage_both;
        } else {
            self.game.damage_dealt[self.game.units[winner].side] += row.damage;
            let p = &mut self.game.units[loser].pending;
            p.damage += row.damage;
            if let Some(pc) = row.pilot_check {
                p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
            }
            p.states.extend(row.states.iter().copied());
            if row.critical {
                p.criticals += 1;
            }
        }
        Ok(())
    }

    /// Break: a 10+ roll with the CCV, +1 per friend and −1 per enemy still in contact; success
    /// moves the model away with part of its MV, failure leaves it in place (−1 in close combat).
    fn break_away(&mut self, u: usize, to: P, ctrl: &mut dyn Controller) -> Result<(), FireError> {
        let r = self.rules();
        let Some(tp) = r.proc.break_tp else {
            return Err(FireError::Illegal("this ruleset has no break action".into()));
        };
        let contact = r.proc.contact_distance;
        let side = self.game.units[u].side;
        let touching: Vec<usize> = (0..self.game.units.len())
            .filter(|&i| i != u && self.game.units[i].on_table() && self.game.distance(i, u) <= contact)
            .collect();
        let enemies: Vec<usize> = touching.iter().copied().filter(|&i| self.game.units[i].side != side).collect();
        let friends = touching.len() - enemies.len();
        let ccv = enemies.first().map_or(0, |&e| {
            let (h, s) = self.cardr(u).ccv[self.game.column(u)];
            let ec = self.cardr(e);
            (if ec.soft && !ec.hard { s } else { h }).map_or(0, i32::from)
        });
        let s = Situation { attacker: u, ..Situation::default() };
        let mut mods = self.modifiers(&[], ModifierTarget::CombatRoll, &s, true);
        mods.insert(0, ModApplied { source: "close-combat value".into(), value: ccv });
        if friends > 0 {
            mods.push(ModApplied { source: "friendly models in contact".into(), value: friends as i32 });
        }
        if !enemies.is_empty() {
            mods.push(ModApplied { source: "enemy models in contact".into(), value: -(enemies.len() as i32) });
        }
        let out = self.roll(u, "break", r.standard, mods, Some(tp), None, self.ten_plus(RollKind::BreakRoll));
        if !out.success {
            self.game.units[u].failed_break = true;
            return Ok(());
        }
        self.game.units[u].engaged = false;
        let budget = (f64::from(self.game.move_value(u)) * r.proc.break_move_factor).floor() as u32;
        self.do_move(u, to, Some(budget.max(1)), ctrl).map_err(FireError::Illegal)?;
        // Enemies left alone are no longer held either.
        for e in enemies {
            let still = (0..self.game.units.len()).any(|i| {
                self.game.units[i].side != self.game.units[e].side
                    && self.game.units[i].on_table()
                    && self.game.distance(i, e) <= contact
            });
            if !still {
                self.game.units[e].engaged = false;
            }
        }
        Ok(())
    }

    /// Several weapons of the same type fire as one combat roll, +1 per weapon beyond the first
    /// (through the ruleset's `salvo-fire` modifier).
    fn salvo(&mut self, a: usize, d: usize, weapons: &[usize], ctrl: &mut dyn Controller) -> Result<(), FireError> {
        let card = self.cardr(a);
        let Some(&first) = weapons.first() else { return Err(FireError::Illegal("no weapons declared".into())) };
        if weapons.iter().any(|&w| card.weapons.get(w).is_none_or(|m| m.weapon != card.weapons[first].weapon)) {
            return Err(FireError::Illegal("a salvo uses weapons of one type only".into()));
        }
        let count: u32 = weapons.iter().map(|&w| card.weapons[w].quantity).sum();
        if count < 2 {
            return Err(FireError::Illegal("a salvo needs at least two weapons".into()));
        }
        let Shot::Direct { band, distance } = self.game.shot(a, first, d, false) else {
            return Err(FireError::Illegal("the salvo's weapons cannot fire at that target directly".into()));
        };
        let answer = self.declare_defensive_fire(a, d, ctrl);
        self.attack_roll(a, first, d, band, distance, count as i32 - 1, 0, false).map_err(FireError::Engine)?;
        self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine)
    }

    #[allow(clippy::too_many_arguments)]
    fn attack_roll(
        &mut self,
        a: usize,
        w: usize,
        d: usize,
        band: usize,
        distance: f64,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(a).weapons[w];
        let (_, cover) = self.game.sight(a, d, m.requires_target_lock);
        emit!(
            self,
            Event::Attack {
                unit: a,
                target: d,
                weapon: m.name.clone(),
                mode: "direct",
                distance: round2(distance),
                band: Some(r.bands[band].name.clone())
            }
        );
        let s = Situation {
            attacker: a,
            defender: Some(d),
            weapon: Some(w),
            band: Some(band),
            distance,
            cover: Some(cover),
            primary: true,
            salvo_extra,
            weapons_fired,
            defensive,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.combat_mods, ModifierTarget::CombatRoll, &s, true);
        self.hook_with(HookPoint::CombatTp, a, Some(d), Some(w), &mut mods)?;
        if defensive {
            mods.retain(|m| m.value <= 0); // defensive fire takes no bonuses (000 L819)
        }
        let crit_at = (r.critical_success as i32 + m.crit_shift).max(2) as u32;
        let tp = r.bands[band].combat_tp;
        let out = self.roll(a, "combat", r.standard, mods, Some(tp), Some(crit_at), false);
        self.state_test(a, w, d)?;
        if out.fumble {
            self.out_of_ammo(a, w)?;
            return Ok(());
        }
        if out.success {
            self.hit(a, w, d, out.margin)?;
        }
        Ok(())
    }

    /// Shock and the like: the targeted model tests against the rating or gains a state.
    fn state_test(&mut self, a: usize, w: usize, d: usize) -> Result<(), EngineError> {
        let Some((tp, state)) = self.cardr(a).weapons[w].state_test else { return Ok(()) };
        if self.rules().shock_on_hit_only {
            return Ok(());
        }
        if self.rules().states[state as usize].immune.contains(&self.cardr(d).model_type) {
            return Ok(());
        }
        let s = Situation { attacker: d, ..Situation::default() };
        let mods = self.modifiers(&[], ModifierTarget::PilotCheck, &s, true);
        let out = self.roll(d, "state-test", self.rules().standard, mods, Some(tp), None, false);
        if !out.success {
            self.game.units[d].pending.states.push(state);
        }
        Ok(())
    }

    fn out_of_ammo(&mut self, a: usize, w: usize) -> Result<(), EngineError> {
        let on = self.cardr(a).weapons[w].out_of_ammo_on;
        if on == 0 {
            return Ok(());
        }
        let mut mods = Vec::new();
        self.hook(HookPoint::CritFumble, a, &mut mods)?;
        let die = self.rules().proc.out_of_ammo_die;
        let out = self.roll(a, "out-of-ammo", die, mods, None, None, false);
        if out.total <= on as i32 {
            let name = self.cardr(a).weapons[w].name.clone();
            let unit = &mut self.game.units[a];
            let saved = unit.ammo_reserve > 0;
            if saved {
                unit.ammo_reserve -= 1;
            } else {
                unit.out_of_ammo[w] = true;
            }
            emit!(self, Event::OutOfAmmo { unit: a, weapon: name, saved_by_reserve: saved });
        }
        Ok(())
    }

    /// A hit: margin + RAV against AV, then the damage table.
    fn hit(&mut self, a: usize, w: usize, d: usize, margin: i32) -> Result<(), EngineError> {
        self.hit_with(a, w, d, margin, 0)
    }

    fn hit_with(&mut self, a: usize, w: usize, d: usize, margin: i32, extra_rav: i32) -> Result<(), EngineError> {
        let r = self.rules();
        let reduce = self.cardr(d).damage_result;
        let mos = (margin - reduce).max(0);
        let rav = self.game.rav(a, w, d);
        let av = self.cardr(d).av[self.game.column(d)] as i32;
        let mut mods = Vec::new();
        self.hook_with(HookPoint::DamageCalc, a, Some(d), Some(w), &mut mods)?;
        let rav_total = rav + extra_rav + mods.iter().map(|m| m.value).sum::<i32>();
        let penetrated = mos + rav_total >= av;
        let weapon = self.cardr(a).weapons[w].name.clone();
        emit!(self, Event::Hit { unit: a, target: d, weapon, margin: mos, rav: rav_total, av, penetrated });
        if !penetrated {
            return Ok(());
        }
        let Some(row) = r.damage.row(mos).cloned() else { return Ok(()) };
        let mut factor = 1;
        if matches!(self.cardr(d).model_type, ModelType::Infantry | ModelType::PoweredInfantry) {
            let open = self
                .game
                .board
                .areas
                .iter()
                .filter(|x| x.poly.contains(self.game.units[d].pos))
                .all(|x| r.terrains[x.terrain].open);
            if open {
                factor = self.cardr(a).weapons[w].open_infantry_factor;
            }
        }
        self.hook(HookPoint::DamageTable, d, &mut Vec::new())?;
        let damage = (row.damage + row.damage_both) * factor;
        emit!(self, Event::DamageResult { target: d, row: row.name.clone(), damage });
        self.game.damage_dealt[self.game.units[a].side] += damage;
        let p = &mut self.game.units[d].pending;
        p.damage += damage;
        if row.damage_both > 0 {
            self.game.units[a].pending.damage += row.damage_both;
        }
        let p = &mut self.game.units[d].pending;
        if let Some(pc) = row.pilot_check {
            // One pilot check per activation, at the worst modifier called for.
            p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
        }
        p.states.extend(row.states.iter().copied());
        if row.critical && !r.no_ranged_critical {
            p.criticals += 1;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn strike_point(
        &mut self,
        a: usize,
        d: usize,
        w: usize,
        band: usize,
        distance: f64,
        aim: P,
        ctrl: &mut dyn Controller,
    ) -> Result<P, EngineError> {
        let r = self.rules();
        let attempts = match self.game.units[a].strike_memory {
            Some((p, n, hit)) if p.dist(aim) < 0.5 => {
                if hit {
                    emit!(self, Event::StrikePoint { unit: a, at: aim });
                    return Ok(aim); // a repeat at a point already hit needs no roll
                }
                n as i32
            }
            _ => 0,
        };
        let los = self.game.sight(a, d, false).0;
        let s = Situation {
            attacker: a,
            defender: Some(d),
            weapon: Some(w),
            band: Some(band),
            distance,
            primary: true,
            attempts,
            los_to_point: los,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.strike_point_mods, ModifierTarget::StrikePointRoll, &s, true);
        self.hook_with(HookPoint::StrikePoint, a, Some(d), Some(w), &mut mods)?;
        let tp = r.bands[band].strike_point_tp;
        let out =
            self.roll(a, "strike-point", r.standard, mods, Some(tp), None, self.ten_plus(RollKind::StrikePointRoll));
        self.game.units[a].strike_memory = Some((aim, attempts as u32 + 1, out.success));
        if out.success {
            emit!(self, Event::StrikePoint { unit: a, at: aim });
            return Ok(aim);
        }
        if out.fumble {
            self.out_of_ammo(a, w)?;
        }
        let mut from = aim;
        if out.fumble {
            // The defender moves the strike point within the attacker's front arc and range.
            let m = &self.cardr(a).weapons[w];
            let (min, max) = (m.min_range, m.range * r.bands.last().map_or(1.0, |b| b.multiplier));
            let ua = &self.game.units[a];
            let options: Vec<P> = (-2..=2)
                .flat_map(|k| {
                    let dir = P::heading(ua.facing + f64::from(k) * 20.0);
                    [min + 1.0, (min + max) / 2.0, max - 0.5].map(|dist| ua.pos + dir.scale(dist.max(0.5)))
                })
                .collect();
            let chosen = ctrl.relocate_strike_point(&self.game, a, d, &options).filter(|p| options.contains(p));
            if let Some(p) = chosen.or_else(|| self.relocate(d, &options)) {
                from = p;
            }
        }
        let (faces, dist) = r.drift.roll(self.dice);
        let face = faces.first().copied().unwrap_or(1);
        let inches = f64::from(dist) + f64::from(r.bands[band].drift_bonus);
        let mut mods = Vec::new();
        self.hook(HookPoint::Drift, a, &mut mods)?;
        let inches = (inches + f64::from(mods.iter().map(|m| m.value).sum::<i32>())).max(0.0);
        // The die's point gives the direction: the face's share of a full turn, clockwise from the
        // attacker's facing (a d10 showing 6 → 216°).
        let dir = P::heading(self.game.units[a].facing + f64::from(face) * 360.0 / f64::from(r.drift.sides));
        let to = from + dir.scale(inches);
        emit!(self, Event::Drift { unit: a, from, to, inches });
        Ok(to)
    }

    /// When the defender's controller has no preference: the option farthest from all of its
    /// side's models (a sensible, deterministic choice).
    fn relocate(&self, d: usize, options: &[P]) -> Option<P> {
        let side = self.game.units[d].side;
        let nearest_friend = |p: P| {
            self.game
                .units
                .iter()
                .filter(|u| u.side == side && u.on_table())
                .map(|u| u.pos.dist(p))
                .fold(f64::INFINITY, f64::min)
        };
        options.iter().copied().max_by(|x, y| nearest_friend(*x).total_cmp(&nearest_friend(*y)))
    }

    /// Secondary combat rolls against every model the weapon's area touches at `point`.
    fn area_attack(&mut self, a: usize, w: usize, point: P, aimed: Option<usize>) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(a).weapons[w];
        let max = m.range * r.bands.last().map_or(1.0, |b| b.multiplier);
        let from = self.game.units[a].pos;
        if point.dist(from) - self.cardr(a).base_radius > max {
            return Ok(()); // drifted beyond the weapon's reach
        }
        // The aimed model counts as the target only if the final point lies on its base.
        let aimed = aimed.filter(|&d| self.game.units[d].pos.dist(point) <= self.cardr(d).base_radius);
        let (radius, extra_rav) = self.hook_area(a, aimed, w, m.aoe)?;
        let name = m.name.clone();
        let victims: Vec<usize> = (0..self.game.units.len())
            .filter(|&i| {
                i != a
                    && self.game.units[i].on_table()
                    && self.game.units[i].pos.dist(point) <= radius + self.cardr(i).base_radius
            })
            .collect();
        for d in victims {
            if !self.game.units[d].on_table() {
                continue;
            }
            let dist = self.game.distance(a, d);
            emit!(
                self,
                Event::Attack {
                    unit: a,
                    target: d,
                    weapon: name.clone(),
                    mode: "secondary",
                    distance: round2(dist),
                    band: None
                }
            );
            let cover = self.standing_cover(d);
            let s = Situation {
                attacker: a,
                defender: Some(d),
                weapon: Some(w),
                distance: dist,
                cover: Some(cover),
                ..Situation::default()
            };
            let mut mods = self.modifiers(&r.indirect_mods, ModifierTarget::CombatRoll, &s, false);
            self.hook(HookPoint::CombatTp, a, &mut mods)?;
            let out = self.roll(
                a,
                "secondary-combat",
                r.standard,
                mods,
                Some(r.indirect_tp),
                Some(r.critical_success),
                false,
            );
            self.state_test(a, w, d)?;
            if out.success {
                self.hit_with(a, w, d, out.margin, extra_rav)?;
            }
        }
        Ok(())
    }

    /// Cover a model stands in or is next to (for secondary rolls).
    fn standing_cover(&self, d: usize) -> Cover {
        let g = &self.game;
        let p = g.units[d].pos;
        let reach = g.card(d).base_radius + self.rules().proc.adjacent_cover;
        g.board
            .areas
            .iter()
            .filter(|a| a.poly.distance(p) <= reach)
            .map(|a| self.rules().terrains[a.terrain].cover)
            .filter(|c| *c != Cover::Blocking)
            .max_by_key(|c| cover_rank(*c))
            .unwrap_or(Cover::None)
    }

    fn repair(&mut self, u: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let dc = self.card_dc(u).unwrap_or(0);
        let s = Situation { attacker: u, ..Situation::default() };
        let mut mods = self.modifiers(&[], ModifierTarget::RepairRoll, &s, true);
        mods.insert(0, ModApplied { source: "damage control".into(), value: dc });
        self.hook(HookPoint::Repair, u, &mut mods)?;
        let out = self.roll(
            u,
            "repair",
            r.standard,
            mods,
            Some(r.proc.repair_tp),
            Some(r.critical_success),
            self.ten_plus(RollKind::RepairRoll),
        );
        let lingering = r.proc.lingering_damage;
        if out.fumble {
            self.game.units[u].pending.damage += r.proc.repair_fumble_damage;
        } else if out.success {
            let want = if out.crit { r.proc.repair_critical } else { 1 };
            let unit = &mut self.game.units[u];
            let can = unit.damage.saturating_sub(lingering);
            let points = want.min(can);
            unit.damage -= points;
            let states = &r.states;
            unit.states.retain(|(s, _)| states[*s as usize].duration != StateDuration::UntilRepaired);
            let column = self.game.column(u);
            emit!(self, Event::Repaired { unit: u, points, column });
        }
        Ok(())
    }

    fn add_state(&mut self, u: usize, s: StateIx) {
        let r = self.rules();
        let def = &r.states[s as usize];
        let unit = &self.game.units[u];
        if def.immune.contains(&self.cardr(u).model_type) || !unit.on_table() {
            return;
        }
        // A state superseded by one the model has is not gained.
        if unit.states.iter().any(|(x, _)| r.states[*x as usize].supersedes.contains(&s)) {
            return;
        }
        let active_now = self.game.active == Some(u);
        let ends = match def.duration {
            StateDuration::NextActivation => unit.activations + 1 + u32::from(active_now),
            StateDuration::Activations => unit.activations + def.activations + u32::from(active_now),
            _ => u32::MAX,
        };
        let unit = &mut self.game.units[u];
        if let Some(slot) = unit.states.iter_mut().find(|(x, _)| *x == s) {
            slot.1 = slot.1.max(ends); // the same state does not stack
            return;
        }
        unit.states.retain(|(x, _)| !def.supersedes.contains(x));
        unit.states.push((s, ends));
        emit!(self, Event::StateGained { unit: u, state: def.name.clone() });
    }

    /// Damage, pilot checks, states and criticals land at the end of the activation.
    fn end_activation(&mut self, active: usize) -> Result<(), EngineError> {
        let r = self.rules();
        for u in 0..self.game.units.len() {
            self.resolve_pending(u)?;
        }
        // States bounded by activations end with this one.
        let unit = &mut self.game.units[active];
        unit.activations += 1;
        let n = unit.activations;
        let ended: Vec<StateIx> = unit.states.iter().filter(|(_, e)| *e <= n).map(|(s, _)| *s).collect();
        unit.states.retain(|(_, e)| *e > n);
        for s in ended {
            emit!(self, Event::StateEnded { unit: active, state: r.states[s as usize].name.clone() });
        }
        self.mission_kills();
        emit!(self, Event::ActivationEnd { unit: active });
        self.game.active = None;
        Ok(())
    }

    /// Apply what waits for a model: damage, then one pilot check, states and criticals.
    fn resolve_pending(&mut self, u: usize) -> Result<(), EngineError> {
        let p = std::mem::take(&mut self.game.units[u].pending);
        if !self.game.units[u].on_table() {
            return Ok(());
        }
        if p.damage > 0 {
            self.apply_damage(u, p.damage);
        }
        if !self.game.units[u].on_table() {
            return Ok(());
        }
        if let Some(pc) = p.pilot_check
            && matches!(self.cardr(u).model_type, ModelType::Cav | ModelType::QuadCav)
        {
            self.pilot_check(u, pc)?;
        }
        for s in p.states {
            self.add_state(u, s);
        }
        for _ in 0..p.criticals {
            if self.game.units[u].on_table() {
                self.critical(u)?;
            }
        }
        Ok(())
    }

    fn apply_damage(&mut self, u: usize, points: u32) {
        let columns = self.cardr(u).columns as u32;
        let unit = &mut self.game.units[u];
        unit.damage += points;
        let total = unit.damage;
        let column = (total as usize).min(columns as usize - 1);
        emit!(self, Event::DamageApplied { unit: u, points, column, total });
        if total >= columns {
            self.destroy(u);
        }
    }

    fn destroy(&mut self, u: usize) {
        let unit = &mut self.game.units[u];
        unit.destroyed = true;
        let (pos, radius) = (unit.pos, self.cardr(u).base_radius.max(0.5));
        emit!(self, Event::Destroyed { unit: u });
        if !matches!(self.cardr(u).model_type, ModelType::Infantry | ModelType::PoweredInfantry) {
            let wreck = self.rules().proc.wreck_terrain;
            self.game.board.areas.push(Area {
                terrain: wreck,
                poly: Polygon::regular(pos, radius, 6),
                center: pos,
                radius,
            });
        }
    }

    fn pilot_check(&mut self, u: usize, modifier: i32) -> Result<(), EngineError> {
        let r = self.rules();
        // The ruleset's fixed target point, else the card's experience value; neither = no check.
        let Some(tp) = r.proc.pilot_check_tp.or_else(|| self.cardr(u).exp[self.game.column(u)].map(|e| e as i32))
        else {
            return Ok(());
        };
        let s = Situation { attacker: u, ..Situation::default() };
        let mut mods = self.modifiers(&r.pilot_mods, ModifierTarget::PilotCheck, &s, true);
        if modifier != 0 {
            mods.insert(0, ModApplied { source: "damage table".into(), value: modifier });
        }
        self.hook(HookPoint::PilotCheck, u, &mut mods)?;
        let out = self.roll(u, "pilot-check", r.standard, mods, Some(tp), None, false);
        if !out.success {
            self.add_state(u, r.proc.pilot_fail_state);
            if out.fumble {
                self.apply_damage(u, r.proc.pilot_fumble_damage);
            }
        }
        Ok(())
    }

    fn critical(&mut self, u: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let expr = r.critical.dice.unwrap_or(r.standard);
        let out = self.roll(u, "critical", expr, Vec::new(), None, None, false);
        let Some(row) = r.critical.row(out.total).cloned() else { return Ok(()) };
        emit!(self, Event::Critical { unit: u, result: row.name.clone() });
        let unit = &mut self.game.units[u];
        unit.crit_ap += row.action_points;
        if let Some(set) = row.action_points_set {
            unit.ap_set = Some(set);
        }
        unit.mv_add += row.move_value;
        if let Some(f) = row.move_factor {
            unit.mv_factor *= f;
        }
        unit.crit_combat += row.combat_modifier;
        unit.no_combat |= row.no_combat;
        unit.zeroed |= row.weapons_zeroed;
        for s in row.states {
            self.add_state(u, s);
        }
        if row.destroyed {
            self.destroy(u);
        }
        Ok(())
    }

    /// A model that can no longer fight is a mission kill and must leave the table.
    fn mission_kills(&mut self) {
        for u in 0..self.game.units.len() {
            let unit = &self.game.units[u];
            if !unit.on_table() || unit.mission_kill {
                continue;
            }
            let card = self.cardr(u);
            let armed =
                card.weapons.iter().enumerate().any(|(w, _)| !unit.out_of_ammo[w]) && !unit.zeroed && !unit.no_combat;
            let disabled = self.game.state_blocks(u, |s| s.no_actions && s.duration == StateDuration::Permanent);
            if !armed || disabled {
                self.game.units[u].mission_kill = true;
                let reason = if disabled { "disabled" } else { "no usable weapon" };
                emit!(self, Event::MissionKill { unit: u, reason: reason.into() });
            }
        }
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
