//! The engine's whole vocabulary, declared once: every word a pack may use where the engine has
//! to understand it — hook points, effect targets, condition ids and families, action ids, model
//! types and their traits, engine options and their values, and the effects a hook may ask for.
//!
//! Each word says whether the engine implements it or only recognises it. Everything else is
//! generated from these tables: the schema enums (so editors complete the words), the Luau
//! definitions, `docs/vocabulary.md`, and the checks `cav validate` runs when it compiles a
//! ruleset. A word outside the vocabulary is an error; a word that is recognised but not
//! implemented is a warning that says so.
//!
//! To teach the engine a new word: add its entry here, then its implementation (a condition, an
//! action, an effect) in `cav-rules`; a test there fails when the two disagree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Whether the engine implements a word or only recognises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Implemented,
    /// Recognised, with the reason it does nothing yet (said in the warning).
    Recognised(&'static str),
}

impl Status {
    pub fn implemented(self) -> bool {
        self == Status::Implemented
    }
    /// `implemented`, or `recognised: <why>`.
    pub fn describe(self) -> String {
        match self {
            Status::Implemented => "implemented".into(),
            Status::Recognised(why) => format!("recognised, not implemented: {why}"),
        }
    }
}

use Status::{Implemented as I, Recognised as R};

/// A closed set of words that is a serde enum in the documents (hook points, effect targets, …).
macro_rules! words {
    ($(#[$meta:meta])* $name:ident, $what:literal { $( $variant:ident = $id:literal, $status:expr, $doc:literal; )* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name { $( #[doc = $doc] #[serde(rename = $id)] $variant, )* }

        /// A plain string enum (what editors complete best), each word's meaning beside it.
        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let ids: Vec<&str> = vec![$( $id, )*];
                let docs: Vec<String> = vec![$( format!("{}{}", $doc, match $status {
                    Status::Implemented => String::new(),
                    Status::Recognised(why) => format!(" (recognised, not implemented: {why})"),
                }), )*];
                schemars::json_schema!({
                    "type": "string",
                    "enum": ids,
                    "enumDescriptions": docs,
                    "description": format!("A {} of the engine's vocabulary (docs/vocabulary.md).", $what),
                })
            }
        }

        impl $name {
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];
            /// The word as packs and scripts write it.
            pub fn id(self) -> &'static str {
                match self { $( $name::$variant => $id, )* }
            }
            pub fn doc(self) -> &'static str {
                match self { $( $name::$variant => $doc, )* }
            }
            pub fn status(self) -> Status {
                match self { $( $name::$variant => $status, )* }
            }
            pub fn from_id(id: &str) -> Option<$name> {
                match id { $( $id => Some($name::$variant), )* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }
    };
}

words! {
    /// The moments of play at which special attributes, upgrades, assets and strikes act. A script
    /// module exports one handler per hook point it uses, named as here.
    HookPoint, "hook point" {
        Build = "build", R("an upgrade is fitted by its data (cost, grants, modifiers: `Rules::fit`); no script runs when a model is built yet"), "When a model is built with its upgrades, before play.";
        ForceSelection = "force_selection", R("rosters are built and checked outside play (`cav force`), without scripts yet (the catalog issue): nothing calls it"), "When a force is chosen to a threat value.";
        GameSetup = "game_setup", I, "Once per model, after deployment and before the first turn.";
        DrawDeck = "draw_deck", I, "Once per model on the table when the draw deck is built at the start of a turn; forbid keeps its card out of this turn's deck (the model does not activate this turn and counts as activated: it cannot fire defensively).";
        Activation = "activation", I, "At the start of a model's activation, after its action points are set; `ap` modifiers change them.";
        SpecialAction = "special_action", I, "When a model takes the Special action (the action its special attribute gives).";
        Movement = "movement", I, "For each move action, before the path is paid; `mv` modifiers change the move value, forbid refuses the move.";
        Transport = "transport", I, "When a model mounts or dismounts a transport: handlers may forbid it.";
        TargetLock = "target_lock", I, "When a model declares a target-lock action or paints a target with its TAG (the `tag` action); forbid refuses it.";
        OpposedRoll = "opposed_roll", R("an opposed roll (`ctx.opposed_roll`) takes its bonuses from the script that starts it and the models' `opposed_roll` effects; no handler is called at it"), "When two models make an opposed roll.";
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
        DamageTable = "damage_table", I, "When the damage table is read for a penetrating hit; `damage` modifiers change the points of the result (never below 0); forbid sets the row aside (no damage, states, pilot check or critical: a weapon that does other harm, as an ion disruptor's lost actions).";
        OnHit = "on_hit", I, "After a hit has been resolved against a model (penetrating or not).";
        ModelState = "model_state", I, "When a model is about to gain a state (`ctx.gained` true; forbid prevents it) or has lost one.";
        PilotCheck = "pilot_check", I, "A pilot check; `roll` modifiers.";
        Repair = "repair", I, "A repair roll; `roll` modifiers.";
        AreaEffect = "area_effect", I, "For each model under an area template, before its secondary roll; forbid spares it, `roll` modifiers.";
        EndPhase = "end_phase", I, "Once per model on the table at the end of each turn.";
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
        SetDice = "set_dice", I, "`ctx.set_dice(dice)`: the attack's combat roll throws these dice instead of the ruleset's standard ones (`4d6kh2`, `3d6kh2`, `1d6`: Strike's dice by range band).";
        Reroll = "reroll", I, "`ctx.reroll(die)`: throw one die of the roll in progress again (1 = the first of `ctx.roll.natural`) and keep the new face; never out of a critical fumble.";
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
pub const HANDLER_ORDER: &str = "the acting model's special attributes (card order), then those of the weapon it uses (mount order), then the `as_target` handlers of the other model's special attributes (the target, the model under a template, the model a reactor would shoot at), then the `aura` handlers of every other model on the table (board order); a handler sees which in `ctx.role` (`model`, `weapon`, `target`, `aura`) and whose it is in `ctx.self`";

impl HookPoint {
    /// The effects a handler may ask for at this point (none: it may only look, and print).
    /// The host refuses any other effect with an error naming the point.
    pub fn accepts(self) -> &'static [HookEffect] {
        use HookEffect::*;
        use HookPoint as H;
        const CHANGES: &[HookEffect] =
            &[DealDamage, ApplyState, ClearState, SpendAmmo, RestoreAmmo, RefillAmmoBins, PlaceTerrain];
        const MOD_CHANGES: &[HookEffect] =
            &[AddModifier, DealDamage, ApplyState, ClearState, SpendAmmo, RestoreAmmo, RefillAmmoBins, PlaceTerrain];
        match self {
            H::GameSetup | H::SpecialAction | H::OnHit | H::EndPhase | H::CombatEnd => CHANGES,
            H::CombatDice => {
                &[AddModifier, Reroll, DealDamage, ApplyState, ClearState, SpendAmmo, RestoreAmmo, RefillAmmoBins]
            }
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
            ],
            H::TargetLock | H::Landing => &[Forbid, ApplyState],
            H::DrawDeck | H::Reaction | H::ModelState | H::Transport => &[Forbid],
            H::Movement | H::AttackDeclare => &[AddModifier, Forbid],
            H::AreaEffect => &[AddModifier, Forbid, ApplyState],
            H::AttackTargets => &[AddModifier, SetValue],
            H::CombatTp => &[AddModifier, SetDice, Forbid, ApplyState],
            H::CritFumble => &[AddModifier, ApplyState],
            H::Drift | H::DamageCalc => &[AddModifier],
            H::DamageTable => &[AddModifier, Forbid, ApplyState],
            H::PilotCheck | H::Repair => &[AddModifier],
            H::Build | H::ForceSelection | H::OpposedRoll => &[],
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
            | H::AreaEffect => &[Q::Roll],
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
            H::GameSetup | H::DrawDeck | H::Activation | H::EndPhase => "model",
            H::SpecialAction => "model, target (if the action names one)",
            H::Movement => "model, value (the move value)",
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
            H::Build | H::ForceSelection | H::OpposedRoll => "",
        }
    }
}

words! {
    /// The roll or value a declarative modifier (`modifiers:` of a special attribute, upgrade,
    /// asset or strike) changes.
    ModifierTarget, "effect target" {
        CombatRoll = "combat_roll", I, "The combat roll of an attack the model or weapon makes.";
        StrikePointRoll = "strike_point_roll", I, "The strike-point roll of an indirect attack.";
        PilotCheck = "pilot_check", I, "The model's pilot checks.";
        RepairRoll = "repair_roll", I, "The model's repair rolls.";
        DamageResult = "damage_result", I, "Points taken off the margin of success of hits on the model, ranged hits and lost close-combat rolls alike, before the armor check (the Quick-Start's Reinforced).";
        MvLoss = "mv_loss", I, "The MV the model loses to damage (its damage-track column) and critical hits, changed by `value` (−1: one less lost, never more than was lost) (Relentless).";
        DamageTableResult = "damage_table_result", I, "Points taken off the value a penetrating hit on the model reads the damage table by (its final result or margin, as the table is keyed), never below 0; the armor check still uses the whole margin (the full rules' Reinforced).";
        MoveValue = "move_value", I, "The model's MV, in every column that is not 0. An upgrade's changes the card it is fitted to; a special attribute's is part of the card's design, already in its printed values, and is not applied again.";
        ArmorValue = "armor_value", I, "The model's AV. Without `when:` as `move_value` (an upgrade's changes the card, a special attribute's is in the printed card); with `when:`, tested against each hit the model takes (the attack is the situation: `energy-weapon`).";
        HardRav = "hard_rav", I, "A weapon's Hard RAV (Piercing, Ultra), in every column where it is not NA. Part of the card's design: a card that prints the weapon's RAV already holds it (`cav validate` warns when its first column does not); a card that leaves the RAV to the weapon's profile gets it added.";
        SoftRav = "soft_rav", I, "A weapon's Soft RAV (Shredder, Ultra); as `hard_rav`.";
        DrawDeckCard = "draw_deck_card", I, "On an asset a side holds: each one adds `value` cards of the side's colour to every turn's draw deck (SIGINT).";
        SkipCard = "skip_card", I, "On an asset a side holds: once per turn the side may send the card just drawn to the bottom of the draw deck and draw again; the asset is used up (Recon Drone). The bot skips the first enemy card of a turn.";
        ReloadAmmoBins = "reload_ammo_bins", I, "On an asset a side holds: in an end phase it refills every Ammo Bin of the side's models; the asset is used up. It is used at the first end phase in which one of the side's bins is spent (Resupply Drop).";
        FieldRepair = "field_repair", I, "On an asset a side holds: a model with the ruleset's asset-user special attribute (`force_building.asset_user_sa`, Combat Engineer) uses it up with the `field-repair` Special action to mend `value` points of a friend's damage, lingering damage excepted, with no roll; the friend must be in base contact and have a damage-control value (CAVs and vehicles).";
        LaidWallLength = "laid_wall_length", I, "On an asset a side holds, with a terrain piece: a combat engineer lays it with the `lay-barrier` action as a wall `value` inches long from its base (Nano Barriers); `laid_wall_width` gives its thickness.";
        LaidWallWidth = "laid_wall_width", I, "The thickness in inches of a wall asset laid with `lay-barrier` (with `laid_wall_length`).";
        FieldRepairLingering = "field_repair_lingering", I, "On an asset with `field_repair`: when only lingering damage is left, it mends `value` points of that instead (Level II Field Repair Module).";
        Tag = "tag", I, "The model carries a TAG laser designator reaching `value` inches: its own weapons that need a target-lock fire without one at an enemy in its line of sight and reach (painting it as part of the combat action), the `tagged` condition holds for its attacks on such an enemy, and the `tag` action paints an enemy for its whole side.";
        Airborne = "airborne", I, "The infantry model may dismount from an aircraft in flight (a drop along its flight path); without it riders get out of a landed aircraft only.";
        NoeReach = "noe_reach", I, "Inches (× rating) added to how far from the model an aircraft flying nap of the earth may end its activation and still be attacked by it from the ground (Anti-Aircraft: 18\" at rating 1, 24\" at 2); on a weapon, for that weapon's attacks.";
        GunPorts = "gun_ports", I, "The transport has `value` (× rating) gun ports: each turn that many of its infantry riders may make a direct-fire combat action from inside, from where it stands (Gun Port).";
        ChainFire = "chain_fire", I, "The model chains its indirect attacks with squad mates (Chain-Fire Pod): the first of the squad to fire at a target in a turn while holding a target-lock on it starts a chain; mates within `value` inches of the target that fire at it later that turn share its strike point without rolling if it landed, or go straight to the drift roll if it missed.";
        ChainFireJoin = "chain_fire_join", I, "As `chain_fire`, but the model only joins a chain a squad mate started (External Chain-Fire Pod).";
        LateralShift = "lateral_shift", I, "The model may `shift` straight sideways (90° off its facing) at the usual cost, keeping its facing (Improved Handling's lateral shift). `when:` conditions are tested for the moving model.";
        Drift = "drift", I, "The model may `shift` forwards and sideways at once, up to `value` degrees off its facing (at most 89), keeping its facing and paying only for the inches it gains forwards (Improved Handling's drift, 1 MV for 1\" forwards and up to 1\" aside: 45). `when:` conditions are tested for the moving model.";
        RangeBand = "range_band", I, "The range band a weapon's attack counts as: `value` bands from the measured one (−1: one band shorter, Improved Range), never past the shortest or longest band; out of range stays out of range. On a weapon's special attribute; `when:` and the special attribute's own `condition:` are tested against the target.";
        DriftDistance = "drift_distance", R("drift is not changed by effects yet"), "The distance a missed strike point drifts.";
        MinimumRange = "minimum_range", I, "The weapon cannot attack at or inside `value` (× rating) inches.";
        AreaOfEffect = "area_of_effect", I, "The weapon's attack hits every model within `value` (× rating) inches of the strike point.";
        IndirectFire = "indirect_fire", I, "The weapon fires indirectly (strike-point roll, no line of sight needed).";
        HeavierWeapon = "heavier_weapon", I, "The model may mount one weapon meant for models up to `value` damage tracks bigger than it (Expanded Chassis): the check of its card against the weapons' `restriction.min_damage_tracks` lets one weapon through.";
        DamageControl = "damage_control", I, "The model's DC, in every column that has one. As `move_value`: an upgrade's changes the card it is fitted to; a special attribute's is part of the card's design, already in its printed values, and is not applied again.";
        NoFreeTurn = "no_free_turn", I, "The model has no free facing change in its move actions: every facing change is paid for, the ruleset's extra-turn cost per turn of up to its free-turn angle (Reduced Turn).";
        OpposedRoll = "opposed_roll", I, "The model's opposed rolls for keeping an APA or ECM running in a contest of bubbles (`ctx.opposed_roll`): + helps it (Veteran Pilot +1).";
        ShareLock = "share_lock", I, "The model's target-locks on enemies within `value` inches pass at once, for 0 AP, to every other model of its squad (EST); a shared lock does not help an advanced targeting computer (`own-target-lock`).";
        FreeMount = "free_mount", I, "The model mounts and dismounts ground transports (not aircraft) for 0 AP (Storm).";
        RepairValue = "repair_value", I, "The damage-control value a model whose card has none repairs with (Medic: infantry repair at 3); fitted by an upgrade, it fills the card's empty DC columns.";
        RepairCritical = "repair_critical", I, "Every successful repair roll of the model counts as a critical success (Rugged).";
        HardTarget = "hard_target", I, "The model is a hard target (attackers use their Hard RAV).";
        SoftTarget = "soft_target", I, "The model is a soft target (attackers use their Soft RAV).";
        OutOfAmmo = "out_of_ammo", I, "After a critical fumble, the out-of-ammo die at `value` or less leaves the weapon out of ammo.";
        AmmoReserve = "ammo_reserve", I, "The model may ignore this many out-of-ammo results (× uses).";
        CriticalSuccess = "critical_success", I, "Change to the natural total that counts as a critical success (Blaster: −1 per rating).";
        StateTest = "state_test", I, "A model targeted by the weapon rolls the standard dice against `value` (× rating) or gains `state`.";
        DamageVsOpenInfantry = "damage_vs_open_infantry", I, "Damage points are multiplied by `value` against infantry in open terrain.";
    }
}

impl ModifierTarget {
    /// Whether the engine tests `when:` conditions for this target at the moment of a roll (or
    /// of a shift, for `lateral_shift` and `drift`).
    /// The other targets are properties of the card, read once when the rules are compiled.
    pub fn conditional(self) -> bool {
        matches!(
            self,
            ModifierTarget::CombatRoll
                | ModifierTarget::StrikePointRoll
                | ModifierTarget::PilotCheck
                | ModifierTarget::RepairRoll
                | ModifierTarget::ArmorValue
                | ModifierTarget::RangeBand
                | ModifierTarget::LateralShift
                | ModifierTarget::Drift
        )
    }
}

words! {
    /// Model types of the data card. What each type can do comes from its traits, which the
    /// ruleset pack gives (`model_types:` of the ruleset document).
    ModelType, "model type" {
        Cav = "cav", I, "A combat assault vehicle: a walking mech.";
        QuadCav = "quad_cav", I, "A four-legged CAV.";
        Vehicle = "vehicle", I, "A tracked, wheeled or hover vehicle.";
        Aircraft = "aircraft", I, "A VTOL or fixed-wing aircraft.";
        Infantry = "infantry", I, "An infantry squad.";
        PoweredInfantry = "powered_infantry", I, "A powered-infantry squad.";
        Structure = "structure", I, "A building or fortification.";
        TowedGun = "towed_gun", I, "A towed gun (anti-tank gun, howitzer): its own model, moved only behind a tow (`procedures.towing`).";
    }
}

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
        TorsoTwist = "torso-twist", R("torso twist is free and always on; its once-per-turn limit is not tracked"), "Turn a CAV's firing arcs.";
    }
}

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
    SpecialAttribute,
    Upgrade,
    /// A row name of the critical-damage table, not checked.
    CriticalResult,
}

impl FamilyRef {
    pub fn what(self) -> &'static str {
        match self {
            FamilyRef::RangeBand => "range band",
            FamilyRef::ModelState => "model state",
            FamilyRef::SpecialAttribute => "special attribute",
            FamilyRef::Upgrade => "upgrade",
            FamilyRef::CriticalResult => "critical-damage result",
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
        doc: "Woods along the line of sight are worth more points (light 1, heavy 2 each) than the cover type's own modifier (scales per extra point, `per_count`).",
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
    Condition {
        id: "attacker-burning-hacked-stunned-suppressed",
        status: I,
        doc: "The attacker is burning, hacked, stunned or suppressed (the states of these ids; one modifier whatever the number).",
    },
];

/// Condition families, longest prefix first (so `defender-sa-` wins over `defender-`).
pub const CONDITION_FAMILIES: &[ConditionFamily] = &[
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

/// An engine option: a ruleset `options:` entry whose chosen value the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOption {
    pub id: &'static str,
    pub values: &'static [&'static str],
    pub doc: &'static str,
}

/// Engine options, each with its values; the typed readers are below.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        id: "shock-trigger",
        values: &["targeted", "hit"],
        doc: "When Shock forces its state test: on every model the weapon targets, or only on models it hits.",
    },
    EngineOption {
        id: "ranged-critical",
        values: &["critical", "no-critical"],
        doc: "Whether a ranged hit whose damage row says so also rolls on the critical damage table.",
    },
    EngineOption {
        id: "surviving-tv-fraction",
        values: &["remaining-columns", "remaining-tracks"],
        doc: "The share of a damaged model's TV that survives: damage-track columns left, or whole tracks left, over all columns.",
    },
    EngineOption {
        id: "victory-ratio-rounding",
        values: &["round-half-up", "truncate"],
        doc: "How the winner-to-loser score ratio is brought to tenths before the victory levels table.",
    },
    EngineOption {
        id: "draw-deck-removal",
        values: &["one-card-per-squad", "two-cards-per-squad"],
        doc: "How many of its draw-deck cards a squad takes with it when it leaves play (the rest stay and are skipped).",
    },
    EngineOption {
        id: "stomp-targets",
        values: &["prone-cav-or-vehicle", "prone-only"],
        doc: "Which models a stomp destroys: the ruleset's prone and standing types, or prone models only.",
    },
    EngineOption {
        id: "table-size",
        values: &["standard", "small"],
        doc: "On a small table every move value and weapon range (minimum ranges too) is halved, rounding up.",
    },
    EngineOption {
        id: "salvage-activation-rolls",
        values: &["every-turn", "first-turn-only"],
        doc: "When a scenario's containers roll to become active: at the start of every turn from the scenario's first, or of that turn only.",
    },
    EngineOption {
        id: "secondary-squad-limit",
        values: &["one-plus-half-primary", "under-twice-primary"],
        doc: "How many secondary squads a force may field for its primary squads (read by the force check).",
    },
];

/// Shock's state test, by the `shock-trigger` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShockTrigger {
    #[default]
    Targeted,
    Hit,
}

/// Critical rolls of ranged hits, by the `ranged-critical` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RangedCritical {
    #[default]
    Critical,
    NoCritical,
}

/// The secondary-squad limit of force building, by the `secondary-squad-limit` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SecondarySquadLimit {
    /// The first secondary squad is free; each further one needs more primary squads.
    #[default]
    OnePlusHalfPrimary,
    /// Fewer secondary squads than twice the primary ones.
    UnderTwicePrimary,
}

/// A damaged model's surviving share of its TV, by the `surviving-tv-fraction` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SurvivingFraction {
    /// Columns left (starting tracks + 1 − damage) over all columns.
    #[default]
    RemainingColumns,
    /// Whole tracks left (starting tracks − damage) over all columns.
    RemainingTracks,
}

/// The victory ratio brought to tenths, by the `victory-ratio-rounding` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatioRounding {
    #[default]
    RoundHalfUp,
    Truncate,
}

/// Draw-deck cards of a squad that left play, by the `draw-deck-removal` option. Without the
/// option a unit takes all its cards with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeckRemoval {
    #[default]
    AllCards,
    OneCard,
}

/// Rolls that activate salvage containers, by the `salvage-activation-rolls` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SalvageRolls {
    #[default]
    EveryTurn,
    FirstTurnOnly,
}

/// The engine options as typed values, read from the ruleset's chosen readings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EngineOptions {
    pub shock_trigger: ShockTrigger,
    pub ranged_critical: RangedCritical,
    pub secondary_squad_limit: SecondarySquadLimit,
    pub deck_removal: DeckRemoval,
    pub surviving_fraction: SurvivingFraction,
    pub ratio_rounding: RatioRounding,
    pub salvage_rolls: SalvageRolls,
    /// `stomp-targets: prone-only`: only prone models are stomped.
    pub stomp_prone_only: bool,
    /// `table-size: small`: MV and ranges halved.
    pub small_table: bool,
}

impl EngineOptions {
    /// Set one option from its chosen value; false when the option or value is not the engine's.
    pub fn set(&mut self, id: &str, value: &str) -> bool {
        match (id, value) {
            ("shock-trigger", "targeted") => self.shock_trigger = ShockTrigger::Targeted,
            ("shock-trigger", "hit") => self.shock_trigger = ShockTrigger::Hit,
            ("ranged-critical", "critical") => self.ranged_critical = RangedCritical::Critical,
            ("ranged-critical", "no-critical") => self.ranged_critical = RangedCritical::NoCritical,
            ("surviving-tv-fraction", "remaining-columns") => {
                self.surviving_fraction = SurvivingFraction::RemainingColumns
            }
            ("surviving-tv-fraction", "remaining-tracks") => {
                self.surviving_fraction = SurvivingFraction::RemainingTracks
            }
            ("victory-ratio-rounding", "round-half-up") => self.ratio_rounding = RatioRounding::RoundHalfUp,
            ("victory-ratio-rounding", "truncate") => self.ratio_rounding = RatioRounding::Truncate,
            ("draw-deck-removal", "one-card-per-squad") => self.deck_removal = DeckRemoval::OneCard,
            ("draw-deck-removal", "two-cards-per-squad") => self.deck_removal = DeckRemoval::AllCards,
            ("stomp-targets", "prone-cav-or-vehicle") => self.stomp_prone_only = false,
            ("stomp-targets", "prone-only") => self.stomp_prone_only = true,
            ("table-size", "standard") => self.small_table = false,
            ("table-size", "small") => self.small_table = true,
            ("salvage-activation-rolls", "every-turn") => self.salvage_rolls = SalvageRolls::EveryTurn,
            ("salvage-activation-rolls", "first-turn-only") => self.salvage_rolls = SalvageRolls::FirstTurnOnly,
            ("secondary-squad-limit", "one-plus-half-primary") => {
                self.secondary_squad_limit = SecondarySquadLimit::OnePlusHalfPrimary
            }
            ("secondary-squad-limit", "under-twice-primary") => {
                self.secondary_squad_limit = SecondarySquadLimit::UnderTwicePrimary
            }
            _ => return false,
        }
        true
    }
}

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

/// `docs/vocabulary.md`: the whole vocabulary as a reference page.
pub fn markdown() -> String {
    fn table<T: Copy>(
        out: &mut String,
        items: &[T],
        id: impl Fn(T) -> String,
        status: impl Fn(T) -> Status,
        doc: impl Fn(T) -> String,
    ) {
        out.push_str("| word | status | meaning |\n|---|---|---|\n");
        for &x in items {
            out.push_str(&format!("| `{}` | {} | {} |\n", id(x), status(x).describe(), doc(x).replace('|', "\\|")));
        }
        out.push('\n');
    }
    let mut out = String::from(
        "# The engine's vocabulary\n\n\
         Generated by `cav schema` from `runtime/format/src/vocab.rs`; a test fails when this page is stale.\n\n\
         Every word a pack uses where the engine must understand it is one of these. `cav validate` reports a word \
         outside this page as an error, and a word that is recognised but not implemented as a warning that says \
         so (`--deny warnings` makes those fail too).\n\n",
    );
    out.push_str("## Hook points\n\nHandlers of a script module are named after these. Effects: what `ctx` accepts there (none: the handler may only look and print).\n\n");
    out.push_str(&format!("Whose handlers run: {HANDLER_ORDER}.\n\n"));
    out.push_str(
        "| hook point | status | when it fires | `ctx` holds | effects | quantities |\n|---|---|---|---|---|---|\n",
    );
    for &h in HookPoint::ALL {
        let fx: Vec<String> = h.accepts().iter().map(|e| format!("`{e}`")).collect();
        let qs: Vec<String> = h.quantities().iter().map(|q| format!("`{q}`")).collect();
        out.push_str(&format!(
            "| `{h}` | {} | {} | {} | {} | {} |\n",
            h.status().describe(),
            h.doc(),
            h.ctx_fields(),
            fx.join(", "),
            qs.join(", ")
        ));
    }
    out.push_str("\n## Hook effects\n\n");
    table(&mut out, HookEffect::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## Quantities\n\nWhat `ctx.add_modifier(quantity, source, value)` may change.\n\n");
    table(&mut out, Quantity::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## Conditions\n\nIds for `condition:` and `also:` of modifier tables and `when:` of declarative modifiers.\n\n");
    table(&mut out, CONDITIONS, |c| c.id.into(), |c| c.status, |c| c.doc.into());
    out.push_str("### Condition families\n\n");
    table(
        &mut out,
        CONDITION_FAMILIES,
        |f| format!("{}<{}>", f.prefix, f.names.what()),
        |f| f.status,
        |f| f.doc.into(),
    );
    out.push_str(
        "## Effect targets\n\n`target:` of a declarative modifier. Only roll targets test `when:` conditions.\n\n",
    );
    table(
        &mut out,
        ModifierTarget::ALL,
        |x| x.id().into(),
        |x| x.status(),
        |x| format!("{}{}", x.doc(), if x.conditional() { " (tests `when:`)" } else { "" }),
    );
    out.push_str("## Actions\n\nThe `id` of an `action_type` document.\n\n");
    table(&mut out, ActionKind::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## Model types\n\n");
    table(&mut out, ModelType::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## Model traits\n\nGiven per model type by the ruleset (`model_types:`).\n\n");
    table(&mut out, ModelTrait::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## C3 uses\n\nWhat a C3 point buys, listed in the ruleset's `c3.uses`.\n\n");
    table(&mut out, C3Use::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str("## Range measurement\n\n`range_measured:` of the ruleset's `sight` procedures.\n\n");
    table(&mut out, RangeMeasure::ALL, |x| x.id().into(), |x| x.status(), |x| x.doc().into());
    out.push_str(
        "## Engine options\n\nRuleset `options:` the engine reads. Any other option is a reading the pack documents; \
         the engine plays its default and `cav validate` says so.\n\n| option | values | meaning |\n|---|---|---|\n",
    );
    for o in OPTIONS {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            o.id,
            o.values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "),
            o.doc
        ));
    }
    out
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

    #[test]
    fn option_values_are_the_declared_ones() {
        for o in OPTIONS {
            for v in o.values {
                assert!(EngineOptions::default().set(o.id, v), "{} {v}", o.id);
            }
        }
        assert!(!EngineOptions::default().set("shock-trigger", "sometimes"));
    }

    #[test]
    fn ids_round_trip() {
        for &h in HookPoint::ALL {
            assert_eq!(HookPoint::from_id(h.id()), Some(h));
            assert_eq!(serde_json::to_value(h).unwrap(), h.id());
        }
    }
}
