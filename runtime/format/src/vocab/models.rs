//! Model types (words each ruleset declares), and the traits a ruleset gives each.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{I, R, Status};

/// A model type: a word the ruleset declares (`model_types:` of the ruleset document, CAV's
/// `cav`, `vehicle`, `infantry`… or Infinity's `trooper`), with the traits that say what its
/// models can do. The engine asks for traits, never for a type by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ModelType(pub String);

impl ModelType {
    /// The word as packs and scripts write it.
    pub fn id(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ModelType {
    fn from(s: &str) -> Self {
        ModelType(s.to_owned())
    }
}

impl std::fmt::Display for ModelType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl JsonSchema for ModelType {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ModelType".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[a-z][a-z0-9_-]*$",
            "maxLength": 64,
            "description": "A model type the ruleset declares (its `model_types:`).",
        })
    }
}

words! {
    /// Capabilities a model type has, given per type by the ruleset pack. The engine asks for
    /// traits, never for model types.
    ModelTrait, "model trait" {
        PilotChecks = "pilot-checks", I, "Damage-table results call for pilot checks (CAVs have pilots).";
        Infantry = "infantry", I, "Counts as infantry for weapons that cannot target infantry and for Ravage.";
        Aircraft = "aircraft", I, "Counts as an aircraft for weapons that cannot target aircraft.";
        Structure = "structure", I, "Counts as a structure for weapons that cannot target structures.";
        AllRoundArc = "all-round-arc", I, "Fires in every direction whatever its mounts say (infantry).";
        NoFacing = "no-facing", I, "Has no facing: it moves in any direction and never pays for turning (infantry).";
        Dispersed = "dispersed", I, "Spread out: each successful attack deals it the ruleset's fixed damage (`procedures.damage.dispersed`) whatever the damage table's row, and no critical damage (infantry).";
        MountArcs = "mount-arcs", I, "Each weapon fires only into the arc its mount names: F front, L left, R right, B back; T all round (quad CAVs and vehicles, 001 L3799-3803).";
        FourLegged = "four-legged", I, "A four-legged model (the `quad-cav` condition).";
        LeavesWreck = "leaves-wreck", I, "A destroyed model leaves a wreck (the ruleset's wreck terrain) where it stood.";
        BailsOut = "bails-out", I, "Its crew abandons it when it can neither move (0 MV from damage or criticals) nor make a combat action again: it counts as destroyed (001 L1819-1826).";
        CrashesAtZeroMv = "crashes-at-zero-mv", I, "Destroyed when damage or criticals take its MV to 0 (aircraft crash, 001 L1827-1829).";
        Flies = "flies", I, "In flight unless landed: never in base contact, seen over terrain (`sight.aircraft`), may fly nap of the earth, land and take off (`procedures.flight`). In `movement_states` lists it means \"flying now\".";
        Towed = "towed", I, "Never moves on its own: it limbers (packs up) with the `limber` action, is hitched to a friendly tow in base contact (`mount`, `procedures.towing`) and travels as its load, is unhitched (`dismount`) and unlimbers before it fires again (001 L11595-11606).";
        Squad = "squad", R("squads of several bases are not played yet"), "A squad of several bases that acts as one model.";
    }
}
