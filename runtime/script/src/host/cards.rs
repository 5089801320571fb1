//! The hook points each card's special attributes have handlers of, per role: how the many moments at
//! which no handler runs are told apart without touching Lua.

use cav_rules::Rules;
use cav_rules::game::Game;

use super::LuaHost;
use super::handlers::{Handlers, Role};

/// The hook points (bit `HookPoint as u32`) a card's special attributes have handlers of, per
/// role: most moments involve no model with a handler, and `wants_at` tells them from these alone.
pub(super) struct CardPoints {
    /// Its own special attributes, when it is the moment's model (`Role::Model`).
    pub(super) model: u64,
    /// Per mount, its weapon's special attributes (`Role::Weapon`).
    pub(super) weapons: Vec<u64>,
    /// Its own, when it is the other model (`as_target`).
    pub(super) target: u64,
    /// Its own, for any other model's moment (`aura`).
    pub(super) aura: u64,
}

impl LuaHost {
    /// The hook points `model`'s card has handlers of (`CardPoints`), made on first use. Asked at
    /// nearly every moment, so the common case (made already) is kept small enough to inline.
    #[inline]
    pub(super) fn card_points(&mut self, game: &Game, model: usize) -> &CardPoints {
        let ix = game.rules.card_ix_of(&game.models[model]);
        let rules: *const Rules = game.rules;
        if self.cards_of != rules as usize || !matches!(self.cards.get(ix), Some(Some(_))) {
            self.make_card_points(game, model);
        }
        self.cards[ix].as_ref().expect("made above")
    }

    #[cold]
    fn make_card_points(&mut self, game: &Game, model: usize) {
        self.forget_other_rules(game);
        let ix = game.rules.card_ix_of(&game.models[model]);
        if self.cards.len() <= ix {
            self.cards.resize_with(ix + 1, || None);
        }
        let of = |role: Role, sas: &[(u16, i32)]| {
            let by_sa = &self.masks[Handlers::slot(role)];
            sas.iter().fold(0u64, |m, &(sa, _)| m | by_sa.get(usize::from(sa)).copied().unwrap_or(0))
        };
        let card = game.card(model);
        let points = CardPoints {
            model: of(Role::Model, &card.sas),
            weapons: card.weapons.iter().map(|w| of(Role::Weapon, &w.sas)).collect(),
            target: of(Role::Target, &card.sas),
            aura: of(Role::Aura, &card.sas),
        };
        self.cards[ix] = Some(points);
    }

    /// Forget `cards` and `auras` if they were made from other rules than `game`'s.
    fn forget_other_rules(&mut self, game: &Game) {
        let rules: *const Rules = game.rules;
        if self.cards_of != rules as usize {
            self.cards.clear();
            self.auras = (0, 0);
            self.cards_of = rules as usize;
        }
    }

    /// The `aura` hook points of every model of the game (`LuaHost::auras`).
    pub(super) fn auras(&mut self, game: &Game) -> u64 {
        self.forget_other_rules(game);
        let (counted, mut points) = self.auras;
        if counted != game.models.len() {
            for i in counted..game.models.len() {
                points |= self.card_points(game, i).aura;
            }
            self.auras = (game.models.len(), points);
        }
        points
    }
}
