//! A bot that plays sensibly: closes to its weapons' best distance, locks on before firing guided
//! missiles, fires what is in range, repairs when it cannot shoot, retreats on a mission kill.

use cav_format::vocab::ActionKind as ActionWord;

use crate::game::actions::combat::FIRED_OUT_OF_TURN;
use crate::game::{Action, Controller, Game, Shot};
use crate::geom::P;

#[derive(Default)]
pub struct Bot {
    /// Best distance to fight at, per card (index of `Rules::cards`; `None`: not reckoned yet).
    best: Vec<Option<f64>>,
    /// The action kinds the rules refused the active model this activation (model, its
    /// activation count, kinds): the bot takes them back and passes rather than ask again.
    refused: Option<(usize, u32, Vec<&'static str>)>,
    /// The kind of the action it asked for last.
    last: &'static str,
    /// The action to declare at the next decision whatever it would choose: a searching bot's
    /// candidate, played out by this bot (`search.rs`).
    pub(crate) forced: Option<Action>,
    /// Whether the last action declared was the forced one: refused, it is not taken back (the
    /// candidate was illegal; the game stops with the refusal).
    forcing: bool,
}

/// Chance that the ruleset's standard roll reaches `tp` in an attack, as its roll kind judges it.
fn chance(rules: &crate::Rules, tp: i32) -> f64 {
    rules.engine_chance(tp, false, true)
}

/// Under a ruleset's attack by roll kinds (`procedures.attack`): the hits one shot of `m` by
/// `model` may expect against `target` (`None`: a target whose attributes are not known yet,
/// every attribute 0) at `band`, from the hit roll kind's exact odds with the combat modifiers
/// of the band (the situation's others unknown).
fn rolled_hits(
    g: &Game,
    model: usize,
    m: &crate::compile::MountDef,
    target: Option<usize>,
    band: usize,
) -> Option<f64> {
    use crate::compile::Term;
    let a = g.rules.attack.as_ref()?;
    let mine = g.attributes(model);
    let theirs = target.map(|t| g.attributes(t)).unwrap_or_default();
    let sum = |terms: &[Term]| Term::sum(terms, &mine, &theirs, &m.attributes);
    let rolls = if a.rolls.is_empty() { 1 } else { sum(&a.rolls).clamp(0, cav_format::limits::MAX_ATTACK_ROLLS) };
    let points = if a.points.is_empty() { 1 } else { sum(&a.points).clamp(0, cav_format::limits::MAX_ATTACK_ROLLS) };
    if let Some(dt) = &a.damage_table {
        // A damage model: a hit is worth the key it reads the table by (its rows rise), so the
        // expected key, counted up to the last row's: the chance of each margin it takes.
        let last = g.rules.lookup_tables[dt.table].rows.last().map_or(1, |r| r.min).clamp(1, 16);
        let worth: f64 = (1..=last)
            .map(|key| {
                // The least margin reaching `key`.
                (1..=MARGIN_LOOKAHEAD)
                    .find(|&mg| dt.key(mg, &mine, &theirs, &m.attributes) >= key)
                    .map_or(0.0, |mg| margin_chance(g, model, m, target, band, mg).unwrap_or(0.0))
            })
            .sum();
        return Some(worth * f64::from(rolls));
    }
    let p = hit_chance(g, model, m, target, band)?;
    Some(p * f64::from(rolls) * f64::from(points.max(1)))
}

/// How far ahead a bot looks for the margin a damage table's key needs (margins past it are
/// taken as out of reach: a bound on its work whatever a pack's numbers).
const MARGIN_LOOKAHEAD: i32 = 20;

/// The chance one hit roll of a shot of `m` by `model` succeeds by at least `margin`.
fn margin_chance(
    g: &Game,
    model: usize,
    m: &crate::compile::MountDef,
    target: Option<usize>,
    band: usize,
    margin: i32,
) -> Option<f64> {
    use crate::compile::Term;
    use cav_format::RollDirection;
    let a = g.rules.attack.as_ref()?;
    let (mine, theirs) = (g.attributes(model), target.map(|t| g.attributes(t)).unwrap_or_default());
    let kind = &g.rules.roll_kinds[a.hit.kind];
    let at_band = band_modifier(g, band);
    let need = a.hit.bounded_target(kind, Term::sum(&a.hit.target, &mine, &theirs, &m.attributes), at_band);
    let need = match kind.succeeds {
        RollDirection::AtLeast => need.saturating_add(margin),
        RollDirection::AtMost => need.saturating_sub(margin),
    };
    Some(kind.chance(at_band, need))
}

/// The combat table's modifier for range band `band`.
fn band_modifier(g: &Game, band: usize) -> i32 {
    g.rules
        .combat_mods
        .iter()
        .filter(|x| x.cond.is(&crate::game::conditions::BAND, band as u16))
        .fold(0i32, |t, x| t.saturating_add(x.value))
}

/// The chance one hit roll of a shot of `m` by `model` succeeds (as `rolled_hits` judges it).
fn hit_chance(g: &Game, model: usize, m: &crate::compile::MountDef, target: Option<usize>, band: usize) -> Option<f64> {
    use crate::compile::Term;
    let a = g.rules.attack.as_ref()?;
    let mine = g.attributes(model);
    let theirs = target.map(|t| g.attributes(t)).unwrap_or_default();
    let kind = &g.rules.roll_kinds[a.hit.kind];
    let at_band = band_modifier(g, band);
    let need = Term::sum(&a.hit.target, &mine, &theirs, &m.attributes);
    Some(kind.chance(at_band, a.hit.bounded_target(kind, need, at_band)))
}

/// Under a ruleset whose targets answer attacks (`procedures.attack.opposed`): the chance that
/// `model`'s answer `option` to `attacker` succeeds — its roll, or its shot back's hit roll at
/// the band (the situation's other modifiers unknown).
fn answer_chance(g: &Game, model: usize, attacker: usize, option: crate::AttackAnswer) -> f64 {
    use crate::compile::{AnswerKind, Term};
    let Some(a) = g.rules.attack.as_ref() else { return 0.0 };
    let Some(o) = a.opposed.as_ref() else { return 0.0 };
    let (mine, theirs) = (g.attributes(model), g.attributes(attacker));
    match (&o.answers[option.answer].kind, option.weapon) {
        (AnswerKind::Roll(terms), _) => {
            let kind = &g.rules.roll_kinds[g.rules.contests[o.contest].roll];
            kind.chance(0, Term::sum(terms.as_slice(), &theirs, &mine, &[]))
        }
        (AnswerKind::Shoots, Some(w)) => {
            let Some(band) = g.band(model, w, attacker) else { return 0.0 };
            let Some(m) = g.card(model).weapons.get(w) else { return 0.0 };
            hit_chance(g, model, m, Some(attacker), band).unwrap_or(0.0)
        }
        (AnswerKind::Shoots, None) => 0.0,
    }
}

impl Bot {
    pub(crate) fn best_distance(&mut self, g: &Game, model: usize) -> f64 {
        let card_ix = g.models[model].card;
        if let Some(Some(d)) = self.best.get(card_ix) {
            return *d;
        }
        let card = g.card(model);
        let rules = g.rules;
        let mut best = (f64::MIN, 12.0);
        for d in 1..=72 {
            let d = f64::from(d);
            let mut score = 0.0;
            for m in &card.weapons {
                if d <= m.min_range {
                    continue;
                }
                if let Some((band, b)) = rules.bands.iter().enumerate().find(|(_, b)| d <= m.range * b.multiplier) {
                    if let Some(hits) = rolled_hits(g, model, m, None, band).filter(|_| !m.indirect) {
                        score += hits * f64::from(m.quantity);
                        continue;
                    }
                    let tp = if m.indirect { b.strike_point_tp } else { b.combat_tp };
                    let rav = m.rav[0].0.or(m.rav[0].1).map_or(0, i32::from);
                    score += chance(rules, tp) * f64::from(rav + 2) * f64::from(m.quantity);
                }
            }
            if score >= best.0 {
                best = (score, d);
            }
        }
        // Nothing it carries can hurt at any distance (no weapons, or a game without range bands
        // whose fighting is close or scripted): it closes in.
        if best.0 <= 0.0 {
            best.1 = 0.0;
        }
        if self.best.len() <= card_ix {
            self.best.resize(card_ix + 1, None);
        }
        self.best[card_ix] = Some(best.1);
        best.1
    }

    /// Expected worth of firing these (weapon, shot) pairs at `target`: chance to hit × (RAV + 2) ×
    /// quantity (under an attack by roll kinds: the hits to expect × quantity).
    pub(crate) fn value(g: &Game, model: usize, target: usize, shots: &[(usize, Shot)]) -> f64 {
        let card = g.card(model);
        shots
            .iter()
            .map(|(w, shot)| {
                let m = &card.weapons[*w];
                if let Shot::Direct { band, .. } = shot
                    && let Some(hits) = rolled_hits(g, model, m, Some(target), *band)
                {
                    return hits * f64::from(m.quantity);
                }
                let rav = m.rav[g.column(model)].0.or(m.rav[g.column(model)].1).map_or(0, i32::from);
                let p = match shot {
                    Shot::Direct { band, .. } => chance(g.rules, g.rules.bands[*band].combat_tp),
                    Shot::Indirect { band, .. } => {
                        let ten_plus =
                            g.rules.proc.rolls.ten_plus_rolls.contains(&cav_format::RollKind::StrikePointRoll);
                        g.rules.engine_chance(g.rules.bands[*band].strike_point_tp, ten_plus, false).max(0.15)
                            * chance(g.rules, g.rules.indirect_tp)
                    }
                    Shot::No(_) => 0.0,
                };
                p * f64::from(rav + 2) * f64::from(m.quantity)
            })
            .sum()
    }

    /// The better of a direct and an indirect combat action against `target`, if any weapon can fire.
    pub(crate) fn best_fire(g: &Game, model: usize, target: usize) -> Option<(Vec<usize>, bool, f64)> {
        let card = g.card(model);
        // One shooter for both ways of firing: what depends on the model alone is read once.
        let shooter = g.shooter(model);
        let mut options = [None, None];
        for (option, indirect) in options.iter_mut().zip([false, true]) {
            let shots = Self::one_per_launcher(card, |w| shooter.shot(w, target, indirect));
            if !shots.is_empty() {
                let v = Self::value(g, model, target, &shots);
                *option = Some((shots.iter().map(|(w, _)| *w).collect(), indirect, v));
            }
        }
        options.into_iter().flatten().max_by(|a, b| a.2.total_cmp(&b.2))
    }

    /// A guided missile that a lock would let fire at `target`.
    fn lock_helps(g: &Game, model: usize, target: usize) -> bool {
        let me = &g.models[model];
        if me.lock == Some(target) || g.painted(model, target) {
            return false;
        }
        let card = g.card(model);
        let dist = g.range(model, target);
        card.weapons.iter().enumerate().any(|(w, m)| {
            m.requires_target_lock
                && !g.homes_on(m, target)
                && !me.out_of_ammo[w]
                && dist > m.min_range
                && dist <= m.range * g.rules.bands.last().map_or(1.0, |b| b.multiplier)
        })
    }
}

impl Bot {
    /// Move towards the point `best` inches from the target, preferring a spot in cover nearby
    /// (light or heavy woods, rubble) that the model may enter.
    /// An aircraft in flight that has no shot this activation closes flying nap of the earth,
    /// out of sight of the ground (where the ruleset has it).
    fn low_if_unarmed(g: &Game, model: usize, no_shot: bool, step: Action) -> Action {
        let moving = step.kind == Action::move_to(P::new(0.0, 0.0)).kind;
        let low = no_shot && moving && g.flying(model) && g.rules.proc.flight.is_some();
        Action { noe: low, ..step }
    }

    pub(crate) fn approach(&self, g: &Game, model: usize, target: usize, best: f64) -> Action {
        let tp = g.models[target].pos;
        let dir = g.models[model].pos - tp;
        let len = dir.len().max(1e-6);
        let want = best + g.card(model).base_radius + g.card(target).base_radius;
        let ideal = tp + dir.scale(want / len);
        let side = P::new(-dir.y / len, dir.x / len);
        let along = dir.scale(1.0 / len);
        let mc = g.card(model).move_class;
        let [w, h] = g.board.size;
        let rank = |c: cav_format::Cover| match c {
            cav_format::Cover::Light => 1,
            cav_format::Cover::Heavy => 2,
            _ => 0,
        };
        let score = |p: P| -> i32 {
            if p.x < 1.0 || p.y < 1.0 || p.x > w - 1.0 || p.y > h - 1.0 {
                return -1;
            }
            let mut best = 0;
            for a in g.board.areas.iter().filter(|a| a.center.dist(p) <= a.radius && a.poly.contains(p)) {
                let terrain = &g.rules.terrains[a.terrain];
                if g.terrain_cost(model, mc, terrain) == crate::compile::Cost::No {
                    return -1;
                }
                best = best.max(rank(terrain.cover));
            }
            best
        };
        let mut choice = (score(ideal), 0.0, ideal);
        for (ds, da) in
            [(2.0, 0.0), (-2.0, 0.0), (0.0, 2.0), (0.0, -2.0), (3.0, 2.0), (-3.0, 2.0), (3.0, -2.0), (-3.0, -2.0)]
        {
            let p = ideal + side.scale(ds) + along.scale(da);
            let sc = score(p);
            let off: f64 = f64::hypot(ds, da);
            if sc > choice.0 {
                choice = (sc, off, p);
            }
        }
        Self::stride(g, model, choice.2)
    }

    /// The move to `to`: with Improved Handling, a drift where the way lies within its reach off
    /// the facing (fewer MV, and the facing kept), a lateral shift where it lies nearly square to
    /// it (straight aside, as far as the way goes that way); else a move.
    fn stride(g: &Game, model: usize, to: P) -> Action {
        let (from, facing) = (g.models[model].pos, g.models[model].facing);
        if to.dist(from) < 1e-6 {
            return Action::move_to(to);
        }
        let off = crate::geom::angle_diff(facing, from.bearing(to)).abs();
        // (A legal shift that is not straight aside nor straight ahead is a drift.)
        if off > 1.0 && (off - 90.0).abs() > 1e-6 && g.shift_cost_factor(model, from, to).is_ok() {
            return Action::shift(to);
        }
        if (80.0..=100.0).contains(&off) {
            let aside =
                P::heading(facing + if crate::geom::angle_diff(facing, from.bearing(to)) > 0.0 { 90.0 } else { -90.0 });
            let way = to - from;
            let lateral = from + aside.scale(way.x * aside.x + way.y * aside.y);
            if g.shift_cost_factor(model, from, lateral).is_ok() && g.on_board(lateral) {
                return Action::shift(lateral);
            }
        }
        Action::move_to(to)
    }
}

impl Bot {
    /// The dearest strike with an attack that the side's pools still pay for and that reaches
    /// `target` from the caller's centre, called on it; `None` when the Special action is used.
    fn strike_call(g: &Game, model: usize, target: usize) -> Option<Action> {
        if g.used.contains(&ActionWord::Special) || g.rules.proc.strike_point_tp.is_none() {
            return None;
        }
        let side = g.models[model].side;
        let at = g.models[target].pos;
        let reach = g.models[model].pos.dist(at);
        let pools = g.features.strikes.pools.get(side)?;
        g.card(model)
            .weapons
            .iter()
            .enumerate()
            .filter_map(|(w, m)| {
                let def = &g.rules.strikes[m.strike? as usize];
                let terms = g.card(model).strike_terms(def, g.rules.strike_caller)?;
                let left = pools.get(&def.package).copied().unwrap_or(0);
                let attacks = m.rav.iter().any(|&(h, s)| h.is_some() || s.is_some());
                ((!terms.pays || left >= def.cost) && attacks && m.range >= reach).then_some((def.cost, w))
            })
            .max_by_key(|&(cost, w)| (cost, std::cmp::Reverse(w)))
            .map(|(_, w)| Action::call_strike(w, at))
    }

    /// Every weapon that can fire directly at `target` now.
    pub(crate) fn direct_weapons(g: &Game, model: usize, target: usize) -> Option<Vec<usize>> {
        let shooter = g.shooter(model);
        let ws: Vec<usize> = Self::one_per_launcher(g.card(model), |w| {
            matches!(shooter.shot(w, target, false), Some(Shot::Direct { .. })).then_some(())
        })
        .into_iter()
        .map(|(w, ())| w)
        .collect();
        (!ws.is_empty()).then_some(ws)
    }

    /// A launcher fires one munition per action: the bot takes the first it may fire. The
    /// mounts of `card` in order that `fires` answers for (the rest of a launcher's munitions
    /// are not asked about once one fires), with the answers.
    fn one_per_launcher<T>(
        card: &crate::compile::CardDef,
        mut fires: impl FnMut(usize) -> Option<T>,
    ) -> Vec<(usize, T)> {
        let launcher = |w: usize| card.weapons[w].launcher.unwrap_or(w);
        let mut kept: Vec<(usize, T)> = Vec::new();
        for w in 0..card.weapons.len() {
            if kept.iter().any(|&(k, _)| launcher(k) == launcher(w)) {
                continue;
            }
            if let Some(x) = fires(w) {
                kept.push((w, x));
            }
        }
        kept
    }

    /// What a model aboard transport `t` does: fire from a free gun port, or get out.
    fn rider(g: &Game, model: usize, t: usize) -> Action {
        let me = &g.models[model];
        if me.has(&crate::game::actions::MOUNTED) {
            return Action::pass();
        }
        let at = g.models[t].pos;
        // With a gun port free, it fires from inside at the enemy its weapons do best
        // against from where the transport stands (001 L7520-7530).
        if crate::game::actions::combat::port_free(g, model) {
            let mut inside = g.clone();
            (inside.models[model].pos, inside.models[model].facing) = (at, g.models[t].facing);
            let best = g
                .fighting_enemies(model)
                .filter_map(|e| Self::best_fire(&inside, model, e).filter(|f| !f.1).map(|f| (e, f)))
                .max_by(|a, b| a.1.2.total_cmp(&b.1.2));
            if let Some((e, (weapons, _, _))) = best {
                return Action::fire(e, weapons);
            }
        }
        let near =
            g.fighting_enemies(model).min_by(|&a, &b| at.dist(g.models[a].pos).total_cmp(&at.dist(g.models[b].pos)));
        Action::dismount(near.map_or(at, |e| g.models[e].pos))
    }

    /// A mission-killed model falls back, unless it cannot move or would close on an enemy while
    /// suppressed.
    fn retreat(g: &Game, model: usize) -> Action {
        let me = &g.models[model];
        let p = me.pos;
        let to = g.withdraw_point(model);
        // A suppressed model may not close on an enemy, even retreating.
        let suppressed = g.state_blocks(model, |s| s.no_advance);
        let closes = g.fighting_enemies(model).any(|e| to.dist(g.models[e].pos) < p.dist(g.models[e].pos));
        if g.move_value(model) == 0 || (suppressed && closes) {
            return Action::pass();
        }
        Action::move_to(to)
    }

    /// The special action the model takes first, if any: a system switched on, a friend mended, a
    /// barrier laid, the target painted.
    fn special(g: &Game, model: usize, target: usize, ap: u32) -> Option<Action> {
        let me = &g.models[model];
        // A system switched on each turn (APA, ECM, a switched upgrade) is switched on first.
        let scripted_switch = g.scripted
            && g.card(model).sas.iter().any(|(sa, _)| {
                let def = &g.rules.sas[*sa as usize];
                def.switched_on && def.script.is_some() && def.hooks.contains(&cav_format::HookPoint::SpecialAction)
            });
        let upgrade_off = g.rules.cards[g.models[model].card]
            .switch
            .as_ref()
            .is_some_and(|s| s.states.iter().any(|&st| !g.models[model].has_state(st)));
        if ap >= 1 && !g.used.contains(&ActionWord::Special) && (scripted_switch || upgrade_off) {
            return Some(Action::special(None));
        }
        // A combat engineer mends a damaged friend in contact with a field repair asset.
        if ap >= 1
            && !g.used.contains(&ActionWord::Special)
            && let Some(friend) = crate::game::actions::field_repair_target(g, model)
        {
            return Some(Action::field_repair(friend));
        }
        // A combat engineer seen in the open by the nearest enemy lays a barrier its side holds
        // towards it: the wall then lies across that line of sight (001 L10600-10620).
        if ap >= 1
            && !g.used.contains(&ActionWord::Special)
            && g.asset_user(model)
            && crate::game::actions::lay_barrier::wall_asset(g, me.side).is_some()
            && g.sight(target, model, false) == (true, cav_format::Cover::None)
        {
            let to = g.models[target].pos;
            let action = Action::lay_barrier(to);
            if crate::game::actions::ActionKind::check(
                &crate::game::actions::lay_barrier::LayBarrier,
                g,
                model,
                &action,
            )
            .is_ok()
            {
                return Some(action);
            }
        }
        // A TAG paints the nearest enemy for friends yet to act whose guided missiles want a lock.
        if ap >= 1
            && !g.used.contains(&ActionWord::Special)
            && g.card(model).tag.is_some()
            && !g.models[target].states.iter().any(|(s, _)| g.rules.states[*s as usize].painted)
            && (0..g.models.len()).any(|f| {
                f != model
                    && g.models[f].side == me.side
                    && g.models[f].on_table()
                    && !g.models[f].activated
                    && Self::lock_helps(g, f, target)
            })
            && crate::game::actions::find("tag").is_some_and(|k| k.check(g, model, &Action::tag(target)).is_ok())
        {
            return Some(Action::tag(target));
        }
        None
    }
}

impl Controller for Bot {
    fn defensive_fire(&mut self, g: &Game, defender: usize, attacker: usize) -> Option<Vec<usize>> {
        Self::direct_weapons(g, defender, attacker)
    }

    /// Close defense: always, when offered.
    fn close_defense(&mut self, _: &Game, _: usize, _: usize) -> bool {
        true
    }

    /// Counter-battery: every indirect weapon that reaches the enemy artillery answers.
    fn counter_battery(&mut self, g: &Game, model: usize, attacker: usize) -> Option<Vec<usize>> {
        let shooter = g.shooter(model);
        let weapons: Vec<usize> = (0..g.card(model).weapons.len())
            .filter(|&k| {
                g.card(model).weapons[k].indirect
                    && !g.models[model].out_of_ammo[k]
                    && matches!(shooter.shot(k, attacker, true), Some(Shot::Indirect { .. }))
            })
            .collect();
        (!weapons.is_empty()).then_some(weapons)
    }

    fn overwatch_fire(&mut self, g: &Game, watcher: usize, mover: usize) -> Option<Vec<usize>> {
        Self::direct_weapons(g, watcher, mover)
    }

    /// C3 points: rally when two models or more are held down, motivate a model that has a shot
    /// while a point stays in reserve for a rally.
    fn spend_c3(&mut self, g: &Game, model: usize, what: cav_format::vocab::C3Use) -> bool {
        use cav_format::vocab::C3Use;
        let side = g.models[model].side;
        let pool = g.features.c3.pool.get(side).copied().unwrap_or(0);
        match what {
            C3Use::Rally => {
                let clears = g.rules.c3.as_ref().map(|c| c.rally_clears.as_slice()).unwrap_or_default();
                g.models
                    .iter()
                    .filter(|m| m.side == side && m.on_table() && m.states.iter().any(|(s, _)| clears.contains(s)))
                    .count()
                    >= 2
            }
            C3Use::Motivate => pool >= 2 && g.fighting_enemies(model).any(|e| Self::best_fire(g, model, e).is_some()),
            _ => false,
        }
    }

    /// A recon model's pre-game move: towards the nearest enemy, as far as it would close anyway.
    fn pre_game_move(&mut self, g: &Game, model: usize) -> Option<P> {
        let me = &g.models[model];
        let target =
            g.fighting_enemies(model).min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)))?;
        let best = self.best_distance(g, model);
        let step = self.approach(g, model, target, best);
        step.to.filter(|to| to.dist(me.pos) > 1e-6)
    }

    /// Seize the initiative while the pool keeps two points, with the model of a fresh friendly
    /// squad that has a shot now.
    fn seize_initiative(&mut self, g: &Game, squad: usize) -> Option<usize> {
        let side = g.squads[squad].side;
        if g.features.c3.pool.get(side).copied().unwrap_or(0) < 3 {
            return None;
        }
        g.squads
            .iter()
            .enumerate()
            .filter(|(s, q)| *s != squad && q.side == side && q.members.iter().all(|&m| !g.models[m].activated))
            .flat_map(|(_, q)| q.members.iter().copied())
            .find(|&m| g.models[m].on_table() && g.fighting_enemies(m).any(|e| Self::best_fire(g, m, e).is_some()))
    }

    /// Fire back with every weapon that has a direct shot, where the window offers combat.
    fn react(&mut self, g: &Game, window: usize, reactor: usize, actor: usize) -> Option<Action> {
        let offers = |w: ActionWord| g.rules.reaction_windows[window].actions.iter().any(|a| a.as_str() == w.id());
        if !offers(ActionWord::Combat) || !g.can_fight(reactor) {
            return None;
        }
        Self::direct_weapons(g, reactor, actor).map(|ws| Action::fire(actor, ws))
    }

    /// The answer likeliest to succeed, a shot back's success counting half again: as likely,
    /// it cancels the attacker's rolls as well as a roll that only opposes, and may hit.
    fn answer_attack(
        &mut self,
        g: &Game,
        model: usize,
        attacker: usize,
        options: &[crate::AttackAnswer],
    ) -> Option<usize> {
        let score = |o: &crate::AttackAnswer| {
            let p = answer_chance(g, model, attacker, *o);
            if o.weapon.is_some() { p * 1.5 } else { p }
        };
        (0..options.len()).max_by(|&a, &b| score(&options[a]).total_cmp(&score(&options[b])))
    }

    fn refused(&mut self, g: &Game, model: usize, _reason: &str) -> bool {
        if std::mem::take(&mut self.forcing) {
            return false;
        }
        let now = (model, g.models[model].activations);
        match &mut self.refused {
            Some((m, n, kinds)) if (*m, *n) == now => kinds.push(self.last),
            slot => *slot = Some((now.0, now.1, vec![self.last])),
        }
        true
    }

    fn decide(&mut self, g: &Game, model: usize, ap: u32) -> Action {
        self.forcing = self.forced.is_some();
        if let Some(forced) = self.forced.take() {
            return forced;
        }
        let action = self.choose(g, model, ap);
        self.last = action.kind;
        // An action the rules refused this activation (an action slot the unit has used) is not
        // asked for again: the model closes on the nearest enemy instead, unless moving was
        // refused too.
        let action = match &self.refused {
            Some((m, n, kinds)) if (*m, *n) == (model, g.models[model].activations) && kinds.contains(&action.kind) => {
                let near =
                    g.fighting_enemies(model).min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)));
                match near {
                    Some(e) if !kinds.contains(&"move") && g.distance(model, e) > 0.0 => {
                        self.last = "move";
                        Action::move_to(g.models[e].pos)
                    }
                    _ => Action::pass(),
                }
            }
            _ => action,
        };
        match Self::faster(g, model, &action) {
            Some(run) => run,
            None => Self::coherent(g, model, action),
        }
    }
}

impl Bot {
    /// A move towards a point beyond the model's move value, taken as the ruleset's own faster
    /// move where the model may take one now (a run: `move_times`) and it keeps coherency.
    fn faster(g: &Game, model: usize, action: &Action) -> Option<Action> {
        let to = action.to.filter(|_| {
            action.kind == Action::move_to(P::new(0.0, 0.0)).kind && action.declared.is_none() && action.path.is_empty()
        })?;
        if g.models[model].pos.dist(to) <= f64::from(g.move_value(model)) {
            return None;
        }
        // Of those it may take, the one that uses the fewest action slots (a RUN before an
        // OVERRUN, which would spend the shot too).
        let slots = |id: &str| g.rules.slot_uses.get(id).map_or(0, |s| s.mask.count_ones());
        let (ix, own) = g
            .rules
            .own_actions
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.kind == action.kind
                    && o.move_times > 1.0
                    && g.slots_allow(model, &o.id)
                    && g.rules.action_costs.contains_key(&o.id)
                    && g.action_closed(model, &o.id, None).is_none()
            })
            .min_by_key(|(_, o)| slots(&o.id))?;
        let keeps = g.rules.proc.coherency.is_none() || g.coherent_move_by(model, to, own.move_times);
        keeps.then(|| Action { declared: Some(ix as u16), ..action.clone() })
    }

    /// A move that would leave the model out of its unit's coherency (`procedures.coherency`)
    /// stops at the farthest tenth of the way that keeps it; failing that the model closes on
    /// its nearest unit mate, or does not move.
    fn coherent(g: &Game, model: usize, action: Action) -> Action {
        let Some(rule) = g.rules.proc.coherency.as_ref() else { return action };
        let o = P::new(0.0, 0.0);
        let moving = [Action::move_to(o).kind, Action::shift(o).kind, Action::reverse(o).kind].contains(&action.kind);
        let Some(to) = action.to.filter(|&to| moving && action.path.is_empty() && !g.coherent_move(model, to)) else {
            return action;
        };
        let from = g.models[model].pos;
        let along = (1..10).rev().map(|k| from + (to - from).scale(f64::from(k) / 10.0));
        let mate = g.models[model].squad.and_then(|s| {
            let mates = g.squads[s].members.iter().copied().filter(|&m| m != model && g.models[m].on_table());
            mates.min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)))
        });
        let beside = mate.map(|m| {
            let at = g.models[m].pos;
            let gap = g.card(model).base_radius + g.card(m).base_radius + rule.chain / 2.0;
            at + (from - at).scale(gap / from.dist(at).max(1e-6))
        });
        match along.chain(beside).find(|&p| g.coherent_move(model, p)) {
            Some(p) => Action { to: Some(p), ..action },
            None => Action::pass(),
        }
    }

    fn choose(&mut self, g: &Game, model: usize, ap: u32) -> Action {
        let me = &g.models[model];
        // A rider gets out on the side of the nearest enemy (unless it boarded this turn).
        if let Some(t) = me.features.transport.aboard {
            return Self::rider(g, model, t);
        }
        // Coming onto the table: the first action is a move, towards the objective or the enemy.
        if me.has(&crate::game::actions::ENTERING) {
            let near = g.fighting_enemies(model).min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)));
            if let Some(to) = g.objective_for(model).or(near.map(|e| g.models[e].pos)) {
                return Action::move_to(to);
            }
        }
        // (Where a move stands the model up first, it simply moves.)
        if (me.prone
            || g.models[model]
                .states
                .iter()
                .any(|(s, _)| g.rules.states[*s as usize].duration == cav_format::StateDuration::UntilStandUp))
            && g.rules.proc.movement.stand_up_cost.is_none()
        {
            return Action::stand_up();
        }
        if me.mission_kill {
            return Self::retreat(g, model);
        }
        // The nearest enemy it can attack: an emplacement is attacked through its bunker; a unit
        // that declared its target this activation keeps to it.
        let declared = g.unit_target(model);
        let Some(target) = g
            .fighting_enemies(model)
            .filter(|&e| g.card(e).emplacement.is_none())
            .filter(|&e| declared.is_none_or(|d| g.same_unit(d, e)))
            .min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)))
        else {
            return Action::pass();
        };
        if let Some(special) = Self::special(g, model, target, ap) {
            return special;
        }
        // A strike caller first calls in a strike on the nearest enemy, if its side can pay one.
        if ap >= 1
            && let Some(call) = Self::strike_call(g, model, target)
        {
            return call;
        }
        let fired = g.used.contains(&ActionWord::Combat) || g.models[model].has(&FIRED_OUT_OF_TURN);
        let fire = if g.can_fight(model) && !fired { Self::best_fire(g, model, target) } else { None };
        let best = self.best_distance(g, model);
        let dist = g.distance(model, target);
        let far = (dist - best).abs() > 2.0;
        let suppressed = g.models[model].states.iter().any(|(s, _)| g.rules.states[*s as usize].no_advance);
        // A downed model whose move would stand it up first needs the MV to do it.
        let down = || {
            me.prone
                || me
                    .states
                    .iter()
                    .any(|(s, _)| g.rules.states[*s as usize].duration == cav_format::StateDuration::UntilStandUp)
        };
        let stand_cost = match g.rules.proc.movement.stand_up_cost {
            Some(cost) if down() => cost,
            _ => 0,
        };
        let mv = g.move_value(model);
        let can_move = mv > 0 && mv >= stand_cost && !suppressed;
        // A scenario scored by areas: make for the nearest one the side does not hold, unless a
        // shot is ready from here.
        if let Some(goal) = g.objective_for(model)
            && can_move
        {
            if goal.dist(me.pos) > g.objective_reach() && (fire.is_none() || (far && ap >= 2)) {
                return Action::move_to(goal);
            }
            // The keeper of an area holds it, shooting when it can.
            if fire.is_none() && (g.kept_area(model).is_some() || g.salvaging(model)) {
                return Action::pass();
            }
        }
        // Close in first; at the right distance lock on (guided missiles, targeting computer), then fire.
        if far && can_move && ap >= 2 {
            return Self::low_if_unarmed(g, model, fire.is_none(), self.approach(g, model, target, best));
        }
        if ap >= 2
            && g.can_fight(model)
            && !fired
            && !g.used.contains(&ActionWord::TargetLock)
            && g.action_closed(model, ActionWord::TargetLock.id(), Some(target)).is_none()
            && Self::lock_helps(g, model, target)
        {
            return Action::target_lock(target);
        }
        if let Some((weapons, indirect, _)) = &fire {
            let fire = Action::fire(target, weapons.clone());
            // Inspire a shot while the pool keeps two points for motivating and rallying.
            let inspire = g.features.c3.pool.get(me.side).is_some_and(|&n| n >= 3);
            return Action { indirect: *indirect, inspire, ..fire };
        }
        // Repair when nothing can be hit from here and the model is worth fixing.
        let card = g.card(model);
        let repairable = g.rules.proc.repair.as_ref().is_some_and(|r| me.damage > r.lingering_damage)
            && card.damage_control[g.column(model)].is_some_and(|dc| dc >= 1)
            && g.action_closed(model, ActionWord::Repair.id(), None).is_none();
        if fire.is_none() && repairable && ap == 1 && !g.used.contains(&ActionWord::Repair) {
            return Action::repair();
        }
        if far && can_move {
            return Self::low_if_unarmed(g, model, fire.is_none(), self.approach(g, model, target, best));
        }
        // In range but facing away: turn towards the target with a short step.
        // Asked last: the arcs need a bearing per weapon, and only matter without a shot.
        let out_of_arc = || (0..g.card(model).weapons.len()).any(|w| !g.in_arc(model, w, target));
        if fire.is_none() && !fired && can_move && g.move_value(model) >= 2 && out_of_arc() {
            let (p, tp) = (g.models[model].pos, g.models[target].pos);
            let dir = tp - p;
            return Action::move_to(p + dir.scale(0.25 / dir.len().max(1e-6)));
        }
        if repairable && !g.used.contains(&ActionWord::Repair) {
            return Action::repair();
        }
        Action::pass()
    }
}
