//! Engine options: the ruleset `options:` whose chosen reading the engine reads, and their typed
//! values.

/// An engine option: a ruleset `options:` entry whose chosen value the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOption {
    pub id: &'static str,
    pub values: &'static [&'static str],
    pub doc: &'static str,
}

/// Declares the engine options once: each option's id, doc, typed field of [`EngineOptions`]
/// with its value when the ruleset does not choose, and each chosen word with the typed value it
/// reads as. [`OPTIONS`], [`EngineOptions`] and [`EngineOptions::set`] are all made from it.
macro_rules! engine_options {
    ($($id:literal => $field:ident: $ty:ty = $default:expr, $doc:literal {
        $($word:literal => $value:expr),+ $(,)?
    })+) => {
        /// Engine options, each with its values.
        pub const OPTIONS: &[EngineOption] = &[$(EngineOption { id: $id, values: &[$($word),+], doc: $doc }),+];

        /// The engine options as typed values, read from the ruleset's chosen readings.
        #[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
        pub struct EngineOptions {
            $(#[doc = $doc] pub $field: $ty,)+
        }

        impl Default for EngineOptions {
            fn default() -> Self {
                EngineOptions { $($field: $default,)+ }
            }
        }

        impl EngineOptions {
            /// Set one option from its chosen value; false when the option or value is not the
            /// engine's.
            pub fn set(&mut self, id: &str, value: &str) -> bool {
                match (id, value) {
                    $($(($id, $word) => self.$field = $value,)+)+
                    _ => return false,
                }
                true
            }
        }
    };
}

engine_options! {
    "shock-trigger" => shock_trigger: ShockTrigger = ShockTrigger::Targeted,
        "When Shock forces its state test: on every model the weapon targets, or only on models it hits." {
        "targeted" => ShockTrigger::Targeted,
        "hit" => ShockTrigger::Hit,
    }
    "ranged-critical" => ranged_critical: RangedCritical = RangedCritical::Critical,
        "Whether a ranged hit whose damage row says so also rolls on the critical damage table." {
        "critical" => RangedCritical::Critical,
        "no-critical" => RangedCritical::NoCritical,
    }
    "surviving-tv-fraction" => surviving_fraction: SurvivingFraction = SurvivingFraction::RemainingColumns,
        "The share of a damaged model's TV that survives: damage-track columns left, or whole tracks left, over all columns." {
        "remaining-columns" => SurvivingFraction::RemainingColumns,
        "remaining-tracks" => SurvivingFraction::RemainingTracks,
    }
    "victory-ratio-rounding" => ratio_rounding: RatioRounding = RatioRounding::RoundHalfUp,
        "How the winner-to-loser score ratio is brought to tenths before the victory levels table." {
        "round-half-up" => RatioRounding::RoundHalfUp,
        "truncate" => RatioRounding::Truncate,
    }
    "draw-deck-removal" => deck_removal: DeckRemoval = DeckRemoval::AllCards,
        "How many of its draw-deck cards a squad takes with it when it leaves play (the rest stay and are skipped)." {
        "one-card-per-squad" => DeckRemoval::OneCard,
        "two-cards-per-squad" => DeckRemoval::AllCards,
    }
    "stomp-targets" => stomp_prone_only: bool = false,
        "Which models a stomp destroys: the ruleset's prone and standing types, or prone models only." {
        "prone-or-standing" => false,
        "prone-only" => true,
    }
    "table-size" => small_table: bool = false,
        "On a small table every move value and weapon range (minimum ranges too) is scaled as the ruleset's `procedures.small_table` says." {
        "standard" => false,
        "small" => true,
    }
    "salvage-activation-rolls" => salvage_rolls: SalvageRolls = SalvageRolls::EveryTurn,
        "When a scenario's containers roll to become active: at the start of every turn from the scenario's first, or of that turn only." {
        "every-turn" => SalvageRolls::EveryTurn,
        "first-turn-only" => SalvageRolls::FirstTurnOnly,
    }
    "secondary-squad-limit" => secondary_squad_limit: SecondarySquadLimit = SecondarySquadLimit::OnePlusHalfPrimary,
        "How many secondary squads a force may field for its primary squads (read by the force check)." {
        "one-plus-half-primary" => SecondarySquadLimit::OnePlusHalfPrimary,
        "under-twice-primary" => SecondarySquadLimit::UnderTwicePrimary,
    }
}

/// Shock's state test, by the `shock-trigger` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShockTrigger {
    #[default]
    Targeted,
    Hit,
}

/// Critical rolls of ranged hits, by the `ranged-critical` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RangedCritical {
    #[default]
    Critical,
    NoCritical,
}

/// The secondary-squad limit of force building, by the `secondary-squad-limit` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SecondarySquadLimit {
    /// The first secondary squad is free; each further one needs more primary squads.
    #[default]
    OnePlusHalfPrimary,
    /// Fewer secondary squads than twice the primary ones.
    UnderTwicePrimary,
}

/// A damaged model's surviving share of its TV, by the `surviving-tv-fraction` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SurvivingFraction {
    /// Columns left (starting tracks + 1 − damage) over all columns.
    #[default]
    RemainingColumns,
    /// Whole tracks left (starting tracks − damage) over all columns.
    RemainingTracks,
}

/// The victory ratio brought to tenths, by the `victory-ratio-rounding` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatioRounding {
    #[default]
    RoundHalfUp,
    Truncate,
}

/// Draw-deck cards of a squad that left play, by the `draw-deck-removal` option. Without the
/// option a unit takes all its cards with it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeckRemoval {
    #[default]
    AllCards,
    OneCard,
}

/// Rolls that activate salvage containers, by the `salvage-activation-rolls` option.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SalvageRolls {
    #[default]
    EveryTurn,
    FirstTurnOnly,
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
