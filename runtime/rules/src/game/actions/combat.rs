//! The Combat action (001 L3833-3875): the listed weapon mounts attack one target, directly or
//! (`indirect`) at its strike point; and defensive fire, the answer of a model attacked before
//! it activated. The attack procedures (rolls, hits, strike points, areas) are `game/combat.rs`.

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{HookPoint, ModelTrait, Quantity};

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::shot::OUT_OF_RANGE;
use crate::game::{Arc, Controller, Engine, EngineError, Game, Lasts, Mark, Shot};
use crate::hooks::HookCtx;

mod counter_battery;

/// The model used defensive or over-watch fire this turn: no combat action until the next turn.
pub static FIRED_OUT_OF_TURN: Mark = Mark { name: "fired-out-of-turn", lasts: Lasts::Turn };
/// The model made a combat action this turn (no counter-battery answer after one).
pub static MADE_COMBAT_ACTION: Mark = Mark { name: "made-combat-action", lasts: Lasts::Turn };
/// The rider fired through one of its transport's gun ports this turn.
pub static FIRED_FROM_PORT: Mark = Mark { name: "fired-from-port", lasts: Lasts::Turn };
/// Risen over low terrain for a snapshot (Pop-Up): the terrain gives it no cover until its next
/// action, when it has dropped back down.
pub static POPPED_UP: Mark = Mark { name: "popped-up", lasts: Lasts::NextAction };

/// Whether `model` rides in a transport with a gun port no other rider has fired through this
/// turn (Gun Port, 001 L7520-7530): infantry only.
pub(crate) fn port_free(game: &Game, model: usize) -> bool {
    let Some(t) = game.models[model].features.transport.aboard else { return false };
    let ports = game.card(t).gun_ports;
    let used = (0..game.models.len())
        .filter(|&m| game.models[m].features.transport.aboard == Some(t) && game.models[m].has(&FIRED_FROM_PORT))
        .count() as u32;
    ports > used && game.rules.has_trait(game.card(model).model_type, ModelTrait::Infantry)
}

/// One declaration is direct or indirect fire (001 L3845-3846): a weapon that cannot fire the
/// declared way makes the declaration impossible, not a shot that quietly does not happen.
pub(crate) fn one_fire_mode(game: &Game, model: usize, action: &Action) -> Result<(), String> {
    let card = game.card(model);
    for &w in action.weapons.iter().chain(action.split.iter().flat_map(|(_, w)| w)) {
        let Some(m) = card.weapons.get(w) else { continue };
        if m.strike.is_some() || m.dropped.is_some() {
            continue; // refused at the attack with its own reason
        }
        if action.indirect && !game.fires_indirect(model, w) {
            return Err(format!("{} cannot fire indirectly: a declaration fires direct or indirect, not both", m.name));
        }
        if !action.indirect && m.indirect {
            return Err(format!("{} fires only indirectly: a declaration fires direct or indirect, not both", m.name));
        }
    }
    Ok(())
}

/// The shots a target's declared weapon mounts have: (weapon mount, shot).
type Shots = Vec<(usize, Shot)>;

/// A combat action declared, its rolls next: what `Engine::fire_rolls` needs of the
/// declaration (kept by a checkpoint, `game/resume.rs`).
#[derive(Debug, Clone)]
pub(crate) struct Declared {
    pub attacker: usize,
    indirect: bool,
    run_n_gun: i32,
    /// Split fire: the band every attack rolls at (`farthest_band`).
    farthest: Option<usize>,
    /// Each target's shots, and the band all of them roll at (`common_band`).
    groups: Vec<(usize, Shots, Option<usize>)>,
    /// Each target's defensive fire, if it declared some.
    answers: Vec<(usize, Option<Vec<usize>>)>,
}

/// How a declared combat action's first direct-fire roll is aimed (`game/resume.rs`).
#[derive(Debug)]
pub(crate) enum FirstRoll {
    /// As every roll is.
    Aim,
    /// As every roll is, and the checkpoint kept at the declaration is moved to the aimed shot.
    Keep,
    /// Already: a run resumed from a checkpoint kept there.
    Aimed(Box<crate::game::combat::Aimed>),
}

impl Declared {
    /// Fired by the model acting, in a plain combat action (not run 'n gun's) at `target` first.
    pub fn plain_at(&self, target: usize) -> bool {
        self.run_n_gun == 0 && self.groups.first().is_some_and(|g| g.0 == target)
    }
}

/// One combat action: the listed weapon mounts fire at `target`.
pub struct Fire;

impl ActionKind for Fire {
    fn id(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn name(&self) -> &'static str {
        "fire"
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn splits(&self) -> bool {
        true
    }
    fn taken_aboard(&self, game: &Game, model: usize) -> bool {
        port_free(game, model)
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.models[model].features.transport.aboard.is_some() && action.indirect {
            return Err("a gun port serves direct fire only".into());
        }
        one_fire_mode(game, model, action)?;
        if let (None, Some(point)) = (action.target, action.to) {
            if !action.split.is_empty() {
                return Err("an attack at a point is not split".into());
            }
            // Direct fire at a point is an attack on a cloud there, by weapons that destroy it.
            if !action.indirect {
                for &w in &action.weapons {
                    game.clears_cloud_at(model, w, point)?;
                }
                return Ok(());
            }
            // (Out of range is heard at the attack: a handler may lengthen the range.)
            for &w in &action.weapons {
                if let Shot::No(reason) = game.point_shot(model, w, point, 0.0)
                    && reason != OUT_OF_RANGE
                {
                    let name = game.card(model).weapons.get(w).map_or("no such weapon", |m| m.name.as_str());
                    return Err(format!("{name}: {reason}"));
                }
            }
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
        if let (None, Some(point)) = (action.target, action.to) {
            if !action.indirect {
                for &w in &action.weapons {
                    engine.clear_clouds(model, w, |at, radius| at.dist(point) <= radius);
                }
                return Ok(());
            }
            return engine.fire_at_point(model, point, &action.weapons, ctrl);
        }
        let target = action.target().map_err(ActionError::Illegal)?;
        // Rising over the terrain for a snapshot (Pop-Up, 001 L8001-8011), the model is open to
        // enemies on over-watch first: their fire lands before its own.
        if !action.indirect && target < engine.game.models.len() && engine.game.snapshot_at(model, target) {
            engine.game.models[model].mark(&POPPED_UP);
            emit!(engine, Event::PoppedUp { model });
            engine.overwatch_check(model, ctrl)?;
            if !engine.game.models[model].on_table() {
                return Ok(());
            }
        }
        // Through a gun port the rider shoots from where its transport stands.
        if let Some(t) = engine.game.models[model].features.transport.aboard {
            let (pos, facing) = (engine.game.models[t].pos, engine.game.models[t].facing);
            let me = &mut engine.game.models[model];
            (me.pos, me.facing) = (pos, facing);
            me.mark(&FIRED_FROM_PORT);
        }
        engine.fire(model, target, &action.weapons, &action.split, action.indirect, 0, ctrl)
    }
}

impl Action {
    /// Direct fire with these weapon mounts.
    pub fn fire(target: usize, weapons: Vec<usize>) -> Action {
        Action::new(Fire.name()).on(target).with(weapons)
    }
    /// Split fire: these weapon mounts at a further target of the same combat action.
    pub fn and_at(mut self, target: usize, weapons: Vec<usize>) -> Action {
        self.split.push((target, weapons));
        self
    }
    /// Indirect fire at a point of the board, no model aimed at (or direct fire at a cloud
    /// there, by weapons that destroy it: `indirect` false).
    pub fn fire_at_point(to: crate::geom::P, weapons: Vec<usize>) -> Action {
        Action { indirect: true, ..Action::new(Fire.name()).at(to).with(weapons) }
    }
    /// Indirect fire at the target's strike point.
    pub fn fire_indirect(target: usize, weapons: Vec<usize>) -> Action {
        Action { indirect: true, ..Action::fire(target, weapons) }
    }
}

impl Engine<'_, '_> {
    /// `attack_declare` for a weapon the model could fire (or could, with more range): handlers
    /// may forbid it or change its range for this attack (then the shot is read again).
    pub(crate) fn declare(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        indirect: bool,
        shot: Shot,
    ) -> Result<Result<Shot, String>, EngineError> {
        let range = self.cardr(attacker).weapons[weapon].range;
        let ctx = HookCtx::new(HookPoint::AttackDeclare, attacker).target(target).weapon(weapon).value(range);
        let answer = self.call_hooks(ctx)?;
        if let Some(reason) = answer.forbid {
            return Ok(Err(reason));
        }
        let shot = match answer.sum(Quantity::Range) {
            0 => shot,
            more => self.game.shot_with(attacker, weapon, target, indirect, f64::from(more)),
        };
        Ok(match shot {
            Shot::No(reason) => Err(reason),
            s => Ok(s),
        })
    }

    /// The attack of a combat action (and of run 'n gun, with `run_n_gun` weapons fired): the
    /// weapons fire at `target`, and under split fire (`split`, 001 L5075-5107) further weapons
    /// at further targets, all in one firing arc and at the farthest target's band where the
    /// ruleset's `multiple_targets` says so.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fire(
        &mut self,
        attacker: usize,
        target: usize,
        weapons: &[usize],
        split: &[(usize, Vec<usize>)],
        indirect: bool,
        run_n_gun: i32,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let groups: Vec<(usize, &[usize])> =
            std::iter::once((target, weapons)).chain(split.iter().map(|(t, w)| (*t, w.as_slice()))).collect();
        self.check_split(attacker, &groups)?;
        // Bombs fall beneath the aircraft: they are not aimed with other weapons, nor split.
        let card = self.cardr(attacker);
        let is_bomb = |w: &usize| card.weapons.get(*w).is_some_and(|m| m.dropped.is_some());
        let bombs = groups.iter().flat_map(|(_, w)| w.iter()).filter(|w| is_bomb(w)).count();
        if bombs > 0 && (bombs != weapons.len() || !split.is_empty()) {
            return Err(ActionError::Illegal(
                "bombs are dropped on their own: declare no other weapon with them".into(),
            ));
        }
        self.game.models[attacker].mark(&MADE_COMBAT_ACTION);
        // Declare every group's weapons (and hear the defenders' answers) before any roll.
        let mut declared = Vec::with_capacity(groups.len());
        for &(target, weapons) in &groups {
            let (shots, common) = self.declare_group(attacker, target, weapons, indirect)?;
            declared.push((target, shots, common));
        }
        // Split fire: every attack at the farthest target's band.
        let farthest = self.farthest_band(groups.len(), &declared);
        self.game.extra_targets = self.extra_targets(attacker, &groups);
        // Attacked from close quarters, a target may strike first (Anti-Infantry); an attacker
        // out of the fight by then (a handler's doing: damage waits for the activation's end)
        // makes no attack.
        for (target, shots, _) in &declared {
            if !shots.is_empty() {
                self.close_defense(attacker, *target, ctrl)?;
            }
        }
        if !self.game.models[attacker].in_play() || !self.game.can_fight(attacker) {
            self.game.extra_targets = 0;
            return Ok(());
        }
        let mut answers = Vec::with_capacity(declared.len());
        self.game.answering.clear();
        for (target, shots, _) in &declared {
            let answer = if shots.is_empty() { None } else { self.declare_defensive_fire(attacker, *target, ctrl)? };
            answers.push((*target, answer));
            // Under a ruleset whose targets answer direct fire (a Dodge, a shot back).
            if !indirect && !shots.is_empty() {
                self.declare_answer(attacker, *target, ctrl)?;
            }
        }
        let declared = Declared { attacker, indirect, run_n_gun, farthest, groups: declared, answers };
        let first = if self.checkpoint(&declared) { FirstRoll::Keep } else { FirstRoll::Aim };
        self.fire_rolls(&declared, first, ctrl)
    }

    /// The rolls of a declared combat action, and what follows them in the action; `first`
    /// says how its first direct-fire roll is aimed.
    pub(crate) fn fire_rolls(
        &mut self,
        declared: &Declared,
        mut first: FirstRoll,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let Declared { attacker, indirect, run_n_gun, farthest, ref groups, ref answers } = *declared;
        // Where the indirect attacks landed, and at whom they were aimed (counter-battery).
        let mut landed: Vec<(Option<usize>, crate::geom::P)> = Vec::new();
        // Each mount's copy that fired, once per attack made.
        let mut fired: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        for &(target, ref shots, common) in groups {
            if indirect {
                // One strike-point roll for the whole assault, at the range of the first weapon.
                let Some(&(first, Shot::Indirect { band, distance })) = shots.first() else { continue };
                let band = farthest.unwrap_or(band);
                let point = self.assault_point(attacker, target, first, band, distance, run_n_gun, ctrl)?;
                let Some(point) = point else {
                    continue; // stopped before it landed
                };
                landed.push((Some(target), point));
                for &(weapon, _) in shots {
                    self.area_attack(attacker, weapon, point, Some(target), 0, None)?;
                    fired.push(weapon);
                }
                continue;
            }
            for &(weapon, ref shot) in shots {
                if !self.game.models[target].on_table() {
                    break;
                }
                let &Shot::Direct { band, distance } = shot else { continue };
                if self.cardr(attacker).weapons[weapon].template.is_some() {
                    self.template_attack(attacker, weapon, target)?;
                    fired.push(weapon);
                    continue;
                }
                let band = farthest.or(common).unwrap_or(band);
                for _ in 0..self.game.copies_in_arc(attacker, weapon, target) {
                    if !self.game.models[target].on_table() || self.game.models[attacker].out_of_ammo[weapon] {
                        break;
                    }
                    match std::mem::replace(&mut first, FirstRoll::Aim) {
                        FirstRoll::Aim => {
                            self.attack_roll(attacker, weapon, target, band, distance, 0, run_n_gun, false)?;
                        }
                        FirstRoll::Keep => {
                            let aimed = self.aim(attacker, weapon, target, band, distance, 0, run_n_gun, false)?;
                            if let Some(aimed) = aimed {
                                self.checkpoint_aimed(&aimed);
                                self.roll_aimed(attacker, weapon, target, band, aimed)?;
                            }
                            self.area_rolls(attacker, weapon, target, band, 0, run_n_gun, false)?;
                        }
                        FirstRoll::Aimed(aimed) => {
                            self.roll_aimed(attacker, weapon, target, band, *aimed)?;
                            self.area_rolls(attacker, weapon, target, band, 0, run_n_gun, false)?;
                        }
                    }
                    fired.push(weapon);
                }
            }
        }
        self.game.answering.clear();
        self.combat_end(attacker, &fired)?;
        for (target, answer) in answers {
            self.resolve_defensive_fire(attacker, *target, answer.as_deref())?;
        }
        self.counter_battery(attacker, &landed, ctrl)?;
        Ok(())
    }

    /// Declares one target's weapons of a combat action: the shots they have (the rest make no
    /// attack), and the band all of them roll at where the mixed-weapons rule says so.
    fn declare_group(
        &mut self,
        attacker: usize,
        target: usize,
        weapons: &[usize],
        indirect: bool,
    ) -> Result<(Shots, Option<usize>), ActionError> {
        let mut shots = Vec::with_capacity(weapons.len());
        let mut out_of_range = false;
        for &weapon in weapons {
            let shot = match self.game.shot(attacker, weapon, target, indirect) {
                Shot::No(reason) if reason != OUT_OF_RANGE => Err(reason),
                s => self.declare(attacker, weapon, target, indirect, s)?,
            };
            match shot {
                Err(reason) => {
                    out_of_range |= reason == OUT_OF_RANGE;
                    let name = self.cardr(attacker).weapons.get(weapon).map(|m| m.name.clone()).unwrap_or_default();
                    emit!(self, Event::NoAttack { model: attacker, target: Some(target), weapon: name, reason });
                }
                Ok(s) => shots.push((weapon, s)),
            }
        }
        // A TAG used within the combat action paints the target as the weapons fire: the
        // target's counter-measures meet it as any targeting attempt (001 L7086-7101), and
        // the guided weapons that needed that paint make no attack if it is blocked.
        let g = &self.game;
        let own_paint: Vec<bool> = shots
            .iter()
            .map(|&(w, _)| {
                let m = &g.card(attacker).weapons[w];
                m.requires_target_lock
                    && g.models[attacker].lock != Some(target)
                    && !g.painted_for(attacker, target, false)
                    && !g.homes_on(m, target)
            })
            .collect();
        if own_paint.contains(&true) && !self.targeting_attempt(attacker, target, "tag")? {
            let mut kept = Vec::with_capacity(shots.len());
            for (shot, own) in shots.into_iter().zip(own_paint) {
                if own {
                    let name = self.cardr(attacker).weapons[shot.0].name.clone();
                    let reason = "its TAG's paint was blocked".to_owned();
                    emit!(self, Event::NoAttack { model: attacker, target: Some(target), weapon: name, reason });
                } else {
                    kept.push(shot);
                }
            }
            shots = kept;
        }
        let common = if indirect { None } else { self.common_band(attacker, weapons, &shots, out_of_range) };
        Ok((shots, common))
    }

    /// Under split fire of `groups` targets, the farthest band of the declared attacks, which every
    /// attack rolls at where the ruleset's `multiple_targets` says so.
    fn farthest_band(&self, groups: usize, declared: &[(usize, Shots, Option<usize>)]) -> Option<usize> {
        if groups > 1 && self.rules().proc.multiple_targets.is_some_and(|m| m.farthest_band) {
            declared
                .iter()
                .flat_map(|(_, shots, common)| {
                    shots.iter().filter_map(move |(_, s)| match s {
                        Shot::Direct { band, .. } => Some(common.unwrap_or(*band)),
                        Shot::Indirect { band, .. } => Some(*band),
                        Shot::No(_) => None,
                    })
                })
                .max()
        } else {
            None
        }
    }

    /// Where an indirect assault on `target` lands (`first` its first weapon, at `band` and
    /// `distance`): a bomb beneath the aircraft (or drifting from there), else the strike point;
    /// `None` if it was stopped before it landed.
    #[allow(clippy::too_many_arguments)]
    fn assault_point(
        &mut self,
        attacker: usize,
        target: usize,
        first: usize,
        band: usize,
        distance: f64,
        run_n_gun: i32,
        ctrl: &mut dyn Controller,
    ) -> Result<Option<crate::geom::P>, EngineError> {
        let target_pos = self.game.models[target].pos;
        let dropped = self.cardr(attacker).weapons[first].dropped;
        Ok(match dropped {
            // A bomb: no strike-point roll; it lands beneath the aircraft, or drifts from there.
            Some(how) => {
                let below = self.game.models[attacker].pos;
                let point = match how {
                    cav_format::Dropped::Exact => below,
                    cav_format::Dropped::Drifts => {
                        let ctx = HookCtx::new(HookPoint::Drift, attacker).target(Some(target)).weapon(first);
                        self.drift(attacker, below, 0, ctx)?
                    }
                };
                emit!(self, Event::StrikePoint { model: attacker, at: point });
                Some(point)
            }
            None => self.strike_point(attacker, Some(target), first, band, distance, target_pos, run_n_gun, ctrl)?,
        })
    }

    /// An indirect attack at `point`, a place on the board with no model aimed at (001
    /// L4474-4479): one strike-point roll for the declared weapons at the first one's range
    /// (LoS to the point, where the ruleset's modifiers ask, is to the ground there); each
    /// weapon's area attack where it lands.
    pub(crate) fn fire_at_point(
        &mut self,
        attacker: usize,
        point: crate::geom::P,
        weapons: &[usize],
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        if weapons.is_empty() {
            return Err(ActionError::Illegal("declare the weapons that fire".into()));
        }
        self.game.models[attacker].mark(&MADE_COMBAT_ACTION);
        let mut shots = Vec::with_capacity(weapons.len());
        for &weapon in weapons {
            let range = self.cardr(attacker).weapons.get(weapon).map_or(0.0, |m| m.range);
            let mut shot = self.game.point_shot(attacker, weapon, point, 0.0);
            // `attack_declare` handlers may forbid it, or lengthen its range to reach.
            if !matches!(&shot, Shot::No(reason) if reason != OUT_OF_RANGE) {
                let ctx = HookCtx::new(HookPoint::AttackDeclare, attacker).weapon(weapon).value(range);
                let answer = self.call_hooks(ctx)?;
                if let Some(reason) = answer.forbid {
                    shot = Shot::No(reason);
                } else if answer.sum(Quantity::Range) != 0 {
                    shot = self.game.point_shot(attacker, weapon, point, f64::from(answer.sum(Quantity::Range)));
                }
            }
            match shot {
                Shot::No(reason) => {
                    let name = self.cardr(attacker).weapons.get(weapon).map(|m| m.name.clone()).unwrap_or_default();
                    emit!(self, Event::NoAttack { model: attacker, target: None, weapon: name, reason });
                }
                s => shots.push((weapon, s)),
            }
        }
        let Some(&(first, Shot::Indirect { band, distance })) = shots.first() else {
            return Ok(());
        };
        let Some(landed) = self.strike_point(attacker, None, first, band, distance, point, 0, ctrl)? else {
            return Ok(()); // stopped before it landed
        };
        let mut fired = Vec::with_capacity(shots.len());
        for (weapon, _) in shots {
            self.area_attack(attacker, weapon, landed, None, 0, None)?;
            fired.push(weapon);
        }
        self.combat_end(attacker, &fired)?;
        self.counter_battery(attacker, &[(None, landed)], ctrl)?;
        Ok(())
    }

    /// A template weapon's attack (the Flamethrower, 001 L11913-11963): no combat roll; every
    /// model on the table whose base its strip touches, friend or foe, gains the weapon's state
    /// (`area_effect` handlers may spare one).
    pub(crate) fn template_attack(&mut self, attacker: usize, weapon: usize, target: usize) -> Result<(), EngineError> {
        let m = &self.cardr(attacker).weapons[weapon];
        let Some((length, width, state)) = m.template else { return Ok(()) };
        let name = m.name.clone();
        let (a, b) = self.game.template_strip(attacker, self.game.models[target].pos, length);
        // A cloud the template reaches that this weapon destroys is gone (nano-disassemblers).
        self.clear_clouds(attacker, weapon, |at, radius| crate::geom::seg_point_dist(a, b, at) <= width / 2.0 + radius);
        // A structure the template touches burns: every model in that section does, as the
        // structure damage table's fire (001 L11957-11960, L6299).
        let g = &self.game;
        let burning: Vec<usize> = (0..g.board.areas.len())
            .filter(|&s| {
                let area = &g.board.areas[s];
                g.rules.terrains[area.terrain].structure.is_some()
                    && (area.poly.touches_segment(a, b)
                        || area.poly.points.iter().any(|&c| crate::geom::seg_point_dist(a, b, c) <= width / 2.0))
            })
            .collect();
        let under: Vec<usize> = (0..g.models.len())
            .filter(|&i| {
                i != attacker
                    && g.attackable(i)
                    && (crate::geom::seg_point_dist(a, b, g.models[i].pos) <= width / 2.0 + self.cardr(i).base_radius
                        || g.structure_at(i).is_some_and(|s| burning.contains(&s)))
            })
            .collect();
        for victim in under {
            let ctx = HookCtx::new(HookPoint::AreaEffect, attacker).target(victim).weapon(weapon);
            if let Some(reason) = self.call_hooks(ctx)?.forbid {
                emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
                continue;
            }
            let distance = (self.game.range(attacker, victim) * 100.0).round() / 100.0;
            emit!(
                self,
                Event::Attack {
                    model: attacker,
                    target: victim,
                    weapon: name.clone(),
                    mode: "template",
                    distance,
                    band: None
                }
            );
            self.add_state(victim, state)?;
        }
        Ok(())
    }

    /// The close-defense reaction (`procedures.close_defense`, Anti-Infantry, 001 L6714-6750):
    /// `defender`, attacked by `attacker` (a model with the procedure's trait) from within its
    /// reach, may strike first — if it can fight, its reaction mount has ammo, and paying the
    /// cost from its next activation leaves it owing no more than a whole one — with an area
    /// attack centred on itself.
    pub(crate) fn close_defense(
        &mut self,
        attacker: usize,
        defender: usize,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let Some(cd) = &self.rules().proc.close_defense else { return Ok(()) };
        let g = &self.game;
        let Some(k) = g.card(defender).weapons.iter().position(|w| w.reaction) else { return Ok(()) };
        let me = &g.models[defender];
        if !g.has_trait_now(attacker, cd.against)
            || !me.on_table()
            || !g.can_fight(defender)
            || me.out_of_ammo[k]
            || me.ap_owed.saturating_add(cd.cost) > self.rules().action_points
            || g.range(defender, attacker) > cd.reach
        {
            return Ok(());
        }
        if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, defender).target(attacker))?.forbid {
            emit!(self, Event::Forbidden { model: defender, what: "reaction", reason });
            return Ok(());
        }
        if !ctrl.close_defense(&self.game, defender, attacker) {
            return Ok(());
        }
        self.game.models[defender].ap_owed += cd.cost;
        emit!(self, Event::CloseDefense { model: defender, target: attacker });
        let at = self.game.models[defender].pos;
        self.area_attack(defender, k, at, Some(attacker), 0, None)
    }

    /// `combat_end`: once for each weapon system (class) that fired, with the number of its
    /// attacks made (an Overdrive system's overheating roll counts every weapon shot), after any
    /// combat action or reaction that fired (a salvo counts each weapon of it, 001 L7872).
    pub(crate) fn combat_end(&mut self, attacker: usize, fired: &[usize]) -> Result<(), EngineError> {
        // Most rulesets handle no combat end: the weapon systems need not be counted then.
        if !self.hooks.wants(HookPoint::CombatEnd) {
            return Ok(());
        }
        // Each weapon system once, at its first mount fired, with its shots (a few mounts: counted
        // in place, with no list made).
        let card = self.cardr(attacker);
        let class = |w: usize| card.weapons[w].class.as_str();
        for (i, &weapon) in fired.iter().enumerate() {
            if fired[..i].iter().any(|&p| class(p) == class(weapon)) {
                continue;
            }
            let shots = fired[i..].iter().filter(|&&p| class(p) == class(weapon)).count() as u32;
            if !self.game.models[attacker].on_table() {
                break;
            }
            let ctx = HookCtx::new(HookPoint::CombatEnd, attacker).weapon(weapon).value(f64::from(shots));
            self.call_hooks(ctx)?;
        }
        Ok(())
    }

    /// Whether the declared targets and weapons make one legal attack: enemy targets, each named
    /// once, each weapon mount fired once; more than one target only where the ruleset has split
    /// fire, and (where it says so) in one firing arc. Indirect split fire rolls one strike point
    /// per target (the strike-point table has its own multiple-targets row, 001 L4713).
    fn check_split(&self, attacker: usize, groups: &[(usize, &[usize])]) -> Result<(), ActionError> {
        let illegal = |why: &str| Err(ActionError::Illegal(why.into()));
        let g = &self.game;
        for (i, &(target, weapons)) in groups.iter().enumerate() {
            if target >= g.models.len() || g.models[target].side == g.models[attacker].side {
                return illegal("the target is not an enemy model");
            }
            if g.models[target].features.transport.aboard.is_some() {
                return illegal("the target rides in a transport: attack the transport");
            }
            if weapons.is_empty() {
                return illegal("no weapons declared");
            }
            if groups[..i].iter().any(|(t, _)| *t == target) {
                return illegal("a target is named twice: list all its weapons once");
            }
            if groups[..i].iter().any(|(_, w)| w.iter().any(|k| weapons.contains(k)))
                || (1..weapons.len()).any(|k| weapons[..k].contains(&weapons[k]))
            {
                return illegal("a weapon mount fires once per combat action");
            }
        }
        // A launcher fires one of its munitions per combat action.
        let card = g.card(attacker);
        let launcher = |w: usize| card.weapons.get(w).map(|m| m.launcher.unwrap_or(w));
        let all: Vec<usize> = groups.iter().flat_map(|(_, w)| w.iter().copied()).collect();
        if (1..all.len()).any(|k| all[..k].iter().any(|&x| launcher(x).is_some() && launcher(x) == launcher(all[k]))) {
            return illegal("a launcher fires one munition per combat action");
        }
        if groups.len() == 1 {
            return Ok(());
        }
        let Some(rule) = self.rules().proc.multiple_targets else {
            return illegal("this ruleset has no split fire: a combat action attacks one target");
        };
        if rule.same_arc {
            let arcs: Vec<Arc> = groups.iter().map(|(t, _)| g.arc_of(attacker, *t)).collect();
            if arcs.iter().any(|a| *a != arcs[0]) {
                let names: Vec<&str> = arcs.iter().map(|a| a.name()).collect();
                return Err(ActionError::Illegal(format!(
                    "split fire: the targets must stand in one firing arc (they are in the {} arcs)",
                    names.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Targets beyond the first, for the `multiple-targets` condition: the split fire's further
    /// targets, and a target-lock taken this activation on a model not attacked where the
    /// ruleset counts it (001 L5826-5832).
    fn extra_targets(&self, attacker: usize, groups: &[(usize, &[usize])]) -> i32 {
        let Some(rule) = self.rules().proc.multiple_targets else { return 0 };
        let g = &self.game;
        let locked_elsewhere = rule.lock_counts
            && g.used.contains(&ActionWord::TargetLock)
            && g.models[attacker].lock.is_some_and(|l| groups.iter().all(|(t, _)| *t != l));
        (groups.len() - 1 + usize::from(locked_elsewhere)) as i32
    }

    /// The one band every weapon of a direct attack rolls at, where the ruleset has the
    /// mixed-weapons rule and the attack declares more than one weapon type: the farthest band
    /// of those in range, or the ruleset's band when a declared weapon is out of range.
    fn common_band(
        &self,
        attacker: usize,
        declared: &[usize],
        shots: &[(usize, Shot)],
        out_of_range: bool,
    ) -> Option<usize> {
        let r = self.rules();
        let when_out = r.proc.mixed_weapons_out_of_range?;
        let card = self.cardr(attacker);
        if r.has_trait(card.model_type, ModelTrait::Infantry) {
            return None;
        }
        let mut types: Vec<&str> =
            declared.iter().filter_map(|&k| card.weapons.get(k)).map(|m| m.weapon.as_str()).collect();
        types.sort_unstable();
        types.dedup();
        if types.len() < 2 {
            return None;
        }
        if out_of_range {
            return Some(when_out);
        }
        shots.iter().filter_map(|(_, s)| if let Shot::Direct { band, .. } = s { Some(*band) } else { None }).max()
    }

    /// A model attacked before its own activation this turn may declare defensive fire.
    pub(crate) fn declare_defensive_fire(
        &mut self,
        attacker: usize,
        defender: usize,
        ctrl: &mut dyn Controller,
    ) -> Result<Option<Vec<usize>>, EngineError> {
        let Some(rule) = self.rules().proc.defensive_fire else { return Ok(None) };
        let max = rule.max_band;
        let def = &self.game.models[defender];
        if def.activated
            || def.has(&FIRED_OUT_OF_TURN)
            || !def.on_table()
            || def.prone
            || !self.game.can_fight(defender)
        {
            return Ok(None);
        }
        let n = self.cardr(defender).weapons.len();
        let shooter = self.game.shooter(defender);
        let possible =
            (0..n).any(|k| matches!(shooter.shot(k, attacker, false), Some(Shot::Direct { band, .. }) if band <= max));
        if !possible {
            return Ok(None);
        }
        if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, defender).target(attacker))?.forbid {
            emit!(self, Event::Forbidden { model: defender, what: "reaction", reason });
            return Ok(None);
        }
        let Some(weapons) = ctrl.defensive_fire(&self.game, defender, attacker) else { return Ok(None) };
        self.game.models[defender].mark(&FIRED_OUT_OF_TURN);
        // Paid from the defender's coming activation (free where the ruleset's cost is 0).
        let cost = self.rules().action_costs.get(ActionWord::DefensiveFire.id()).copied().unwrap_or(0);
        self.game.models[defender].ap_owed += cost;
        emit!(self, Event::DefensiveFire { model: defender, target: attacker });
        Ok(Some(weapons))
    }

    /// Defensive fire resolves after the attacker's assaults, with the defender's pre-damage values.
    pub(crate) fn resolve_defensive_fire(
        &mut self,
        attacker: usize,
        defender: usize,
        weapons: Option<&[usize]>,
    ) -> Result<(), EngineError> {
        let Some(weapons) = weapons else { return Ok(()) };
        let max = self.rules().proc.defensive_fire.map_or(0, |d| d.max_band);
        let mut fired = Vec::new();
        for &k in weapons {
            let Some(Shot::Direct { band, distance }) = self.game.shooter(defender).shot(k, attacker, false) else {
                continue;
            };
            if band > max {
                continue;
            }
            for _ in 0..self.game.copies_in_arc(defender, k, attacker) {
                if self.game.models[attacker].on_table() && !self.game.models[defender].out_of_ammo[k] {
                    self.attack_roll(defender, k, attacker, band, distance, 0, 0, true)?;
                    fired.push(k);
                }
            }
        }
        self.combat_end(defender, &fired)
    }
}
