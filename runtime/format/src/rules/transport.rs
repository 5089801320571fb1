//! Riding and towing: infantry in transports, carriers of other models, towed guns hitched to a
//! tow.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// Transports: models with the `infantry` trait mount a friendly model that has the transport
/// special attribute, and dismount next to it, with a move action each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransportRules {
    /// The special attribute whose rating is the number of slots a model carries.
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// Slots a rider takes.
    pub slots_per_rider: u32,
    /// Riders that take more slots: those with this special attribute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heavy: Vec<HeavyRider>,
    /// Further carriers of models that are not infantry (a dropship's CAVs and vehicles): the
    /// special attribute, its slots per rating level, and the slots each rider type takes (a type
    /// not listed does not ride in it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carriers: Vec<Carrier>,
}

/// Riders with a special attribute take this many slots.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeavyRider {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub slots: u32,
}

/// A carrier of non-infantry riders (`transport.carriers`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Carrier {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub slots_per_level: u32,
    pub riders: BTreeMap<ModelType, u32>,
}

/// Towing (001 L11595-11606): a limbered model with the `towed` trait is hitched to a friendly
/// model of a `tows` type in base contact with a move action, travels as its load (like a rider),
/// and is unhitched next to it with another.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TowingRules {
    /// Model types that may tow.
    pub tows: Vec<ModelType>,
    /// Towed models one tow takes at a time.
    pub per_tow: u32,
}
