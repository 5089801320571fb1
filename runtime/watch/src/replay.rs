//! Replaying a scenario after each reload (`--run`), and saying how its outcome changed since the
//! last good rules.

use std::io::Write;

use cav_rules::{Event, Rules, bot::Bot};
use cav_script::LuaHost;

/// The outcome of a replay, for comparing two versions of the rules.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    winner: Option<String>,
    turns: u32,
    damage: Vec<u32>,
    events: Vec<Event>,
    /// The sides, and each model's name as the narrative gives it, by index: the diff names
    /// models, not indices.
    sides: Vec<String>,
    names: Vec<String>,
}

pub(crate) fn replay(rules: &Rules, host: &mut LuaHost, scenario: &str, seed: u64) -> Result<Outcome, String> {
    let sc = rules.scenario(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut events = Vec::new();
    let (game, end) = cav_rules::setup::run(rules, sc, None, seed, &mut events, host, |e| e.play(&mut Bot::default()));
    let end = end.map_err(|e| e.to_string())?;
    let winner = end.winner.map(|w| game.sides[w].clone());
    let names = game.models.iter().map(|m| m.name.clone()).collect();
    let sides = game.sides.clone();
    drop(game);
    Ok(Outcome { winner, turns: end.turns, damage: end.damage_dealt, events, sides, names })
}

/// Damage dealt by each side, named: `red 8, black 10`.
fn damage_by_side(o: &Outcome) -> String {
    let parts: Vec<String> = o
        .damage
        .iter()
        .enumerate()
        .map(|(i, d)| format!("{} {d}", o.sides.get(i).map_or("?", String::as_str)))
        .collect();
    parts.join(", ")
}

/// An event as JSON with its model indices replaced by the models' names.
fn named(e: &Event, names: &[String]) -> String {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        for key in ["model", "target", "by", "from", "transport"] {
            if let Some(name) = o.get(key).and_then(serde_json::Value::as_u64).and_then(|i| names.get(i as usize)) {
                o.insert(key.to_owned(), name.clone().into());
            }
        }
    }
    v.to_string()
}

pub(crate) fn compare(out: &mut dyn Write, old: Option<&Outcome>, new: &Outcome) {
    let _ = writeln!(
        out,
        "  replay: winner {}, {} turns, damage dealt {}",
        new.winner.as_deref().unwrap_or("none"),
        new.turns,
        damage_by_side(new)
    );
    let Some(old) = old else { return };
    if old.winner != new.winner || old.turns != new.turns || old.damage != new.damage {
        let _ = writeln!(
            out,
            "  changed: winner {} → {}, turns {} → {}, damage dealt {} → {}",
            old.winner.as_deref().unwrap_or("none"),
            new.winner.as_deref().unwrap_or("none"),
            old.turns,
            new.turns,
            damage_by_side(old),
            damage_by_side(new)
        );
    }
    match old.events.iter().zip(&new.events).position(|(a, b)| a != b) {
        Some(i) => {
            let _ = writeln!(
                out,
                "  first different event (#{i}):\n    was: {}\n    now: {}",
                named(&old.events[i], &old.names),
                named(&new.events[i], &new.names)
            );
        }
        None if old.events.len() != new.events.len() => {
            let _ = writeln!(out, "  the log is {} events long instead of {}", new.events.len(), old.events.len());
        }
        None => {
            let _ = writeln!(out, "  the game is unchanged, event for event");
        }
    }
}
