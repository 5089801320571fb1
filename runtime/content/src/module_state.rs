//! Finding the state a module keeps of its own (`script-module-state`): a handler — any function
//! of the module — that assigns a module-level local or a global, or changes a table held in one
//! (`t.k = v`, `t[k] = v`, `table.insert(t, …)`). A module's variables live for one game, and
//! `cav odds` starts each die sequence from fresh modules: what a script remembers belongs in the
//! game's flags (`ctx.set_flag`).
//!
//! The module is parsed with full_moon (Luau syntax) and its names resolved by scope. A table
//! reached another way (a local alias of a module-level table) is not seen: this is a check that
//! says what it can tell, not a proof.

use full_moon::ast::{self, Expression, Prefix, Suffix, Var};
use full_moon::tokenizer::TokenReference;
use full_moon::visitors::Visitor;

/// What a handler changes that outlives its call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// It assigns a local of the module's top level.
    Local,
    /// It assigns a global.
    Global,
    /// It changes a table held in a module-level local or a global.
    Table,
}

impl Kept {
    /// Its word in `cav-typecheck`'s answer.
    pub fn word(self) -> &'static str {
        match self {
            Kept::Local => "local",
            Kept::Global => "global",
            Kept::Table => "table",
        }
    }
}

/// One place a handler keeps state in its module: 1-based line and column of the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub line: usize,
    pub col: usize,
    pub name: String,
    pub kept: Kept,
}

/// The stack, in bytes, the parse and the walk run on: full_moon descends recursively, as deep
/// as the module nests. Luau compiles nesting up to about a thousand levels, which an optimised
/// build walks in this; an unoptimised one may not, which is why `cav validate` runs this in the
/// `cav-typecheck` process, where a crash stops only the script checks (and says so).
const STACK: usize = 64 << 20;

/// Where `source` (Luau that compiles) keeps state in its module; empty if it does not parse.
pub fn module_state(source: &str) -> Vec<Finding> {
    let source = source.to_owned();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, move || {
                let parsed = full_moon::parse_fallible(&source, full_moon::LuaVersion::luau());
                if !parsed.errors().is_empty() {
                    return Vec::new();
                }
                let mut walk = Walk::default();
                walk.visit_ast(parsed.ast());
                walk.found
            })
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    })
}

/// A block's names and the depth of the function it belongs to (0: the module's top level).
struct Scope {
    names: Vec<String>,
    depth: usize,
}

#[derive(Default)]
struct Walk {
    scopes: Vec<Scope>,
    /// Functions entered (0: the top level).
    depth: usize,
    /// Names the next block declares: a function's parameters, a loop's variables.
    pending: Vec<String>,
    /// The next function body is a method's (`function t:m()`): it has `self`.
    method: bool,
    found: Vec<Finding>,
}

/// Where a name resolves.
enum Resolved {
    /// A local of the top level.
    ModuleLocal,
    /// A local of a function (a handler's own, or a parameter).
    FunctionLocal,
    Global,
}

impl Walk {
    fn declare(&mut self, name: &TokenReference) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.push(name.token().to_string());
        }
    }

    fn resolve(&self, name: &str) -> Resolved {
        for scope in self.scopes.iter().rev() {
            if scope.names.iter().any(|n| n == name) {
                return if scope.depth == 0 { Resolved::ModuleLocal } else { Resolved::FunctionLocal };
            }
        }
        Resolved::Global
    }

    /// A write to `name` (itself, or a table it holds) inside a function.
    fn write(&mut self, name: &TokenReference, table: bool) {
        if self.depth == 0 {
            return;
        }
        let text = name.token().to_string();
        let kept = match (self.resolve(&text), table) {
            (Resolved::FunctionLocal, _) => return,
            (_, true) => Kept::Table,
            (Resolved::ModuleLocal, false) => Kept::Local,
            (Resolved::Global, false) => Kept::Global,
        };
        let at = name.token().start_position();
        self.found.push(Finding { line: at.line(), col: at.character(), name: text, kept });
    }

    fn write_var(&mut self, var: &Var) {
        match var {
            Var::Name(name) => self.write(name, false),
            Var::Expression(e) => {
                if let Prefix::Name(name) = e.prefix() {
                    self.write(name, true);
                }
            }
            _ => {}
        }
    }
}

/// `table.insert(t, …)` and the other calls that change their first argument.
fn changes_first_argument(call: &ast::FunctionCall) -> Option<&TokenReference> {
    let Prefix::Name(prefix) = call.prefix() else { return None };
    let mut suffixes = call.suffixes();
    let prefix = prefix.token().to_string();
    let callee = match (prefix.as_str(), suffixes.next()?) {
        ("rawset", Suffix::Call(call)) => Some(call),
        ("table", Suffix::Index(ast::Index::Dot { name, .. })) => {
            let f = name.token().to_string();
            match (["insert", "remove", "clear", "sort"].contains(&f.as_str()), suffixes.next()?) {
                (true, Suffix::Call(call)) => Some(call),
                _ => None,
            }
        }
        _ => None,
    }?;
    let ast::Call::AnonymousCall(ast::FunctionArgs::Parentheses { arguments, .. }) = callee else { return None };
    match arguments.iter().next()? {
        Expression::Var(Var::Name(name)) => Some(name),
        _ => None,
    }
}

impl Visitor for Walk {
    fn visit_block(&mut self, _: &ast::Block) {
        let names = std::mem::take(&mut self.pending);
        self.scopes.push(Scope { names, depth: self.depth });
    }

    fn visit_block_end(&mut self, _: &ast::Block) {
        self.scopes.pop();
    }

    fn visit_function_declaration(&mut self, f: &ast::FunctionDeclaration) {
        self.method = f.name().method_name().is_some();
        // `function t.f()` inside a handler assigns into `t`; `function f()` assigns `f`.
        let mut names = f.name().names().iter();
        if let Some(root) = names.next() {
            let field = names.next().is_some() || f.name().method_name().is_some();
            self.write(root, field);
        }
    }

    fn visit_local_function(&mut self, f: &ast::LocalFunction) {
        self.declare(f.name());
    }

    fn visit_function_body(&mut self, body: &ast::FunctionBody) {
        self.depth += 1;
        self.pending.clear();
        if std::mem::take(&mut self.method) {
            self.pending.push("self".to_owned());
        }
        for p in body.parameters() {
            if let ast::Parameter::Name(name) = p {
                self.pending.push(name.token().to_string());
            }
        }
    }

    fn visit_function_body_end(&mut self, _: &ast::FunctionBody) {
        self.depth -= 1;
    }

    fn visit_local_assignment(&mut self, local: &ast::LocalAssignment) {
        for name in local.names() {
            self.declare(name);
        }
    }

    fn visit_numeric_for(&mut self, f: &ast::NumericFor) {
        self.pending = vec![f.index_variable().token().to_string()];
    }

    fn visit_generic_for(&mut self, f: &ast::GenericFor) {
        self.pending = f.names().iter().map(|n| n.token().to_string()).collect();
    }

    fn visit_assignment(&mut self, a: &ast::Assignment) {
        for var in a.variables() {
            self.write_var(var);
        }
    }

    fn visit_compound_assignment(&mut self, a: &ast::CompoundAssignment) {
        self.write_var(a.lhs());
    }

    fn visit_function_call(&mut self, call: &ast::FunctionCall) {
        if let Some(name) = changes_first_argument(call) {
            let name = name.clone();
            self.write(&name, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str) -> Vec<(usize, String, Kept)> {
        module_state(src).into_iter().map(|f| (f.line, f.name, f.kept)).collect()
    }

    #[test]
    fn handlers_that_keep_state_in_their_module_are_found() {
        let src = "local m = {}\nlocal count = 0\nlocal seen = {}\n\
                   function m.activation(ctx)\n  count += 1\n  seen[ctx.self.name] = true\n  table.insert(seen, 1)\n  total = 3\nend\n\
                   function m.combat_tp(ctx)\n  m.cache = 1\nend\nreturn m\n";
        assert_eq!(
            found(src),
            vec![
                (5, "count".into(), Kept::Local),
                (6, "seen".into(), Kept::Table),
                (7, "seen".into(), Kept::Table),
                (8, "total".into(), Kept::Global),
                (11, "m".into(), Kept::Table),
            ]
        );
    }

    #[test]
    fn state_of_one_call_and_the_top_level_are_not() {
        let src = "local m = {}\nlocal LIMIT = 2\nlocal names = {}\nnames.a = 1\ntable.insert(names, 2)\n\
                   function m.combat_tp(ctx)\n  local n = 0\n  n += LIMIT\n  local t = {}\n  t.x = 1\n  table.insert(t, n)\n\
                   for i = 1, 3 do i = i + 1 end\n  for k, v in pairs(names) do k = v end\n\
                   local function inner(count) count = 1 return count end\n  ctx = nil\n  local count = 0\n\
                   local f = function() count += 1 end\n  f()\nend\n\
                   function m.obj:method() self.x = 1 end\nreturn m\n";
        assert_eq!(found(src), vec![]);
    }

    #[test]
    fn a_local_shadowing_a_module_local_is_the_handlers_own() {
        let src = "local m = {}\nlocal count = 0\nfunction m.activation(ctx)\n  local count = 1\n  count += 1\nend\n\
                   function m.combat_tp(ctx)\n  count = 2\nend\nreturn m\n";
        assert_eq!(found(src), vec![(8, "count".into(), Kept::Local)]);
    }
}
