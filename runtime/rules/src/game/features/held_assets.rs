//! Battlefield assets a side holds off the table: a card sent to the bottom of the draw deck,
//! Ammo Bins refilled in the end phase.

use super::Feature;
use crate::game::*;

kept! {
    /// What held assets keep: per side, the battlefield assets it holds off the table
    /// (`Rules::assets` index, how many), and the turn it last skipped a drawn card (one a turn).
    pub struct Kept {
        pub held: Vec<Vec<(usize, u32)>>,
        pub skipped_in_turn: Vec<u32>,
    }
}

/// Assets held off the table.
pub(crate) static HELD_ASSETS: Feature = Feature {
    configured_by,
    deck_built: Some(deck_built),
    card_drawn: Some(card_drawn),
    turn_end: Some(turn_end),
    ..Feature::new(cav_format::vocab::Feature::HeldAssets)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules
        .assets
        .iter()
        .any(|a| a.deck_cards > 0 || a.skip_card || a.reload_ammo_bins)
        .then_some("an asset held off the table")
}

/// Cards of a side's colour its held assets add (SIGINT, 001 L10946-10960).
fn deck_built(e: &mut Engine, deck: &mut Vec<Card>) {
    let of = |side: usize, n: usize| std::iter::repeat_n(Card { side, drop: None }, n);
    for side in 0..e.game.sides.len() {
        let mut room = cav_format::limits::HELD_DECK_CARDS;
        for i in 0..e.game.features.held_assets.held[side].len() {
            let (asset, count) = e.game.features.held_assets.held[side][i];
            let def = &e.rules().assets[asset];
            let cards = def.deck_cards.saturating_mul(count).min(room);
            room -= cards;
            if cards == 0 {
                continue;
            }
            deck.extend(of(side, cards as usize));
            let (name, side_name) = (def.name.clone(), e.game.sides[side].clone());
            let detail =
                format!("{cards} card(s) of {side_name}'s colour in the draw deck ({} cards in all)", deck.len());
            emit!(e, Event::AssetUsed { side: side_name, asset: name, detail, left: count });
        }
    }
}

fn card_drawn(e: &mut Engine, deck: &mut Vec<Card>, at: usize, ctrl: &mut dyn Controller) {
    e.skip_card(deck, at, ctrl);
}

fn turn_end(e: &mut Engine) -> Result<(), EngineError> {
    e.reload_ammo_bins();
    Ok(())
}

impl Engine<'_, '_> {
    /// A side holding an asset that skips a drawn card (a recon drone) may send `deck[at]` to the
    /// bottom of the deck, once a turn (001 L10823-10840): the controller of the side decides.
    fn skip_card(&mut self, deck: &mut Vec<Card>, at: usize, ctrl: &mut dyn Controller) {
        for side in 0..self.game.sides.len() {
            if self.game.features.held_assets.skipped_in_turn[side] == self.game.turn {
                continue;
            }
            let Some(slot) = self.game.features.held_assets.held[side]
                .iter()
                .position(|&(a, n)| n > 0 && self.rules().assets[a].skip_card)
            else {
                continue;
            };
            let asset = self.game.features.held_assets.held[side][slot].0;
            if !ctrl.skip_card(&self.game, side, deck[at].side) {
                continue;
            }
            self.game.features.held_assets.skipped_in_turn[side] = self.game.turn;
            self.game.features.held_assets.held[side][slot].1 -= 1;
            let card = deck.remove(at);
            deck.push(card);
            let (name, side_name) = (self.rules().assets[asset].name.clone(), self.game.sides[side].clone());
            let detail = format!("{}'s card goes to the bottom of the draw deck", self.game.sides[card.side]);
            let left = self.game.features.held_assets.held[side][slot].1;
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left });
            return;
        }
    }

    /// The end phase's use of held assets: a side whose models have spent Ammo Bins refills them
    /// all with an asset that reloads them (a resupply drop, 001 L10870-10882), used up.
    fn reload_ammo_bins(&mut self) {
        for side in 0..self.game.sides.len() {
            let Some(slot) = self.game.features.held_assets.held[side]
                .iter()
                .position(|&(a, n)| n > 0 && self.rules().assets[a].reload_ammo_bins)
            else {
                continue;
            };
            let spent: Vec<usize> = (0..self.game.models.len())
                .filter(|&m| {
                    let me = &self.game.models[m];
                    me.side == side && me.on_table() && me.ammo_reserve < self.game.card(m).ammo_reserve
                })
                .collect();
            if spent.is_empty() {
                continue;
            }
            for &m in &spent {
                self.game.models[m].ammo_reserve = self.game.card(m).ammo_reserve;
            }
            self.game.features.held_assets.held[side][slot].1 -= 1;
            let asset = self.game.features.held_assets.held[side][slot].0;
            let (name, side_name) = (self.rules().assets[asset].name.clone(), self.game.sides[side].clone());
            let detail = format!("the Ammo Bins of {} model(s) refilled", spent.len());
            let left = self.game.features.held_assets.held[side][slot].1;
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left });
        }
    }
}
