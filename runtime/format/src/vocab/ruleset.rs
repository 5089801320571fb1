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

words! {
    /// A feature of play beside the turn's core (draw deck, activations, actions, rolls, damage),
    /// switched on by a ruleset's `features:` list. Each is one module of the engine
    /// (`game/features/`) acting at moments of the turn.
    Feature, "feature of play" {
        Emplacements = "emplacements", I, "Weapon emplacements: an asset placed as a model, its action points capped by its asset.";
        C3 = "c3", I, "C3 points: rally, motivate, inspire and seize the initiative, as the ruleset's `c3:` says.";
        HeldAssets = "held-assets", I, "Assets held off the table: extra draw-deck cards, skipping a drawn card, refilling Ammo Bins.";
        Deployment = "deployment", I, "Models coming onto the table during play: from ambush, by orbital drop, rolling or delayed at an edge.";
        Strikes = "strikes", I, "Strike packages called from the strike pool a side's force was built with (`call-strike`).";
        Missiles = "missiles", I, "Strikes that fly in as models: they move with their caller and on their own once it is gone.";
        Flight = "flight", I, "Nap of the earth ending with the actions `flight.noe_ends_with` names and with an activation that does not end with an NoE move.";
        Clouds = "clouds", I, "Lingering clouds a shell leaves drift at each turn's end (a model moving through one is attacked by `minefields`).";
        LaidTerrain = "laid-terrain", I, "Terrain laid during play (smoke, trails, scripts' pieces), lifted when its time is up.";
        Transport = "transport", I, "Airborne riders jumping from a flying transport as its move ends.";
        Seekers = "seekers", I, "Seeking submunitions waiting over a point, attacking what comes near, falling when their firer activates.";
        Missions = "missions", I, "The rescue's high-value operative and salvage containers.";
        Structures = "structures", I, "Structures crossed by moving models, and burning.";
        Minefields = "minefields", I, "Minefields and lingering clouds attacking models that move into or through them, once per action.";
        Objectives = "objectives", I, "Objective areas scored at each turn's end.";
        UnitDamage = "unit-damage", I, "A unit's damage pool (`procedures.damage.unit_pool`): hits on a unit shared among its models; leftover points putting a model in a state and held on the unit; recovery tests as the unit activates.";
        Coherency = "coherency", I, "Unit coherency (`procedures.coherency`): a move may not leave a model out of it; a model still out of it as its unit's activation ends is reported, or lost in a `left_behind` state.";
    }
}
