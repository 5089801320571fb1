//! Condition ids → the engine's [`Cond`]. The loader's vocabulary pass has already reported
//! unknown ids (errors) and recognised-but-unimplemented ones (warnings); both compile to
//! `Cond::Unsupported`, which never holds.

use cav_content::Ruleset;
use cav_format::DocKind;
use cav_format::vocab::{self, ConditionWord, FamilyRef};
use cav_rules::compile::Cond;

/// The ids condition families refer to, by index.
pub(crate) struct Names {
    pub states: Vec<String>,
    pub sas: Vec<String>,
    pub bands: Vec<String>,
}

impl Names {
    pub fn new(rs: &Ruleset, bands: Vec<String>) -> Names {
        Names {
            states: rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect(),
            sas: rs.of_kind(DocKind::SpecialAttribute).map(|e| e.id.clone()).collect(),
            bands,
        }
    }

    pub fn cond(&self, id: &str) -> Cond {
        let ix = |ids: &[String], rest: &str| ids.iter().position(|x| x == rest);
        match vocab::condition(id) {
            Some(ConditionWord::Fixed(c)) if c.status.implemented() => match c.id {
                "always" => Cond::Always,
                "point-blank" => Cond::PointBlank,
                "light-cover" => Cond::LightCover,
                "heavy-cover" => Cond::HeavyCover,
                "salvo-fire" => Cond::SalvoFire,
                "run-n-gun" => Cond::RunNGun,
                "defensive-fire" => Cond::DefensiveFire,
                "consecutive-attempt" => Cond::ConsecutiveAttempt,
                "los-to-strike-point" => Cond::LosToStrikePoint,
                "primary-roll" => Cond::PrimaryRoll,
                "target-locked" => Cond::TargetLocked,
                "quad-cav" => Cond::QuadCav,
                "close-combat-support" => Cond::CloseCombatSupport,
                "failed-break" => Cond::FailedBreak,
                "friends-in-contact" => Cond::FriendsInContact,
                "enemies-in-contact" => Cond::EnemiesInContact,
                _ => Cond::Unsupported,
            },
            Some(ConditionWord::Family(f, rest)) if f.status.implemented() => {
                let found = match (f.names, f.prefix) {
                    (FamilyRef::RangeBand, _) => ix(&self.bands, rest).map(|i| Cond::Band(i as u8)),
                    (FamilyRef::ModelState, "attacker-") => {
                        ix(&self.states, rest).map(|i| Cond::AttackerState(i as u16))
                    }
                    (FamilyRef::ModelState, _) => ix(&self.states, rest).map(|i| Cond::DefenderState(i as u16)),
                    (FamilyRef::SpecialAttribute, "sa-") => ix(&self.sas, rest).map(|i| Cond::AttackerSa(i as u16)),
                    (FamilyRef::SpecialAttribute, _) => ix(&self.sas, rest).map(|i| Cond::DefenderSa(i as u16)),
                    _ => None,
                };
                found.unwrap_or(Cond::Unsupported)
            }
            _ => Cond::Unsupported,
        }
    }
}
