//! The commands whose work is a few steps over the library crates, each in a module of its own
//! (`cav validate`, `cache`, `schema`, `list`, `lua`, `watch`, `test`, `card`, `show`, `dice`); the commands with
//! more to them have their own top-level module (`play`, `replay`, `sim`, `map`, `odds`, `new`…).

pub mod cache;
pub mod card;
pub mod dice;
pub mod list;
pub mod lua;
pub mod schema;
pub mod show;
pub mod test;
pub mod validate;
pub mod watch;
