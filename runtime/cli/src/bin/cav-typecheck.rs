//! `cav-typecheck`: Luau's own type checker (`Luau.Analysis`, what luau-lsp is built on, through
//! the `luau-analyze` crate: strict mode, the new solver) for `cav validate`, in a process of its
//! own. It cannot live in `cav`: the checker bundles its own build of Luau, whose symbols clash
//! with the sandbox's (mlua's) at link time. A process of its own also keeps a crash of the C++
//! checker on a hostile script out of `cav`.
//!
//! Reads one JSON request on stdin — `{"definitions": "...", "definitions_id": "...", "timeout_ms":
//! N, "modules": [{"name": "...", "source": "..."}]}` — and writes one JSON answer on stdout: `{"modules": [{"errors":
//! [{"line", "col", "end_line", "end_col", "message"}], "timed_out": bool, "module_state": [{"line",
//! "col", "name", "kept"}]}]}` (type errors at 0-based positions, the state a module keeps of its
//! own — `cav_script::module_state` — at 1-based ones; one entry per module in order), or
//! `{"error": "..."}`. Not meant to be run by hand.
//!
//! With `--serve` (`cav watch`, which checks again on every save) it says `{"serving":true}`,
//! then answers one request per line until its stdin closes, keeping a checker per set of
//! definitions (a ruleset's; up to 8) by their `definitions_id`: a request for one it keeps need
//! not carry the definitions (~80 kB), and a save checks the module it changed without paying
//! the process's start and the definitions' load again (~25 ms). A request naming definitions it
//! does not keep, without them, is answered `{"error": ..., "unknown_definitions": true}`. (Which
//! modules need checking again is `cav`'s to know: it keeps the answers.)

use std::io::Read;

use serde_json::{Value, json};

/// A checker with its definitions loaded (`--serve`), known by their id (else their text).
struct Kept {
    id: String,
    checker: luau_analyze::Checker,
}

/// Checkers kept at most: one per ruleset's definitions (a reload checks every ruleset in turn).
const KEPT_CHECKERS: usize = 8;

fn answer(request: &Value, kept: &mut Vec<Kept>) -> Result<Value, String> {
    let definitions = request["definitions"].as_str();
    let id = request["definitions_id"].as_str().or(definitions).ok_or("no `definitions`")?;
    let timeout = std::time::Duration::from_millis(request["timeout_ms"].as_u64().unwrap_or(20_000));
    let at = match (kept.iter().position(|k| k.id == id), definitions) {
        (Some(at), _) => at,
        (None, None) => return Err(UNKNOWN_DEFINITIONS.to_owned()),
        (None, Some(definitions)) => {
            let mut checker = luau_analyze::Checker::new().map_err(|e| e.to_string())?;
            checker.add_definitions(definitions).map_err(|e| format!("the hook definitions do not load: {e}"))?;
            if kept.len() >= KEPT_CHECKERS {
                kept.remove(0);
            }
            kept.push(Kept { id: id.to_owned(), checker });
            kept.len() - 1
        }
    };
    let checker = &mut kept[at].checker;
    let mut out = Vec::new();
    for m in request["modules"].as_array().ok_or("no `modules`")? {
        let source = m["source"].as_str().ok_or("a module without `source`")?;
        let opts = luau_analyze::CheckOptions {
            timeout: Some(timeout),
            module_name: m["name"].as_str(),
            cancellation_token: None,
        };
        let r = checker.check_with_options(source, opts).map_err(|e| e.to_string())?;
        let errors: Vec<Value> = r
            .errors()
            .iter()
            .map(|d| {
                json!({"line": d.line, "col": d.col, "end_line": d.end_line, "end_col": d.end_col, "message": d.message})
            })
            .collect();
        // Here too, not in `cav`: the parse behind it recurses as deep as the module nests.
        let state: Vec<Value> = cav_content::module_state::module_state(source)
            .into_iter()
            .map(|f| json!({"line": f.line, "col": f.col, "name": f.name, "kept": f.kept.word()}))
            .collect();
        let timed_out = r.timed_out || r.cancelled;
        out.push(json!({"errors": errors, "timed_out": timed_out, "module_state": state}));
    }
    Ok(json!({ "modules": out }))
}

/// The error of a request that names definitions by an id the checker does not keep.
const UNKNOWN_DEFINITIONS: &str = "definitions not known by this id: send them";

fn reply(input: &str, kept: &mut Vec<Kept>) -> Value {
    serde_json::from_str::<Value>(input)
        .map_err(|e| e.to_string())
        .and_then(|r| answer(&r, kept))
        .unwrap_or_else(|e| json!({ "error": e, "unknown_definitions": e == UNKNOWN_DEFINITIONS }))
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--serve") {
        let mut kept = Vec::new();
        // Said first, so that `cav` knows it is served (a checker without `--serve` would wait
        // for the end of its input instead).
        println!("{}", json!({ "serving": true }));
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            println!("{}", reply(&line, &mut kept));
        }
        return;
    }
    let mut input = String::new();
    let reply = match std::io::stdin().read_to_string(&mut input) {
        Ok(_) => reply(&input, &mut Vec::new()),
        Err(e) => json!({ "error": e.to_string() }),
    };
    println!("{reply}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checker kept between requests answers a module's new source, not the one it checked
    /// before under the same name, and answers again what it answered.
    #[test]
    fn a_kept_checker_checks_each_source_afresh() {
        let defs = "declare function twice(x: number): number\n";
        let request = |source: &str| {
            json!({"definitions": defs, "timeout_ms": 20_000, "modules": [{"name": "m", "source": source}]}).to_string()
        };
        let bad = "--!strict\nlocal s: string = twice(1)\nreturn s\n";
        let good = "--!strict\nlocal n: number = twice(1)\nreturn n\n";
        let errors = |v: &Value| v["modules"][0]["errors"].as_array().map_or(usize::MAX, Vec::len);
        let mut kept = Vec::new();
        let alone = [reply(&request(bad), &mut Vec::new()), reply(&request(good), &mut Vec::new())];
        assert!(errors(&alone[0]) > 0 && errors(&alone[1]) == 0, "{alone:?}");
        for source in [bad, good, bad, good] {
            let one = reply(&request(source), &mut Vec::new());
            assert_eq!(reply(&request(source), &mut kept), one, "{source}");
        }
    }

    /// Definitions sent once with an id are known by it: later requests name them alone, and a
    /// request naming an id the checker does not keep is told so, not checked against nothing.
    #[test]
    fn definitions_are_known_by_their_id() {
        let defs = "declare function twice(x: number): number
";
        let bad = json!({"name": "m", "source": "--!strict\nlocal s: string = twice(1)\nreturn s\n"});
        let with = json!({"definitions": defs, "definitions_id": "d1", "modules": [bad]}).to_string();
        let by_id = json!({"definitions_id": "d1", "modules": [bad]}).to_string();
        let other = json!({"definitions_id": "d2", "modules": [bad]}).to_string();
        let mut kept = Vec::new();
        let unknown = reply(&by_id, &mut kept);
        assert_eq!(unknown["unknown_definitions"], true, "{unknown}");
        let first = reply(&with, &mut kept);
        assert!(first["modules"][0]["errors"].as_array().is_some_and(|e| !e.is_empty()), "{first}");
        assert_eq!(reply(&by_id, &mut kept), first);
        assert_eq!(reply(&other, &mut kept)["unknown_definitions"], true);
    }
}
