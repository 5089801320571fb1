//! Model types are words each ruleset declares (`model_types:`): every place a document names one
//! — a model's type, a restriction, a state's immunity, a procedure's list — must name a declared
//! type, or the rule would quietly never apply. An undeclared word is an error at its place, with
//! the declared types as what was expected.

use cav_content::ruleset::Entry;
use cav_format::{self as f, Document, ModelType};

use crate::Cx;
use cav_content::diag::did_you_mean;

/// Check every model type word of the ruleset's documents against its declarations.
pub(crate) fn check(cx: &mut Cx, ruleset_entry: &Entry, ruleset: &f::Ruleset) {
    if ruleset.model_types.len() > usize::from(u8::MAX) {
        cx.error(
            ruleset_entry,
            "/model_types",
            "too-many",
            format!("the ruleset declares {} model types", ruleset.model_types.len()),
            &format!("at most {} model types", u8::MAX),
            None,
        );
    }
    let rs = cx.rs;
    for e in rs.entries() {
        let Some(doc) = e.doc.as_deref() else { continue };
        // Each word with the list it is in and its place there: the pointer is made only for an
        // error (every document of the ruleset passes here on every reload).
        type Words<'d> = Vec<(std::borrow::Cow<'static, str>, Option<usize>, &'d ModelType)>;
        let mut words: Words = Vec::new();
        fn list<'d>(ptr: impl Into<std::borrow::Cow<'static, str>>, types: &'d [ModelType], words: &mut Words<'d>) {
            let ptr = ptr.into();
            for (i, t) in types.iter().enumerate() {
                words.push((ptr.clone(), Some(i), t));
            }
        }
        match doc {
            // (A model's own type: `cards.rs`, which says the ruleset does not play it.)
            Document::ModelState(s) => list("/immune", &s.immune, &mut words),
            Document::ActionType(a) => {
                list("/model_types", &a.model_types, &mut words);
                list("/target_model_types", &a.target_model_types, &mut words);
            }
            Document::SquadType(s) => list("/model_types", &s.model_types, &mut words),
            Document::Terrain(t) => {
                if let Some(s) = &t.shelters {
                    list("/shelters/model_types", &s.model_types, &mut words);
                }
            }
            Document::SpecialAttribute(s) => list("/restriction/model_types", &s.restriction.model_types, &mut words),
            Document::Weapon(w) => list("/restriction/model_types", &w.restriction.model_types, &mut words),
            Document::Upgrade(u) => {
                list("/restriction/model_types", &u.restriction.model_types, &mut words);
                for (j, p) in u.profiles.iter().enumerate() {
                    if let Some(s) = &p.seeks {
                        list(format!("/profiles/{j}/seeks/model_types"), &s.model_types, &mut words);
                    }
                }
            }
            Document::Asset(a) => {
                if let Some(s) = a.attack.as_ref().and_then(|p| p.seeks.as_ref()) {
                    list("/attack/seeks/model_types", &s.model_types, &mut words);
                }
            }
            Document::Strike(s) => {
                if let Some(s) = &s.attack.seeks {
                    list("/attack/seeks/model_types", &s.model_types, &mut words);
                }
            }
            Document::Ruleset(r) if e.id == rs.id => {
                let p = &r.procedures;
                for (j, f) in p.sight.fire_over.iter().enumerate() {
                    list(format!("/procedures/sight/fire_over/{j}/model_types"), &f.model_types, &mut words);
                }
                for (j, c) in p.sight.model_cover.iter().enumerate() {
                    list(format!("/procedures/sight/model_cover/{j}/model_types"), &c.model_types, &mut words);
                }
                if let Some(s) = &p.stomp {
                    list("/procedures/stomp/by", &s.by, &mut words);
                    list("/procedures/stomp/prone", &s.prone, &mut words);
                    list("/procedures/stomp/standing", &s.standing, &mut words);
                }
                if let Some(s) = &p.structure_movement {
                    list("/procedures/structure_movement/model_types", &s.model_types, &mut words);
                }
                if let Some(s) = &p.structure_attacks {
                    list("/procedures/structure_attacks/collapse_removes", &s.collapse_removes, &mut words);
                }
                for (j, c) in p.transport.iter().flat_map(|t| t.carriers.iter()).enumerate() {
                    for t in c.riders.keys() {
                        words.push((format!("/procedures/transport/carriers/{j}/riders/{t}").into(), None, t));
                    }
                }
                if let Some(t) = &p.towing {
                    list("/procedures/towing/tows", &t.tows, &mut words);
                }
                for (j, piece) in p.setup.ambush.iter().flat_map(|a| a.pieces.iter()).enumerate() {
                    list(format!("/procedures/setup/ambush/pieces/{j}/model_types"), &piece.model_types, &mut words);
                }
                if let Some(o) = &p.damage.out_of_action {
                    list("/procedures/damage/out_of_action/model_types", &o.model_types, &mut words);
                }
            }
            _ => {}
        }
        for (list, i, t) in words {
            if cx.type_ix(t).is_some() {
                continue;
            }
            let ptr = match i {
                Some(i) => format!("{list}/{i}"),
                None => list.into_owned(),
            };
            let declared = cx.types.join(", ");
            let hint = did_you_mean(t.id(), cx.types.iter().map(String::as_str));
            cx.error(
                e,
                &ptr,
                "unknown-model-type",
                format!("model type `{t}` is not declared by ruleset `{}` (its `model_types:`)", rs.id),
                &format!("one of the ruleset's model types: {declared}"),
                hint,
            );
        }
    }
}
