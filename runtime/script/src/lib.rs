//! The sandboxed Luau host: special-attribute behaviour from pack scripts, through the rules
//! engine's `Hooks` trait. See `docs/modding-lua.md`.

mod bytecode;
pub mod check;
pub mod host;
pub mod sandbox;

pub use check::check_scripts;
pub use host::{LuaHost, definitions};
pub use sandbox::{Limits, Sandbox};
