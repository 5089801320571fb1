//! Words a ruleset's own sections pick from: how range is measured, what C3 points buy.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{I, Status};

words! {
    /// How a ruleset measures the range between two models (`procedures.sight.range_measured`):
    /// range bands, minimum range, point-blank range and a weapon's reach all use it.
    RangeMeasure, "range measurement" {
        EdgeToEdge = "edge-to-edge", I, "From the side of one base to the facing side of the other (the gap between the bases).";
        CentreToCentre = "centre-to-centre", I, "From the centre of one base to the centre of the other.";
    }
}

impl Default for RangeMeasure {
    /// Only for building values in Rust; a ruleset always says which it uses.
    fn default() -> Self {
        RangeMeasure::EdgeToEdge
    }
}

words! {
    /// What a force's C3 points buy (001 L1300-1336), listed in the ruleset's `c3.uses`.
    C3Use, "C3 use" {
        Inspire = "inspire", I, "Add the ruleset's inspire dice to one target-point roll (declared with the action).";
        Motivate = "motivate", I, "One more action point for the model activating now.";
        Rally = "rally", I, "Every model of the force sheds the states the ruleset lists (Suppressed, Stunned).";
        SeizeTheInitiative = "seize-the-initiative", I, "Attach a model of a squad that has not activated to the squad activating now (it activates with it, this turn).";
    }
}
