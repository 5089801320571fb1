//! Hook points: the moments of play scripts act at, the effects a handler may ask for there and
//! the quantities it may change.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{I, Status};

words! {
    /// The moments of play at which special attributes, upgrades, assets and strikes act. A script
    /// module exports one handler per hook point it uses, named as here.
    HookPoint, "hook point" {
        Build = "build", I, "Once per model as the game begins, its upgrades fitted, after `force_selection` and before `game_setup`; forbid refuses the model as built (the game does not start, and says why).";
        ForceSelection = "force_selection", I, "Once per model of each side's force as the game begins, before `build`: the force as chosen (`ctx.self` one of its models, its friends the rest); forbid refuses the force (the game does not start, and says why). `cav force check` runs no scripts: a force a script refuses is found when it plays.";
        GameSetup = "game_setup", I, "Once per model, after deployment and before the first turn.";
        DrawDeck = "draw_deck", I, "Once per model on the table when the draw deck is built at the start of a turn; forbid keeps its card out of this turn's deck (the model does not activate this turn and counts as activated: it cannot fire defensively).";
        Activation = "activation", I, "At the start of a model's activation, after its action points are set; `ap` modifiers change them.";
        SpecialAction = "special_action", I, "When a model takes the Special action (the action its special attribute gives).";
        Movement = "movement", I, "For each move action, before the path is paid; `mv` modifiers change the move value, forbid refuses the move.";
        FacingChange = "facing_change", I, "During a move, as the model turns (on a hex board, at each hex where it turns a hexside; on a continuous board, as a move action turns it to its direction): `ctx.self` is the mover, still facing its old way, `ctx.value` the degrees it turns. A handler that moves or turns a model (`ctx.move_model`, `ctx.turn_model`: a skid, 003 L53-65) ends the move action there; `ctx.value` is signed, + clockwise.";
        Transport = "transport", I, "When a model mounts or dismounts a transport: handlers may forbid it.";
        TargetLock = "target_lock", I, "When a model declares a target-lock action or paints a target with its TAG (the `tag` action); forbid refuses it.";
        OpposedRoll = "opposed_roll", I, "Before each side's roll of an opposed roll the engine makes (close combat: `ctx.target` is the opponent; a model crossing a structure: no target); `roll` modifiers help that side. A script's own contests (`ctx.opposed_roll`, `ctx.contest`) take their bonuses from its arguments.";
        AttackDeclare = "attack_declare", I, "For each weapon declared against a target, before its range band is read; forbid refuses the attack, `range` modifiers change the weapon's range.";
        AttackTargets = "attack_targets", I, "When an area attack picks the models under its template; `area` modifiers change the radius (widening it by at most `limits::SCRIPT_AREA_GROWTH` inches), set_value lowers it, `rav` modifiers add to the RAV of every hit.";
        StrikePoint = "strike_point", I, "The strike-point roll of an indirect attack; `roll` modifiers.";
        Drift = "drift", I, "When a missed strike point drifts; `drift` modifiers add inches.";
        Landing = "landing", I, "Where an indirect attack lands (its final strike point, after any drift), before anything happens there: `ctx.at` is the point; forbid destroys the munition (no attack, minefield, cloud or terrain there).";
        CombatTp = "combat_tp", I, "The combat roll of an attack (direct, secondary or close combat), before the dice; `roll` modifiers.";
        CombatDice = "combat_dice", I, "After the combat dice are thrown, before they are judged: `ctx.roll` holds the natural dice; `roll` modifiers still count.";
        CombatEnd = "combat_end", I, "After a combat action's attacks (and run 'n gun's), once for each weapon type that fired: `ctx.weapon` is its first mount that fired, `ctx.value` how many of its mounts fired (an Overdrive system's overheating roll).";
        CritFumble = "crit_fumble", I, "When a combat roll (`ctx.weapon` is the weapon fired) or a repair roll (`ctx.weapon` is nil) is a critical fumble, before the out-of-ammo roll; `roll` modifiers change that roll.";
        Reaction = "reaction", I, "When a model may react out of turn (defensive fire, over-watch); forbid keeps it from reacting.";
        DamageCalc = "damage_calc", I, "When a hit's penetration is worked out; `rav`, `av` and `mos` modifiers.";
        DamageTable = "damage_table", I, "When the damage table is read for a penetrating hit; `damage` modifiers change the points of the result (never below 0); forbid sets the row aside (no damage, states, pilot check or critical: a weapon that does other harm, as an ion disruptor's lost actions). Under `procedures.attack.damage_table`, once per standing hit before its table is read: `ctx.value` is the hit's damage (its margin times `margin_times`, before it is counted in multiples), `ctx.roll` its hit roll, and `damage` modifiers change that damage.";
        OnHit = "on_hit", I, "After a hit has been resolved against a model (penetrating or not).";
        ModelState = "model_state", I, "When a model is about to gain a state (`ctx.gained` true; forbid prevents it) or has lost one.";
        PilotCheck = "pilot_check", I, "A pilot check; `roll` modifiers.";
        Repair = "repair", I, "A repair roll; `roll` modifiers.";
        AreaEffect = "area_effect", I, "For each model under an area template, before its secondary roll; forbid spares it, `roll` modifiers.";
        EndPhase = "end_phase", I, "Once per model on the table at the end of each turn.";
        DamageRoll = "damage_roll", I, "Under `procedures.attack`, before a volley's damage rolls (or saving rolls) are thrown: `ctx.self` is the roller, `ctx.target` the other model; `roll` modifiers help the roller (Sythopian Wars' scenery blunting Force, 002 L342).";
        Answered = "answered", I, "Under `procedures.attack`, after a target's answer rolled face to face against an attack has been judged: `ctx.self` is the answering model, `ctx.target` the attacker, `ctx.option` the answer's id, `ctx.value` 1 where the answer's roll stood (Infinity's Dodge succeeded), else 0; the model may be moved (`ctx.move_model`: Dodge's 2\", 004 L556).";
    }
}

words! {
    /// What a hook handler may ask the engine to do, through `ctx`. Effects are queued: the
    /// engine applies them after every handler of the moment has returned, so a failing script
    /// changes nothing.
    HookEffect, "hook effect" {
        AddModifier = "add_modifier", I, "`ctx.add_modifier(quantity, source, value)`: change a named quantity by a whole number; + adds to it (a + roll modifier helps the roller, whatever the ruleset's printed convention).";
        Forbid = "forbid", I, "`ctx.forbid(reason)`: refuse what is being declared or about to happen, with the reason shown to players.";
        SetValue = "set_value", I, "`ctx.set_value(x)`: change the value the moment offers (`ctx.value`); it may only be lowered.";
        DealDamage = "deal_damage", I, "`ctx.deal_damage(model, points)`: damage points to a model, landing with the activation's other damage.";
        ApplyState = "apply_state", I, "`ctx.apply_state(model, state)`: a model gains a state (by id), as the damage tables give states.";
        ClearState = "clear_state", I, "`ctx.clear_state(model, state)`: a model loses a state it has.";
        SpendAmmo = "spend_ammo", I, "`ctx.spend_ammo(model, mount)`: a weapon mount (0 = first on the card) runs out of ammo.";
        RestoreAmmo = "restore_ammo", I, "`ctx.restore_ammo(model, mount)`: a weapon mount out of ammo is reloaded.";
        RefillAmmoBins = "refill_ammo_bins", I, "`ctx.refill_ammo_bins(model)`: a model's Ammo Bins are full again (its card's number of uses).";
        SetDice = "set_dice", I, "`ctx.set_dice(dice)`: the attack's combat roll throws these dice instead of the ruleset's standard ones (`4d6kh2`, `3d6kh2`, `1d6`: Strike's dice by range band); under `procedures.attack`, instead of the hit roll kind's dice.";
        Reroll = "reroll", I, "`ctx.reroll(die)`: throw one die of the roll in progress again (1 = the first of `ctx.roll.natural`) and keep the new face; never out of a critical fumble.";
        SetFlag = "set_flag", I, "`ctx.set_flag(scope, key, value)`: remember a boolean, number or string (`nil`: forget it) in the game, under this special attribute: scope `game` (until the game ends), `turn` (until the turn ends), `activation` (until the active model's activation ends), `unit` (on the unit of this special attribute's model — its squad, or the model alone) or a model (`ctx.self`, `ctx.target`…: on that model). `ctx.flag(scope, key)` reads it back (as it stood when the moment began). A script's state lives here, never in its module. At most `limits::SCRIPT_FLAGS` at once.";
        MoveModel = "move_model", I, "`ctx.move_model(model, x, y)`: move a model straight towards (x, y) (inches; on a hex board, hex by hex to the hex there), spending no MV and keeping its facing: it stops before another model's base, terrain its move class may not enter, and the board's edge. A forced move: a dodge, a skid, a push. At most `limits::SCRIPT_FORCED_MOVE` inches.";
        TurnModel = "turn_model", I, "`ctx.turn_model(model, facing)`: turn a model on the spot to `facing` degrees (0 = +y, clockwise; on a hex board, the nearest hexside).";
        PlaceModel = "place_model", I, "`ctx.place_model(model, x, y)`: put a model on the table at (x, y) (inches; on a hex board, the centre of the hex there), keeping its facing, spending no MV and passing nothing on the way (a teleport, a redeployment): refused, and said as a `forbidden` placement, where the spot is off the board, in terrain its move class may not enter or on another model.";
        RemoveModel = "remove_model", I, "`ctx.remove_model(model, how)`: take a model out of play, `destroyed` (as any destroyed model: its wreck, its riders) or `left_board` (as a model that left the table).";
        PlaceMarker = "place_marker", I, "`ctx.place_marker(id, x, y)`: put a marker named `id` on the board at (x, y) (on a hex board, the centre of the hex there); this special attribute's marker of that name moves there if it is down already. `ctx.markers()` lists them. At most `limits::SCRIPT_MARKERS` markers lie on the board at once; one more is refused, said as a `forbidden` marker.";
        RemoveMarker = "remove_marker", I, "`ctx.remove_marker(id)`: take this special attribute's marker named `id` off the board (nothing where there is none).";
        TableRow = "table_row", I, "`ctx.table_row(model, table, key)`: the row `key` of a table the rules roll on (a damage table, a table a row rolls on: `procedures.attack.damage_table`, `roll_on`) lands on a model, as a hit's would: its lasting changes and states at once, the tables it rolls on in turn, its damage points with the activation's other damage (a walker's fall with light damage, 003 L271).";
        PlaceTerrain = "place_terrain", I, "`ctx.place_terrain(terrain, x, y, radius, activations)`: lay a round piece of one of the ruleset's terrain types (a smoke cloud) centred on (x, y); it is lifted at the start of the special attribute's model's `activations`-th next activation, or at the end of the turn once that model has left play. At most `limits::SCRIPT_PLACED_TERRAIN` laid pieces lie on the table at once.";
    }
}

words! {
    /// The quantities a script's `ctx.add_modifier` names; each hook point accepts some of them.
    /// A + value adds to the quantity as the engine uses it.
    Quantity, "quantity" {
        Roll = "roll", I, "The total of the roll being made (+ helps the roller, under every ruleset).";
        Ap = "ap", I, "The action points of the activation.";
        Mv = "mv", I, "The move value for this move.";
        Range = "range", I, "The weapon's range (inches) for this attack.";
        Area = "area", I, "The radius (inches) of the area attack; never below 0, nor more than `limits::SCRIPT_AREA_GROWTH` above the weapon's.";
        Rav = "rav", I, "The attack's RAV.";
        Av = "av", I, "The target's AV against this hit.";
        Mos = "mos", I, "The hit's margin of success.";
        Drift = "drift", I, "The inches a missed strike point drifts.";
        Damage = "damage", I, "The damage points of the result read from the damage table.";
    }
}

/// Whose handlers run at a hook point, in this order.
pub const HANDLER_ORDER: &str = "the acting model's special attributes (card order), then those of the weapon it uses (mount order), then the `as_target` handlers of the other model's special attributes (the target, the model under a template, the model a reactor would shoot at), then the `aura` handlers of every other model on the table (board order), then the rules of the whole game (special attributes with `applies_to: game`, catalog order; `ctx.self` is the moment's model); a handler sees which in `ctx.role` (`model`, `weapon`, `target`, `aura`, `game`) and whose it is in `ctx.self`";

impl HookPoint {
    /// The effects a handler may ask for at this point (none: it may only look, and print).
    /// The host refuses any other effect with an error naming the point.
    pub fn accepts(self) -> &'static [HookEffect] {
        use HookEffect::*;
        use HookPoint as H;
        // `set_flag` goes wherever a state may be applied: moments of play, never a question.
        const CHANGES: &[HookEffect] = &[
            DealDamage,
            TableRow,
            RemoveModel,
            PlaceMarker,
            RemoveMarker,
            ApplyState,
            ClearState,
            SpendAmmo,
            RestoreAmmo,
            RefillAmmoBins,
            PlaceTerrain,
            SetFlag,
        ];
        // The activation's own moment (its AP counted as it begins): modifiers and the changes
        // any moment allows, not the ones that take a model out, roll a table or lay markers —
        // those wait for the activation's actions (`special_action`, `end_phase`).
        const MOD_CHANGES: &[HookEffect] = &[
            AddModifier,
            DealDamage,
            ApplyState,
            ClearState,
            SpendAmmo,
            RestoreAmmo,
            RefillAmmoBins,
            PlaceTerrain,
            SetFlag,
        ];
        // Moving and turning models: between actions, never inside a roll.
        const CHANGES_AND_MOVES: &[HookEffect] = &[
            DealDamage,
            TableRow,
            RemoveModel,
            PlaceModel,
            PlaceMarker,
            RemoveMarker,
            ApplyState,
            ClearState,
            SpendAmmo,
            RestoreAmmo,
            RefillAmmoBins,
            PlaceTerrain,
            SetFlag,
            MoveModel,
            TurnModel,
        ];
        match self {
            H::GameSetup | H::OnHit | H::CombatEnd => CHANGES,
            H::SpecialAction | H::EndPhase => CHANGES_AND_MOVES,
            H::CombatDice => &[
                AddModifier,
                Reroll,
                DealDamage,
                ApplyState,
                ClearState,
                SpendAmmo,
                RestoreAmmo,
                RefillAmmoBins,
                SetFlag,
            ],
            H::Activation => MOD_CHANGES,
            H::StrikePoint => &[
                AddModifier,
                Forbid,
                DealDamage,
                ApplyState,
                ClearState,
                SpendAmmo,
                RestoreAmmo,
                RefillAmmoBins,
                PlaceTerrain,
                SetFlag,
            ],
            H::TargetLock | H::Landing => &[Forbid, ApplyState, SetFlag],
            H::DrawDeck | H::Reaction | H::ModelState | H::Transport => &[Forbid],
            H::Movement | H::AttackDeclare => &[AddModifier, Forbid],
            H::AreaEffect => &[AddModifier, Forbid, ApplyState, SetFlag],
            H::AttackTargets => &[AddModifier, SetValue],
            H::CombatTp => &[AddModifier, SetDice, Forbid, ApplyState, SetFlag],
            H::CritFumble => &[AddModifier, ApplyState, SetFlag],
            H::Drift | H::DamageCalc => &[AddModifier],
            H::DamageTable => &[AddModifier, Forbid, ApplyState, TableRow, SetFlag],
            H::PilotCheck | H::Repair => &[AddModifier],
            H::OpposedRoll => &[AddModifier, SetFlag],
            H::DamageRoll => &[AddModifier, SetFlag],
            H::Answered => &[MoveModel, TurnModel, ApplyState, ClearState, SetFlag],
            H::FacingChange => &[MoveModel, TurnModel, ApplyState, ClearState, DealDamage, SetFlag],
            H::Build | H::ForceSelection => &[Forbid],
        }
    }

    /// Whether the moment has another model (`ctx.target`), whose special attributes' handlers
    /// (`as_target`) run too.
    pub fn has_target(self) -> bool {
        use HookPoint as H;
        matches!(
            self,
            H::SpecialAction
                | H::TargetLock
                | H::AttackDeclare
                | H::AttackTargets
                | H::StrikePoint
                | H::Drift
                | H::Landing
                | H::CombatTp
                | H::CombatDice
                | H::Reaction
                | H::DamageCalc
                | H::DamageTable
                | H::OnHit
                | H::AreaEffect
                | H::Transport
                | H::OpposedRoll
                | H::DamageRoll
                | H::Answered
        )
    }

    /// The quantities `ctx.add_modifier` may name at this point.
    pub fn quantities(self) -> &'static [Quantity] {
        use HookPoint as H;
        use Quantity as Q;
        match self {
            H::Activation => &[Q::Ap],
            H::Movement => &[Q::Mv],
            H::AttackDeclare => &[Q::Range],
            H::AttackTargets => &[Q::Area, Q::Rav],
            H::StrikePoint
            | H::CombatTp
            | H::CombatDice
            | H::CritFumble
            | H::PilotCheck
            | H::Repair
            | H::AreaEffect
            | H::OpposedRoll
            | H::DamageRoll => &[Q::Roll],
            H::Drift => &[Q::Drift],
            H::DamageCalc => &[Q::Rav, Q::Av, Q::Mos],
            H::DamageTable => &[Q::Damage],
            _ => &[],
        }
    }

    /// What `ctx` holds at this point beyond what it always holds (`point`, `turn`, `ruleset`,
    /// `options`, `self`, `role`, `rating`).
    pub fn ctx_fields(self) -> &'static str {
        use HookPoint as H;
        match self {
            H::GameSetup | H::DrawDeck | H::Activation | H::EndPhase | H::Build | H::ForceSelection => "model",
            H::SpecialAction => "model, target (if the action names one)",
            H::Movement => "model, value (the move value)",
            H::FacingChange => "model, value (the degrees it turns), at (where it turns)",
            H::TargetLock | H::Reaction => "model, target",
            H::AttackDeclare => "model, target, weapon, distance, value (the weapon's range)",
            H::AttackTargets => "model, target (the aimed model, if the point lies on it), weapon, value (the radius)",
            H::StrikePoint | H::CombatTp | H::DamageCalc | H::OnHit | H::AreaEffect => {
                "model, target, weapon, distance, band (of direct and strike-point rolls)"
            }
            H::DamageTable => "model, target, weapon, distance, band, value (the damage points of the row)",
            H::Drift => "model, target, weapon, band, value (the inches rolled, band extra included)",
            H::Landing => "model, target (the model aimed at, if any), weapon, at (the final strike point)",
            H::CombatDice => "model, target, weapon, distance, band, roll (dice, natural, total, target)",
            H::CritFumble => "model, weapon",
            H::CombatEnd => "model, weapon (the type's first mount that fired), value (how many of its mounts fired)",
            H::ModelState => "model, state, gained",
            H::PilotCheck | H::Repair => "model",
            H::Transport => "model (the rider), target (the transport), value (1 mounting, 0 dismounting)",
            H::OpposedRoll => {
                "model (the side rolling), target (its opponent in close combat; none crossing a structure)"
            }
            H::DamageRoll => {
                "model (the roller), target (the other model), weapon (the roller's: none for a saving roll), distance, band"
            }
            H::Answered => {
                "model (the answering model), target (the attacker), option (the answer's id: `dodge`), value (1: the answer's roll stood)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for &h in HookPoint::ALL {
            assert_eq!(HookPoint::from_id(h.id()), Some(h));
            assert_eq!(serde_json::to_value(h).unwrap(), h.id());
        }
    }
}
