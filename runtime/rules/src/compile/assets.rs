//! Compiled battlefield assets: pieces, minefields, emplacements and held assets.

use super::*;

/// A battlefield asset (Appendix C): a terrain piece (`terrain`), or something a side holds off
/// the table and uses (`held_assets::Kept::held`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct AssetDef {
    pub id: String,
    pub name: String,
    pub terrain: Option<usize>,
    /// Cards of the holder's colour each one adds to every turn's draw deck (SIGINT).
    pub deck_cards: u32,
    /// Used up to send a drawn card to the bottom of the deck (Recon Drone).
    pub skip_card: bool,
    /// Used up in an end phase to refill the side's Ammo Bins (Resupply Drop).
    pub reload_ammo_bins: bool,
    /// Used up by a `field-repair` action: damage points mended, lingering damage excepted, and
    /// the lingering points mended instead when only those are left (Field Repair Modules).
    pub field_repair: u32,
    pub field_repair_lingering: u32,
    /// A wall a combat engineer lays with `lay-barrier` (length, thickness in inches).
    pub laid_wall: Option<(f64, f64)>,
    /// A minefield: what it attacks, its charges, and the card its attack is the one weapon of
    /// (the laying side's off-table model that makes the attacks, `minefields::Kept::fields`).
    pub mines: Option<(f::MinesAgainst, u32, usize)>,
    /// A weapon emplacement: the action points each of its weapons has in the side's shared
    /// activation.
    pub emplacement_ap: Option<u32>,
    /// A piece a roster sets down before deployment (terrain or a minefield, not an
    /// emplacement), with its footprint: (radius, 0) or (length, width).
    pub piece: Option<(f64, f64)>,
    /// Terrain (indices) a buyer may set down instead of `terrain` (`f::Asset::variants`).
    pub variants: Vec<usize>,
}

impl AssetDef {
    /// Whether the asset acts from a side's hand (`held_assets::Kept::held`) rather than as a terrain piece.
    pub fn held(&self) -> bool {
        self.deck_cards > 0
            || self.skip_card
            || self.reload_ammo_bins
            || self.field_repair > 0
            || self.laid_wall.is_some()
    }
}
