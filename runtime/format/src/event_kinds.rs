//! The events the engine emits, declared for scenario tests: each kind (the `event:` tag of the
//! event log) and the keys it carries, with their types and meanings.
//!
//! The engine's `Event` enum lives in `cav-rules`, above this crate; this table is what the test
//! schema is generated from (`expect.events` and `expect.absent` items are typed by kind, so a
//! misspelled kind or key is a located error from `cav validate`). A test in `cav-rules`
//! (`testing::tests::event_kinds_match_the_engine`) serialises one of every `Event` variant and
//! fails when a kind, a key or a type here differs from what the engine emits.

/// The type of one key of an event, as a test writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventField {
    /// A model: the test writes its test id (the log holds the model's index).
    Model,
    /// A model, or null (`~`) where the event has none (an attack at a point).
    OptModel,
    Int,
    Number,
    Text,
    Bool,
    /// A point on the board: `{x: 10, y: 24}` or `[10, 24]`.
    Point,
    /// An integer, or null (`~`) where the event has none.
    OptInt,
    /// Text, or null (`~`) where the event has none.
    OptText,
    /// A boolean, or null (`~`) where the event has none.
    OptBool,
    /// A list of integers (the natural dice of a roll).
    Ints,
    /// A list of numbers (a board size).
    Numbers,
    /// The modifiers of a roll: a list of `{source, value}`, compared in order and in full.
    Mods,
    /// One word of a closed set the engine writes: the schema lists them (an editor completes
    /// them, a misspelt one is a located error), and `cav test` fails an event whose word is not
    /// among them, so the list cannot fall behind the engine unseen.
    Word(&'static [&'static str]),
    /// A word of a closed set, or null (`~`) where the event has none.
    OptWord(&'static [&'static str]),
}

impl EventField {
    /// The JSON Schema of a value of this type in a test.
    pub fn schema(self, doc: &str) -> serde_json::Value {
        use serde_json::json;
        let mut s = match self {
            EventField::Model => json!({"type": "string", "pattern": crate::ID_PATTERN}),
            EventField::OptModel => {
                json!({"anyOf": [{"type": "string", "pattern": crate::ID_PATTERN}, {"type": "null"}]})
            }
            EventField::Int => json!({"type": "integer"}),
            EventField::Number => json!({"type": "number"}),
            EventField::Text => json!({"type": "string"}),
            EventField::Bool => json!({"type": "boolean"}),
            EventField::Point => json!({"anyOf": [
                {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                 "additionalProperties": false},
                {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
            ]}),
            EventField::OptInt => json!({"type": ["integer", "null"]}),
            EventField::OptText => json!({"type": ["string", "null"]}),
            EventField::OptBool => json!({"type": ["boolean", "null"]}),
            EventField::Ints => json!({"type": "array", "items": {"type": "integer"}}),
            EventField::Numbers => json!({"type": "array", "items": {"type": "number"}}),
            EventField::Word(words) => json!({"type": "string", "enum": words}),
            EventField::OptWord(words) => {
                json!({"enum": words.iter().map(|w| json!(w)).chain([json!(null)]).collect::<Vec<_>>()})
            }
            EventField::Mods => json!({"type": "array", "items": {
                "type": "object",
                "properties": {"source": {"type": "string"}, "value": {"type": "integer"}},
                "additionalProperties": false
            }}),
        };
        s["description"] = doc.into();
        s
    }
}

/// One kind of event: its tag, what it records, and its keys `(name, type, meaning)`.
#[derive(Debug, Clone, Copy)]
pub struct EventKind {
    pub id: &'static str,
    pub doc: &'static str,
    pub keys: &'static [(&'static str, EventField, &'static str)],
}

impl EventKind {
    pub fn find(id: &str) -> Option<&'static EventKind> {
        EVENT_KINDS.iter().find(|k| k.id == id)
    }
    pub fn key(&self, name: &str) -> Option<EventField> {
        self.keys.iter().find(|(k, _, _)| *k == name).map(|(_, t, _)| *t)
    }
}

use EventField::*;

const MODEL: (&str, EventField, &str) = ("model", Model, "The model the event is about (test id).");
const TARGET: (&str, EventField, &str) = ("target", Model, "The model attacked or aimed at (test id).");
const WEAPON: (&str, EventField, &str) = ("weapon", Text, "The weapon's name as on the card (`Medium MAC`).");

/// Every event kind the engine emits, in the order of `Event`.
pub const EVENT_KINDS: &[EventKind] = &[
    EventKind {
        id: "game_start",
        doc: "A game begins.",
        keys: &[
            ("ruleset", Text, "The ruleset pack id."),
            ("scenario", Text, "The scenario id."),
            ("seed", OptInt, "The dice seed, if seeded."),
            ("board", Numbers, "Board width and depth in inches."),
            ("hexes", OptWord(&["flat", "pointy"]), "A hex board's orientation; left out on a continuous board."),
            ("hex_size", Number, "A hex board's hexes across the flats, in inches; left out on a continuous board."),
        ],
    },
    EventKind {
        id: "terrain_placed",
        doc: "A terrain area is placed on the board.",
        keys: &[
            ("terrain", Text, "Terrain id."),
            ("center", Point, "Its centre."),
            ("radius", Number, "Its radius in inches."),
        ],
    },
    EventKind {
        id: "deployed",
        doc: "A model is placed on the board.",
        keys: &[
            MODEL,
            ("name", Text, "The model's name in the game."),
            ("side", Text, "Its side."),
            ("at", Point, "Where."),
            ("facing", Number, "Facing in degrees (0 = towards +y, clockwise)."),
        ],
    },
    EventKind { id: "turn_start", doc: "A turn begins.", keys: &[("turn", Int, "The turn number (the first is 1).")] },
    EventKind {
        id: "objective_scored",
        doc: "At the end of a turn a side scores objective points: it controls more of the scenario's areas than any \
              other, or it salvaged a container.",
        keys: &[
            ("side", Text, "The side."),
            ("points", Int, "Points scored this turn."),
            ("areas", Int, "Areas it controls (0 for a container)."),
        ],
    },
    EventKind {
        id: "c3_spent",
        doc: "A force spends a C3 point (inspire, motivate, rally).",
        keys: &[
            ("side", Text, "The force's side."),
            MODEL,
            ("what", Word(&["inspire", "motivate", "rally", "seize-the-initiative"]), "The use of the point."),
            ("left", Int, "Points left in the pool."),
        ],
    },
    EventKind {
        id: "damage_shared",
        doc: "A hit's damage goes to a model of the hit model's unit (`damage.unit_pool`), landing at the end of the activation.",
        keys: &[
            ("hit", Model, "The model the attack hit."),
            MODEL,
            ("points", Int, "The damage points this model takes."),
        ],
    },
    EventKind {
        id: "activation_passed",
        doc: "In alternating activations, a side's turn to activate passes: a reaction of its took that activation (`counts_as_activation`).",
        keys: &[("side", Text, "The side whose turn passes.")],
    },
    EventKind {
        id: "out_of_coherency",
        doc: "A model ends its unit's activation out of coherency (`procedures.coherency`); in a `left_behind` state it is removed as slain.",
        keys: &[MODEL, ("lost", Bool, "It was removed for it (left behind in a state).")],
    },
    EventKind {
        id: "held_damage",
        doc: "A unit's held damage changes (`damage.unit_pool.leftover`): points too few to slay a model kept on the unit, or taken off by a recovery test or a model removed.",
        keys: &[
            ("unit", Text, "The unit's name."),
            ("points", Int, "The change: points added (+) or taken off (−)."),
            ("held", Int, "The damage the unit holds now."),
        ],
    },
    EventKind {
        id: "melee",
        doc: "Two units in close combat (`procedures.melee`) have rolled their attacks as a command ends; the damage follows (`held_damage`, `damage_shared`).",
        keys: &[
            MODEL,
            ("target", Model, "A model of the other unit (the two first found in reach)."),
            ("hits", Int, "The hits of the model's unit."),
            ("target_hits", Int, "The hits of the other unit."),
        ],
    },
    EventKind {
        id: "action_taken",
        doc: "A model takes one of the ruleset's own action types (an `action_type` with `does:`: Sythopian Wars' RUN); what the action does follows.",
        keys: &[MODEL, ("action", Text, "The action type's name (`RUN`).")],
    },
    EventKind {
        id: "answered",
        doc: "The target of an attack answers it as it is declared (`procedures.attack.opposed`): a roll that only opposes (a Dodge), or a shot back.",
        keys: &[
            MODEL,
            ("target", Model, "The attacker it answers."),
            ("answer", Text, "The answer's name (`opposed.answers`)."),
            ("weapon", Text, "The weapon it shoots back with; absent for a roll."),
        ],
    },
    EventKind {
        id: "opposed",
        doc: "The target's answer met an attack's hit rolls in a contest (`procedures.attack.opposed`).",
        keys: &[
            MODEL,
            ("target", Model, "The model attacked, which answered."),
            ("contest", Text, "The contest's id (`contests:`)."),
            ("standing", Int, "The attacker's hit rolls that stand."),
            (
                "theirs_standing",
                Int,
                "The target's rolls that stand (a shot back's standing hits land on the attacker).",
            ),
        ],
    },
    EventKind {
        id: "damage_points",
        doc: "The hit rolls of an attack by roll kinds (`procedures.attack`) and the damage points they deal, landing at the end of the activation.",
        keys: &[
            MODEL,
            ("target", Model, "The model attacked."),
            ("rolls", Int, "Hit rolls made."),
            ("hits", Int, "Hit rolls that stand (after the target's opposing roll)."),
            ("dealing", Int, "Hits that deal damage (after the damage or saving rolls)."),
            ("damage", Int, "Damage points in all."),
        ],
    },
    EventKind {
        id: "reacted",
        doc: "A model reacts out of turn in one of the ruleset's reaction windows (`reaction_windows`); its action follows.",
        keys: &[
            MODEL,
            ("target", Model, "The acting model it reacts to."),
            ("window", Text, "The window's id."),
            ("action", Text, "The action it takes (`fire`, `move`…)."),
        ],
    },
    EventKind {
        id: "pool_filled",
        doc: "A pooled turn starts (`turn_order`): a side's pool for the turn.",
        keys: &[
            ("side", Text, "The side."),
            ("pool", Text, "What the ruleset calls a point of it."),
            ("points", Int, "Its points this turn."),
        ],
    },
    EventKind {
        id: "pool_spent",
        doc: "A side pays a point of its pool to activate a unit (`turn_order`); the unit's activations follow.",
        keys: &[
            ("side", Text, "The side."),
            ("model", Model, "The unit's first model."),
            ("pool", Text, "What the ruleset calls a point of it."),
            ("left", Int, "Its points left this turn."),
        ],
    },
    EventKind {
        id: "squad_activation",
        doc: "A draw-deck card activates a squad (per-squad activation); its models' activations follow.",
        keys: &[
            ("squad", Text, "The squad's name."),
            ("side", Text, "Its side."),
            ("models", Int, "Its models still on the table."),
        ],
    },
    EventKind {
        id: "activation",
        doc: "A model activates.",
        keys: &[MODEL, ("ap", Int, "The action points it has for this activation.")],
    },
    EventKind {
        id: "moved",
        doc: "A model moved (one move, reverse, break or run 'n gun leg).",
        keys: &[
            MODEL,
            ("from", Point, "Where the move began (base centre)."),
            ("to", Point, "Where it ended (base centre)."),
            ("mv_spent", Int, "MV points spent, turns included."),
            ("facing", Number, "Facing afterwards in degrees."),
        ],
    },
    EventKind { id: "stood_up", doc: "A prone model stood up.", keys: &[MODEL] },
    EventKind {
        id: "turned",
        doc: "A model turned on the spot to face another (an answer that turns: Change Facing).",
        keys: &[
            MODEL,
            ("facing", Number, "Facing afterwards in degrees."),
            ("toward", Model, "The model it now faces (test id)."),
        ],
    },
    EventKind { id: "went_prone", doc: "A model went prone.", keys: &[MODEL] },
    EventKind { id: "target_lock", doc: "A model locked on to a target.", keys: &[MODEL, TARGET] },
    EventKind {
        id: "lock_shared",
        doc: "A squad mate's target-lock passed on to the model (EST).",
        keys: &[MODEL, ("from", Model, "The squad mate that locked on (test id)."), TARGET],
    },
    EventKind { id: "overwatch", doc: "A model went on over-watch.", keys: &[MODEL] },
    EventKind {
        id: "popped_up",
        doc: "A model rose over low terrain beside it for a snapshot (Pop-Up): enemies on over-watch may fire at it first.",
        keys: &[MODEL],
    },
    EventKind {
        id: "overwatch_fire",
        doc: "A model on over-watch stops a moving enemy and fires at it.",
        keys: &[("model", Model, "The model on over-watch (test id)."), ("target", Model, "The mover (test id).")],
    },
    EventKind {
        id: "defensive_fire",
        doc: "A model attacked before it activated declares defensive fire.",
        keys: &[("model", Model, "The defender (test id)."), ("target", Model, "The attacker it answers (test id).")],
    },
    EventKind {
        id: "close_defense",
        doc: "A model attacked from close quarters strikes first with its close-defense reaction (Anti-Infantry).",
        keys: &[
            ("model", Model, "The defender striking first (test id)."),
            ("target", Model, "The attacker it answers (test id)."),
        ],
    },
    EventKind {
        id: "counter_battery",
        doc: "A model with Counter-Battery answers an enemy's artillery at once, at the firing model's place.",
        keys: &[
            ("model", Model, "The answering model (test id)."),
            ("target", Model, "The artillery it answers (test id)."),
        ],
    },
    EventKind {
        id: "close_combat",
        doc: "A close-combat assault.",
        keys: &[MODEL, TARGET, ("supporters", Int, "Supporting attackers counted.")],
    },
    EventKind {
        id: "attack",
        doc: "One weapon attacks one model (a direct attack or a secondary roll at a strike point).",
        keys: &[
            MODEL,
            TARGET,
            WEAPON,
            (
                "mode",
                Word(&["direct", "secondary", "template", "mines", "missile", "submunition"]),
                "How it attacks: a direct shot, a secondary roll at a strike point, a template's, a minefield's, a missile flying into it, a seeking submunition's.",
            ),
            ("distance", Number, "Distance base edge to base edge, to two decimals."),
            ("band", OptText, "The range band's name (`Medium`); null for secondary rolls."),
        ],
    },
    EventKind {
        id: "no_attack",
        doc: "A declared weapon cannot attack, with the reason.",
        keys: &[
            MODEL,
            ("target", OptModel, "The model aimed at (test id); null for an indirect attack at a point."),
            WEAPON,
            ("reason", Text, "Why (`out of range`, `needs a target-lock`, …)."),
        ],
    },
    EventKind {
        id: "roll",
        doc: "A dice roll with everything that went into it.",
        keys: &[
            ("model", Model, "The model that rolls (test id)."),
            (
                "kind",
                Text,
                "What the roll is for: `combat`, `strike-point`, `secondary-combat`, `close-combat`, `break`, `pilot-check`, `repair`, `state-test`, `out-of-ammo`, `critical`, `critical-bonus`, `fumble-bonus`, …",
            ),
            ("dice", Text, "The dice expression (`2d6`)."),
            ("natural", Ints, "The faces rolled."),
            ("mods", Mods, "Every modifier with its source, in order (positive helps the roller)."),
            ("total", Int, "Dice plus modifiers."),
            ("target", OptInt, "The target point (a number, not a model); null when there is none."),
            ("margin", OptInt, "Total minus target point."),
            ("success", OptBool, "Whether it succeeded; null for rolls without a target point."),
            ("critical", OptWord(&["success", "fumble"]), "Whether the natural roll is critical; null when it is not."),
        ],
    },
    EventKind {
        id: "aimed",
        doc: "An indirect attack's strike point is declared, before its strike-point roll: where, how far and in which band.",
        keys: &[
            MODEL,
            ("target", OptModel, "The model aimed at (test id); null for a point with none."),
            WEAPON,
            ("at", Point, "The declared strike point."),
            ("distance", Number, "The range to it as the ruleset measures it, to two decimals."),
            ("band", Text, "The range band's name (`Long`)."),
        ],
    },
    EventKind {
        id: "strike_point",
        doc: "An indirect attack landed on its strike point.",
        keys: &[MODEL, ("at", Point, "The strike point.")],
    },
    EventKind {
        id: "drift",
        doc: "A missed strike point drifted.",
        keys: &[
            MODEL,
            ("from", Point, "The point it drifted from (the aimed point, or where a fumble moved it)."),
            ("to", Point, "Where it landed."),
            ("inches", Number, "How far it drifted."),
        ],
    },
    EventKind {
        id: "hit",
        doc: "A hit: margin of success plus RAV against the target's AV.",
        keys: &[
            MODEL,
            TARGET,
            WEAPON,
            ("margin", Int, "Margin of success after reductions (Reinforced)."),
            ("rav", Int, "The RAV used, everything added."),
            ("av", Int, "The target's AV in its current column."),
            ("penetrated", Bool, "Whether margin + RAV reached the AV."),
        ],
    },
    EventKind {
        id: "damage_result",
        doc: "A row of a damage table applies.",
        keys: &[
            ("target", Model, "The model that takes it (test id)."),
            ("row", Text, "The row's name."),
            ("damage", Int, "Damage points."),
        ],
    },
    EventKind {
        id: "out_of_ammo",
        doc: "An out-of-ammo roll failed.",
        keys: &[MODEL, WEAPON, ("saved_by_reserve", Bool, "An ammo bin (reserve) saved the weapon.")],
    },
    EventKind {
        id: "damage_applied",
        doc: "Damage lands on a model (at the end of an activation, or at once for over-watch).",
        keys: &[
            MODEL,
            ("points", Int, "Points taken now."),
            ("column", Int, "The damage-track column afterwards."),
            ("total", Int, "Damage taken in all."),
        ],
    },
    EventKind {
        id: "state_gained",
        doc: "A model gains a state.",
        keys: &[MODEL, ("state", Text, "The state's name.")],
    },
    EventKind { id: "state_ended", doc: "A model's state ends.", keys: &[MODEL, ("state", Text, "The state's name.")] },
    EventKind {
        id: "state_ignored",
        doc: "A model does not gain a state it was dealt: its model type is immune to it (the state's `immune:`), or a state it has supersedes it.",
        keys: &[
            MODEL,
            ("state", Text, "The state's name."),
            ("why", Word(&["immune", "superseded"]), "Immune by its model type, or superseded by a state it has."),
        ],
    },
    EventKind {
        id: "critical",
        doc: "A critical-damage result.",
        keys: &[MODEL, ("result", Text, "The critical table row's name.")],
    },
    EventKind {
        id: "marker_placed",
        doc: "A script put a marker on the board, or moved its marker of that name (`ctx.place_marker`).",
        keys: &[
            ("source", Text, "The special attribute whose script placed it (its name)."),
            ("id", Text, "The marker's name."),
            ("at", Point, "Where it lies."),
        ],
    },
    EventKind {
        id: "marker_removed",
        doc: "A script took its marker off the board (`ctx.remove_marker`).",
        keys: &[
            ("source", Text, "The special attribute whose script placed it (its name)."),
            ("id", Text, "The marker's name."),
        ],
    },
    EventKind {
        id: "placed",
        doc: "A script put a model at a point (`ctx.place_model`), passing nothing on the way.",
        keys: &[MODEL, ("at", Point, "Where it stands now.")],
    },
    EventKind {
        id: "table_result",
        doc: "A row of a lookup table lands on the model: the attack's damage table (`procedures.attack.damage_table`) read by a hit, or a table a row rolls on (`roll_on`, `roll_again`).",
        keys: &[
            MODEL,
            ("table", Text, "The table's name."),
            ("key", Int, "What the table was read by: the hit's damage in multiples, or the roll with what was added."),
            ("result", Text, "The row's name."),
        ],
    },
    EventKind {
        id: "attribute_changed",
        doc: "A table row changed one of the model's attributes for good.",
        keys: &[MODEL, ("attribute", Text, "The attribute's id."), ("value", Int, "Its value now.")],
    },
    EventKind {
        id: "weapon_damaged",
        doc: "A table row damaged one of the model's weapons, chosen by a die among those not lost.",
        keys: &[
            MODEL,
            WEAPON,
            ("modifier", Int, "The weapon's lasting modifier to its rolls now (positive helps), 0 for none."),
            ("lost", Bool, "The weapon fires no more."),
        ],
    },
    EventKind {
        id: "table_rolls_cut",
        doc: "A chain of table rolls (`roll_on`, `roll_again`) reached its limit (`MAX_TABLE_ROLLS`); the rolls it still called for are not made.",
        keys: &[MODEL, ("table", Text, "The table whose roll was not made.")],
    },
    EventKind {
        id: "repaired",
        doc: "A repair succeeded.",
        keys: &[MODEL, ("points", Int, "Points repaired."), ("column", Int, "The column afterwards.")],
    },
    EventKind {
        id: "mission_kill",
        doc: "A model can no longer fight and must leave.",
        keys: &[MODEL, ("reason", Text, "Why.")],
    },
    EventKind { id: "hvo_taken", doc: "A model picks up the high-value operative (Rescue).", keys: &[MODEL] },
    EventKind {
        id: "hvo_dropped",
        doc: "The high-value operative's carrier is lost: the figure stays where it was.",
        keys: &[MODEL, ("at", Point, "Where the figure now stands.")],
    },
    EventKind {
        id: "container",
        doc: "A salvage container changes: it becomes `active`, is `salvaged` by a side, or is `removed`.",
        keys: &[
            ("number", Int, "The container's number (first = 1)."),
            ("what", Word(&["active", "salvaged", "removed"]), "What happened to the container."),
            ("side", Text, "The side that salvaged it (`salvaged` only)."),
        ],
    },
    EventKind {
        id: "regrouped",
        doc: "Two squads merge into one (Regroup).",
        keys: &[
            ("squad", Text, "The squad that regrouped, which the other joins."),
            ("joined", Text, "The squad that merged into it."),
            ("kind", Text, "The new squad's type."),
            ("models", Int, "Models in it now."),
        ],
    },
    EventKind {
        id: "structure_attack",
        doc: "A model attacks a structure with one weapon (a combat roll follows).",
        keys: &[
            MODEL,
            ("weapon", Text, "The weapon's name."),
            ("at", Point, "The point of the structure aimed at."),
            ("distance", Number, "Range to that point, inches."),
            ("band", OptText, "The range band's name; null for an attack with no range (a missile flying into it)."),
        ],
    },
    EventKind {
        id: "structure_hit",
        doc: "A structure takes an attack that reached its armor class (damage 0: it did not), a critical, or fire.",
        keys: &[
            ("at", Point, "The structure's centre."),
            ("damage", Int, "Damage points it took."),
            ("armor_class", Int, "Its armor class now."),
            ("damage_points", Int, "Damage points it has left."),
        ],
    },
    EventKind {
        id: "structure_collapsed",
        doc: "A structure collapses into rubble; the models inside are hurt or lost.",
        keys: &[("at", Point, "The structure's centre.")],
    },
    EventKind {
        id: "structure_worn",
        doc: "A model inside a structure was damaged: the structure loses a point of armor class.",
        keys: &[("at", Point, "The structure's centre."), ("armor_class", Int, "Its armor class now.")],
    },
    EventKind {
        id: "flight",
        doc: "An aircraft changes how it flies: `noe` (starts flying nap of the earth), `noe-ends`, `landed`, `took-off`.",
        keys: &[MODEL, ("what", Word(&["noe", "noe-ends", "landed", "took-off"]), "The change of flight.")],
    },
    EventKind {
        id: "towing",
        doc: "A towed gun packs up to be towed (`limbered`) or sets up to fire (`unlimbered`).",
        keys: &[MODEL, ("what", Word(&["limbered", "unlimbered"]), "Hitched to its tow, or set up to fire.")],
    },
    EventKind {
        id: "mounted",
        doc: "An infantry model boards a transport, or a towed gun is hitched to its tow.",
        keys: &[MODEL, ("transport", Model, "Test id of the transport.")],
    },
    EventKind {
        id: "dismounted",
        doc: "An infantry model leaves a transport, or a towed gun is unhitched, placed in base contact with it.",
        keys: &[MODEL, ("transport", Model, "Test id of the transport."), ("at", Point, "Where it stands.")],
    },
    EventKind {
        id: "abandoned",
        doc: "A model is lost without being shot to pieces: its crew bailed out, or it crashed.",
        keys: &[
            MODEL,
            ("reason", Text, "Why: its crew bailed out, it crashed, a missile detonated or self-destructed, …"),
        ],
    },
    EventKind { id: "destroyed", doc: "A model is destroyed.", keys: &[MODEL] },
    EventKind {
        id: "out_of_action",
        doc: "Damaged past its last column, a model stays on the table out of action: in the way and a target still, but it never acts again; any further damage destroys it.",
        keys: &[MODEL],
    },
    EventKind {
        id: "terrain_laid",
        doc: "A piece of terrain is laid: by a script (`ctx.place_terrain`: a smoke cloud) or where a shell or strike that leaves terrain lands (a smoke shell's cloud, a smoke screen).",
        keys: &[
            ("model", Model, "The model whose special attribute, shell or strike call laid it (test id)."),
            ("terrain", Text, "The terrain type's id."),
            ("at", Point, "Its centre."),
            ("radius", Number, "A round piece's radius in inches (0 for a strip)."),
            ("length", Number, "A strip's length in inches (0 for a round piece)."),
            ("width", Number, "A strip's width in inches (0 for a round piece)."),
            (
                "activations",
                Int,
                "How many of the model's activations are to start before it is lifted (0: counted in turns).",
            ),
            ("turns", Int, "How many end phases are to pass before it is lifted (0: counted in activations)."),
        ],
    },
    EventKind {
        id: "cloud",
        doc: "A cloud a shell left (an attack profile's `cloud:`, the nano-disassemblers') is laid where the shell landed, drifts at a turn's end, is cleared by an attack, or is destroyed by a model's single-use upgrade that meets it (an anti-nano pod's pulse).",
        keys: &[
            (
                "model",
                Model,
                "The model whose shell laid it (laid, drifted), whose attack cleared it, or whose pod's pulse destroyed it (pulsed) (test id).",
            ),
            ("weapon", Text, "The name of the weapon whose shell laid it."),
            ("at", Point, "Its centre (after the drift)."),
            ("radius", Number, "Its radius in inches."),
            ("change", Word(&["laid", "drifted", "cleared", "pulsed"]), "What happened to the cloud."),
        ],
    },
    EventKind {
        id: "submunition",
        doc: "A seeking submunition (an attack profile's `seeks:`, SADARM's) waits over the point where its shell landed, finds the painted enemy it attacks (its attack follows), or falls and self-destructs as its firer's next activation begins.",
        keys: &[
            ("model", Model, "The model whose shell released it (test id)."),
            ("weapon", Text, "The name of the weapon whose shell released it."),
            ("at", Point, "The final strike point it hangs over."),
            ("radius", Number, "How far from the point it seeks, in inches (the area of effect)."),
            ("change", Word(&["waits", "found", "fell"]), "What the submunition did."),
        ],
    },
    EventKind {
        id: "terrain_lifted",
        doc: "A laid piece of terrain is lifted.",
        keys: &[("terrain", Text, "The terrain type's id."), ("at", Point, "Its centre.")],
    },
    EventKind { id: "left_board", doc: "A model left the board.", keys: &[MODEL] },
    EventKind { id: "activation_end", doc: "A model's activation ends.", keys: &[MODEL] },
    EventKind { id: "turn_end", doc: "A turn ends.", keys: &[("turn", Int, "The turn number.")] },
    EventKind {
        id: "game_end",
        doc: "The game ends.",
        keys: &[
            ("winner", OptText, "The winning side, or null for a draw."),
            ("turns", Int, "Turns played."),
            ("reason", Text, "Why it ended."),
        ],
    },
    EventKind { id: "script_print", doc: "A line a script printed.", keys: &[MODEL, ("text", Text, "The line.")] },
    EventKind {
        id: "script_effect",
        doc: "An effect a script's handler asked for, as the engine applied it.",
        keys: &[
            ("point", Text, "The hook point (`combat_tp`, …)."),
            ("by", Model, "The model whose special attribute asked (test id)."),
            ("source", Text, "The special attribute's name."),
            (
                "effect",
                Text,
                "`add_modifier`, `forbid`, `set_value`, `deal_damage`, `apply_state`, `clear_state`, `spend_ammo`, `restore_ammo`, `refill_ammo_bins`.",
            ),
            ("model", Model, "The model the effect changes (test id), where it names one."),
            ("quantity", Text, "What a modifier changes (`roll`, `rav`, …)."),
            ("value", Number, "The modifier, the damage points, the value set or the weapon mount."),
            ("detail", Text, "The modifier's label, the forbid's reason, the state or the weapon."),
        ],
    },
    EventKind {
        id: "forbidden",
        doc: "A script's handler forbade what a model declared or was about to do, or a limit of the engine refused it.",
        keys: &[
            MODEL,
            (
                "what",
                Word(&[
                    "target-lock",
                    "tag",
                    "move",
                    "pre-game move",
                    "charge",
                    "mount",
                    "dismount",
                    "reaction",
                    "draw",
                    "damage",
                    "attack",
                    "terrain",
                    "force selection",
                    "build",
                    "answer",
                    "rally",
                    "placement",
                    "marker",
                ]),
                "What was refused: a force as chosen or a model as built (the game does not start), a target-lock or TAG, a move (before the game too), a charge, mounting or dismounting, a reaction, a card of the draw deck, a damage-table row (set aside), an attack (a shot or munition stopped before its roll), terrain (a piece past the cap of laid terrain, not laid), an answer to an attack (a handler's veto, or a choice out of range), a rally with nothing to rally (a model in no unit) a script's placement of a model (`ctx.place_model`: off the board, in closed terrain or on another model) or a marker past the limit (`ctx.place_marker`).",
            ),
            ("reason", Text, "The special attribute and its reason."),
        ],
    },
    EventKind {
        id: "special_action",
        doc: "A model takes the Special action its special attribute grants.",
        keys: &[MODEL, ("target", Model, "The model the action names, if any (test id).")],
    },
    EventKind {
        id: "asset_used",
        doc: "A side used a battlefield asset it holds off the table (SIGINT's cards, a recon drone, a resupply drop).",
        keys: &[
            ("side", Text, "The side."),
            ("asset", Text, "The asset's name."),
            ("detail", Text, "What it did."),
            ("left", Int, "How many of it the side still holds."),
        ],
    },
    EventKind {
        id: "strike_called",
        doc: "A model called in a battlefield strike package from its side's strike pool.",
        keys: &[
            MODEL,
            ("strike", Text, "The strike's name."),
            ("at", Point, "The point it was called on."),
            ("cost", Int, "The threat value it took from the pool."),
            ("pool_left", Int, "The threat value left in the pool of its package."),
        ],
    },
];

/// The schema of one expected event: `event:` is one of the kinds, and each kind allows only its
/// own keys (an `if`/`then` per kind, so a wrong key is reported at the item with the kind's keys).
pub fn expected_event_schema() -> serde_json::Value {
    use serde_json::json;
    let ids: Vec<&str> = EVENT_KINDS.iter().map(|k| k.id).collect();
    let docs: Vec<&str> = EVENT_KINDS.iter().map(|k| k.doc).collect();
    let branches: Vec<serde_json::Value> = EVENT_KINDS
        .iter()
        .map(|k| {
            let mut props = serde_json::Map::new();
            props.insert("event".into(), json!({"const": k.id, "description": k.doc}));
            for (name, t, doc) in k.keys {
                props.insert((*name).into(), t.schema(doc));
            }
            json!({
                "if": {"properties": {"event": {"const": k.id}}, "required": ["event"]},
                "then": {"properties": props, "additionalProperties": false}
            })
        })
        .collect();
    json!({
        "type": "object",
        "description": "An event of the log, matched on the keys given (others may differ). `model` and `target` are test ids; points are `{x, y}` or `[x, y]`; numbers match to 0.005.",
        "required": ["event"],
        "properties": {
            "event": {"type": "string", "enum": ids, "enumDescriptions": docs, "description": "The kind of event."}
        },
        "allOf": branches
    })
}
