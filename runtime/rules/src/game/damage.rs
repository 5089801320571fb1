//! The end of an activation: damage, pilot checks, states and criticals; destruction and mission kills.

use super::engine::Situation;
use super::*;
use crate::compile::{AttributeChange, Row};

impl<'a, 'r> Engine<'a, 'r> {
    /// `points` of damage from `attacker`'s hit on `target`, waiting for the end of the
    /// activation: the model's own, or its unit's under a unit damage pool (`unit_damage`).
    pub(crate) fn take_damage(&mut self, attacker: usize, target: usize, points: u32) {
        match self.game.models[target].squad.filter(|_| self.rules().proc.damage.unit_pool.is_some()) {
            Some(squad) => self.pool_damage(attacker, target, squad, points),
            None => {
                let pending = &mut self.game.models[target].pending.damage;
                *pending = pending.saturating_add(points);
            }
        }
    }

    /// A model is dealt a state: it gains it unless its type is immune or a state it has
    /// supersedes it (both said: `state_ignored`), or a `model_state` handler forbids it.
    pub(crate) fn add_state(&mut self, model: usize, s: StateIx) -> Result<(), EngineError> {
        let r = self.rules();
        let def = &r.states[s as usize];
        let me = &self.game.models[model];
        if !me.on_table() {
            return Ok(());
        }
        if def.immune.contains(&self.cardr(model).model_type) {
            emit!(self, Event::StateIgnored { model, state: def.name.clone(), why: "immune" });
            return Ok(());
        }
        // A state superseded by one the model has is not gained.
        if me.states.iter().any(|(x, _)| r.states[*x as usize].supersedes.contains(&s)) {
            emit!(self, Event::StateIgnored { model, state: def.name.clone(), why: "superseded" });
            return Ok(());
        }
        if !me.has_state(s) && self.model_state_hook(model, s, true)?.is_some() {
            return Ok(());
        }
        let me = &self.game.models[model];
        let active_now = self.game.active == Some(model);
        // When it ends: an activation count, or for states bounded by turns the turn it ends
        // at the end of (`StateDef::by_turns`).
        let ends = match def.duration {
            StateDuration::NextActivation => me.activations + 1 + u32::from(active_now),
            StateDuration::Activations => me.activations + def.activations + u32::from(active_now),
            StateDuration::UntilEndOfTurn => self.game.turn,
            StateDuration::Turns => self.game.turn.saturating_add(def.turns.saturating_sub(1)),
            _ => u32::MAX,
        };
        let me = &mut self.game.models[model];
        if let Some(slot) = me.states.iter_mut().find(|(x, _)| *x == s) {
            slot.1 = slot.1.max(ends); // the same state does not stack
            return Ok(());
        }
        me.states.retain(|(x, _)| !def.supersedes.contains(x));
        me.states.push((s, ends));
        emit!(self, Event::StateGained { model, state: def.name.clone() });
        Ok(())
    }

    /// A model gains a state its own action or move gives it (the ruleset's fast and still
    /// states, over-watch, going prone, a switched-on special attribute): a type immune to it
    /// simply does not, without the `state_ignored` that a state dealt to it is told with.
    pub(crate) fn add_own_state(&mut self, model: usize, s: StateIx) -> Result<(), EngineError> {
        if self.rules().states[s as usize].immune.contains(&self.cardr(model).model_type) {
            return Ok(());
        }
        self.add_state(model, s)
    }

    /// States bounded by turns that end with this one (at the end phase, after its handlers).
    pub(crate) fn states_end_with_the_turn(&mut self) {
        let (r, turn) = (self.rules(), self.game.turn);
        for model in 0..self.game.models.len() {
            let me = &mut self.game.models[model];
            let ends = |(s, e): &(StateIx, u32)| r.states[*s as usize].by_turns() && *e <= turn;
            let ended: Vec<StateIx> = me.states.iter().filter(|x| ends(x)).map(|(s, _)| *s).collect();
            me.states.retain(|x| !ends(x));
            for s in ended {
                emit!(self, Event::StateEnded { model, state: r.states[s as usize].name.clone() });
            }
        }
    }

    /// A model loses a state it has (a script's `clear_state`).
    pub(crate) fn clear_state(&mut self, model: usize, s: StateIx) -> Result<(), EngineError> {
        if !self.game.models[model].has_state(s) {
            return Ok(());
        }
        self.game.models[model].states.retain(|(x, _)| *x != s);
        emit!(self, Event::StateEnded { model, state: self.rules().states[s as usize].name.clone() });
        self.model_state_hook(model, s, false).map(|_| ())
    }

    /// `model_state`: the model's handlers see a state gained (they may forbid it) or lost.
    /// Effects a `model_state` handler asks for do not call `model_state` again, so two scripts
    /// cannot set each other off forever.
    fn model_state_hook(&mut self, model: usize, s: StateIx, gained: bool) -> Result<Option<String>, EngineError> {
        if self.game.in_model_state || !self.hooks.wants(HookPoint::ModelState) {
            return Ok(None);
        }
        let mut ctx = HookCtx::new(HookPoint::ModelState, model);
        ctx.state = Some((s, gained));
        self.game.in_model_state = true;
        let answer = self.call_hooks(ctx);
        self.game.in_model_state = false;
        let forbid = answer?.forbid;
        Ok(if gained { forbid } else { None })
    }

    /// Damage, pilot checks, states and criticals land at the end of the activation — of the
    /// whole squad's, while a squad activates (`Game::squad_activating`, 001 L5328-5348).
    pub(crate) fn end_activation(&mut self, active: usize) -> Result<(), EngineError> {
        let r = self.rules();
        if !self.game.squad_activating {
            self.close_combats()?;
            self.land_unit_damage();
            for model in 0..self.game.models.len() {
                self.resolve_pending(model)?;
            }
        }
        // The slots this activation used are the model's (its unit's, at the unit's end) till the turn ends.
        self.game.models[active].slots_used |= std::mem::take(&mut self.game.slots_now);
        // States bounded by activations end with this one.
        let me = &mut self.game.models[active];
        me.activations += 1;
        let n = me.activations;
        let by_activations = |(s, e): &(StateIx, u32)| *e <= n && !r.states[*s as usize].by_turns();
        let ended: Vec<StateIx> = me.states.iter().filter(|x| by_activations(x)).map(|(s, _)| *s).collect();
        me.states.retain(|x| !by_activations(x));
        for s in ended {
            emit!(self, Event::StateEnded { model: active, state: r.states[s as usize].name.clone() });
        }
        for f in features::each(self.game.schedule.activation_ending) {
            if let Some(run) = f.activation_ending {
                run(self, active);
            }
        }
        self.movement_state(active)?;
        self.mission_kills();
        for f in features::each(self.game.schedule.activation_end) {
            if let Some(run) = f.activation_end {
                run(self, active);
            }
        }
        self.game.flags.end(super::FlagScope::Activation);
        emit!(self, Event::ActivationEnd { model: active });
        self.game.active = None;
        Ok(())
    }

    /// The end of a squad's activation: what its models' attacks did lands now.
    pub(crate) fn end_squad_activation(&mut self) -> Result<(), EngineError> {
        self.game.squad_activating = false;
        self.close_combats()?;
        self.land_unit_damage();
        for model in 0..self.game.models.len() {
            self.resolve_pending(model)?;
        }
        if let Some(squad) = self.game.unit_activating.take() {
            for f in features::each(self.game.schedule.squad_activation_end) {
                if let Some(run) = f.squad_activation_end {
                    run(self, squad)?;
                }
            }
        }
        self.mission_kills();
        Ok(())
    }

    /// The start of a model's activation: nothing moved yet, and states that last until now end.
    pub(crate) fn begin_activation(&mut self, model: usize) {
        let me = &mut self.game.models[model];
        (me.moved, me.moved_forward, me.mv_spent) = (0.0, 0.0, 0);
        let states = &self.game.rules.states;
        let ended: Vec<StateIx> = me
            .states
            .iter()
            .filter(|(s, _)| states[*s as usize].duration == StateDuration::UntilNextActivation)
            .map(|(s, _)| *s)
            .collect();
        me.states.retain(|(s, _)| states[*s as usize].duration != StateDuration::UntilNextActivation);
        for s in ended {
            emit!(self, Event::StateEnded { model, state: self.game.rules.states[s as usize].name.clone() });
        }
    }

    /// The end of a model's activation: it gains the ruleset's state for moving fast (far enough
    /// forward, or at all by its type) or for not moving at all.
    fn movement_state(&mut self, model: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let me = &self.game.models[model];
        if !me.on_table() {
            return Ok(());
        }
        let g = &self.game;
        if let Some((state, inches, any_move)) = &r.proc.fast_state {
            let by_type = any_move.iter().any(|t| g.has_trait_now(model, *t)) && me.moved > 0.0;
            if me.moved_forward + 1e-9 >= *inches || by_type {
                return self.add_own_state(model, *state);
            }
        }
        if let Some((state, except)) = &r.proc.still_state
            && me.moved == 0.0
            && !except.iter().any(|t| g.has_trait_now(model, *t))
        {
            return self.add_own_state(model, *state);
        }
        Ok(())
    }

    /// Apply what waits for a model: damage, then one pilot check, states and criticals.
    pub(crate) fn resolve_pending(&mut self, model: usize) -> Result<(), EngineError> {
        let p = std::mem::take(&mut self.game.models[model].pending);
        if !self.game.models[model].on_table() {
            return Ok(());
        }
        if p.damage > 0 {
            // The structure around a damaged model loses a point of armor class (001 L6188-6190).
            if let Some(area) = self.game.structure_at(model) {
                self.game.structure_mut(area).ac_lost += 1;
                let (at, armor_class) = (self.game.board.areas[area].center, self.game.structure_ac(area));
                emit!(self, Event::StructureWorn { at, armor_class });
            }
            self.apply_damage(model, p.damage);
        }
        // Destroyed or out of action: no pilot check, state or critical matters any more.
        if !self.game.models[model].on_table() || self.game.models[model].out_of_action {
            return Ok(());
        }
        if let Some(pc) = p.pilot_check
            && self.rules().has_trait(self.cardr(model).model_type, ModelTrait::PilotChecks)
        {
            self.pilot_check(model, pc)?;
        }
        for s in p.states {
            self.add_state(model, s)?;
        }
        for _ in 0..p.criticals {
            if self.game.models[model].on_table() && !self.game.models[model].out_of_action {
                self.critical(model)?;
            }
        }
        Ok(())
    }

    pub(crate) fn apply_damage(&mut self, model: usize, points: u32) {
        let columns = self.cardr(model).columns as u32;
        let me = &mut self.game.models[model];
        let before = me.damage;
        me.damage += points;
        let total = me.damage;
        let column = (total as usize).min(columns as usize - 1);
        emit!(self, Event::DamageApplied { model, points, column, total });
        if total >= columns {
            if self.goes_out_of_action(model, before) {
                self.out_of_action(model);
            } else {
                self.destroy(model);
            }
        }
    }

    /// Whether `model`, damaged past its last column from `before` points, stays on the table out
    /// of action rather than being destroyed (001 L5365-5380): its type goes out of action, it
    /// is not out of action already (further damage destroys it), it had taken damage before
    /// (where the ruleset destroys a model that loses every track at once), and it is not in
    /// flight (where the ruleset destroys those).
    fn goes_out_of_action(&self, model: usize, before: u32) -> bool {
        let Some(rule) = &self.rules().proc.damage.out_of_action else { return false };
        let at_once = rule.undamaged_destroyed && before == 0;
        let falls = rule.in_flight_destroyed && self.game.flying(model);
        !self.game.models[model].out_of_action
            && self.rules().type_in(&rule.model_types, self.cardr(model).model_type)
            && !at_once
            && !falls
    }

    /// The model stays where it is, out of action: whatever it held or was doing ends.
    fn out_of_action(&mut self, model: usize) {
        let me = &mut self.game.models[model];
        me.out_of_action = true;
        me.marks.clear();
        me.lock = None;
        emit!(self, Event::OutOfAction { model });
        self.hvo_carrier_lost(model);
    }

    /// Remove a model as destroyed: its wreck, the riders it carries and a figure it holds go with it.
    pub fn destroy(&mut self, model: usize) {
        let me = &mut self.game.models[model];
        me.destroyed = true;
        let (pos, radius) = (me.pos, self.cardr(model).base_radius.max(self.rules().proc.damage.wreck_minimum_radius));
        emit!(self, Event::Destroyed { model });
        self.hvo_carrier_lost(model);
        // Whatever rides in it goes with it (001 L5399).
        for rider in 0..self.game.models.len() {
            if self.game.models[rider].features.transport.aboard == Some(model) && !self.game.models[rider].destroyed {
                self.game.models[rider].destroyed = true;
                emit!(self, Event::Destroyed { model: rider });
            }
        }
        // (`required.rs` of the compiler: a ruleset with wrecks names their terrain.)
        if self.rules().has_trait(self.cardr(model).model_type, ModelTrait::LeavesWreck)
            && let Some(wreck) = self.rules().proc.damage.wreck_terrain
        {
            self.game.board.areas.push(Area {
                terrain: wreck,
                poly: Polygon::regular(pos, radius, 6),
                center: pos,
                radius,
                lasts: None,
            });
            self.game.board_version += 1;
            let terrain = self.rules().terrains[wreck].id.clone();
            emit!(self, Event::TerrainPlaced { terrain, center: pos, radius });
        }
    }

    pub(crate) fn pilot_check(&mut self, model: usize, modifier: i32) -> Result<(), EngineError> {
        let r = self.rules();
        // The ruleset's fixed target point, else the card's experience value; neither = no check.
        let Some(tp) = r
            .proc
            .damage
            .pilot_check_tp
            .or_else(|| self.cardr(model).experience[self.game.column(model)].map(|e| e as i32))
        else {
            return Ok(());
        };
        let s = Situation { attacker: model, ..Situation::default() };
        let mut mods = self.modifiers(&r.pilot_mods, ModifierTarget::PilotCheck, &s, true);
        if modifier != 0 {
            mods.insert(0, ModApplied { source: "damage table".into(), value: modifier, charge: None });
        }
        mods.extend(self.call_hooks(HookCtx::new(HookPoint::PilotCheck, model))?.take(Quantity::Roll));
        let out = self.roll(model, "pilot-check", r.standard, mods, Some(tp), None, false);
        if !out.success {
            if let Some(state) = r.proc.damage.pilot_fail_state {
                self.add_state(model, state)?;
            }
            if out.fumble {
                self.apply_damage(model, r.proc.damage.pilot_fumble_damage);
            }
        }
        Ok(())
    }

    pub(crate) fn critical(&mut self, model: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let expr = r.critical.dice.unwrap_or(r.standard);
        let out = self.roll(model, "critical", expr, Vec::new(), None, None, false);
        let Some(row) = r.critical.row(out.total) else { return Ok(()) };
        emit!(self, Event::Critical { model, result: row.name.clone() });
        self.apply_row(model, row)
    }

    /// What a table row does to `model` for good: action points, move, combat, weapons,
    /// attributes, states, destruction. (Its damage points, pilot check and critical roll are the
    /// caller's: they wait for the end of the activation.)
    fn apply_row(&mut self, model: usize, row: &'r Row) -> Result<(), EngineError> {
        let me = &mut self.game.models[model];
        // (Saturating: a chain of rows may add up what a pack's numbers make of it.)
        me.crit_ap = me.crit_ap.saturating_add(row.action_points);
        if let Some(set) = row.action_points_set {
            me.ap_set = Some(set);
        }
        me.mv_add = me.mv_add.saturating_add(row.move_value);
        if let Some(f) = row.move_factor {
            me.mv_factor *= f;
        }
        me.crit_combat = me.crit_combat.saturating_add(row.combat_modifier);
        me.no_combat |= row.no_combat;
        me.zeroed |= row.weapons_zeroed;
        if row.weapon_modifier != 0 || row.weapon_lost {
            self.damage_weapon(model, row.weapon_modifier, row.weapon_lost);
        }
        for &(attribute, change) in &row.attributes {
            self.change_attribute(model, attribute, change);
        }
        for &s in &row.states {
            self.add_state(model, s)?;
        }
        if row.destroyed {
            self.destroy(model);
        }
        Ok(())
    }

    /// Row `key` of lookup table `table` lands on `model` (said): what it does for good, its
    /// pilot check and critical roll waiting for the end of the activation, then the tables it
    /// rolls on. Returns the damage points it and its chain deal, for the caller to deal.
    /// `budget`: the table rolls the chain may still make (`MAX_TABLE_ROLLS`).
    pub(crate) fn table_row(
        &mut self,
        model: usize,
        table: usize,
        key: i32,
        add: i32,
        budget: &mut u32,
    ) -> Result<u32, EngineError> {
        let t = &self.rules().lookup_tables[table];
        // (A model out of play takes no more: destroyed once, by the first row that destroys it.)
        let Some(row) = t.row(key).filter(|_| self.game.models[model].on_table()) else { return Ok(0) };
        emit!(self, Event::TableResult { model, table: t.name.clone(), key, result: row.name.clone() });
        self.apply_row(model, row)?;
        let p = &mut self.game.models[model].pending;
        if let Some(pc) = row.pilot_check {
            // One pilot check per activation, at the worst modifier called for.
            p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
        }
        p.criticals += u32::from(row.critical);
        let mut points = row.damage;
        let again = std::iter::repeat_n((table, add), row.roll_again as usize);
        for (next, plus) in row.roll_on.iter().copied().chain(again) {
            if !self.game.models[model].on_table() {
                break;
            }
            points = points.saturating_add(self.roll_table(model, next, plus, table, budget)?);
        }
        Ok(points)
    }

    /// A roll on lookup table `table` (its dice plus `add`, which table `by`'s row gives), its
    /// row landing on `model`.
    fn roll_table(
        &mut self,
        model: usize,
        table: usize,
        add: i32,
        by: usize,
        budget: &mut u32,
    ) -> Result<u32, EngineError> {
        let t = &self.rules().lookup_tables[table];
        // (The compiler lets only tables with dice be rolled on.)
        let Some(dice) = t.dice else { return Ok(0) };
        if *budget == 0 {
            emit!(self, Event::TableRollsCut { model, table: t.name.clone() });
            return Ok(0);
        }
        *budget -= 1;
        let (natural, sum) = dice.roll_total(self.dice);
        let total = sum.saturating_add(add);
        let source = || self.rules().lookup_tables[by].name.clone();
        let mods = if add == 0 { Vec::new() } else { vec![ModApplied { source: source(), value: add, charge: None }] };
        let roll = Roll {
            model,
            kind: t.id.clone().into(),
            dice: dice.label(),
            natural,
            mods,
            total,
            target: None,
            margin: None,
            success: None,
            critical: None,
        };
        emit!(self, Event::Roll(roll));
        self.table_row(model, table, total, add, budget)
    }

    /// One of `model`'s weapons not lost, chosen by a die, takes a lasting modifier or is lost.
    fn damage_weapon(&mut self, model: usize, modifier: i32, lost: bool) {
        let mounts = self.cardr(model).weapons.len();
        let standing: Vec<usize> = (0..mounts).filter(|&w| !self.game.models[model].weapon_lost(w)).collect();
        let Some(&weapon) = (match standing.len() {
            0 => None,
            1 => standing.first(),
            n => standing.get(self.dice.roll(n as u32) as usize - 1),
        }) else {
            return;
        };
        let systems = self.game.models[model].systems_mut();
        if modifier != 0 {
            systems.weapon_mods.resize(mounts, 0);
            systems.weapon_mods[weapon] = systems.weapon_mods[weapon].saturating_add(modifier);
        }
        if lost {
            systems.weapons_lost.resize(mounts, false);
            systems.weapons_lost[weapon] = true;
        }
        let (modifier, lost) = (systems.weapon_mod(weapon), systems.weapon_lost(weapon));
        let name = self.cardr(model).weapons[weapon].name.clone();
        emit!(self, Event::WeaponDamaged { model, weapon: name, modifier, lost });
    }

    /// `model`'s attribute `attribute` changes for good, within its bounds.
    fn change_attribute(&mut self, model: usize, attribute: usize, change: AttributeChange) {
        let r = self.rules();
        let now = self.game.attributes(model).get(attribute).copied().unwrap_or(0);
        let value = change.apply(now, r.attribute_bounds.get(attribute).copied().unwrap_or((i32::MIN, i32::MAX)));
        let card = self.cardr(model).attributes_at(self.game.column(model)).get(attribute).copied().unwrap_or(0);
        let systems = self.game.models[model].systems_mut();
        systems.attributes.resize(r.attributes.len(), 0);
        systems.attributes[attribute] = value.saturating_sub(card);
        emit!(self, Event::AttributeChanged { model, attribute: r.attributes[attribute].clone(), value });
    }

    /// Why a model will never make a combat action again, if it will not.
    fn never_fights(&self, model: usize) -> Option<&'static str> {
        let me = &self.game.models[model];
        let armed = (0..self.cardr(model).weapons.len()).any(|w| !me.out_of_ammo[w] && !me.weapon_lost(w));
        if self.game.state_blocks(model, |s| s.no_actions && s.duration == StateDuration::Permanent) {
            Some("disabled")
        } else if !armed || me.zeroed || me.no_combat {
            Some("no usable weapon")
        } else {
            None
        }
    }

    /// Models lost for good at the end of an activation: crews that bail out of a model that can
    /// neither move nor fight, aircraft that can no longer fly (each by its type's trait); then
    /// the ruleset's mission kills (`procedures.damage.mission_kill`): models that can never fight
    /// again, or in their last damage column, must leave the table.
    pub(crate) fn mission_kills(&mut self) {
        for model in 0..self.game.models.len() {
            let me = &self.game.models[model];
            if !me.on_table() || me.out_of_action {
                continue;
            }
            // The traits first: most models have neither, and their MV need not be worked out.
            let ty = self.cardr(model).model_type;
            let crashes = self.rules().has_trait(ty, ModelTrait::CrashesAtZeroMv);
            if !crashes && !self.rules().has_trait(ty, ModelTrait::BailsOut) || self.game.lasting_move_value(model) > 0
            {
                continue;
            }
            let reason = if crashes {
                "crashed"
            } else if self.never_fights(model).is_some() {
                "bailed out"
            } else {
                continue;
            };
            emit!(self, Event::Abandoned { model, reason: reason.into() });
            self.destroy(model);
        }
        for model in 0..self.game.models.len() {
            let me = &self.game.models[model];
            if !me.on_table() || me.mission_kill || me.out_of_action {
                continue;
            }
            let rule = &self.rules().proc.damage.mission_kill;
            if rule.except.iter().any(|t| self.rules().has_trait(self.cardr(model).model_type, *t)) {
                continue;
            }
            let last_column = rule.last_column && self.game.column(model) + 1 >= self.cardr(model).columns;
            let reason = match rule.cannot_fight.then(|| self.never_fights(model)).flatten() {
                Some(why) => Some(why),
                None if last_column => Some("last damage column"),
                None => None,
            };
            if let Some(reason) = reason {
                self.game.models[model].mission_kill = true;
                emit!(self, Event::MissionKill { model, reason: reason.into() });
            }
        }
    }
}
