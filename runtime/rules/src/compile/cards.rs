//! Compiled model cards: the values per damage column, their mounts and special attributes, profiles
//! and upgrades.

use super::*;

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct CardDef {
    pub id: String,
    pub name: String,
    pub model_type: TypeIx,
    pub move_class: usize,
    pub columns: usize,
    pub movement: Vec<u32>,
    pub armor: Vec<u32>,
    pub damage_control: Vec<Option<i32>>,
    pub experience: Vec<Option<u32>>,
    pub ccv: Vec<(Option<u8>, Option<u8>)>,
    pub weapons: Vec<MountDef>,
    pub sas: Vec<(SaIx, i32)>,
    pub hard: bool,
    pub soft: bool,
    pub ammo_reserve: u32,
    pub base_radius: f64,
    pub airframe: Option<f::Airframe>,
    pub task: Option<f::Task>,
    /// Damage-result reduction (the Quick-Start's Reinforced), normalised to "points off the margin".
    pub damage_result: i32,
    /// Points off the damage-table lookup of a penetrating hit (the full rules' Reinforced).
    pub damage_table_result: i32,
    /// MV given back of what damage and criticals take (Relentless).
    pub mv_loss_cut: i32,
    /// Every successful repair counts as a critical success (Rugged).
    pub repair_critical: bool,
    /// No free facing change in move actions (Reduced Turn).
    pub no_free_turn: bool,
    /// Mounts and dismounts ground transports for 0 AP (Storm).
    pub free_mount: bool,
    /// Its target-locks on enemies within this many inches pass to its squad mates (EST).
    pub share_lock: Option<f64>,
    /// The reach (inches) of its TAG laser designator, if it has one (`Game::painted`).
    pub tag: Option<f64>,
    /// It may dismount from an aircraft in flight (Airborne).
    pub airborne: bool,
    /// Gun ports its riders fire through, each once a turn (Gun Port).
    pub gun_ports: u32,
    /// Its reach in a chain of indirect fire (Chain-Fire Pod), and whether it may start one.
    pub chain_fire: Option<(f64, bool)>,
    pub tv: u32,
    /// Its value of each attribute the ruleset declares (`Rules::attributes` order), column by
    /// column: `columns` rows of equal length (`attributes_at`).
    pub attributes: Vec<i32>,
    /// Where the attributes with an engine role sit in a row of `attributes`: kept equal to `mv`,
    /// `av`, `dc` and `exp` (`mirror_roles`), which the engine reads.
    pub roles: RoleIx,
    /// The asset (index) whose weapon emplacement this card is (`Model::emplacement`).
    pub emplacement: Option<usize>,
    /// Upgrades switched on by the Special action (`Upgrade::switch`): while the model is in some
    /// of their states it plays as another card with their grants (`Game::card`).
    pub switch: Option<Box<Switch>>,
}

/// The cards a model with switched upgrades plays as (`CardDef::switch`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Switch {
    /// The states, one per switched upgrade (at most [`Switch::MAX`]).
    pub states: Vec<StateIx>,
    /// The card for each non-empty set of states on: `cards[mask - 1]`, bit `i` for `states[i]`.
    pub cards: Vec<usize>,
}

impl Switch {
    pub const MAX: usize = 4;
    /// The card index `base` plays as for a model in `has` of the states.
    pub fn card(&self, base: usize, has: impl Fn(StateIx) -> bool) -> usize {
        let mask = self.states.iter().enumerate().filter(|(_, s)| has(**s)).fold(0usize, |m, (i, _)| m | (1 << i));
        if mask == 0 { base } else { self.cards.get(mask - 1).copied().unwrap_or(base) }
    }
}

impl CardDef {
    /// A strike caller (a model with the ruleset's caller special attribute, FIST) carries every
    /// strike package's attack as a further mount after its weapons, fired only by `call-strike`;
    /// whether its side has the pool for one is decided when it calls.
    /// The card of an asset that attacks on its own (a minefield): its attack as its one weapon,
    /// no move, no armour; it never stands on the table.
    pub fn for_asset(id: &str, name: &str, mount: MountDef) -> CardDef {
        CardDef { weapons: vec![mount], ..CardDef::blank(format!("asset:{id}"), name.to_owned(), TypeIx::NONE, 1) }
    }

    /// A card of `columns` columns with zero values, no weapons and every card effect off: what
    /// the compiler fills in from a model document, its special attributes and upgrades.
    pub fn blank(id: String, name: String, model_type: TypeIx, columns: usize) -> CardDef {
        CardDef {
            id,
            name,
            model_type,
            move_class: 0,
            columns,
            movement: vec![0; columns],
            armor: vec![0; columns],
            damage_control: vec![None; columns],
            experience: vec![None; columns],
            ccv: vec![(None, None); columns],
            weapons: Vec::new(),
            sas: Vec::new(),
            hard: false,
            soft: false,
            ammo_reserve: 0,
            base_radius: 0.0,
            airframe: None,
            task: None,
            damage_result: 0,
            damage_table_result: 0,
            mv_loss_cut: 0,
            repair_critical: false,
            no_free_turn: false,
            free_mount: false,
            share_lock: None,
            tag: None,
            airborne: false,
            gun_ports: 0,
            chain_fire: None,
            tv: 0,
            attributes: Vec::new(),
            roles: RoleIx::default(),
            emplacement: None,
            switch: None,
        }
    }

    /// Join `list` (and what its members grant in turn: the SA an upgrade grants may grant more)
    /// to the card's special attributes — a rating adds to one it has — and apply their card
    /// effects, values included.
    pub fn grant(&mut self, sas: &[SaDef], list: &[(SaIx, i32)]) {
        let added = SaDef::with_grants(sas, list);
        for &(sa, rating) in &added {
            match self.sas.iter_mut().find(|(x, _)| *x == sa) {
                Some(have) => have.1 = have.1.saturating_add(rating),
                None => self.sas.push((sa, rating)),
            }
        }
        self.apply_effects(sas, &added, true);
    }

    /// Give a card with the close-defense special attribute its reaction's mount (once).
    pub fn arm_close_defense(&mut self, cd: Option<&CloseDefenseDef>) {
        let Some(cd) = cd else { return };
        if self.weapons.iter().any(|w| w.reaction) || !self.sas.iter().any(|(x, _)| *x == cd.sa) {
            return;
        }
        let mut m = cd.mount.clone();
        m.rav = vec![m.rav.first().copied().unwrap_or((None, None)); self.columns];
        self.weapons.push(m);
    }

    pub fn arm_strikes(&mut self, strikes: &[StrikeDef], caller: Option<SaIx>) {
        if self.weapons.iter().any(|w| w.strike.is_some()) {
            return;
        }
        for s in strikes {
            if self.strike_terms(s, caller).is_none() {
                continue;
            }
            let mut m = s.mount.clone();
            m.rav = vec![m.rav.first().copied().unwrap_or((None, None)); self.columns];
            self.weapons.push(m);
        }
    }

    /// On what terms this card calls strike `s`: as the ruleset's strike caller (`caller`), else
    /// through a special attribute of the strike's `called_by`; `None`: it does not call it.
    pub fn strike_terms(&self, s: &StrikeDef, caller: Option<SaIx>) -> Option<StrikeTerms> {
        let has = |sa: SaIx| self.sas.iter().any(|(x, _)| *x == sa);
        if caller.is_some_and(has) {
            return Some(StrikeTerms::CALLER);
        }
        s.called_by.iter().find(|t| t.sa.is_some_and(has)).copied()
    }

    /// Add the card effects of `added` (special attributes with their ratings) to the card: hard
    /// or soft, ammo reserve, damage-result reduction, critical repairs and — with `values`, for
    /// upgrades and for cards written as their bare chassis — MV, AV and DC. A special attribute's
    /// MV, AV and DC effects are part of the card's design: printed values already hold them (the
    /// Dictator-B's Improved Armor), so compiling a printed card does not apply them again.
    pub fn apply_effects(&mut self, sas: &[SaDef], added: &[(SaIx, i32)], values: bool) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, added, t);
        self.hard |= sum(ModifierTarget::HardTarget).is_some();
        self.soft |= sum(ModifierTarget::SoftTarget).is_some();
        self.ammo_reserve =
            self.ammo_reserve.saturating_add(sum(ModifierTarget::AmmoReserve).unwrap_or(0).max(0) as u32);
        self.damage_result -= sum(ModifierTarget::DamageResult).unwrap_or(0);
        self.damage_table_result -= sum(ModifierTarget::DamageTableResult).unwrap_or(0);
        self.mv_loss_cut -= sum(ModifierTarget::MvLoss).unwrap_or(0);
        self.repair_critical |= sum(ModifierTarget::RepairCritical).is_some();
        self.no_free_turn |= sum(ModifierTarget::NoFreeTurn).is_some();
        self.free_mount |= sum(ModifierTarget::FreeMount).is_some();
        if let Some(inches) = sum(ModifierTarget::ShareLock) {
            self.share_lock = Some(f64::from(inches.max(0)).max(self.share_lock.unwrap_or(0.0)));
        }
        self.airborne |= sum(ModifierTarget::Airborne).is_some();
        let (starts, joins) = (sum(ModifierTarget::ChainFire), sum(ModifierTarget::ChainFireJoin));
        if let Some(reach) = starts.max(joins) {
            let (old_reach, old_starts) = self.chain_fire.unwrap_or((0.0, false));
            self.chain_fire = Some((f64::from(reach.max(0)).max(old_reach), starts.is_some() || old_starts));
        }
        self.gun_ports = self.gun_ports.saturating_add(sum(ModifierTarget::GunPorts).unwrap_or(0).max(0) as u32);
        if let Some(inches) = sum(ModifierTarget::Tag) {
            self.tag = Some(f64::from(inches.max(0)).max(self.tag.unwrap_or(0.0)));
        }
        if values {
            self.apply_values(sas, added);
        }
    }

    /// Add the MV, AV and DC effects (and a repair value where the card has no DC) of `added`
    /// to the card's columns: an upgrade fitted to it, or the design of a card written as its
    /// bare chassis (`values: chassis`).
    pub fn apply_values(&mut self, sas: &[SaDef], added: &[(SaIx, i32)]) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, added, t);
        let shift = |col: &mut Vec<u32>, by: i32, keep_zero: bool| {
            for v in col.iter_mut().filter(|v| !keep_zero || **v > 0) {
                *v = (*v as i32).saturating_add(by).max(0) as u32;
            }
        };
        // A column at MV 0 stays immobile: an upgrade does not repair it.
        shift(&mut self.movement, sum(ModifierTarget::MoveValue).unwrap_or(0), true);
        shift(&mut self.armor, sum(ModifierTarget::ArmorValue).unwrap_or(0), false);
        let dc = sum(ModifierTarget::DamageControl).unwrap_or(0);
        for v in self.damage_control.iter_mut().flatten() {
            *v = v.saturating_add(dc);
        }
        if let Some(value) = sum(ModifierTarget::RepairValue) {
            for v in self.damage_control.iter_mut().filter(|v| v.is_none()) {
                *v = Some(value);
            }
        }
        self.mirror_roles();
    }

    /// Its attribute values in damage column `col` (the last column's past the end).
    pub fn attributes_at(&self, col: usize) -> &[i32] {
        let n = self.attributes.len() / self.columns.max(1);
        let col = col.min(self.columns.saturating_sub(1));
        self.attributes.get(col * n..(col + 1) * n).unwrap_or(&[])
    }

    /// Write the values the engine reads by role (`movement`, `armor`, `damage_control`,
    /// `experience`: changed by upgrades,
    /// chassis designs and small tables) into the attribute rows, so rules reading the attribute
    /// see what the engine uses. A model without the value reads 0.
    pub fn mirror_roles(&mut self) {
        let n = self.attributes.len() / self.columns.max(1);
        let RoleIx { movement, armor, damage_control, experience } = self.roles;
        for col in 0..self.columns {
            let row = col * n;
            let mut set = |ix: Option<u16>, v: i32| {
                if let Some(slot) = ix.and_then(|i| self.attributes.get_mut(row + usize::from(i))) {
                    *slot = v;
                }
            };
            let clamp = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
            set(movement, self.movement.get(col).copied().map_or(0, clamp));
            set(armor, self.armor.get(col).copied().map_or(0, clamp));
            set(damage_control, self.damage_control.get(col).copied().flatten().unwrap_or(0));
            set(experience, self.experience.get(col).copied().flatten().map_or(0, clamp));
        }
    }
}

/// The positions in `Rules::attributes` of the attributes lent to the engine (`role:`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoleIx {
    pub movement: Option<u16>,
    pub armor: Option<u16>,
    pub damage_control: Option<u16>,
    pub experience: Option<u16>,
}

/// A munition's attack profile for one launcher weapon.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ProfileDef {
    /// The launcher's weapon id.
    pub launcher: String,
    /// (hard, soft) RAV; `None` keeps the launcher's.
    pub rav: Option<(Option<u8>, Option<u8>)>,
    pub sas: Vec<(SaIx, i32)>,
    pub range: Option<f64>,
    /// A pre-set base target point (rolled on the ruleset's pre-set dice).
    pub base_tp: Option<i32>,
    /// Threat value, per damage track when `per_track`.
    pub tv: u32,
    pub per_track: bool,
    /// The weapon it fires as (`fires_as`): range, fire mode and the rest, under the profile's.
    pub fires_as: Option<Box<MountDef>>,
    pub single_use: bool,
    pub laser_guided: bool,
    pub dropped: Option<f::Dropped>,
    /// (length, width) of a strip-shaped area.
    pub strip: Option<(f64, f64)>,
    /// The minefield it lays and the terrain it leaves where it lands (`MountDef::lays`,
    /// `MountDef::leaves`).
    pub lays: Option<usize>,
    pub leaves: Option<LeavesDef>,
    pub cloud: Option<Vec<String>>,
    pub cloud_stopped_by: Vec<String>,
    pub destroys: Option<f::Destroys>,
    /// A seeking submunition (`f::AttackProfile::seeks`): the model types it attacks.
    pub seeks: Option<Vec<TypeIx>>,
}

/// `procedures.close_defense` compiled: the special attribute that has it, the trait of the
/// attackers it answers, how close they must be, its AP cost, and the attack, as the mount a
/// card with the special attribute carries (`CardDef::arm_close_defense`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct CloseDefenseDef {
    pub sa: SaIx,
    pub against: f::ModelTrait,
    pub reach: f64,
    pub cost: u32,
    pub mount: MountDef,
}

/// An upgrade as the engine fits it (`Rules::fit`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct UpgradeDef {
    pub id: String,
    pub name: String,
    /// Its own entry in `Rules::sas` (id `upgrade:<id>`): effects, script and hooks.
    pub sa: SaIx,
    /// Special attributes it grants, with their ratings (uses for limited ones).
    pub grants: Vec<(SaIx, i32)>,
    /// Threat value, per damage track when `per_track`.
    pub tv: u32,
    pub per_track: bool,
    /// A munition's profiles, one per launcher it fits.
    pub profiles: Vec<ProfileDef>,
    /// Its grants are alternatives for one weapon type (`Fitting::choice`).
    pub choose_grant: bool,
    /// Each purchase is used once (`Upgrade::single_use`).
    pub single_use: bool,
    /// It may be bought several times for one model (`Upgrade::repeatable`).
    pub repeatable: bool,
    /// The state its Special action switches on; its grants apply only while the model is in it.
    pub switch: Option<StateIx>,
    /// Target states its munition homes on without a target-lock.
    pub homes_on: Vec<StateIx>,
    /// Its ranks or sizes: (id, cost, the rating of its grants).
    pub variants: Vec<(String, u32, Option<i32>)>,
}

/// An upgrade to fit (`Rules::fit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fitting<'a> {
    /// Index in `Rules::upgrades`.
    pub upgrade: usize,
    /// For a munition, the launcher weapon it is loaded in (every launcher its profiles name,
    /// when `None`); for an upgrade that chooses a grant, the weapon type that takes it.
    pub weapon: Option<&'a str>,
    /// The grant taken, of an upgrade whose grants are alternatives.
    pub choice: Option<&'a str>,
    /// The rank or size bought, of an upgrade with variants (its own cost and grant rating).
    pub variant: Option<&'a str>,
    /// How many are bought (a repeatable upgrade's `times`; 1 otherwise).
    pub times: u32,
}

impl<'a> Fitting<'a> {
    pub fn plain(upgrade: usize) -> Self {
        Fitting { upgrade, weapon: None, choice: None, variant: None, times: 1 }
    }
}
