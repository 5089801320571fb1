//! Condition ids → the engine's conditions (`cav_rules::game::conditions`), family members
//! resolved to the band, state or SA they name. The loader's vocabulary pass has already reported
//! unknown ids (errors) and recognised-but-unplayed ones (warnings); both compile to
//! `Cond::NEVER`.

use cav_content::Ruleset;
use cav_format::DocKind;
use cav_format::vocab::{self, ConditionWord, FamilyRef};
use cav_rules::compile::Cond;
use cav_rules::game::conditions;

/// The ids condition families refer to, by index.
pub(crate) struct Names {
    pub states: Vec<String>,
    /// The groups model states belong to (`cav_content::vocabulary::state_groups`).
    pub state_groups: Vec<String>,
    pub sas: Vec<String>,
    pub bands: Vec<String>,
    /// Upgrade ids: upgrade `i` rides on a card as special attribute `sas.len() + i`.
    pub upgrades: Vec<String>,
    /// The attributes the ruleset's models carry, in the order of `CardDef::attributes`.
    pub attributes: Vec<String>,
    /// The values the ruleset's terrain carries (`terrain_values:`), in the order of
    /// `TerrainDef::values`' indices.
    pub terrain_values: Vec<String>,
    /// The arcs around a defender (`procedures.sight.defense_arcs`), in order.
    pub defense_arcs: Vec<String>,
    /// The ruleset's own action types, in the order of `Rules::own_actions`.
    pub own_actions: Vec<String>,
    /// The condition ids resolved so far (what the rules use: `required.rs` asks).
    used: std::cell::RefCell<std::collections::BTreeSet<&'static str>>,
}

impl Names {
    pub fn new(rs: &Ruleset, bands: Vec<String>) -> Names {
        Names {
            states: rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect(),
            state_groups: cav_content::vocabulary::state_groups(rs),
            sas: rs.of_kind(DocKind::SpecialAttribute).map(|e| e.id.clone()).collect(),
            bands,
            upgrades: rs.of_kind(DocKind::Upgrade).map(|e| e.id.clone()).collect(),
            attributes: cav_content::vocabulary::ruleset_attributes(rs),
            terrain_values: cav_content::vocabulary::terrain_values(rs),
            defense_arcs: cav_content::vocabulary::defense_arcs(rs),
            own_actions: cav_content::vocabulary::own_actions(rs),
            used: Default::default(),
        }
    }

    /// Whether some resolved word used the fixed condition `id` (families are not recorded).
    pub fn used(&self, id: &str) -> bool {
        self.used.borrow().contains(id)
    }

    pub fn cond(&self, id: &str) -> Cond {
        let resolved = match vocab::condition(id) {
            Some(ConditionWord::Fixed(c)) => {
                self.used.borrow_mut().insert(c.id);
                conditions::find(c.id).map(|id| Cond { id, arg: 0 })
            }
            Some(ConditionWord::Family(f, rest)) => {
                let (ids, offset) = match f.names {
                    FamilyRef::RangeBand => (&self.bands, 0),
                    FamilyRef::ModelState => (&self.states, 0),
                    FamilyRef::StateGroup => (&self.state_groups, 0),
                    FamilyRef::SpecialAttribute => (&self.sas, 0),
                    FamilyRef::Upgrade => (&self.upgrades, self.sas.len()),
                    FamilyRef::Attribute => (&self.attributes, 0),
                    FamilyRef::TerrainValue => (&self.terrain_values, 0),
                    FamilyRef::DefenseArc => (&self.defense_arcs, 0),
                    FamilyRef::OwnAction => (&self.own_actions, 0),
                    FamilyRef::CriticalResult => return Cond::NEVER,
                };
                let arg = ids.iter().position(|x| x == rest).map(|i| i + offset);
                conditions::find(f.prefix).zip(arg).map(|(id, arg)| Cond { id, arg: arg as u16 })
            }
            None => None,
        };
        resolved.unwrap_or(Cond::NEVER)
    }
}
