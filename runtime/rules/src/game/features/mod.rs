//! The features of play a ruleset may have beside the turn's core (draw deck, activations,
//! actions, rolls, damage): C3 points, held assets, missiles, laid terrain, structures,
//! missions… Each is one module here holding its procedures and a [`Feature`] that says at which
//! moments of the turn it acts; [`ALL`] registers them, in the order they act at a moment.
//!
//! Adding a feature: a new file here with its `impl Feature` and one line in [`ALL`]
//! (`a_feature_is_registered` fails for a file that is not listed).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, Controller, Engine, EngineError};
use crate::compile::Rules;
use crate::geom::P;

pub(crate) mod c3;
mod clouds;
mod deployment;
mod emplacements;
mod flight;
pub(crate) mod held_assets;
pub(crate) mod laid_terrain;
pub(crate) mod minefields;
pub(crate) mod missiles;
pub mod missions;
mod objectives;
pub(crate) mod seekers;
pub mod structures;
mod transport;

/// Every feature, one line each, in the order they act at any one moment (the order of the
/// rulebook's procedures where it gives one: a weapon emplacement's action points are capped
/// before a C3 point motivates it; containers score before objective areas).
pub const ALL: &[&dyn Feature] = &[
    &emplacements::Emplacements,
    &c3::C3,
    &held_assets::HeldAssets,
    &deployment::Deployment,
    &missiles::Missiles,
    &flight::Flight,
    &clouds::Clouds,
    &laid_terrain::LaidTerrain,
    &transport::Transport,
    &seekers::Seekers,
    &missions::Missions,
    &structures::Structures,
    &minefields::Minefields,
    &objectives::Objectives,
];

/// A feature: what it is called, whether a ruleset has it, and what it does at each moment of
/// the turn (by default nothing). The engine calls the moments of the features the game's rules
/// have ([`enabled`](Self::enabled)), in [`ALL`]'s order.
pub trait Feature: Sync {
    /// Its word in the vocabulary: what a ruleset's `features:` lists.
    fn word(&self) -> cav_format::vocab::Feature;
    /// Whether the game's rules give it anything to do (a ruleset without `c3:` has no C3 points
    /// to spend); asked only of a feature the ruleset's `features:` lists, or of every one where
    /// it has no list.
    fn enabled(&self, _rules: &Rules) -> bool {
        true
    }
    /// What in the rules configures it, if anything (`procedures.flight`): a ruleset whose
    /// `features:` leaves the feature out while its data configures it is an error, so that data
    /// never goes quietly unplayed.
    fn configured_by(&self, _rules: &Rules) -> Option<&'static str> {
        None
    }
    /// A turn starts: after the turn count goes up and marks lasting a turn end, before the draw
    /// deck is built.
    fn turn_start(&self, _e: &mut Engine) -> Result<(), EngineError> {
        Ok(())
    }
    /// This turn's draw deck is built (not yet shuffled): the feature may add cards.
    fn deck_built(&self, _e: &mut Engine, _deck: &mut Vec<super::Card>) {}
    /// The card `deck[at]` is about to be drawn.
    fn card_drawn(&self, _e: &mut Engine, _deck: &mut Vec<super::Card>, _at: usize, _ctrl: &mut dyn Controller) {}
    /// Squad `squad` begins its activation: a model that joins it (activating with it), if any.
    fn squad_activates(&self, _e: &mut Engine, _squad: usize, _ctrl: &mut dyn Controller) -> Option<usize> {
        None
    }
    /// `model` is about to activate: before its action points are reckoned.
    fn before_activation(&self, _e: &mut Engine, _model: usize, _ctrl: &mut dyn Controller) {}
    /// `model`'s activation starts (its base action points reckoned, before the `activation` hook).
    fn activation_start(&self, _e: &mut Engine, _model: usize) {}
    /// The action points `model` has for this activation, given `ap`.
    fn action_points(&self, _e: &mut Engine, _model: usize, ap: u32, _ctrl: &mut dyn Controller) -> u32 {
        ap
    }
    /// `model` activates with `ap` action points (which the feature may change): after the
    /// `activation` event and the states that end as it begins.
    fn activated(
        &self,
        _e: &mut Engine,
        _model: usize,
        _ap: &mut u32,
        _ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        Ok(())
    }
    /// `model` declared `action` (the rules accepted it), which counts as `counts_as`; nothing of
    /// it has happened yet.
    fn action_declared(&self, _e: &mut Engine, _model: usize, _action: &Action, _counts_as: ActionWord) {}
    /// `model`'s action resolved; its path of this activation grew from index `path_from`.
    fn action_resolved(
        &self,
        _e: &mut Engine,
        _model: usize,
        _path_from: usize,
        _ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        Ok(())
    }
    /// `model` moved (one leg of a move) from `from` to `to`.
    fn model_moved(&self, _e: &mut Engine, _model: usize, _from: P, _to: P) -> Result<(), EngineError> {
        Ok(())
    }
    /// `model`'s activation is ending: before the states of moving or standing still.
    fn activation_ending(&self, _e: &mut Engine, _model: usize) {}
    /// `model`'s activation ended (its damage landed, mission kills counted).
    fn activation_end(&self, _e: &mut Engine, _model: usize) {}
    /// The end phase: after the `end_phase` handlers, before single-use mounts are spent.
    fn end_phase(&self, _e: &mut Engine) -> Result<(), EngineError> {
        Ok(())
    }
    /// The turn ends: after single-use mounts are spent, before the states lasting a turn end.
    fn turn_end(&self, _e: &mut Engine) -> Result<(), EngineError> {
        Ok(())
    }
    /// Scoring, last of the turn (after the states lasting the turn ended).
    fn scoring(&self, _e: &mut Engine) {}
}

/// The features `rules` has, as a set of indices into [`ALL`]: those its `features:` lists (all
/// without a list) that its data gives something to do.
pub(crate) fn enabled(rules: &Rules) -> u32 {
    let listed = |f: &dyn Feature| rules.features.as_ref().is_none_or(|l| l.contains(&f.word()));
    ALL.iter().enumerate().filter(|(_, f)| listed(**f) && f.enabled(rules)).fold(0, |set, (i, _)| set | 1 << i)
}

/// The features of a set, in [`ALL`]'s order.
pub(crate) fn each(set: u32) -> impl Iterator<Item = &'static dyn Feature> {
    ALL.iter().enumerate().filter(move |(i, _)| set & (1 << i) != 0).map(|(_, f)| *f)
}

#[cfg(test)]
mod tests {
    /// Every module of this folder registers its feature in `ALL` (a feature left out would never
    /// act: a rule quietly not applied).
    #[test]
    fn a_feature_is_registered() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game/features");
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            if name == "mod" {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let feature = text
                .lines()
                .find_map(|l| l.strip_prefix("impl Feature for ").and_then(|r| r.strip_suffix(" {")))
                .unwrap_or_else(|| panic!("{name}.rs has no `impl Feature for …`"));
            let line = format!("&{name}::{feature},");
            let listed = include_str!("mod.rs").lines().filter(|l| l.trim() == line).count();
            assert_eq!(listed, 1, "{name}.rs: `{line}` must be listed once in features::ALL");
        }
        assert_eq!(files, super::ALL.len(), "one file per feature");
        // One feature per word of the vocabulary, and the other way round.
        let words: Vec<_> = super::ALL.iter().map(|f| f.word()).collect();
        let mut unique = words.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), words.len(), "one feature per word");
        for w in cav_format::vocab::Feature::ALL {
            assert!(words.contains(w), "the vocabulary's feature `{w}` has no module in game/features");
        }
        assert!(super::ALL.len() <= 32, "the enabled set is a u32");
    }
}
