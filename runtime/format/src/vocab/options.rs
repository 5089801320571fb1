//! Engine options: the ruleset `options:` whose chosen reading the engine reads, and their typed
//! values.

/// An engine option: a ruleset `options:` entry whose chosen value the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOption {
    pub id: &'static str,
    pub values: &'static [&'static str],
    pub doc: &'static str,
}

/// Engine options, each with its values; the typed readers are below.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        id: "shock-trigger",
        values: &["targeted", "hit"],
        doc: "When Shock forces its state test: on every model the weapon targets, or only on models it hits.",
    },
    EngineOption {
        id: "ranged-critical",
        values: &["critical", "no-critical"],
        doc: "Whether a ranged hit whose damage row says so also rolls on the critical damage table.",
    },
    EngineOption {
        id: "surviving-tv-fraction",
        values: &["remaining-columns", "remaining-tracks"],
        doc: "The share of a damaged model's TV that survives: damage-track columns left, or whole tracks left, over all columns.",
    },
    EngineOption {
        id: "victory-ratio-rounding",
        values: &["round-half-up", "truncate"],
        doc: "How the winner-to-loser score ratio is brought to tenths before the victory levels table.",
    },
    EngineOption {
        id: "draw-deck-removal",
        values: &["one-card-per-squad", "two-cards-per-squad"],
        doc: "How many of its draw-deck cards a squad takes with it when it leaves play (the rest stay and are skipped).",
    },
    EngineOption {
        id: "stomp-targets",
        values: &["prone-cav-or-vehicle", "prone-only"],
        doc: "Which models a stomp destroys: the ruleset's prone and standing types, or prone models only.",
    },
    EngineOption {
        id: "table-size",
        values: &["standard", "small"],
        doc: "On a small table every move value and weapon range (minimum ranges too) is halved, rounding up.",
    },
    EngineOption {
        id: "salvage-activation-rolls",
        values: &["every-turn", "first-turn-only"],
        doc: "When a scenario's containers roll to become active: at the start of every turn from the scenario's first, or of that turn only.",
    },
    EngineOption {
        id: "secondary-squad-limit",
        values: &["one-plus-half-primary", "under-twice-primary"],
        doc: "How many secondary squads a force may field for its primary squads (read by the force check).",
    },
];

/// Shock's state test, by the `shock-trigger` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShockTrigger {
    #[default]
    Targeted,
    Hit,
}

/// Critical rolls of ranged hits, by the `ranged-critical` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RangedCritical {
    #[default]
    Critical,
    NoCritical,
}

/// The secondary-squad limit of force building, by the `secondary-squad-limit` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SecondarySquadLimit {
    /// The first secondary squad is free; each further one needs more primary squads.
    #[default]
    OnePlusHalfPrimary,
    /// Fewer secondary squads than twice the primary ones.
    UnderTwicePrimary,
}

/// A damaged model's surviving share of its TV, by the `surviving-tv-fraction` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SurvivingFraction {
    /// Columns left (starting tracks + 1 − damage) over all columns.
    #[default]
    RemainingColumns,
    /// Whole tracks left (starting tracks − damage) over all columns.
    RemainingTracks,
}

/// The victory ratio brought to tenths, by the `victory-ratio-rounding` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatioRounding {
    #[default]
    RoundHalfUp,
    Truncate,
}

/// Draw-deck cards of a squad that left play, by the `draw-deck-removal` option. Without the
/// option a unit takes all its cards with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeckRemoval {
    #[default]
    AllCards,
    OneCard,
}

/// Rolls that activate salvage containers, by the `salvage-activation-rolls` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SalvageRolls {
    #[default]
    EveryTurn,
    FirstTurnOnly,
}

/// The engine options as typed values, read from the ruleset's chosen readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineOptions {
    pub shock_trigger: ShockTrigger,
    pub ranged_critical: RangedCritical,
    pub secondary_squad_limit: SecondarySquadLimit,
    pub deck_removal: DeckRemoval,
    pub surviving_fraction: SurvivingFraction,
    pub ratio_rounding: RatioRounding,
    pub salvage_rolls: SalvageRolls,
    /// `stomp-targets: prone-only`: only prone models are stomped.
    pub stomp_prone_only: bool,
    /// `table-size: small`: MV and ranges halved.
    pub small_table: bool,
}

impl EngineOptions {
    /// Set one option from its chosen value; false when the option or value is not the engine's.
    pub fn set(&mut self, id: &str, value: &str) -> bool {
        match (id, value) {
            ("shock-trigger", "targeted") => self.shock_trigger = ShockTrigger::Targeted,
            ("shock-trigger", "hit") => self.shock_trigger = ShockTrigger::Hit,
            ("ranged-critical", "critical") => self.ranged_critical = RangedCritical::Critical,
            ("ranged-critical", "no-critical") => self.ranged_critical = RangedCritical::NoCritical,
            ("surviving-tv-fraction", "remaining-columns") => {
                self.surviving_fraction = SurvivingFraction::RemainingColumns
            }
            ("surviving-tv-fraction", "remaining-tracks") => {
                self.surviving_fraction = SurvivingFraction::RemainingTracks
            }
            ("victory-ratio-rounding", "round-half-up") => self.ratio_rounding = RatioRounding::RoundHalfUp,
            ("victory-ratio-rounding", "truncate") => self.ratio_rounding = RatioRounding::Truncate,
            ("draw-deck-removal", "one-card-per-squad") => self.deck_removal = DeckRemoval::OneCard,
            ("draw-deck-removal", "two-cards-per-squad") => self.deck_removal = DeckRemoval::AllCards,
            ("stomp-targets", "prone-cav-or-vehicle") => self.stomp_prone_only = false,
            ("stomp-targets", "prone-only") => self.stomp_prone_only = true,
            ("table-size", "standard") => self.small_table = false,
            ("table-size", "small") => self.small_table = true,
            ("salvage-activation-rolls", "every-turn") => self.salvage_rolls = SalvageRolls::EveryTurn,
            ("salvage-activation-rolls", "first-turn-only") => self.salvage_rolls = SalvageRolls::FirstTurnOnly,
            ("secondary-squad-limit", "one-plus-half-primary") => {
                self.secondary_squad_limit = SecondarySquadLimit::OnePlusHalfPrimary
            }
            ("secondary-squad-limit", "under-twice-primary") => {
                self.secondary_squad_limit = SecondarySquadLimit::UnderTwicePrimary
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_values_are_the_declared_ones() {
        for o in OPTIONS {
            for v in o.values {
                assert!(EngineOptions::default().set(o.id, v), "{} {v}", o.id);
            }
        }
        assert!(!EngineOptions::default().set("shock-trigger", "sometimes"));
    }
}
