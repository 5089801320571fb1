//! The features of play a ruleset may have beside the turn's core (draw deck, activations,
//! actions, rolls, damage): C3 points, held assets, missiles, laid terrain, structures,
//! missions… Each is one module here holding its procedures and a [`Feature`] that says at which
//! moments of the turn it acts; [`ALL`] registers them, in the order they act at a moment.
//!
//! Adding a feature: a new file here with its `static … : Feature` and one line in [`ALL`]
//! (`a_feature_is_registered` fails for a file that is not listed).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, Controller, Engine, EngineError};
use crate::compile::Rules;
use crate::geom::P;

/// A struct of what features keep, whose `clone_from` keeps the buffers it holds field by field
/// (`Game::copy_from`, which the odds call once per die sequence).
macro_rules! kept {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $f:ident: $t:ty,)* }) => {
        $(#[$m])*
        #[derive(Debug, Default)]
        pub struct $name { $($(#[$fm])* pub $f: $t,)* }
        impl Clone for $name {
            fn clone(&self) -> Self {
                $name { $($f: self.$f.clone(),)* }
            }
            fn clone_from(&mut self, src: &Self) {
                $(self.$f.clone_from(&src.$f);)*
            }
        }
    };
}

pub(crate) mod c3;
mod clouds;
mod coherency;
pub(crate) mod deployment;
mod emplacements;
pub(crate) mod flight;
pub(crate) mod held_assets;
pub(crate) mod laid_terrain;
pub(crate) mod minefields;
pub(crate) mod missiles;
pub mod missions;
mod objectives;
pub(crate) mod seekers;
pub(crate) mod strikes;
pub mod structures;
pub(crate) mod transport;
pub(crate) mod unit_damage;

/// Every feature, one line each, in the order they act at any one moment (the order of the
/// rulebook's procedures where it gives one: a weapon emplacement's action points are capped
/// before a C3 point motivates it; containers score before objective areas).
pub static ALL: &[&Feature] = &[
    &emplacements::EMPLACEMENTS,
    &c3::C3,
    &held_assets::HELD_ASSETS,
    &deployment::DEPLOYMENT,
    &strikes::STRIKES,
    &missiles::MISSILES,
    &flight::FLIGHT,
    &clouds::CLOUDS,
    &laid_terrain::LAID_TERRAIN,
    &transport::TRANSPORT,
    &seekers::SEEKERS,
    &missions::MISSIONS,
    &structures::STRUCTURES,
    &unit_damage::UNIT_DAMAGE,
    &coherency::COHERENCY,
    &minefields::MINEFIELDS,
    &objectives::OBJECTIVES,
];

type Step = Result<(), EngineError>;

kept! {
    /// What the features keep during a game (`Game::features`), each part its feature's own type.
    pub struct Kept {
        pub c3: c3::Kept,
        pub held_assets: held_assets::Kept,
        pub deployment: deployment::Kept,
        pub strikes: strikes::Kept,
        pub missions: missions::Kept,
        pub structures: structures::Kept,
        pub minefields: minefields::Kept,
        pub seekers: seekers::Kept,
    }
}

impl Kept {
    /// Nothing kept yet, for a game of `sides` sides.
    pub fn new(sides: usize) -> Kept {
        Kept {
            c3: c3::Kept { pool: vec![0; sides], inspired: false },
            held_assets: held_assets::Kept { held: vec![Vec::new(); sides], skipped_in_turn: vec![0; sides] },
            deployment: deployment::Kept { ambush_pieces: vec![Vec::new(); sides], ..Default::default() },
            strikes: strikes::Kept { pools: vec![Default::default(); sides] },
            ..Kept::default()
        }
    }
}

/// What the features keep on a model (`Model::features`), each part its feature's own type.
#[derive(Debug, Clone, Default)]
pub struct OnModel {
    pub flight: flight::OnModel,
    pub transport: transport::OnModel,
    pub missiles: missiles::OnModel,
}

/// Whether any attack of the rules — a card's weapon, a strike's, a munition's profile — is one
/// `mount` or `profile` says (what configures a feature such as clouds).
/// Whether some weapon mount, strike or munition profile of the rules has `mount`/`profile`.
pub fn any_attack(
    rules: &Rules,
    mount: impl Fn(&crate::compile::MountDef) -> bool,
    profile: impl Fn(&crate::compile::ProfileDef) -> bool,
) -> bool {
    rules.cards.iter().flat_map(|c| &c.weapons).any(&mount)
        || rules.strikes.iter().any(|s| mount(&s.mount))
        || rules.upgrades.iter().flat_map(|u| &u.profiles).any(profile)
}

/// A feature: its word, whether the rules give it anything to do, and what it does at the
/// moments of the turn it acts at (`None`: nothing). A feature's module declares it as a
/// `static` with `..Feature::new(word)` for the moments it leaves alone; the engine calls, at
/// each moment, only the features that act there ([`Schedule`]).
// (Each field's type is its moment's signature, spelt out where it is documented.)
#[allow(clippy::type_complexity)]
pub struct Feature {
    /// Its word in the vocabulary: what a ruleset's `features:` lists.
    pub word: cav_format::vocab::Feature,
    /// Whether the game's rules give it anything to do (a ruleset without `c3:` has no C3 points
    /// to spend); asked only of a feature the ruleset's `features:` lists, or of every one where
    /// it has no list.
    pub enabled: fn(&Rules) -> bool,
    /// What in the rules configures it, if anything (`procedures.flight`): a ruleset whose
    /// `features:` leaves the feature out while its data configures it is an error, so that data
    /// never goes quietly unplayed.
    pub configured_by: fn(&Rules) -> Option<&'static str>,
    /// A turn starts: after the turn count goes up and marks lasting a turn end, before the draw
    /// deck is built.
    pub turn_start: Option<fn(&mut Engine) -> Step>,
    /// This turn's draw deck is built (not yet shuffled): the feature may add cards.
    pub deck_built: Option<fn(&mut Engine, &mut Vec<super::Card>)>,
    /// The card `deck[at]` is about to be drawn.
    pub card_drawn: Option<fn(&mut Engine, &mut Vec<super::Card>, usize, &mut dyn Controller)>,
    /// Squad `squad` begins its activation, before any of its models acts: a model that joins it
    /// (activating with it), if any.
    pub squad_activates: Option<fn(&mut Engine, usize, &mut dyn Controller) -> Result<Option<usize>, EngineError>>,
    /// A model is about to activate: before its action points are reckoned.
    pub before_activation: Option<fn(&mut Engine, usize, &mut dyn Controller)>,
    /// A model's activation starts (its base action points reckoned, before the `activation` hook).
    pub activation_start: Option<fn(&mut Engine, usize)>,
    /// The action points a model has for this activation, given those reckoned so far.
    pub action_points: Option<fn(&mut Engine, usize, u32, &mut dyn Controller) -> u32>,
    /// A model activates with the action points given (which the feature may change): after the
    /// `activation` event and the states that end as it begins.
    pub activated: Option<fn(&mut Engine, usize, &mut u32, &mut dyn Controller) -> Step>,
    /// A model declared an action (the rules accepted it), which counts as the word given;
    /// nothing of it has happened yet.
    pub action_declared: Option<fn(&mut Engine, usize, &Action, ActionWord)>,
    /// A model's action resolved; its path of this activation grew from the index given.
    pub action_resolved: Option<fn(&mut Engine, usize, usize, &mut dyn Controller) -> Step>,
    /// An action that moves a model to a point (`ActionKind::moves_to`) is being declared,
    /// before anything of it happens: the feature may refuse it (the reason). The last argument
    /// is how many times its move value the move may go (a ruleset's own move: a run).
    pub move_declared: Option<fn(&super::Game, usize, P, f64) -> Result<(), String>>,
    /// A model moved (one leg of a move) along a route: where it began, each hex centre it
    /// passed on a hex board (a move there bends), where it stopped.
    pub model_moved: Option<fn(&mut Engine, usize, &[P]) -> Step>,
    /// A model's activation is ending: before the states of moving or standing still.
    pub activation_ending: Option<fn(&mut Engine, usize)>,
    /// A model's activation ended (its damage landed, mission kills counted).
    pub activation_end: Option<fn(&mut Engine, usize)>,
    /// Squad `squad`'s activation ended (per-squad rules): after its models' attacks landed.
    pub squad_activation_end: Option<fn(&mut Engine, usize) -> Step>,
    /// The end phase: after the `end_phase` handlers, before single-use mounts are spent.
    pub end_phase: Option<fn(&mut Engine) -> Step>,
    /// The turn ends: after single-use mounts are spent, before the states lasting a turn end.
    pub turn_end: Option<fn(&mut Engine) -> Step>,
    /// Scoring, last of the turn (after the states lasting the turn ended).
    pub scoring: Option<fn(&mut Engine)>,
}

impl Feature {
    /// A feature called `word` that is always enabled, configured by nothing, and acts at no
    /// moment: what a feature's `static` starts from.
    pub const fn new(word: cav_format::vocab::Feature) -> Feature {
        Feature {
            word,
            enabled: |_| true,
            configured_by: |_| None,
            turn_start: None,
            deck_built: None,
            card_drawn: None,
            squad_activates: None,
            before_activation: None,
            activation_start: None,
            action_points: None,
            activated: None,
            action_declared: None,
            action_resolved: None,
            move_declared: None,
            model_moved: None,
            activation_ending: None,
            activation_end: None,
            squad_activation_end: None,
            end_phase: None,
            turn_end: None,
            scoring: None,
        }
    }
}

/// For each moment of the turn, the features of this game that act there (sets of indices into
/// [`ALL`]): made once per game, so a moment no enabled feature acts at costs nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Schedule {
    pub turn_start: u32,
    pub deck_built: u32,
    pub card_drawn: u32,
    pub squad_activates: u32,
    pub before_activation: u32,
    pub activation_start: u32,
    pub action_points: u32,
    pub activated: u32,
    pub action_declared: u32,
    pub action_resolved: u32,
    pub move_declared: u32,
    pub model_moved: u32,
    pub activation_ending: u32,
    pub activation_end: u32,
    pub squad_activation_end: u32,
    pub end_phase: u32,
    pub turn_end: u32,
    pub scoring: u32,
}

impl Schedule {
    /// The schedule of `rules`: the features its `features:` lists (all without a list) that its
    /// data gives something to do, at the moments each acts at.
    pub(crate) fn of(rules: &Rules) -> Schedule {
        let mut s = Schedule::default();
        for (i, f) in ALL.iter().enumerate() {
            let listed = rules.features.as_ref().is_none_or(|l| l.contains(&f.word));
            if !listed || !(f.enabled)(rules) {
                continue;
            }
            let bit = 1 << i;
            let at = |acts: bool, moment: &mut u32| {
                if acts {
                    *moment |= bit;
                }
            };
            at(f.turn_start.is_some(), &mut s.turn_start);
            at(f.deck_built.is_some(), &mut s.deck_built);
            at(f.card_drawn.is_some(), &mut s.card_drawn);
            at(f.squad_activates.is_some(), &mut s.squad_activates);
            at(f.before_activation.is_some(), &mut s.before_activation);
            at(f.activation_start.is_some(), &mut s.activation_start);
            at(f.action_points.is_some(), &mut s.action_points);
            at(f.activated.is_some(), &mut s.activated);
            at(f.action_declared.is_some(), &mut s.action_declared);
            at(f.action_resolved.is_some(), &mut s.action_resolved);
            at(f.move_declared.is_some(), &mut s.move_declared);
            at(f.model_moved.is_some(), &mut s.model_moved);
            at(f.activation_ending.is_some(), &mut s.activation_ending);
            at(f.activation_end.is_some(), &mut s.activation_end);
            at(f.squad_activation_end.is_some(), &mut s.squad_activation_end);
            at(f.end_phase.is_some(), &mut s.end_phase);
            at(f.turn_end.is_some(), &mut s.turn_end);
            at(f.scoring.is_some(), &mut s.scoring);
        }
        s
    }
}

/// The features of a set, in [`ALL`]'s order.
pub(crate) fn each(set: u32) -> Each {
    Each(set)
}

/// The features of a set of indices into [`ALL`], lowest first.
pub(crate) struct Each(u32);

impl Iterator for Each {
    type Item = &'static Feature;

    #[inline]
    fn next(&mut self) -> Option<&'static Feature> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        ALL.get(i).copied()
    }
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
                .find_map(|l| l.strip_prefix("pub(crate) static ").and_then(|r| r.split_once(": Feature =")))
                .map(|(static_name, _)| static_name)
                .unwrap_or_else(|| panic!("{name}.rs declares no `pub(crate) static …: Feature`"));
            let line = format!("&{name}::{feature},");
            let listed = include_str!("mod.rs").lines().filter(|l| l.trim() == line).count();
            assert_eq!(listed, 1, "{name}.rs: `{line}` must be listed once in features::ALL");
        }
        assert_eq!(files, super::ALL.len(), "one file per feature");
        // One feature per word of the vocabulary, and the other way round.
        let words: Vec<_> = super::ALL.iter().map(|f| f.word).collect();
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
