//! The ruleset document: modifier convention, activation and draw deck, dice, options, C3
//! points, the model types it plays and the tables it reads, by role.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::Procedures;

/// The ruleset's parameters: one per ruleset pack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub id: Id,
    pub name: String,
    /// How modifiers are written (default `roll`: added to the roll).
    #[serde(default)]
    pub modifier_convention: ModifierConvention,
    /// What activates together: a model, or a squad (default `per_model`).
    #[serde(default)]
    pub activation: ActivationMode,
    /// The draw deck's cards: per side, and per activation unit (model or squad); the turn's
    /// order unless `turn_order` gives another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_deck: Option<DrawDeckRules>,
    /// The turn as alternating activations or player turns paid from a pool; give this or
    /// `draw_deck`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_order: Option<super::TurnOrder>,
    /// Action points per model activation (the most, where `action_points_by` sets them).
    pub action_points: u32,
    /// Action points by one of the model's attributes, in steps (003 L71-82: actions by crew
    /// size): a model takes the first step its current value is at most (the last step, with
    /// no `at_most`, any higher value), never more than `action_points`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points_by: Option<ActionPointsBy>,
    /// The actions a unit has for a whole turn, each used once (`uses` of an action type):
    /// Sythopian Wars' run, shoot and defend (002 L116-124). Empty: none — only action points
    /// limit what a model does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 32))]
    pub action_slots: Vec<Id>,
    /// Moments the other side may react out of turn, choosing among action types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 16))]
    pub reaction_windows: Vec<super::ReactionWindow>,
    pub dice: DiceRules,
    /// The board's topology: continuous inches (the default) or hexes.
    #[serde(default, skip_serializing_if = "super::BoardRules::is_default")]
    pub board: super::BoardRules,
    /// The attributes its models carry (`model.attributes` in scripts), CAV's card values among
    /// them; at most `limits::MAX_ATTRIBUTES`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 64))]
    pub attributes: Vec<super::AttributeDef>,
    /// Values its terrain types carry by name (`values:` of a terrain): a hull-down bonus, read
    /// where a model stands by the `defender-terrain-<id>` conditions and by action types that
    /// need one (`needs_terrain_value`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 64))]
    pub terrain_values: Vec<super::TerrainValueDef>,
    /// The attributes its weapons carry (`attributes:` of a weapon): a rate of fire, a Force, a
    /// Damage — read by `procedures.attack` and scripts (`weapon.attributes.force`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 64))]
    pub weapon_attributes: Vec<super::AttributeDef>,
    /// The kinds of roll the ruleset makes by name (`ctx.make_roll`): dice in the usual notation,
    /// which way a result succeeds, natural results that decide, criticals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roll_kinds: Vec<super::RollKindDef>,
    /// Contests between two sides' rolls (`ctx.contest`): how the winner is found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contests: Vec<super::ContestDef>,
    /// Turns after which a game is declared a draw if nobody has won (at most `MAX_TURNS`).
    #[schemars(range(min = 1, max = crate::limits::MAX_TURNS))]
    pub turn_limit: u32,
    /// Point-blank distance in inches (direct fire at or inside it gets the point-blank modifier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point_blank: Option<f64>,
    /// Ids of the tables the procedures use, by role; each needed only by what calls on it.
    #[serde(default)]
    #[schemars(schema_with = "tables_schema")]
    pub tables: BTreeMap<TableRole, Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<RulesetOption>,
    /// The features of play the ruleset has, beside the turn's core (`docs/vocabulary.md`,
    /// "Features"); left out: every feature the engine has, each acting where the ruleset's data
    /// gives it something to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<crate::vocab::Feature>>,
    /// Numbers of the procedures the engine runs, by part of the rules.
    #[serde(default)]
    pub procedures: Procedures,
    /// Every model type the ruleset plays, with its traits and sizes.
    pub model_types: BTreeMap<ModelType, ModelTypeRules>,
    /// C3 points: what they buy; left out by a ruleset without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c3: Option<C3Rules>,
    /// How forces are built to a threat value; left out by a ruleset whose scenarios fix forces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_building: Option<crate::force::ForceRules>,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// How situation modifiers are written in this ruleset. The engine normalises internally.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModifierConvention {
    /// Modifiers are added to the roll (Quick-Start: "+1 to the roll" helps).
    #[default]
    Roll,
    /// Modifiers are added to the target point (full rules: "(-1) SM" helps).
    TargetPoint,
}

/// How models are activated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActivationMode {
    /// One card per model in the draw deck (Quick-Start).
    #[default]
    PerModel,
    /// One card per squad, plus side cards (full rules).
    PerSquad,
}

/// The cards of the draw deck: `per_side` for each side, `per_unit` for each model (per-model
/// activation) or squad (per-squad activation) on the table. A unit that leaves play takes its
/// cards with it unless the option `draw-deck-removal` keeps some (001 L2465-2476).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawDeckRules {
    pub per_side: u32,
    #[schemars(range(min = 1, max = 10))]
    pub per_unit: u32,
}

/// Dice used by the ruleset's rolls, as dice expressions (`2d6`, `3d6kh2`, `1d10`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceRules {
    /// Combat, strike-point, pilot and repair rolls.
    pub standard: String,
    /// Rolls with a pre-set base TP (upgrades, assets, strikes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset_tp: Option<String>,
    /// Drift roll (direction by the die's point, distance by its number); needed by indirect
    /// fire, dropped bombs, strikes, orbital drops and drifting clouds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<String>,
}

impl Ruleset {
    /// The attribute lent to the engine for `role` (`attributes:` with `role:`), if one is.
    pub fn attribute_with_role(&self, role: crate::AttributeRole) -> Option<&crate::AttributeDef> {
        self.attributes.iter().find(|a| a.role == Some(role))
    }
}

/// A ruleset option: a place where the rules can be read more than one way, with the
/// reading chosen by default and the ones players may pick instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetOption {
    pub id: Id,
    pub summary: String,
    /// The reading used unless players choose another.
    pub default: Id,
    /// Every reading players may choose, default included.
    pub choices: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// C3 points (001 L1278-1336): single-use points of a force's pool, spent when the force rolls
/// or activates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C3Rules {
    /// The uses players may spend a point on.
    pub uses: Vec<crate::vocab::C3Use>,
    /// Inspire: dice added to the roll (`1d6`).
    pub inspire_dice: String,
    /// Motivate: action points added.
    pub motivate_ap: u32,
    /// Rally: the model states every model of the force sheds.
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub rally_clears: Vec<Id>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// What a model type is and can do in this ruleset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelTypeRules {
    /// Capabilities the engine asks for (docs/vocabulary.md, model traits).
    #[serde(default)]
    pub traits: Vec<ModelTrait>,
    /// Elevation (height) of a standing model of this type.
    pub height: i32,
    /// Hex base width across flats (inches), for models whose card gives none.
    pub base_size: f64,
    /// Degrees the type may turn its front arc left or right (torso twist); back-mounted weapons
    /// keep to the back arc.
    #[serde(default)]
    pub torso_twist: f64,
}

/// Roles tables play in the procedures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableRole {
    RangeBands,
    CombatModifiers,
    IndirectCombatModifiers,
    StrikePointModifiers,
    /// The strike-point roll of a strike package called in (`procedures.strike_packages`).
    StrikePackageModifiers,
    PilotCheckModifiers,
    CloseCombatModifiers,
    BreakModifiers,
    /// The damage roll of each hit under `procedures.attack` (cover that toughens the target).
    DamageRollModifiers,
    CombatDamage,
    CloseCombatDamage,
    CriticalDamage,
    StructureDamage,
    StructureCritical,
    RandomTerrain,
    VictoryLevels,
    ScenarioSelection,
    Drift,
}

/// `tables:`: one key per role, each the id of a document of the kind that plays it (the
/// `x-cav-ref` of `refs.rs`, so the reference check and the editor schemas know the kind).
fn tables_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    fn roles(
        v: &serde_json::Value,
        doc: Option<&serde_json::Value>,
        out: &mut Vec<(serde_json::Value, serde_json::Value)>,
    ) {
        let doc = v.get("description").or(doc);
        if let Some(c) = v.get("const") {
            out.push((c.clone(), doc.cloned().unwrap_or_default()));
        }
        for e in v.get("enum").and_then(|e| e.as_array()).into_iter().flatten() {
            out.push((e.clone(), serde_json::Value::Null));
        }
        for b in v.get("oneOf").and_then(|b| b.as_array()).into_iter().flatten() {
            roles(b, None, out);
        }
    }
    let mut found = Vec::new();
    roles(&<TableRole as JsonSchema>::json_schema(g).to_value(), None, &mut found);
    let id = g.subschema_for::<Id>().to_value();
    let mut props = serde_json::Map::new();
    for (tag, doc) in found {
        let (Ok(role), Some(name)) = (serde_json::from_value::<TableRole>(tag.clone()), tag.as_str()) else { continue };
        let mut p = serde_json::json!({"allOf": [id], "x-cav-ref": role.doc_kind().tag()});
        if doc.is_string() {
            p["description"] = doc;
        }
        props.insert(name.to_owned(), p);
    }
    schemars::json_schema!({"type": "object", "properties": props, "additionalProperties": false})
}

impl TableRole {
    /// The kind of document that plays this role.
    pub fn doc_kind(self) -> crate::DocKind {
        match self {
            TableRole::RangeBands => crate::DocKind::RangeBands,
            TableRole::CombatModifiers
            | TableRole::IndirectCombatModifiers
            | TableRole::StrikePointModifiers
            | TableRole::StrikePackageModifiers
            | TableRole::PilotCheckModifiers
            | TableRole::CloseCombatModifiers
            | TableRole::BreakModifiers
            | TableRole::DamageRollModifiers => crate::DocKind::ModifierTable,
            _ => crate::DocKind::Table,
        }
    }
}

/// Action points by an attribute's value (`Ruleset::action_points_by`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionPointsBy {
    /// The attribute (of `attributes:`) whose value sets them (`crew`).
    pub attribute: Id,
    /// The action points for each range of values, rising.
    #[schemars(length(min = 1, max = 64))]
    pub steps: Vec<super::CountStep>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}
