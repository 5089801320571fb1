//! `cav-typecheck`: Luau's own type checker (`Luau.Analysis`, what luau-lsp is built on, through
//! the `luau-analyze` crate: strict mode, the new solver) for `cav validate`, in a process of its
//! own. It cannot live in `cav`: the checker bundles its own build of Luau, whose symbols clash
//! with the sandbox's (mlua's) at link time. A process of its own also keeps a crash of the C++
//! checker on a hostile script out of `cav`.
//!
//! Reads one JSON request on stdin — `{"definitions": "...", "timeout_ms": N, "modules": [{"name":
//! "...", "source": "..."}]}` — and writes one JSON answer on stdout: `{"modules": [{"errors":
//! [{"line", "col", "end_line", "end_col", "message"}], "timed_out": bool, "module_state": [{"line",
//! "col", "name", "kept"}]}]}` (type errors at 0-based positions, the state a module keeps of its
//! own — `cav_script::module_state` — at 1-based ones; one entry per module in order), or
//! `{"error": "..."}`. Not meant to be run by hand.

use std::io::Read;

use serde_json::{Value, json};

fn answer(request: &Value) -> Result<Value, String> {
    let definitions = request["definitions"].as_str().ok_or("no `definitions`")?;
    let timeout = std::time::Duration::from_millis(request["timeout_ms"].as_u64().unwrap_or(20_000));
    let mut checker = luau_analyze::Checker::new().map_err(|e| e.to_string())?;
    checker.add_definitions(definitions).map_err(|e| format!("the hook definitions do not load: {e}"))?;
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
        out.push(json!({"errors": errors, "timed_out": r.timed_out || r.cancelled, "module_state": state}));
    }
    Ok(json!({ "modules": out }))
}

fn main() {
    let mut input = String::new();
    let request = std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_str::<Value>(&input).map_err(|e| e.to_string()));
    let reply = request.and_then(|r| answer(&r)).unwrap_or_else(|e| json!({ "error": e }));
    println!("{reply}");
}
