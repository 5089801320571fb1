//! Effect targets: the roll or value a declarative modifier (`modifiers:`) changes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{I, R, Status};

words! {
    /// The roll or value a declarative modifier (`modifiers:` of a special attribute, upgrade,
    /// asset or strike) changes.
    ModifierTarget, "effect target" {
        CombatRoll = "combat_roll", I, "The combat roll of an attack the model or weapon makes.";
        StrikePointRoll = "strike_point_roll", I, "The strike-point roll of an indirect attack.";
        PilotCheck = "pilot_check", I, "The model's pilot checks.";
        DamageRoll = "damage_roll", I, "The damage roll the model makes for a hit under the ruleset's attack by roll kinds (`procedures.attack.damage`): its damage rolls, or its saving rolls when the target rolls; + helps it.";
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
                | ModifierTarget::DamageRoll
                | ModifierTarget::RepairRoll
                | ModifierTarget::ArmorValue
                | ModifierTarget::RangeBand
                | ModifierTarget::LateralShift
                | ModifierTarget::Drift
        )
    }
}
