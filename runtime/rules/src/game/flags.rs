//! What scripts remember (`ctx.flag`, `ctx.set_flag`): values kept by the engine in the game, not
//! in the Lua VM, so a game copied for the odds, a replay or a shard carries them, and a script's
//! module holds no state of its own. Foundry VTT's document flags are the model: each value lives
//! under the special attribute whose handler set it (two modules never share a key), in a scope
//! that says how long it lasts.

use std::fmt;

use crate::compile::SaIx;

/// How long a flag lasts.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FlagScope {
    /// Until the game ends.
    Game,
    /// Until the turn ends.
    Turn,
    /// Until the activation in progress ends.
    Activation,
    /// On one model, until the game ends.
    Model(usize),
    /// On one unit (a squad, by index), until the game ends.
    Unit(usize),
}

/// A flag's value: what a Luau boolean, number or string holds.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub enum FlagValue {
    Bool(bool),
    Number(f64),
    Text(String),
}

/// One flag: the special attribute whose handler set it, its scope and key, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Flag {
    pub sa: SaIx,
    pub scope: FlagScope,
    pub key: String,
    pub value: FlagValue,
}

impl fmt::Display for FlagScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagScope::Game => f.write_str("game"),
            FlagScope::Turn => f.write_str("turn"),
            FlagScope::Activation => f.write_str("activation"),
            FlagScope::Model(_) => f.write_str("model"),
            FlagScope::Unit(q) => write!(f, "unit {}", q + 1),
        }
    }
}

impl fmt::Display for FlagValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagValue::Bool(b) => write!(f, "{b}"),
            FlagValue::Number(x) => write!(f, "{x}"),
            FlagValue::Text(s) => write!(f, "{s:?}"),
        }
    }
}

/// Every flag of a game, in the order they were first set.
#[derive(Debug, Default, PartialEq)]
pub struct Flags(Vec<Flag>);

impl Clone for Flags {
    fn clone(&self) -> Self {
        Flags(self.0.clone())
    }

    // The odds copy a game once per die sequence: keep the buffer.
    fn clone_from(&mut self, src: &Self) {
        self.0.clone_from(&src.0);
    }
}

impl Flags {
    /// The value special attribute `sa` keeps under `key` in `scope`.
    pub fn get(&self, sa: SaIx, scope: FlagScope, key: &str) -> Option<&FlagValue> {
        self.0.iter().find(|f| f.sa == sa && f.scope == scope && f.key == key).map(|f| &f.value)
    }

    /// Set (`Some`) or forget (`None`) a value; `Err` when the game holds
    /// `limits::SCRIPT_FLAGS` already.
    pub fn set(&mut self, sa: SaIx, scope: FlagScope, key: &str, value: Option<FlagValue>) -> Result<(), String> {
        let at = self.0.iter().position(|f| f.sa == sa && f.scope == scope && f.key == key);
        match (at, value) {
            (Some(i), Some(v)) => self.0[i].value = v,
            (Some(i), None) => {
                self.0.remove(i);
            }
            (None, Some(value)) => {
                if self.0.len() >= cav_format::limits::SCRIPT_FLAGS {
                    return Err(format!(
                        "more than {} flags in one game (`ctx.set_flag`)",
                        cav_format::limits::SCRIPT_FLAGS
                    ));
                }
                self.0.push(Flag { sa, scope, key: key.to_owned(), value });
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// Forget every flag of `scope` (a turn or an activation ended).
    pub(crate) fn end(&mut self, scope: FlagScope) {
        if !self.0.is_empty() {
            self.0.retain(|f| f.scope != scope);
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Flag> {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_is_kept_per_special_attribute_scope_and_key_and_bounded() {
        let mut flags = Flags::default();
        flags.set(1, FlagScope::Game, "n", Some(FlagValue::Number(1.0))).unwrap();
        flags.set(2, FlagScope::Game, "n", Some(FlagValue::Bool(true))).unwrap();
        flags.set(1, FlagScope::Turn, "n", Some(FlagValue::Text("x".into()))).unwrap();
        flags.set(1, FlagScope::Model(3), "n", Some(FlagValue::Number(4.0))).unwrap();
        flags.set(1, FlagScope::Unit(3), "n", Some(FlagValue::Number(5.0))).unwrap();
        assert_eq!(flags.get(1, FlagScope::Unit(3), "n"), Some(&FlagValue::Number(5.0)), "a unit is not its model");
        assert_eq!(flags.get(1, FlagScope::Game, "n"), Some(&FlagValue::Number(1.0)));
        assert_eq!(flags.get(2, FlagScope::Game, "n"), Some(&FlagValue::Bool(true)), "another module's own");
        assert_eq!(flags.get(1, FlagScope::Model(2), "n"), None);
        flags.end(FlagScope::Turn);
        assert_eq!(flags.get(1, FlagScope::Turn, "n"), None, "a turn's flags end with it");
        assert_eq!(flags.get(1, FlagScope::Model(3), "n"), Some(&FlagValue::Number(4.0)));
        flags.set(1, FlagScope::Game, "n", None).unwrap();
        assert_eq!(flags.get(1, FlagScope::Game, "n"), None, "nil forgets");
        let mut i = 0;
        let err = loop {
            if let Err(e) = flags.set(0, FlagScope::Game, &i.to_string(), Some(FlagValue::Number(0.0))) {
                break e;
            }
            i += 1;
        };
        assert_eq!(flags.iter().count(), cav_format::limits::SCRIPT_FLAGS);
        assert!(err.contains("more than 1024 flags"), "{err}");
        // Changing or forgetting a flag at the bound is still allowed.
        flags.set(0, FlagScope::Game, "0", Some(FlagValue::Number(1.0))).unwrap();
    }
}
