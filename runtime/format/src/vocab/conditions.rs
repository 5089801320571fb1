//! Condition ids of modifier tables (`condition:`, `also:`) and declarative modifiers (`when:`):
//! the fixed ids, the families that name a document, and their schema.

use super::{I, R, Status};

/// A condition family: `<prefix><id>` where the id names a document (or a range band) of the
/// ruleset, e.g. `band-long`, `defender-knockdown`, `sa-wizzo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConditionFamily {
    pub prefix: &'static str,
    /// What the rest of the id must name.
    pub names: FamilyRef,
    pub status: Status,
    pub doc: &'static str,
}

/// What the id after a family's prefix refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FamilyRef {
    RangeBand,
    ModelState,
    /// A group named in model states' `groups:`.
    StateGroup,
    SpecialAttribute,
    Upgrade,
    /// An attribute the ruleset's models carry (`attributes:`).
    Attribute,
    /// One of the ruleset's own action types (an `action_type` with `does:`).
    OwnAction,
    /// A row name of the critical-damage table, not checked.
    CriticalResult,
    /// A value the ruleset's terrain carries (`terrain_values:`).
    TerrainValue,
    /// An arc around a defender (`procedures.sight.defense_arcs`).
    DefenseArc,
}

impl FamilyRef {
    pub fn what(self) -> &'static str {
        match self {
            FamilyRef::RangeBand => "range band",
            FamilyRef::ModelState => "model state",
            FamilyRef::StateGroup => "state group",
            FamilyRef::SpecialAttribute => "special attribute",
            FamilyRef::Upgrade => "upgrade",
            FamilyRef::Attribute => "attribute",
            FamilyRef::OwnAction => "action type of the ruleset's own (`does:`)",
            FamilyRef::CriticalResult => "critical-damage result",
            FamilyRef::TerrainValue => "terrain value (`terrain_values:`)",
            FamilyRef::DefenseArc => "defense arc (`procedures.sight.defense_arcs`)",
        }
    }
}

/// A fixed condition id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    pub id: &'static str,
    pub status: Status,
    pub doc: &'static str,
}

/// Condition ids of modifier tables (`condition:`, `also:`) and declarative modifiers (`when:`).
/// Fixed ids are tested before families, so a fixed id may start like a family.
pub const CONDITIONS: &[Condition] = &[
    Condition { id: "always", status: I, doc: "Always holds." },
    Condition {
        id: "point-blank",
        status: I,
        doc: "A direct-fire attack at or inside the ruleset's point-blank distance.",
    },
    Condition { id: "light-cover", status: I, doc: "The defender has light cover." },
    Condition { id: "heavy-cover", status: I, doc: "The defender has heavy cover." },
    Condition {
        id: "no-cover",
        status: I,
        doc: "The defender has no cover from the attack (with `defender-sa-…`: a model that counts as in cover wherever it stands).",
    },
    Condition {
        id: "extra-woods",
        status: I,
        doc: "The obscurement along the line of sight (terrain `obscurement`: CAV's woods, light 1, heavy 2 each) is worth more points than the cover type's own modifier (scales per extra point, `per_count`; a ruleset using `obscured` too would count obscurement twice).",
    },
    Condition {
        id: "defender-moved",
        status: I,
        doc: "The defender moved in its last activation: counts the hexes (on a hex board) or whole inches it moved; with `steps`, a modifier by how far (003 L112-124), 0 included.",
    },
    Condition {
        id: "attacker-moved",
        status: I,
        doc: "The roller moved in this activation: counts the hexes (on a hex board) or whole inches it moved.",
    },
    Condition {
        id: "attacker-speed",
        status: I,
        doc: "The MV the roller spent on moves this activation, as a percentage of its move value (100: a full move; 200: two); with `steps`, a modifier by its speed (003 L94-100), 0 included.",
    },
    Condition {
        id: "obscured",
        status: I,
        doc: "The terrain along the line of sight hides the defender by this many obscurement points (terrain `obscurement`; scales per point, `per_count`).",
    },
    Condition { id: "salvo-fire", status: I, doc: "A salvo-fire strike (scales per additional weapon)." },
    Condition { id: "run-n-gun", status: I, doc: "The assault of a run 'n gun action." },
    Condition { id: "defensive-fire", status: I, doc: "A defensive-fire shot." },
    Condition {
        id: "consecutive-attempt",
        status: I,
        doc: "A further strike-point attempt at the same point (scales per attempt).",
    },
    Condition { id: "los-to-strike-point", status: I, doc: "The attacker sees the strike point." },
    Condition {
        id: "primary-roll",
        status: I,
        doc: "The combat or strike-point roll of the attack itself (not a secondary roll against a model under the template).",
    },
    Condition { id: "target-locked", status: I, doc: "The attacker holds a target-lock on the defender." },
    Condition {
        id: "counter-battery",
        status: I,
        doc: "The roll belongs to a counter-battery answer to enemy artillery (`procedures.counter_battery`).",
    },
    Condition {
        id: "tagged",
        status: I,
        doc: "The defender is painted for the attacker by a TAG: its own (the `tag` effect's reach, in sight) or a friend's `tag` action (a state with `painted`).",
    },
    Condition {
        id: "own-target-lock",
        status: I,
        doc: "The attacker holds a target-lock on the defender that it took itself, not one a squad mate shared (EST).",
    },
    Condition { id: "quad-cav", status: I, doc: "The roller's model type has the trait `four-legged`." },
    Condition { id: "aircraft", status: I, doc: "The roller's model type has the trait `aircraft`." },
    Condition { id: "non-infantry", status: I, doc: "The roller's model type lacks the trait `infantry`." },
    Condition {
        id: "defender-in-flight",
        status: I,
        doc: "The defender is flying now (an aircraft that has not landed).",
    },
    Condition {
        id: "close-combat-support",
        status: I,
        doc: "Supporting models in base contact (scales per supporter).",
    },
    Condition { id: "failed-break", status: I, doc: "The roller failed a break this turn." },
    Condition {
        id: "friends-in-contact",
        status: I,
        doc: "Friendly models in base contact with the roller (scales per model).",
    },
    Condition {
        id: "enemies-in-contact",
        status: I,
        doc: "Enemy models in base contact with the roller (scales per model).",
    },
    Condition {
        id: "multiple-targets",
        status: I,
        doc: "The combat action splits its weapons between several targets, or the model locked onto \
              another model this activation (counts the targets beyond the first).",
    },
    Condition {
        id: "back-arc",
        status: I,
        doc: "The attacker stands in the rear arc of a defender that is not infantry.",
    },
    Condition { id: "close-combat", status: I, doc: "The roll is a close-combat roll." },
    Condition {
        id: "strike-package",
        status: I,
        doc: "The roll is for a battlefield strike package a model called in (`call-strike`).",
    },
    Condition {
        id: "direct-fire",
        status: I,
        doc: "The roll is a direct-fire combat roll (not a strike-point or secondary roll, not close combat).",
    },
    Condition {
        id: "energy-weapon",
        status: I,
        doc: "The attack's weapon is an energy weapon (its document's `energy: true`).",
    },
    Condition {
        id: "laser-guided",
        status: I,
        doc: "The attack's weapon fires a laser-guided munition (its profile's `laser_guided: true`).",
    },
    Condition {
        id: "non-energy-weapon",
        status: I,
        doc: "The attack's weapon is not an energy weapon (never holds without a weapon).",
    },
];

/// Condition families, longest prefix first (so `defender-sa-` wins over `defender-`).
pub const CONDITION_FAMILIES: &[ConditionFamily] = &[
    ConditionFamily {
        prefix: "action-",
        names: FamilyRef::OwnAction,
        status: I,
        doc: "The roll is made in an action of the ruleset's own action type (`does:`): Sythopian Wars' SNAP FIRE.",
    },
    ConditionFamily {
        prefix: "attacker-attribute-",
        names: FamilyRef::Attribute,
        status: I,
        doc: "The roller's attribute (`attributes:`): holds while it is above 0 and counts its value (`scale: per_count`: the modifier times it).",
    },
    ConditionFamily {
        prefix: "defender-attribute-",
        names: FamilyRef::Attribute,
        status: I,
        doc: "The defender's attribute (`attributes:`): holds while it is above 0 and counts its value (`scale: per_count`: the modifier times it).",
    },
    ConditionFamily {
        prefix: "defender-arc-",
        names: FamilyRef::DefenseArc,
        status: I,
        doc: "The attacker stands in this arc around the defender (`procedures.sight.defense_arcs`): a shot into its flank or rear (003 L126-130).",
    },
    ConditionFamily {
        prefix: "defender-terrain-",
        names: FamilyRef::TerrainValue,
        status: I,
        doc: "The terrain value (`terrain_values:`) where the defender stands, above 0: counts it (`scale: per_count`: the modifier times it). A hull-down bonus, with `also: [defender-<state>]`.",
    },
    ConditionFamily {
        prefix: "squad-sa-",
        names: FamilyRef::SpecialAttribute,
        status: I,
        doc: "Other models of the roller's squad on the table with the special attribute (counts them).",
    },
    ConditionFamily {
        prefix: "defender-sa-",
        names: FamilyRef::SpecialAttribute,
        status: I,
        doc: "The defender has the special attribute (scales with its rating).",
    },
    ConditionFamily {
        prefix: "attacker-in-",
        names: FamilyRef::StateGroup,
        status: I,
        doc: "The roller is in a state of the group (model states' `groups:`); one modifier however many it has.",
    },
    ConditionFamily {
        prefix: "attacker-",
        names: FamilyRef::ModelState,
        status: I,
        doc: "The roller is in the model state.",
    },
    ConditionFamily {
        prefix: "defender-",
        names: FamilyRef::ModelState,
        status: I,
        doc: "The defender is in the model state.",
    },
    ConditionFamily {
        prefix: "upgrade-",
        names: FamilyRef::Upgrade,
        status: I,
        doc: "The roller's model carries the upgrade (counts how many were bought).",
    },
    ConditionFamily {
        prefix: "crit-",
        names: FamilyRef::CriticalResult,
        status: R("the critical table's own combat modifier applies instead"),
        doc: "The roller suffered this critical-damage result.",
    },
    ConditionFamily {
        prefix: "band-",
        names: FamilyRef::RangeBand,
        status: I,
        doc: "The attack is in the range band.",
    },
    ConditionFamily {
        prefix: "sa-",
        names: FamilyRef::SpecialAttribute,
        status: I,
        doc: "The roller (model or weapon) has the special attribute (scales with its rating).",
    },
];

/// What a condition id means, if the vocabulary knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConditionWord<'a> {
    Fixed(&'static Condition),
    /// A family and the id after its prefix (not yet checked against the ruleset).
    Family(&'static ConditionFamily, &'a str),
}

/// Look a condition id up in the vocabulary.
pub fn condition(id: &str) -> Option<ConditionWord<'_>> {
    if let Some(c) = CONDITIONS.iter().find(|c| c.id == id) {
        return Some(ConditionWord::Fixed(c));
    }
    CONDITION_FAMILIES.iter().find_map(|f| {
        id.strip_prefix(f.prefix).filter(|rest| !rest.is_empty()).map(|rest| ConditionWord::Family(f, rest))
    })
}

/// The JSON Schema of a condition id: the fixed ids as an enum (editors complete them) or an id
/// starting with a family prefix.
pub fn condition_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let fixed: Vec<&str> = CONDITIONS.iter().map(|c| c.id).collect();
    let prefixes: Vec<&str> = CONDITION_FAMILIES.iter().map(|f| f.prefix.trim_end_matches('-')).collect();
    let mut doc =
        String::from("A condition id of the engine's vocabulary (docs/vocabulary.md): one of the fixed ids, or ");
    doc.push_str(
        &CONDITION_FAMILIES
            .iter()
            .map(|f| format!("`{}<{}>`", f.prefix, f.names.what()))
            .collect::<Vec<_>>()
            .join(", "),
    );
    doc.push('.');
    schemars::json_schema!({
        "description": doc,
        "anyOf": [
            { "type": "string", "enum": fixed },
            { "type": "string", "pattern": format!("^({})-[a-z0-9][a-z0-9-]*$", prefixes.join("|")) }
        ]
    })
}

/// The same, for a list of condition ids.
pub fn conditions_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let item = condition_schema(generator);
    schemars::json_schema!({ "type": "array", "items": item })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_find_the_longest_prefix() {
        assert!(
            matches!(condition("defender-sa-wizzo"), Some(ConditionWord::Family(f, "wizzo")) if f.prefix == "defender-sa-")
        );
        assert!(
            matches!(condition("defender-knockdown"), Some(ConditionWord::Family(f, "knockdown")) if f.prefix == "defender-")
        );
        assert!(matches!(condition("point-blank"), Some(ConditionWord::Fixed(_))));
        assert_eq!(condition("light-cvoer"), None);
        assert_eq!(condition("band-"), None);
    }
}
