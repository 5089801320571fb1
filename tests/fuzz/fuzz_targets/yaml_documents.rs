//! Any text as one content file: YAML with spans → every document validated against its kind's
//! schema → decoded → diagnostics rendered. Nothing may panic, overflow or run away.
#![no_main]

use std::sync::{Arc, OnceLock};

use cav_content::diag::{FileId, Sources, render_human, to_json};
use cav_content::schema::Validators;
use cav_format::{DocKind, Document};
use libfuzzer_sys::fuzz_target;

fn validators() -> &'static Validators {
    static V: OnceLock<Validators> = OnceLock::new();
    V.get_or_init(Validators::new)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut sources = Sources::default();
    let file = sources.add(std::path::Path::new("fuzz.yaml"), Arc::from(text));
    let mut diags = match cav_content::yaml::parse(text, file) {
        Ok(docs) => {
            let mut diags = Vec::new();
            for doc in docs {
                let Some(kind) = doc.value.get("kind").and_then(|k| k.as_str()).and_then(DocKind::from_tag) else {
                    continue;
                };
                let value = cav_content::ruleset::strip_meta((*doc.value).clone());
                if validators().check(kind, &value, &doc.prov, "fuzz", &mut diags) {
                    let _ = Document::decode(kind, value);
                }
            }
            diags
        }
        Err(diags) => diags,
    };
    let _ = FileId(0);
    cav_content::diag::normalise(&mut diags, &sources);
    let _ = render_human(&diags, &sources);
    let _ = to_json(&diags, &sources);
});
