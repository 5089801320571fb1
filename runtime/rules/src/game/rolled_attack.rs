//! An attack by the ruleset's roll kinds (`procedures.attack`): the hit rolls a shot makes
//! against a target summed from attributes, the target's answer met in a contest (a roll that
//! only opposes, or a shot back whose standing hits land on the attacker), and each standing
//! hit's damage roll (or saving roll) turned into damage points. The same roll kinds judge a
//! script's `ctx.make_roll`, the bots' odds and `cav dice --kind`.

use cav_format::limits::{MAX_ATTACK_ROLLS, MAX_TABLE_ROLLS};
use cav_format::{ContestCompare, DealsOn, Roller};

use super::combat::Aimed;
use super::engine::Situation;
use super::reactions::REACTED;
use super::*;
use crate::compile::{AnswerKind, AttackProc, RollRule, Term, Thrown};

/// What the target's answer rolled: a roll that only opposes, a shot back (its own hits), or
/// nothing (a shot back that could not fire after all).
enum Their {
    Roll(Thrown),
    Shot(Box<Volley>),
    Nothing,
}

/// What came of asking a target for its answer.
enum Picked {
    /// A `reaction` handler forbade answering this attacker.
    Forbidden,
    /// No answer: none to choose from, or its controller let the attack be.
    Declined,
    Chosen(AttackAnswer),
}

/// One side's hit rolls of a rolled attack, ready to land.
struct Volley {
    ctx: HookCtx,
    situation: Situation,
    rolls: u32,
    hits: Vec<Thrown>,
}

impl Engine<'_, '_> {
    /// One direct-fire shot of `ctx.weapon` by `ctx.model` at `ctx.target`, in situation `s`,
    /// with the combat modifiers `mods` (tables, special attributes, states, handlers).
    pub(super) fn rolled_attack(
        &mut self,
        a: &AttackProc,
        ctx: HookCtx,
        s: &Situation,
        mods: Vec<ModApplied>,
        dice: Option<DiceExpr>,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let (attacker, target) = (ctx.model, ctx.target.unwrap_or(ctx.model));
        // A reaction's attack is opposed only by the acting model's one answer to them all
        // (`acting_answer_cost`). A target out of action takes no part: it cannot answer.
        let answer = match &a.opposed {
            Some(_) if self.game.models[target].out_of_action => None,
            Some(o) if self.game.reacting => {
                let acting = self.game.acting_answer.as_ref().filter(|x| x.model == target);
                acting.and_then(|x| x.choice).map(|x| (o, x))
            }
            Some(o) => self.game.answering.iter().find(|(t, _)| *t == target).map(|&(_, x)| (o, x)),
            None => None,
        };
        // Compared by best success, a success's value matters too (the odds walk them as such).
        let best = answer.map(|(o, _)| r.contests[o.contest].compare);
        // An attack made out of turn (a reaction) makes the ruleset's reaction rolls; one made by
        // a ruleset's own action type, that type's (SNAP FIRE's one die).
        let own = self.game.acting_as.and_then(|d| r.own_actions.get(d as usize)).map(|o| &o.attack_rolls);
        let rolls = match own {
            Some(rolls) if !rolls.is_empty() => rolls,
            _ if self.game.reacting && !a.reaction_rolls.is_empty() => &a.reaction_rolls,
            _ => &a.rolls,
        };
        let mine = self.hit_rolls(a, rolls, ctx, *s, &mods, dice, best)?;
        let Some((o, choice)) = answer else {
            let stand: Vec<bool> = mine.hits.iter().map(|t| t.success == Some(true)).collect();
            return self.land_volley(a, mine, &stand);
        };
        let contest = &r.contests[o.contest];
        let theirs = match &o.answers[choice.answer].kind {
            AnswerKind::Roll(terms) => {
                let kind = &r.roll_kinds[contest.roll];
                let me = self.cardr(attacker);
                let w = me.weapons.get(mine.ctx.weapon.unwrap_or(0)).map_or(&[][..], |m| m.attributes.as_slice());
                let need = Term::sum(terms, &self.game.attributes(attacker), &self.game.attributes(target), w);
                // The acting model's answer is rolled once, met by every reaction's attack.
                let rolled =
                    self.game.acting_answer.as_ref().filter(|_| self.game.reacting).and_then(|x| x.roll.clone());
                let t = match rolled {
                    Some(t) => t,
                    None => {
                        let t = match contest.compare {
                            ContestCompare::BestSuccess => kind.throw_for_verdict(self.dice, 0, Some(need), true),
                            _ => kind.throw(self.dice, 0, Some(need)),
                        };
                        emit!(self, Event::Roll(kind.logged(target, Vec::new(), t.clone())));
                        if self.game.reacting
                            && let Some(x) = self.game.acting_answer.as_mut()
                        {
                            x.roll = Some(t.clone());
                        }
                        t
                    }
                };
                Their::Roll(t)
            }
            AnswerKind::Shoots => {
                // A shot back is one answer: the attacker's next mount meets no second one.
                self.game.answering.retain(|(t, _)| *t != target);
                match self.shot_back(a, target, choice.weapon, attacker, best)? {
                    Some(volley) => Their::Shot(Box::new(volley)),
                    None => Their::Nothing,
                }
            }
        };
        let their_hits = match &theirs {
            Their::Roll(t) => std::slice::from_ref(t),
            Their::Shot(v) => v.hits.as_slice(),
            Their::Nothing => &[],
        };
        let (mine_stand, their_stand) = contest.decide(&mine.hits, their_hits);
        emit!(
            self,
            Event::Opposed {
                model: attacker,
                target,
                contest: contest.id.clone(),
                standing: mine_stand.iter().filter(|&&x| x).count() as u32,
                theirs_standing: their_stand.iter().filter(|&&x| x).count() as u32,
            }
        );
        // A standing roll of an answer that turns (Change Facing) faces the attacker.
        if o.answers[choice.answer].turns && matches!(theirs, Their::Roll(_)) && their_stand.iter().any(|&x| x) {
            let (from, at) = (self.game.models[target].pos, self.game.models[attacker].pos);
            let facing = from.bearing(at);
            self.game.models[target].facing = facing;
            emit!(self, Event::Turned { model: target, facing, toward: attacker });
        }
        self.land_volley(a, mine, &mine_stand)?;
        // A target's rolled answer, judged: its handlers may move it (Infinity's Dodge). (The
        // acting model's one answer to the reactions is not an answer to this attack alone.)
        if matches!(theirs, Their::Roll(_)) && !self.game.reacting {
            let stood = f64::from(u8::from(their_stand.iter().any(|&x| x)));
            let mut at = HookCtx::new(HookPoint::Answered, target).target(attacker).value(stood);
            at.option = Some(o.answers[choice.answer].id.clone());
            self.call_hooks(at)?;
        }
        match theirs {
            Their::Shot(volley) => self.land_volley(a, *volley, &their_stand),
            Their::Roll(_) | Their::Nothing => Ok(()),
        }
    }

    /// The hit rolls of one shot (`ctx`), as many as `rolls` sum to (empty: one), each logged;
    /// the charges of single-use upgrades they took are spent. `compare` is the contest that
    /// will meet them, if any.
    #[allow(clippy::too_many_arguments)]
    fn hit_rolls(
        &mut self,
        a: &AttackProc,
        rolls: &[Term],
        ctx: HookCtx,
        situation: Situation,
        mods: &[ModApplied],
        dice: Option<DiceExpr>,
        compare: Option<ContestCompare>,
    ) -> Result<Volley, EngineError> {
        let r = self.rules();
        let (shooter, victim) = (ctx.model, ctx.target.unwrap_or(ctx.model));
        let w = self.cardr(shooter).weapons.get(ctx.weapon.unwrap_or(0)).map_or(&[][..], |m| m.attributes.as_slice());
        let (sa, va) = (self.game.attributes(shooter), self.game.attributes(victim));
        let sum = |terms: &[Term]| Term::sum(terms, &sa, &va, w);
        let rolls = if rolls.is_empty() { 1 } else { sum(rolls).clamp(0, MAX_ATTACK_ROLLS) };
        let m = mods.iter().fold(0i32, |t, x| t.saturating_add(x.value));
        // A `combat_tp` handler's `ctx.set_dice` throws its dice for the hit roll of the kind.
        let loaded;
        let kind = match dice {
            Some(dice) => {
                loaded = RollRule { dice, odds: Default::default(), ..r.roll_kinds[a.hit.kind].clone() };
                &loaded
            }
            None => &r.roll_kinds[a.hit.kind],
        };
        let target_point = a.hit.bounded_target_in(kind, sum(&a.hit.target), m, &self.game, &situation);
        let mut hits: Vec<Thrown> = Vec::with_capacity(rolls as usize);
        for _ in 0..rolls {
            // Unopposed, only each roll's verdict matters.
            let t = match compare {
                Some(ContestCompare::BestSuccess) => kind.throw_for_verdict(self.dice, m, Some(target_point), true),
                Some(_) => kind.throw(self.dice, m, Some(target_point)),
                // A damage table reads each hit's margin: every success's value matters.
                None => kind.throw_for_verdict(self.dice, m, Some(target_point), a.damage_table.is_some()),
            };
            let logged = if self.log.enabled() { mods.to_vec() } else { Vec::new() };
            emit!(self, Event::Roll(kind.logged(shooter, logged, t.clone())));
            hits.push(t);
        }
        // The charges of single-use upgrades the rolls took.
        let mut taken: Vec<u16> = mods.iter().filter_map(|m| m.charge).collect();
        taken.dedup();
        for sa in taken {
            self.game.models[shooter].spend_charge(sa);
        }
        Ok(Volley { ctx, situation, rolls: rolls as u32, hits })
    }

    /// `answerer`'s shot back at `attacker` with mount `weapon`: aimed as any shot of its own
    /// (its band, sight, modifiers and handlers), making the attack's reaction rolls. `None`
    /// when it cannot fire after all.
    fn shot_back(
        &mut self,
        a: &AttackProc,
        answerer: usize,
        weapon: Option<usize>,
        attacker: usize,
        compare: Option<ContestCompare>,
    ) -> Result<Option<Volley>, EngineError> {
        let Some(weapon) = weapon else { return Ok(None) };
        let Shot::Direct { band, distance } = self.game.shot(answerer, weapon, attacker, false) else {
            return Ok(None);
        };
        let Some(Aimed { ctx, situation, mods, dice }) =
            self.aim(answerer, weapon, attacker, band, distance, 0, 1, true)?
        else {
            return Ok(None);
        };
        let rolls = if a.reaction_rolls.is_empty() { &a.rolls } else { &a.reaction_rolls };
        self.hit_rolls(a, rolls, ctx, situation, &mods, dice, compare).map(Some)
    }

    /// What a volley's standing hits (`stand`, one per hit roll) do: the state tests and out of
    /// ammo its rolls call for, each standing hit's damage roll, the damage points dealt.
    fn land_volley(&mut self, a: &AttackProc, v: Volley, stand: &[bool]) -> Result<(), EngineError> {
        let r = self.rules();
        let (shooter, weapon) = (v.ctx.model, v.ctx.weapon.unwrap_or(0));
        let victim = v.ctx.target.unwrap_or(shooter);
        let standing = stand.iter().filter(|&&x| x).count() as u32;
        self.state_test(shooter, weapon, victim, standing > 0)?;
        // A fumbled hit roll is heard as any critical fumble (out of ammo where the weapon may run dry).
        if v.hits.iter().any(|t| t.fumble) {
            self.out_of_ammo(shooter, weapon)?;
        }
        let (rolls, hits) = (v.rolls, standing);
        if standing == 0 {
            let (model, target) = (shooter, victim);
            emit!(self, Event::DamagePoints { model, target, rolls, hits, dealing: 0, damage: 0 });
            return Ok(());
        }
        let w = self.cardr(shooter).weapons.get(weapon).map_or(&[][..], |m| m.attributes.as_slice());
        if let Some(dt) = &a.damage_table {
            // Each standing hit reads the damage table by its margin; its row lands at once.
            let mut damage = 0u32;
            for (hit, _) in v.hits.iter().zip(stand).filter(|(_, s)| **s) {
                if !self.game.models[victim].on_table() {
                    break;
                }
                // (Read as the hit lands: what its handlers' effects change counts from the next.)
                let (sa, va) = (self.game.attributes(shooter).into_owned(), self.game.attributes(victim).into_owned());
                let mut hurt = dt.damage(hit.margin.unwrap_or(0), &sa, &va, w);
                // Handlers see each hit's damage before the table is read (`damage_table`):
                // `damage` modifiers change it, forbid sets the row aside.
                if self.hooks.wants(HookPoint::DamageTable) {
                    let roll = r.roll_kinds[a.hit.kind].logged(shooter, Vec::new(), hit.clone());
                    let ctx = HookCtx { point: HookPoint::DamageTable, value: Some(f64::from(hurt)), ..v.ctx.clone() };
                    let answer = self.call_hooks(HookCtx { roll: Some(roll), ..ctx })?;
                    if let Some(reason) = answer.forbid {
                        emit!(self, Event::Forbidden { model: shooter, what: "damage", reason });
                        continue;
                    }
                    hurt = hurt.saturating_add(answer.sum(Quantity::Damage)).max(0);
                    // (Its handlers' effects may have taken the target out of play.)
                    if !self.game.models[victim].on_table() {
                        break;
                    }
                }
                let key = dt.key_of(hurt, &sa, &va, w);
                let mut budget = MAX_TABLE_ROLLS;
                damage = damage.saturating_add(self.table_row(victim, dt.table, key, 0, &mut budget)?);
            }
            let (model, target) = (shooter, victim);
            emit!(self, Event::DamagePoints { model, target, rolls, hits, dealing: hits, damage });
            if damage > 0 {
                let dealt = &mut self.game.damage_dealt[self.game.models[shooter].side];
                *dealt = dealt.saturating_add(damage);
                self.take_damage(shooter, victim, damage);
            }
            return self.call_hooks(HookCtx { point: HookPoint::OnHit, ..v.ctx }).map(|_| ());
        }
        let (sa, va) = (self.game.attributes(shooter), self.game.attributes(victim));
        let sum = |terms: &[Term]| Term::sum(terms, &sa, &va, w);
        let per_hit = if a.points.is_empty() { 1 } else { sum(&a.points).clamp(0, MAX_ATTACK_ROLLS) } as u32;
        let mut dealing = standing;
        if let Some(d) = &a.damage {
            let need = sum(&d.roll.target);
            let (roller, other) = match d.by {
                Roller::Attacker => (shooter, victim),
                Roller::Target => (victim, shooter),
            };
            let ds = Situation { attacker: roller, defender: Some(other), ..v.situation };
            let mut dmods = self.modifiers(&r.damage_roll_mods, ModifierTarget::DamageRoll, &ds, false);
            // Handlers at the damage roll (scenery blunting Force) add to the roller's modifiers.
            // (`ctx.weapon` is the roller's own: none for a saving roll.)
            let weapon = if roller == shooter { v.ctx.weapon } else { None };
            let at =
                HookCtx { point: HookPoint::DamageRoll, model: roller, target: Some(other), weapon, ..v.ctx.clone() };
            let mut answer = self.call_hooks(at)?;
            dmods.extend(answer.take(Quantity::Roll));
            let dm = dmods.iter().fold(0i32, |t, x| t.saturating_add(x.value));
            let kind = &r.roll_kinds[d.roll.kind];
            let need = d.roll.bounded_target_in(kind, need, dm, &self.game, &ds);
            dealing = 0;
            for (hit, _) in v.hits.iter().zip(stand).filter(|(_, s)| **s) {
                if a.critical_hits_deal && hit.critical {
                    dealing += 1;
                    continue;
                }
                let t = kind.throw_for_verdict(self.dice, dm, Some(need), false);
                let deals = match d.deals_on {
                    DealsOn::Success => t.success == Some(true),
                    DealsOn::Failure => t.success != Some(true),
                };
                dealing += u32::from(deals);
                let logged = if self.log.enabled() { dmods.clone() } else { Vec::new() };
                emit!(self, Event::Roll(kind.logged(roller, logged, t)));
            }
        }
        let damage = dealing.saturating_mul(per_hit);
        let (model, target) = (shooter, victim);
        emit!(self, Event::DamagePoints { model, target, rolls, hits, dealing, damage });
        if damage > 0 {
            self.game.damage_dealt[self.game.models[shooter].side] += damage;
            self.take_damage(shooter, victim, damage);
        }
        self.call_hooks(HookCtx { point: HookPoint::OnHit, ..v.ctx })?;
        Ok(())
    }

    /// As a direct-fire attack on `target` is declared, under a ruleset whose attacks the target
    /// answers (`procedures.attack.opposed`): the answers it has, and its controller's choice
    /// (said, and its reaction in the answers' window). An attack made as a reaction is answered
    /// only by the acting model (`declare_acting_answer`); none is by a target out of the fight,
    /// or that reacted already where that counts.
    pub(crate) fn declare_answer(
        &mut self,
        attacker: usize,
        target: usize,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let Some(o) = r.attack.as_ref().and_then(|a| a.opposed.as_ref()) else { return Ok(()) };
        let g = &self.game;
        let me = &g.models[target];
        if g.reacting {
            return self.declare_acting_answer(attacker, target, o, ctrl);
        }
        if me.out_of_action || !me.on_table() || g.answering.iter().any(|(t, _)| *t == target) {
            return Ok(());
        }
        if let Some(w) = o.window.map(|w| &r.reaction_windows[w])
            && ((w.once_an_activation && g.reacted_now.contains(&target)) || (w.once_a_turn && me.has(&REACTED)))
        {
            return Ok(());
        }
        let mut options = Vec::with_capacity(o.answers.len());
        for (i, ans) in o.answers.iter().enumerate().filter(|(_, a)| a.offered(g, target, attacker)) {
            match ans.kind {
                AnswerKind::Roll(_) => options.push(AttackAnswer { answer: i, weapon: None }),
                AnswerKind::Shoots if g.can_fight(target) => {
                    let shooter = g.shooter(target);
                    let card = g.card(target);
                    for (k, m) in card.weapons.iter().enumerate() {
                        if m.template.is_none() && matches!(shooter.shot(k, attacker, false), Some(Shot::Direct { .. }))
                        {
                            options.push(AttackAnswer { answer: i, weapon: Some(k) });
                        }
                    }
                }
                AnswerKind::Shoots => {}
            }
        }
        let Picked::Chosen(choice) = self.pick_answer(target, attacker, &options, false, ctrl)? else { return Ok(()) };
        if o.window.is_some() {
            self.game.models[target].mark(&REACTED);
            self.game.reacted_now.push(target);
        }
        self.game.answering.push((target, choice));
        Ok(())
    }

    /// A reaction's attack on the acting model, under a ruleset where it answers them
    /// (`opposed.acting_answer_cost`): at the first, if its activation has the action points
    /// left, its controller chooses among the answers that only oppose (not one for attacks
    /// from outside its sight only: its answer meets attacks from anywhere); that one answer
    /// meets every reaction's attack of this action.
    fn declare_acting_answer(
        &mut self,
        attacker: usize,
        target: usize,
        o: &crate::compile::Opposed,
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let Some(cost) = o.acting_answer_cost else { return Ok(()) };
        match self.game.acting_answer.as_ref() {
            Some(x) if x.model == target && !x.asked && x.ap_left >= cost => {}
            _ => return Ok(()),
        }
        let options: Vec<AttackAnswer> = (o.answers.iter().enumerate())
            .filter(|(_, a)| matches!(a.kind, AnswerKind::Roll(_)) && a.attacker_seen != Some(false))
            .map(|(answer, _)| AttackAnswer { answer, weapon: None })
            .collect();
        // (A handler's veto is this attacker's: the next reaction's attack may still be answered.)
        let picked = self.pick_answer(target, attacker, &options, true, ctrl)?;
        if let Some(x) = self.game.acting_answer.as_mut() {
            match picked {
                Picked::Forbidden => {}
                Picked::Declined => x.asked = true,
                Picked::Chosen(c) => (x.asked, x.choice) = (true, Some(c)),
            }
        }
        Ok(())
    }

    /// `target`'s controller picks one of `options` to answer `attacker` with (`acting`: the
    /// acting model answering reactions), unless a `reaction` handler forbids it; said.
    fn pick_answer(
        &mut self,
        target: usize,
        attacker: usize,
        options: &[AttackAnswer],
        acting: bool,
        ctrl: &mut dyn Controller,
    ) -> Result<Picked, EngineError> {
        if options.is_empty() {
            return Ok(Picked::Declined);
        }
        if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, target).target(attacker))?.forbid {
            emit!(self, Event::Forbidden { model: target, what: "answer", reason });
            return Ok(Picked::Forbidden);
        }
        let pick = if acting {
            ctrl.answer_reactions(&self.game, target, attacker, options)
        } else {
            ctrl.answer_attack(&self.game, target, attacker, options)
        };
        let Some(pick) = pick else { return Ok(Picked::Declined) };
        let Some(&choice) = options.get(pick) else {
            let reason = format!("its controller chose answer {pick} of {}", options.len());
            emit!(self, Event::Forbidden { model: target, what: "answer", reason });
            return Ok(Picked::Declined);
        };
        let Some(o) = self.rules().attack.as_ref().and_then(|a| a.opposed.as_ref()) else {
            return Ok(Picked::Declined);
        };
        let answer = o.answers[choice.answer].name.clone();
        let weapon = choice.weapon.map(|w| self.cardr(target).weapons[w].name.clone());
        emit!(self, Event::Answered { model: target, target: attacker, answer, weapon });
        Ok(Picked::Chosen(choice))
    }
}
