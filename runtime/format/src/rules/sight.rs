//! Line of sight and cover: firing arcs, range measurement, cover by elevation and woods, models
//! and aircraft on the line, firing over low terrain, digging in.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::Cover;

/// Line of sight, cover and firing arcs. Every entry has a neutral default (no adjacent cover,
/// no arcs, cover as each terrain names it, models never in the way), so a ruleset may leave the
/// section out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SightRules {
    /// Distance within which cover next to a model counts (inches).
    #[serde(default)]
    pub adjacent_cover: f64,
    /// Cover next to the attacker counts as well as cover next to the target; otherwise only
    /// cover next to the target does.
    #[serde(default)]
    pub cover_next_to_attacker: bool,
    /// The cover a terrain object with an elevation level gives (obscuring terrain aside: see
    /// terrain `obscurement`), by how many levels it stands below the target's total elevation: the
    /// first entry when it is as high as the target or higher, the next one level lower, and so
    /// on; lower still, none. Empty: every terrain gives the `cover` its document names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cover_by_elevation: Vec<Cover>,
    /// The cover type the obscurement along a line makes (terrain `obscurement`), by its points
    /// from the pieces no model stands in near their edge: the first entry for 1 point (or for
    /// obscurement that counts only as a model's own), the next for 2, and so on; the last for
    /// more (CAV's woods stacking, 001 L4078-4096, L4149-4159). Empty: obscurement makes no
    /// cover type (it still blocks at `obscured_at` and counts for the `obscured` condition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obscurement_cover: Vec<Cover>,
    /// Models whose bases are closer than this (inches) ignore light and heavy cover between
    /// them; absent: cover counts however close they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_ignored_within: Option<f64>,
    /// An indirect attack makes no combat roll against a model when blocking cover on the line
    /// between it and the attacker lies next to either of them (within `adjacent_cover`).
    #[serde(default)]
    pub blocking_cover_stops_indirect: bool,
    /// Elevation of a prone model.
    #[serde(default)]
    pub prone_height: i32,
    /// The arcs around a defender that shots at it come from, in order outwards from its
    /// facing (003 L126-130: front, rear flank, rear): each holds the attackers whose bearing is
    /// off the defender's facing by more than the arc before it and at most its `up_to`
    /// degrees (a bearing on the line between two arcs is in the forward one); the last ends at
    /// 180. The `defender-arc-<id>` conditions read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 16))]
    pub defense_arcs: Vec<DefenseArc>,
    /// The obscurement points (terrain `obscurement`, summed along the line) at
    /// which a line of sight is blocked; absent: obscurement never blocks, it only counts
    /// (the `obscured` condition). Obscurement passes the filters cover does: a guided shot
    /// meets only the target's own, models closer than `cover_ignored_within` ignore it,
    /// terrain fired over hides nothing, and aircraft see over it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub obscured_at: Option<u32>,
    /// Half the width of a firing arc in degrees (four arcs of 90° → 45). Absent: models have
    /// no firing arcs (every weapon fires all around, and the `back-arc` condition cannot be
    /// used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arc_half_width: Option<f64>,
    /// Half the width, in degrees, of what a model sees (Infinity's line of fire: 90, a 180°
    /// front arc): a reaction window's `in_sight` and an answer's `attacker_seen` count only
    /// enemies inside it. Absent: models see all round (firing arcs do not limit sight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vision_half_width: Option<f64>,
    /// How the range between two models is measured (range bands, minimum and point-blank
    /// range, a weapon's reach).
    #[serde(default)]
    pub range_measured: RangeMeasure,
    /// Weapons that need a target-lock (guided missiles) fire without a line of sight and ignore
    /// cover between the models, all but the cover the target stands in (the Quick-Start,
    /// 000 L684-686); otherwise they need a line of sight like any direct-fire weapon.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guided_ignore_cover: bool,
    /// Weapons that need a target-lock may also fire indirectly, at the locked target's place
    /// (the Quick-Start, 000 L637); otherwise they fire direct only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guided_indirect: bool,
    /// Models standing on the line of sight between an attacker and its target, as cover
    /// objects: which model types obstruct, and the cover each gives standing and lying down.
    /// Such a model counts like any cover object (as tall as its elevation, or next to either
    /// model). Empty (the default): models never obstruct a line of sight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_cover: Vec<ModelCover>,
    /// Cover between aircraft in flight and other models; absent: aircraft are seen like any
    /// model of their height.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aircraft: Option<AircraftSight>,
    /// Models that fire over low terrain next to them (Pop-Up, a turreted vehicle hull-down):
    /// that terrain does not stop their own line of sight, and against them it gives the cover
    /// the entry names (or what it always gives).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire_over: Vec<FireOver>,
}

impl SightRules {
    /// Half the width of the front arc in degrees: 180 (all around) where models have no arcs.
    pub fn arc_half(&self) -> f64 {
        self.arc_half_width.unwrap_or(180.0)
    }
}

/// One way of firing over low terrain next to the model (`sight.fire_over`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireOver {
    /// The special attribute that lets the model do it (`pop-up`, `turret`); give one of `sa`,
    /// `weapons` or `terrain`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Option<Id>,
    /// The weapons whose carriers may do it (towed anti-tank guns go hull-down as a turret):
    /// a model carrying any of them; give one of `sa`, `weapons` or `terrain`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub weapons: Vec<Id>,
    /// Terrain pieces whose walls a model standing in one fires over (a revetment's firing
    /// step, a vehicle revetment's hull-down): `within` is then unused, and `max_elevation` is
    /// the highest piece it fires over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Vec<Id>,
    /// Only models of these types; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// How close (inches, edge of base to edge of terrain) the terrain must be.
    pub within: f64,
    /// The highest elevation level of terrain it fires over (E1: 1).
    pub max_elevation: i32,
    /// The cover that terrain gives against attacks on the model instead of what it would
    /// (hull-down: heavy); absent: the model keeps its cover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<Cover>,
    /// A snapshot (Pop-Up, 001 L8001-8016): no Salvo Fire over the terrain; the model's own TAG
    /// does not paint for a shot over it; and as the model rises to fire, enemies on over-watch
    /// may fire at it, the terrain it rises over giving it no cover from them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub snapshot: bool,
}

/// The cover models of some types give when they stand between an attacker and its target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelCover {
    /// The model types this entry is about.
    pub model_types: Vec<ModelType>,
    /// Cover a standing model of these types gives.
    pub standing: Cover,
    /// Cover it gives lying down: prone, or in the ruleset's prone state (knocked down).
    pub prone: Cover,
}

/// Lines of sight with aircraft in flight (001 L4233-4275): they are seen over all terrain. A
/// flying target gets cover only from terrain of at least `ground_attacker_cover_elevation` the
/// line crosses next to its ground attacker; a ground target of a flying attacker only from the
/// terrain it stands in or next to; models never obstruct.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AircraftSight {
    pub ground_attacker_cover_elevation: i32,
}

/// Digging in (infantry): the cover it gives, the terrain it cannot be done in; it also spares
/// the model the extra damage of the open (`damage.dispersed.in_open`). It lasts until the model
/// moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DigInRules {
    pub cover: Cover,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_on: Vec<Id>,
}

/// An arc around a defender (`SightRules::defense_arcs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefenseArc {
    pub id: Id,
    pub name: String,
    /// Degrees off the defender's facing it reaches (both sides alike).
    #[schemars(range(min = 0.0, max = 180.0))]
    pub up_to: f64,
}
