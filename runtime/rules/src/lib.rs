//! The CAV rules engine: pure, deterministic, data-driven. No IO, no clock; dice are injected;
//! every number comes from the compiled ruleset.

pub mod bot;
pub mod compile;
pub mod dice;
pub mod event;
pub mod game;
pub mod geom;
pub mod hooks;
pub mod odds;
pub mod search;
pub mod setup;

pub use compile::Rules;
pub use dice::{Dice, DiceExpr, ForcedDice, Odds, SeededDice};
pub use event::{Event, NoLog, Sink};
pub use game::{Action, AttackAnswer, Controller, Engine, Game, GameEnd};
pub mod testing;
