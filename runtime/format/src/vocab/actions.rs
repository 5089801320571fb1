//! Actions: the ids of the action type documents.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{I, R, Status};

words! {
    /// Action types: the `id` of an `action_type` document names one of these.
    ActionKind, "action" {
        Move = "move", I, "Move, reverse, stand up, go prone, charge, mount, dismount, land or take off.";
        TargetLock = "target-lock", I, "Lock on to an enemy model (guided missiles need it).";
        Combat = "combat", I, "A direct- or indirect-fire assault.";
        SalvoFire = "salvo-fire", I, "Several weapons of one type fire with one combat roll.";
        RunNGun = "run-n-gun", I, "Two moves and one assault at reduced MV and accuracy.";
        CloseCombat = "close-combat", I, "An assault on an enemy in base contact.";
        Break = "break", I, "Leave close combat.";
        Overwatch = "overwatch", I, "Hold a direct-fire assault for an enemy that moves in sight later.";
        Repair = "repair", I, "A repair roll.";
        CounterBattery = "counter-battery", I, "Answer an enemy's artillery at once with indirect fire at its place (`procedures.counter_battery`, a reaction).";
        DefensiveFire = "defensive-fire", I, "Shoot back at an attacker before activating (a reaction).";
        Regroup = "regroup", I, "Two under-strength squads merge (`procedures.regroup`); the partner squad activates with the one that regroups.";
        LayBarrier = "lay-barrier", I, "A model with the asset-user special attribute (Combat Engineer) lays a wall asset its side holds (a nano barrier) from its base towards a point (`laid_wall` effects). Counts as the model's Special action.";
        FieldRepair = "field-repair", I, "A model with the asset-user special attribute (Combat Engineer) uses a field repair asset its side holds on a friend in base contact: damage mended with no roll (`field_repair` effects). Counts as the model's Special action.";
        Tag = "tag", I, "A model with the `tag` effect paints an enemy within its TAG's reach and line of sight for its side: the enemy gains the ruleset's painted state (a TAG used as a Special action). Counts as the model's Special action.";
        Special = "special", I, "A special action an SA offers (its script's `special_action` handler says what it does).";
        MoveAndShoot = "move-and-shoot", I, "A move and an assault in one action.";
        DigIn = "dig-in", I, "Infantry dig in for cover (`procedures.dig_in`), until they move.";
        CallStrike = "call-strike", I, "A strike caller (FIST) calls in a battlefield strike package from its side's strike pool (`procedures.strike_packages`).";
        Limber = "limber", I, "A towed gun packs up to be towed; until it unlimbers it does not fire (001 L11599-11603).";
        Unlimber = "unlimber", I, "A towed gun sets up again where it was unhitched, and may fire from its next action (001 L11599-11603).";
        Hold = "hold", I, "Nothing by itself: what its action type gives (`gives:`, a model state) is its effect. For a ruleset's own action types (`does: hold`: Sythopian Wars' DEFEND).";
        TorsoTwist = "torso-twist", R("torso twist is free and always on; its once-per-turn limit is not tracked"), "Turn a CAV's firing arcs.";
    }
}
