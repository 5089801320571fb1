//! Seeking submunitions (001 L9060-9074): released over a point by a shell, each waits for a
//! target to come near, attacks it, or falls when its firer activates again.

use super::Feature;
use crate::game::*;

/// A seeking submunition waiting over its point (`MountDef::seeks`): the firer and mount whose
/// shell released it, the point and how far from it it seeks.
#[derive(Debug, Clone)]
pub struct Seeker {
    pub model: usize,
    pub weapon: usize,
    pub at: P,
    pub radius: f64,
}

kept! {
    /// What seekers keep: the submunitions waiting for a target.
    pub struct Kept {
        pub waiting: Vec<Seeker>,
    }
}

/// Seeking submunitions (`Game::seekers`).
pub(crate) static SEEKERS: Feature = Feature {
    configured_by,
    activation_start: Some(activation_start),
    action_resolved: Some(action_resolved),
    turn_end: Some(turn_end),
    ..Feature::new(cav_format::vocab::Feature::Seekers)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    super::any_attack(rules, |m| m.seeks.is_some(), |p| p.seeks.is_some())
        .then_some("a weapon or munition with `seeks:`")
}

fn activation_start(e: &mut Engine, model: usize) {
    e.seekers_fall(Some(model));
}

fn action_resolved(e: &mut Engine, _: usize, _: usize, _: &mut dyn Controller) -> Result<(), EngineError> {
    if e.game.features.seekers.waiting.is_empty() { Ok(()) } else { e.seekers_search() }
}

fn turn_end(e: &mut Engine) -> Result<(), EngineError> {
    e.seekers_fall(None);
    Ok(())
}

impl Engine<'_, '_> {
    /// A seeking submunition released over `point` by mount `weapon` of `by` (001 L9067-9074,
    /// SADARM): it attacks the one model it finds there (`aimed` if that one will do), or waits
    /// over the point for one.
    pub(crate) fn seek(&mut self, by: usize, weapon: usize, point: P, aimed: Option<usize>) -> Result<(), EngineError> {
        let radius = self.cardr(by).weapons[weapon].aoe;
        let name = self.cardr(by).weapons[weapon].name.clone();
        match self.sought(by, weapon, point, radius, aimed) {
            Some(target) => {
                emit!(self, Event::Submunition { model: by, weapon: name, at: point, radius, change: "found" });
                self.preset_attack(by, weapon, target, "submunition")
            }
            None => {
                self.game.features.seekers.waiting.push(Seeker { model: by, weapon, at: point, radius });
                emit!(self, Event::Submunition { model: by, weapon: name, at: point, radius, change: "waits" });
                Ok(())
            }
        }
    }

    /// The model a seeking submunition of mount `weapon` of `by` over `point` attacks: an enemy
    /// on the table of a type it seeks, whose base its area reaches, painted for `by` by a TAG
    /// (its own counts while it is on the table). `aimed` if that one will do; else the nearest
    /// to the point (the firer's choice, read as the likeliest).
    pub(crate) fn sought(
        &self,
        by: usize,
        weapon: usize,
        point: P,
        radius: f64,
        aimed: Option<usize>,
    ) -> Option<usize> {
        let g = &self.game;
        let kinds = self.cardr(by).weapons[weapon].seeks.as_ref()?;
        let own_tag = g.models[by].on_table();
        let fits = |i: usize| {
            let (m, c) = (&g.models[i], g.card(i));
            m.side != g.models[by].side
                && g.attackable(i)
                && kinds.contains(&c.model_type)
                && m.pos.dist(point) <= radius + c.base_radius
                && g.painted_for(by, i, own_tag)
        };
        aimed.filter(|&t| fits(t)).or_else(|| {
            (0..g.models.len())
                .filter(|&i| fits(i))
                .min_by(|&a, &b| g.models[a].pos.dist(point).total_cmp(&g.models[b].pos.dist(point)))
        })
    }

    /// As an action ends, each waiting submunition that now finds a model attacks it and is gone.
    pub(crate) fn seekers_search(&mut self) -> Result<(), EngineError> {
        let mut i = 0;
        while i < self.game.features.seekers.waiting.len() {
            let s = self.game.features.seekers.waiting[i].clone();
            let Some(target) = self.sought(s.model, s.weapon, s.at, s.radius, None) else {
                i += 1;
                continue;
            };
            self.game.features.seekers.waiting.remove(i);
            let weapon = self.cardr(s.model).weapons[s.weapon].name.clone();
            emit!(self, Event::Submunition { model: s.model, weapon, at: s.at, radius: s.radius, change: "found" });
            self.preset_attack(s.model, s.weapon, target, "submunition")?;
        }
        Ok(())
    }

    /// The waiting submunitions that fall and self-destruct (001 L9072-9074): `model`'s as its
    /// next activation begins; at a turn's end (`None`), those whose firer is out of play (its
    /// next activation will never come).
    pub(crate) fn seekers_fall(&mut self, model: Option<usize>) {
        let models = &self.game.models;
        let falls = |s: &Seeker| match model {
            Some(m) => s.model == m,
            None => !models[s.model].in_play(),
        };
        let (fallen, kept): (Vec<Seeker>, Vec<Seeker>) =
            std::mem::take(&mut self.game.features.seekers.waiting).into_iter().partition(falls);
        self.game.features.seekers.waiting = kept;
        for s in fallen {
            let weapon = self.cardr(s.model).weapons[s.weapon].name.clone();
            emit!(self, Event::Submunition { model: s.model, weapon, at: s.at, radius: s.radius, change: "fell" });
        }
    }
}
