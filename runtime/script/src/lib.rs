//! The sandboxed Luau host: special-attribute behaviour from pack scripts, through the rules
//! engine's `Hooks` trait. See `docs/modding-lua.md`.

mod bytecode;
pub mod check;
mod checked;
pub mod host;
pub mod sandbox;

pub use check::check_scripts;
pub use checked::{ScriptInputs, ScriptsChecked, check_scripts_kept};
pub use host::{LuaHost, definitions};
pub use sandbox::{Limits, Sandbox};
