//! Compiled weapon mounts: ranges, RAV, arcs, what the weapon leaves behind, strikes and missiles.

use super::*;

/// A weapon as mounted on a card, with its special attributes resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct MountDef {
    pub weapon: String,
    /// The weapon system (`Laser Bolt Gun`): light and medium guns share it.
    pub class: String,
    pub name: String,
    pub quantity: u32,
    pub range: f64,
    /// Per damage-track column (hard, soft); `None` = NA.
    pub rav: Vec<(Option<u8>, Option<u8>)>,
    pub sas: Vec<(SaIx, i32)>,
    /// Special attributes of this mount that apply only while a condition holds
    /// (`{sa: improved-range, condition: defender-in-flight}`): `Game::mount_sa_holds`.
    pub sa_when: Vec<(SaIx, Cond)>,
    /// Range-band shifts of the mount's special attributes (Improved Range: −1, one band
    /// shorter), with the conditions each needs (its `when:`s and its SA's condition).
    pub band_shift: Vec<(i32, Vec<Cond>)>,
    pub requires_target_lock: bool,
    /// An energy weapon (ion, laser, particle bolt): the `energy-weapon` condition.
    pub energy: bool,
    /// A laser-guided munition loaded (`f::AttackProfile::laser_guided`): the `laser-guided`
    /// condition.
    pub laser_guided: bool,
    pub indirect: bool,
    pub min_range: f64,
    pub aoe: f64,
    pub out_of_ammo_on: u32,
    pub crit_shift: i32,
    /// (target point, state) of a state test on targeted models (Shock).
    pub state_test: Option<(i32, StateIx)>,
    pub open_infantry_factor: u32,
    pub cannot_target: Vec<f::TargetClass>,
    /// Mounting locations (decide the firing arc).
    pub mounts: Vec<f::Mount>,
    /// The munition (an upgrade's name) the launcher fires, when one was fitted.
    pub munition: Option<String>,
    /// That munition's upgrade id (what scripts see as `weapon.munition`).
    pub munition_id: Option<String>,
    /// Its damage comes from the ammunition bought for it (a howitzer's RAV is NA without).
    pub ammo_dependent: bool,
    /// For a second munition of one launcher: the mount of the launcher it is an alternative
    /// to. A combat action fires one munition per launcher.
    pub launcher: Option<usize>,
    /// A strike package's attack (index in `Rules::strikes`) that a strike caller carries: only
    /// `call-strike` fires it, never a combat action.
    pub strike: Option<u16>,
    /// A pre-set base target point: its attacks roll the ruleset's pre-set dice against it.
    /// Combat rolls each model under its area takes (0 or 1: one; Orbital Precision Strike: 3).
    pub combat_rolls: u32,
    pub preset_tp: Option<i32>,
    /// It fires once in the game, then is out of ammo (a pylon's munition).
    pub single_use: bool,
    /// Target states it homes on: a target in one needs no target-lock (`Upgrade::homes_on`).
    pub homes_on: Vec<StateIx>,
    /// Armed by a single-use upgrade (this entry of `Rules::sas`): it fires once per purchase,
    /// the card's rating of that entry, then is out of ammo (two Claymore sets, two blasts).
    pub charges: Option<SaIx>,
    /// A bomb dropped on the ground beneath an aircraft in flight (`Engine::fire`).
    pub dropped: Option<f::Dropped>,
    /// (length, width) of a strip-shaped area along the attacker's heading, replacing the
    /// circle of `aoe`.
    pub strip: Option<(f64, f64)>,
    /// Fired only as the close-defense reaction (`procedures.close_defense`).
    pub reaction: bool,
    /// A melee weapon (`fire: melee`): never shot, fought with in close combat (`procedures.melee`).
    pub melee: bool,
    /// A template weapon: (length, width) of its strip from the front of the base, and the
    /// state it gives every model under it, with no roll (`Engine::template_attack`).
    pub template: Option<(f64, f64, StateIx)>,
    /// Its combat rolls are on the standard dice against this fixed target point.
    pub fixed_tp: Option<i32>,
    /// A guided indirect munition (`Weapon::guided_strike`): the band of its finishing
    /// direct-fire roll, and the strike-point modifier (roll convention) against a painted model.
    pub guided_strike: Option<(usize, i32)>,
    /// The minefield (asset index) it lays at its final point instead of attacking there
    /// (FASCAM): its mines attack with this mount.
    pub lays: Option<usize>,
    /// Terrain it leaves at its final point (a smoke cloud or screen).
    pub leaves: Option<LeavesDef>,
    /// The cloud that lingers where it lands (`f::Cloud`): the weapon ids that destroy it.
    pub cloud: Option<Vec<String>>,
    /// The entries (`upgrade:<id>` in `Rules::sas`) of the single-use upgrades that meet the
    /// cloud (`f::Cloud::stopped_by`).
    pub cloud_stopped_by: Vec<String>,
    /// A seeking submunition (`f::AttackProfile::seeks`): the model types it attacks, painted
    /// enemies in its area; it waits for one until the firer's next activation.
    pub seeks: Option<Vec<TypeIx>>,
    /// What its blast destroys outright in its area (`f::Destroys`).
    pub destroys: Option<f::Destroys>,
    /// Its weapon's value of each weapon attribute the ruleset declares
    /// (`Rules::weapon_attributes` order).
    pub attributes: Vec<i32>,
}

/// Terrain an attack leaves where it lands (`f::Leaves`), its terrain resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct LeavesDef {
    pub terrain: usize,
    /// (length, width) of a strip; `None`: a circle of the attack's area.
    pub strip: Option<(f64, f64)>,
    pub dice: DiceExpr,
    pub halved: bool,
    pub add: u32,
    pub counts: f::LastsFor,
}

/// A strike of a battlefield strike package, as `call-strike` plays it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct StrikeDef {
    pub id: String,
    pub name: String,
    pub package: f::StrikePackage,
    pub cost: u32,
    /// Its attack as a weapon mount (range, RAV, special attributes, pre-set TP).
    pub mount: MountDef,
    /// Special attributes that call it on their own terms, besides the ruleset's strike caller.
    pub called_by: Vec<StrikeTerms>,
    pub missile: Option<MissileDef>,
}

/// A strike that flies in as a model (`f::StrikeMissile`): the card it flies as (the model's,
/// with the strike's attack as its one weapon), the launcher weapon, and its moves.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct MissileDef {
    pub card: usize,
    pub launcher: Option<String>,
    pub first_moves: u32,
    pub moves: u32,
}

/// On what terms a model calls a strike: the ruleset's strike caller pays from the side's pool
/// with the `call-strike` action's AP; another special attribute (`called_by`) may differ.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct StrikeTerms {
    /// The special attribute that calls (`None`: the ruleset's strike caller).
    pub sa: Option<SaIx>,
    /// AP the call costs; `None`: the action's cost.
    pub ap: Option<u32>,
    /// The strike's cost leaves the side's pool.
    pub pays: bool,
    /// Dice and target point of a roll the call must pass first.
    pub authorization: Option<(DiceExpr, i32)>,
}

impl StrikeTerms {
    /// The ruleset's strike caller's terms.
    pub const CALLER: StrikeTerms = StrikeTerms { sa: None, ap: None, pays: true, authorization: None };
}

impl MountDef {
    /// The properties its special attributes give it (indirect fire, minimum range, area of
    /// effect, out-of-ammo, critical shift, state test, damage against infantry in the open).
    pub fn derive(&mut self, sas: &[SaDef]) {
        let sum = |t: ModifierTarget| SaDef::card_effect(sas, &self.sas, t);
        self.indirect |= sum(ModifierTarget::IndirectFire).is_some();
        self.min_range = f64::from(sum(ModifierTarget::MinimumRange).unwrap_or(0));
        self.aoe = f64::from(sum(ModifierTarget::AreaOfEffect).unwrap_or(0));
        self.out_of_ammo_on = sum(ModifierTarget::OutOfAmmo).unwrap_or(0).max(0) as u32;
        self.crit_shift = sum(ModifierTarget::CriticalSuccess).unwrap_or(0);
        self.open_infantry_factor = sum(ModifierTarget::DamageVsOpenInfantry).unwrap_or(1).max(1) as u32;
        self.state_test = self.sas.iter().find_map(|(s, rating)| {
            sas[*s as usize]
                .effects
                .iter()
                .filter(|e| e.target == ModifierTarget::StateTest)
                .find_map(|e| e.state.map(|st| (if e.per_rating { e.value * rating } else { e.value }, st)))
        });
    }

    /// The launcher loaded with `p`'s munition (named `munition`).
    pub(super) fn loaded(&self, p: &ProfileDef, munition: &str, munition_id: &str, sas: &[SaDef]) -> MountDef {
        let mut m = self.clone();
        // A launcher already loaded keeps its own name under the new load.
        let base = match &self.munition {
            Some(mu) => self.name.strip_suffix(&format!(" ({mu})")).unwrap_or(&self.name),
            None => &self.name,
        };
        m.name = format!("{base} ({munition})");
        m.munition = Some(munition.to_owned());
        m.munition_id = Some(munition_id.to_owned());
        m.preset_tp = p.base_tp;
        if let Some(base) = &p.fires_as {
            m.range = base.range;
            m.indirect = base.indirect;
            m.requires_target_lock = base.requires_target_lock;
            m.cannot_target = base.cannot_target.clone();
            m.rav = vec![base.rav.first().copied().unwrap_or((None, None)); m.rav.len()];
            for &(sa, rating) in &base.sas {
                if !m.sas.iter().any(|(x, _)| *x == sa) {
                    m.sas.push((sa, rating));
                }
            }
        }
        m.single_use = p.single_use;
        m.laser_guided = p.laser_guided;
        m.dropped = p.dropped;
        m.strip = p.strip;
        m.lays = p.lays;
        m.leaves = p.leaves.clone();
        m.cloud = p.cloud.clone();
        m.cloud_stopped_by.clone_from(&p.cloud_stopped_by);
        m.destroys = p.destroys.clone();
        m.seeks = p.seeks.clone();
        // A bomb is an indirect attack (its area, the pre-set dice), made from above.
        m.indirect |= p.dropped.is_some();
        if let Some(rav) = p.rav {
            m.rav = vec![rav; m.rav.len()];
        }
        if let Some(r) = p.range {
            m.range = r;
        }
        for &(sa, rating) in &p.sas {
            match m.sas.iter_mut().find(|(x, _)| *x == sa) {
                Some(have) => have.1 = rating,
                None => m.sas.push((sa, rating)),
            }
        }
        m.derive(sas);
        m
    }
}
