//! Diagnostics: every problem the loader finds, located by file:line:col, pack and JSON pointer,
//! with what was expected and a hint. Rendered for humans (source line and caret, via
//! codespan-reporting) or as JSON for tools.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cav_format::DocKind;
use cav_format::limits::{MAX_DIAGNOSTICS, MAX_SNIPPET_LINE};
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use serde::Serialize;

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FileId(pub u32);

/// A position: 1-based line, 1-based column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A located span in a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: FileId,
    pub start: Pos,
    pub end: Pos,
}

impl Loc {
    /// `file:line:col` as diagnostics show it, for naming a second place in a message (the
    /// first definition of a duplicate id).
    pub fn show(&self, sources: &Sources) -> String {
        format!("{}:{}:{}", sources.get(self.file).display, self.start.line, self.start.col)
    }
}

/// One file read by the loader, kept for rendering diagnostics and for `--explain`.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Path as shown to the user (relative to the working directory when possible).
    pub display: String,
    pub text: Arc<str>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// Byte offset of a position (columns count characters, as the YAML parser does).
    pub fn offset(&self, pos: Pos) -> usize {
        let line = (pos.line.max(1) - 1) as usize;
        let Some(&start) = self.line_starts.get(line) else {
            return self.text.len();
        };
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.text.len());
        let line_text = &self.text[start..end];
        let col = (pos.col.max(1) - 1) as usize;
        start + line_text.char_indices().nth(col).map_or(line_text.len(), |(b, _)| b)
    }
}

/// All files read in one load. The files are shared: a copy of the sources (each load's, in
/// watch mode) copies a pointer per file.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    files: Vec<Arc<SourceFile>>,
}

impl Sources {
    pub fn add(&mut self, path: &Path, text: Arc<str>) -> FileId {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let display = display_path(path);
        self.files.push(Arc::new(SourceFile { path: path.to_owned(), display, text, line_starts }));
        FileId(self.files.len() as u32 - 1)
    }

    /// Add a file of other sources, shared.
    pub fn add_shared(&mut self, file: &Arc<SourceFile>) -> FileId {
        self.files.push(file.clone());
        FileId(self.files.len() as u32 - 1)
    }

    /// The file, to share with other sources ([`Sources::add_shared`]).
    pub fn shared(&self, id: FileId) -> &Arc<SourceFile> {
        &self.files[id.0 as usize]
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Show paths relative to the working directory where possible, so output is stable.
pub fn display_path(path: &Path) -> String {
    let rel = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf());
    rel.to_string_lossy().replace('\\', "/")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found while loading content.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable machine-readable class, e.g. `unknown-field`, `dangling-ref`.
    pub code: &'static str,
    pub message: String,
    pub pack: Option<String>,
    /// Where the problem is; a file without a position when none is known.
    pub loc: Option<Loc>,
    pub file: Option<FileId>,
    /// Path for problems in files that could not be read into [`Sources`].
    pub path: Option<String>,
    /// JSON pointer of the offending value inside its document.
    pub pointer: Option<String>,
    pub expected: Option<String>,
    pub hint: Option<String>,
    /// A dangling reference's missing document (kind, id): the loader looks for it in the other
    /// rulesets of the run to say which pack has it.
    pub missing: Option<(DocKind, String)>,
    /// Found because of this run's moment or machine, not the content (a checker that could not
    /// run or finish): a result holding one is not cached.
    pub transient: bool,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            pack: None,
            loc: None,
            file: None,
            path: None,
            pointer: None,
            expected: None,
            hint: None,
            missing: None,
            transient: false,
        }
    }
    /// See [`Diagnostic::transient`].
    pub fn transient(mut self) -> Self {
        self.transient = true;
        self
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }
    pub fn at(mut self, loc: Option<Loc>) -> Self {
        if let Some(l) = loc {
            self.file = Some(l.file);
        }
        self.loc = loc;
        self
    }
    pub fn in_file(mut self, file: FileId) -> Self {
        self.file = Some(file);
        self
    }
    pub fn path(mut self, path: &Path) -> Self {
        self.path = Some(display_path(path));
        self
    }
    pub fn pack(mut self, pack: impl Into<String>) -> Self {
        self.pack = Some(pack.into());
        self
    }
    pub fn pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }
    pub fn expected(mut self, e: impl Into<String>) -> Self {
        self.expected = Some(e.into());
        self
    }
    pub fn hint(mut self, h: Option<String>) -> Self {
        self.hint = h;
        self
    }

    pub fn missing(mut self, kind: DocKind, id: &str) -> Self {
        self.missing = Some((kind, id.to_owned()));
        self
    }

    /// `file:line:col` (or just the file) for one-line output.
    pub fn location(&self, sources: &Sources) -> String {
        match (self.loc, self.file, &self.path) {
            (Some(l), _, _) => l.show(sources),
            (None, Some(f), _) => sources.get(f).display.clone(),
            (None, None, Some(p)) => p.clone(),
            _ => "<no file>".into(),
        }
    }

    /// Sort key: file order, then position, so output is stable.
    fn sort_key(&self, sources: &Sources) -> (String, Pos, String) {
        let file = match (self.file, &self.path) {
            (Some(f), _) => sources.get(f).display.clone(),
            (None, Some(p)) => p.clone(),
            _ => String::new(),
        };
        (file, self.loc.map(|l| l.start).unwrap_or_default(), self.message.clone())
    }
}

/// Deduplicate (one file can be loaded into several rulesets) and sort diagnostics.
pub fn normalise(diags: &mut Vec<Diagnostic>, sources: &Sources) {
    let mut seen = std::collections::HashSet::new();
    diags.retain(|d| seen.insert((d.loc, d.file, d.path.clone(), d.code, d.message.clone())));
    diags.sort_by_cached_key(|d| d.sort_key(sources));
}

/// Human rendering: rustc-style header, the source line with a caret, then notes.
pub fn render_human(diags: &[Diagnostic], sources: &Sources) -> String {
    let mut files: SimpleFiles<String, Arc<str>> = SimpleFiles::new();
    let ids: Vec<usize> = (0..sources.len())
        .map(|i| {
            let f = sources.get(FileId(i as u32));
            files.add(shown(&f.display), snippet_text(&f.text))
        })
        .collect();
    let config = term::Config::default();
    let mut out = String::new();
    let (diags, more) = capped(diags);
    for d in diags {
        let mut cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        }
        .with_code(d.code)
        .with_message(shown(&d.message));
        // A line too long to show (minified or hostile files) is named, not printed.
        let loc = d.loc.filter(|l| line_len(sources.get(l.file), l.start) <= MAX_SNIPPET_LINE);
        if let Some(l) = loc {
            let f = sources.get(l.file);
            let start = f.offset(l.start);
            let end = f.offset(l.end).max(start + usize::from(start < f.text.len()));
            let end = line_end(f, start, end);
            cs = cs.with_labels(vec![
                Label::primary(ids[l.file.0 as usize], start..end)
                    .with_message(d.expected.as_ref().map(|e| shown(&format!("expected {e}"))).unwrap_or_default()),
            ]);
        }
        let mut notes = Vec::new();
        if loc.is_none() {
            notes.push(format!("in {}", d.location(sources)));
        }
        if let Some(p) = &d.pack {
            notes.push(format!("pack: {p}"));
        }
        if let Some(p) = &d.pointer {
            notes.push(format!("at: {}", if p.is_empty() { "/" } else { p }));
        }
        if loc.is_none()
            && let Some(e) = &d.expected
        {
            notes.push(format!("expected {e}"));
        }
        if let Some(h) = &d.hint {
            notes.push(format!("help: {h}"));
        }
        cs = cs.with_notes(notes.iter().map(|n| shown(n)).collect());
        match term::emit_into_string(&config, &files, &cs) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(&format!("{}: {}: {}\n", d.location(sources), d.code, d.message)),
        }
    }
    if let Some(more) = more {
        out.push_str(&format!("note[{TRUNCATED}]: {}\n\n", more.message()));
    }
    out
}

/// Text of a diagnostic as a terminal or a CI log shows it. Parts of it come from packs (ids,
/// values, keys): a control character there could move the cursor, retitle the terminal, or
/// start a line a CI system reads as a command (`::error …` after a newline). Each is shown
/// escaped instead (`\u{1b}`, `\n`), as rustc and ripgrep do (`char::is_control`: the C0 and C1
/// controls and DEL).
pub fn shown(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    text.chars().fold(String::with_capacity(text.len()), |mut out, c| {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        out
    })
}

/// A report of several lines for a terminal (`cav show`): `shown`, but its line ends kept.
pub fn shown_lines(text: &str) -> String {
    text.split('\n').map(shown).collect::<Vec<_>>().join("\n")
}

/// A file's text for the source lines a diagnostic shows: control characters but tab and line
/// ends become `?` of the same byte length, so spans still point where they did and nothing in a
/// pack reaches the terminal as a control sequence.
fn snippet_text(text: &Arc<str>) -> Arc<str> {
    let keep = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r');
    if text.chars().all(keep) {
        return text.clone();
    }
    text.chars().map(|c| if keep(c) { c.to_string() } else { "?".repeat(c.len_utf8()) }).collect::<String>().into()
}

/// Code of the final entry that stands for the diagnostics not shown.
pub const TRUNCATED: &str = "diagnostics-truncated";

/// The diagnostics left out beyond [`MAX_DIAGNOSTICS`].
#[derive(Debug, Clone, Copy)]
pub struct More {
    pub errors: usize,
    pub warnings: usize,
}

impl More {
    pub fn message(&self) -> String {
        format!(
            "… and {} more ({} errors, {} warnings) not shown: at most {MAX_DIAGNOSTICS} diagnostics are shown per run",
            self.errors + self.warnings,
            self.errors,
            self.warnings
        )
    }
}

/// The first [`MAX_DIAGNOSTICS`] of (already sorted) diagnostics, and what was left out. Applied
/// when rendering, so the counts and the exit code still see every diagnostic and the output
/// stays deterministic.
pub fn capped(diags: &[Diagnostic]) -> (&[Diagnostic], Option<More>) {
    if diags.len() <= MAX_DIAGNOSTICS {
        return (diags, None);
    }
    let (shown, rest) = diags.split_at(MAX_DIAGNOSTICS);
    let errors = rest.iter().filter(|d| d.severity == Severity::Error).count();
    (shown, Some(More { errors, warnings: rest.len() - errors }))
}

/// Human rendering of the errors only (commands that play show errors, `validate` shows all).
pub fn render_errors(diags: &[Diagnostic], sources: &Sources) -> String {
    let errors: Vec<Diagnostic> = diags.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
    render_human(&errors, sources)
}

/// Length in bytes of the line holding `pos`.
fn line_len(f: &SourceFile, pos: Pos) -> usize {
    let line = (pos.line.max(1) - 1) as usize;
    let start = f.line_starts.get(line).copied().unwrap_or(f.text.len());
    let end = f.line_starts.get(line + 1).copied().unwrap_or(f.text.len());
    end - start
}

/// Keep a label on one line so the caret sits under the offending value.
fn line_end(f: &SourceFile, start: usize, end: usize) -> usize {
    let nl = f.text[start..].find('\n').map_or(f.text.len(), |i| start + i);
    end.min(nl).max(start)
}

/// JSON rendering for tools: one object per diagnostic.
/// Beyond [`MAX_DIAGNOSTICS`] a final entry of severity `note` and code [`TRUNCATED`] says how
/// many more there were (with `more`, `more_errors` and `more_warnings` counts).
pub fn to_json(diags: &[Diagnostic], sources: &Sources) -> serde_json::Value {
    let (diags, more) = capped(diags);
    let mut items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let file = match (d.file, &d.path) {
                (Some(f), _) => Some(sources.get(f).display.clone()),
                (None, Some(p)) => Some(p.clone()),
                _ => None,
            };
            serde_json::json!({
                "severity": d.severity,
                "code": d.code,
                "message": d.message,
                "file": file,
                "line": d.loc.map(|l| l.start.line),
                "column": d.loc.map(|l| l.start.col),
                "end_line": d.loc.map(|l| l.end.line),
                "end_column": d.loc.map(|l| l.end.col),
                "pack": d.pack,
                "pointer": d.pointer,
                "expected": d.expected,
                "hint": d.hint,
            })
        })
        .collect();
    if let Some(m) = more {
        items.push(serde_json::json!({
            "severity": "note",
            "code": TRUNCATED,
            "message": m.message(),
            "more": m.errors + m.warnings,
            "more_errors": m.errors,
            "more_warnings": m.warnings,
        }));
    }
    serde_json::Value::Array(items)
}

/// Suggest the closest of `candidates` to `wrong`, if one is close enough.
pub fn did_you_mean<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let lw = wrong.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lw, &c.to_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, c)| format!("did you mean `{c}`?"))
}
