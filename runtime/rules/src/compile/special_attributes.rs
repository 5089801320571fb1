//! Compiled special attributes: their declarative effects and what the engine asks of them.

use super::*;

/// The declarative effects of one special attribute, rating already applied by the user.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct SaDef {
    pub id: String,
    pub name: String,
    pub effects: Vec<Effect>,
    /// Lua module with the SA's behaviour and the script roots of the pack that defines it.
    pub script: Option<(String, Vec<std::path::PathBuf>)>,
    /// Hook points the SA declares.
    pub hooks: Vec<f::HookPoint>,
    /// The owner may decline it (the controller is asked before each action).
    pub optional: bool,
    /// Switched on by the Special action each turn (bots take it first).
    pub switched_on: bool,
    /// The options its Special action may be declared with (`ctx.option`).
    pub special_options: Vec<String>,
    /// Its reach in inches, where its levels give one (the link range of FCS).
    pub reach: Option<f64>,
    /// Special attributes a model with this one has as well, with their ratings.
    pub grants: Vec<(SaIx, i32)>,
    /// A single-use upgrade's own entry: each rating point (a purchase) helps one roll with its
    /// effects and is then spent (`Model::charges_used`).
    pub charges: bool,
    /// A rule of the whole game (`applies_to: game`): held by no card, its handlers run at every
    /// moment of its hook points.
    pub game_wide: bool,
    /// A scenario's rule (`applies_to: scenario`): played only in games whose scenario names it
    /// (`Game::scenario_rules`).
    pub scenario_rule: bool,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Effect {
    pub target: ModifierTarget,
    pub value: i32,
    pub per_rating: bool,
    pub when: Vec<Cond>,
    pub state: Option<StateIx>,
}

impl SaDef {
    /// `list` with the special attributes its members grant (and theirs in turn), each once.
    pub fn with_grants(sas: &[SaDef], list: &[(SaIx, i32)]) -> Vec<(SaIx, i32)> {
        let mut out = list.to_vec();
        let mut next = 0;
        while next < out.len() {
            let (sa, _) = out[next];
            for &(g, rating) in &sas[sa as usize].grants {
                if !out.iter().any(|(x, _)| *x == g) {
                    out.push((g, rating));
                }
            }
            next += 1;
        }
        out
    }

    /// Sum of the unconditional (no `when:`) effects on `target` over (SA, rating) pairs; `None`
    /// when none has one.
    pub fn card_effect(sas: &[SaDef], list: &[(SaIx, i32)], target: ModifierTarget) -> Option<i32> {
        let mut found = None;
        for (s, rating) in list {
            for e in sas[*s as usize].effects.iter().filter(|e| e.target == target && e.when.is_empty()) {
                let v = if e.per_rating { e.value * rating } else { e.value };
                found = Some(found.unwrap_or(0) + v);
            }
        }
        found
    }
}
