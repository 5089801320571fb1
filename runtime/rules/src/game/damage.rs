//! The end of an activation: damage, pilot checks, states and criticals; repair; destruction and mission kills.

use super::*;

impl<'a, 'r> Engine<'a, 'r> {
    pub(super) fn repair(&mut self, u: usize) -> Result<(), EngineError> {
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

    pub(super) fn add_state(&mut self, u: usize, s: StateIx) {
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
    pub(super) fn end_activation(&mut self, active: usize) -> Result<(), EngineError> {
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
    pub(super) fn resolve_pending(&mut self, u: usize) -> Result<(), EngineError> {
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

    pub(super) fn apply_damage(&mut self, u: usize, points: u32) {
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

    pub(super) fn destroy(&mut self, u: usize) {
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

    pub(super) fn pilot_check(&mut self, u: usize, modifier: i32) -> Result<(), EngineError> {
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

    pub(super) fn critical(&mut self, u: usize) -> Result<(), EngineError> {
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
    pub(super) fn mission_kills(&mut self) {
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
