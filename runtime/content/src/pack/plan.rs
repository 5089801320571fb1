//! Planning a load: checking the packs' dependencies (versions, missing packs, cycles,
//! incompatibilities) and the load set of each ruleset, dependencies first.

use std::collections::{BTreeMap, BTreeSet};

use cav_format::PackKind;

use super::{DepKind, Dependency, Pack};
use crate::diag::{Diagnostic, FileId};

/// The packs one ruleset is built from, in load order (dependencies first).
#[derive(Debug, Clone)]
pub struct LoadSet {
    /// The ruleset pack this set is built around.
    pub root: usize,
    pub order: Vec<usize>,
}

/// Check dependencies of all packs and compute one load set per ruleset pack that was asked for
/// (or that an asked-for extension builds on).
pub fn plan(packs: &[Pack], requested: &BTreeSet<usize>, diags: &mut Vec<Diagnostic>) -> Vec<LoadSet> {
    let by_id: BTreeMap<&str, usize> = packs.iter().enumerate().map(|(i, p)| (p.id.as_str(), i)).collect();
    let games = Games::installed(packs, &by_id);
    let requested = with_extension_rulesets(packs, &by_id, requested, &games, diags);
    let requested = &requested;
    let relevant = check_dependencies(packs, &by_id, requested, diags);
    let cyclic = report_cycles(packs, &by_id, &relevant, diags);
    // Load sets: one per ruleset reachable from the request. What each pack reaches is worked
    // out once for all (whether it reaches a cycle, which rulesets), so planning stays linear in
    // packs and dependencies whatever the number of extensions.
    let closure = |starts: &[usize]| -> BTreeSet<usize> {
        let mut seen: BTreeSet<usize> = starts.iter().copied().collect();
        let mut st: Vec<usize> = starts.to_vec();
        while let Some(i) = st.pop() {
            for j in edges(packs, &by_id, i) {
                if seen.insert(j) {
                    st.push(j);
                }
            }
        }
        seen
    };
    let reaches_cycle = reaching_cycles(packs, &by_id, &relevant, &cyclic);
    let rulesets_of = rulesets_built_on(packs, &by_id, &relevant, &reaches_cycle);
    let rulesets: BTreeSet<usize> = relevant.iter().copied().filter(|&i| packs[i].kind == PackKind::Ruleset).collect();
    let mut sets = Vec::new();
    for &r in &rulesets {
        if reaches_cycle[r] {
            continue; // the ruleset itself cannot be ordered; the cycle is reported
        }
        // An extension joins each ruleset it builds on (every ruleset, if it builds on none) unless
        // it declares a pack of that ruleset incompatible (`! cav-quickstart`: a mod for the full
        // rules only). One caught in a cycle joins no ruleset (its cycle is reported); the rest
        // still load.
        let base = closure(&[r]);
        let refuses = |e: usize| {
            packs[e]
                .depends
                .iter()
                .any(|d| d.kind == DepKind::Incompatible && by_id.get(d.id.as_str()).is_some_and(|j| base.contains(j)))
        };
        let mut starts = vec![r];
        starts.extend(requested.iter().copied().filter(|&e| {
            packs[e].kind == PackKind::Extension
                && !reaches_cycle[e]
                && !refuses(e)
                && rulesets_of[e].as_ref().is_some_and(|rs| rs.iter().all(|x| base.contains(x)))
                && games.joins(packs, e, r, rulesets_of[e].as_ref().is_some_and(|rs| !rs.is_empty()))
        }));
        let members = closure(&starts);
        // Incompatibilities inside the set.
        for &m in &members {
            for d in packs[m].depends.iter().filter(|d| d.kind == DepKind::Incompatible) {
                if let Some(&j) = by_id.get(d.id.as_str())
                    && members.contains(&j)
                {
                    diags.push(dep_diag(
                        &packs[m],
                        d,
                        "incompatible-packs",
                        format!(
                            "pack `{}` cannot be loaded together with `{}`, but both are in ruleset `{}`",
                            packs[m].id, d.id, packs[r].id
                        ),
                        format!("`{}` not loaded alongside `{}`", d.id, packs[m].id),
                    ));
                }
            }
        }
        sets.push(LoadSet { root: r, order: topo_order(packs, &by_id, &members) });
    }
    sets
}

/// The games of the installed rulesets: an extension joins only rulesets of its own.
struct Games {
    /// Per pack, the game of a ruleset: the one it names, else that of the ruleset it builds on
    /// (the Quick-Start is the full rules' game), else its own id.
    of: Vec<Option<String>>,
    /// Every installed ruleset is of one game (or none is installed).
    one: bool,
    /// The games, for a message.
    names: BTreeSet<String>,
}

impl Games {
    fn installed(packs: &[Pack], by_id: &BTreeMap<&str, usize>) -> Games {
        let game = |r: usize| -> String {
            // Follow the first ruleset each builds on, a step per pack at most (cycles end it).
            let mut at = r;
            for _ in 0..packs.len() {
                if let Some(g) = packs[at].declared_game() {
                    return g.to_owned();
                }
                let base =
                    packs[at].depends.iter().filter(|d| d.kind == DepKind::Required).find_map(|d| {
                        by_id.get(d.id.as_str()).copied().filter(|&j| packs[j].kind == PackKind::Ruleset)
                    });
                match base {
                    Some(j) if j != r => at = j,
                    _ => break,
                }
            }
            packs[at].id.clone()
        };
        let of: Vec<Option<String>> =
            (0..packs.len()).map(|i| (packs[i].kind == PackKind::Ruleset).then(|| game(i))).collect();
        let names: BTreeSet<String> = of.iter().flatten().cloned().collect();
        Games { of, one: names.len() <= 1, names }
    }

    /// Whether extension `e` may join ruleset `r` as far as games go: of `e`'s game, where it
    /// names one; else where it builds on a ruleset (its dependencies decide), or where every
    /// installed ruleset is of one game.
    fn joins(&self, packs: &[Pack], e: usize, r: usize, builds_on_a_ruleset: bool) -> bool {
        match packs[e].declared_game() {
            Some(g) => self.of[r].as_deref() == Some(g),
            None => builds_on_a_ruleset || self.one,
        }
    }

    /// An extension that names one game but builds on a ruleset of another joins no ruleset at
    /// all: an error, not a mod that quietly goes unplayed.
    fn report_other_game(&self, packs: &[Pack], e: usize, needs: &[usize], diags: &mut Vec<Diagnostic>) {
        let Some(game) = packs[e].declared_game() else { return };
        for &n in needs {
            let theirs = self.of[n].as_deref().unwrap_or_default();
            if theirs != game {
                let mut d = Diagnostic::error(
                    "pack-game",
                    format!(
                        "pack `{}` is for the game `{game}` but builds on ruleset `{}`, of the game `{theirs}`: it joins no ruleset",
                        packs[e].id, packs[n].id
                    ),
                )
                .pack(&packs[e].id)
                .expected(format!("`game: {theirs}`, or a dependency on a ruleset of `{game}`"));
                if let Some(file) = packs[e].manifest_file {
                    let top = crate::diag::Pos { line: 1, col: 1 };
                    d = d.at(Some(crate::diag::Loc { file, start: top, end: top }));
                }
                diags.push(d);
            }
        }
    }

    /// An extension that names no game and builds on no ruleset, with rulesets of several games
    /// installed, joins none: said, so that it does not quietly go unchecked.
    fn report_gameless(&self, p: &Pack, diags: &mut Vec<Diagnostic>) {
        if self.one || p.declared_game().is_some() {
            return;
        }
        let games: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let mut d = Diagnostic::warning(
            "pack-game",
            format!(
                "pack `{}` names no game and builds on no ruleset: with rulesets of several games installed ({}), it joins none",
                p.id,
                games.join(", ")
            ),
        )
        .pack(&p.id)
        .expected("`game:` in pack.yaml, the id of the game it is for")
        .hint(Some(format!("add `game: {}` (or the game it is for) to its pack.yaml", games[0])));
        if let Some(file) = p.manifest_file {
            // At the top of its pack.yaml, where `game:` goes.
            let top = crate::diag::Pos { line: 1, col: 1 };
            d = d.at(Some(crate::diag::Loc { file, start: top, end: top }));
        }
        diags.push(d);
    }
}

/// A problem with dependency `d` of pack `p`, located at the entry in `pack.yaml` (or the file).
fn dep_diag(p: &Pack, d: &Dependency, code: &'static str, msg: String, expected: String) -> Diagnostic {
    let mut diag = Diagnostic::error(code, msg).pack(&p.id).expected(expected).at(d.loc);
    if d.loc.is_none()
        && let Some(f) = p.manifest_file
    {
        diag = diag.in_file(f);
    }
    diag
}

/// The request, with the rulesets its extensions join.
fn with_extension_rulesets(
    packs: &[Pack],
    by_id: &BTreeMap<&str, usize>,
    requested: &BTreeSet<usize>,
    games: &Games,
    diags: &mut Vec<Diagnostic>,
) -> BTreeSet<usize> {
    // An extension joins every ruleset whose packs satisfy its dependencies: asked for alone
    // (`cav test mods/x`), it brings those rulesets, so it is checked and tested under each (one
    // that builds on no ruleset brings them all).
    let mut requested = requested.clone();
    let reach = |start: usize| {
        let mut seen = BTreeSet::from([start]);
        let mut st = vec![start];
        while let Some(i) = st.pop() {
            st.extend(edges(packs, by_id, i).filter(|&j| seen.insert(j)));
        }
        seen
    };
    let installed: Vec<(usize, BTreeSet<usize>)> =
        (0..packs.len()).filter(|&i| packs[i].kind == PackKind::Ruleset).map(|r| (r, reach(r))).collect();
    let extensions: Vec<usize> = requested.iter().copied().filter(|&e| packs[e].kind == PackKind::Extension).collect();
    for e in extensions {
        let needs: Vec<usize> = reach(e).into_iter().filter(|&j| packs[j].kind == PackKind::Ruleset).collect();
        if needs.is_empty() {
            games.report_gameless(&packs[e], diags);
        }
        games.report_other_game(packs, e, &needs, diags);
        for (r, closure) in &installed {
            if needs.iter().all(|n| closure.contains(n)) && games.joins(packs, e, *r, !needs.is_empty()) {
                requested.insert(*r);
            }
        }
    }
    requested
}

/// Report version mismatches and missing packs among the dependencies of the requested packs and
/// what they depend on; those packs (the relevant ones) are returned.
fn check_dependencies(
    packs: &[Pack],
    by_id: &BTreeMap<&str, usize>,
    requested: &BTreeSet<usize>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeSet<usize> {
    // Validate each requested pack's dependency edges once.
    let mut relevant: BTreeSet<usize> = requested.clone();
    let mut stack: Vec<usize> = requested.iter().copied().collect();
    while let Some(i) = stack.pop() {
        for d in &packs[i].depends {
            if d.kind == DepKind::Incompatible {
                continue;
            }
            match by_id.get(d.id.as_str()) {
                Some(&j) => {
                    if let Some(req) = &d.req
                        && !req.matches(&packs[j].version)
                    {
                        diags.push(dep_diag(
                            &packs[i],
                            d,
                            "version-mismatch",
                            format!(
                                "pack `{}` needs `{}` {req}, but version {} is installed",
                                packs[i].id, d.id, packs[j].version
                            ),
                            format!("`{}` {req}", d.id),
                        ));
                    }
                    if relevant.insert(j) {
                        stack.push(j);
                    }
                }
                None if d.kind == DepKind::Required => {
                    let hint = crate::diag::did_you_mean(&d.id, by_id.keys().copied());
                    diags.push(
                        dep_diag(
                            &packs[i],
                            d,
                            "missing-dependency",
                            format!("pack `{}` depends on `{}`, which was not found", packs[i].id, d.id),
                            "an installed pack with that id (searched content/, mods/ and the given paths)".into(),
                        )
                        .hint(hint),
                    );
                }
                None => {}
            }
        }
    }
    relevant
}

/// Report every dependency cycle among the relevant packs; the packs caught in one are returned.
fn report_cycles(
    packs: &[Pack],
    by_id: &BTreeMap<&str, usize>,
    relevant: &BTreeSet<usize>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeSet<usize> {
    // Cycles: one depth-first walk over the relevant packs (iterative, so a long chain cannot
    // overflow the stack), each cycle reported once, at the edge that closes it.
    let mut cyclic = BTreeSet::new();
    for cycle in find_cycles(packs, by_id, relevant) {
        let names: Vec<&str> = cycle.iter().map(|&c| packs[c].id.as_str()).collect();
        let p = &packs[cycle[0]];
        let d = p.depends.iter().find(|d| d.id == packs[cycle[1 % cycle.len()]].id);
        let mut diag =
            Diagnostic::error("dependency-cycle", format!("dependency cycle: {} → {}", names.join(" → "), names[0]))
                .pack(&p.id)
                .expected("dependencies that form no loop");
        match d.and_then(|d| d.loc) {
            Some(l) => diag = diag.at(Some(l)),
            None => diag = diag.in_file(p.manifest_file.unwrap_or(FileId(0))),
        }
        diags.push(diag);
        cyclic.extend(cycle);
    }
    cyclic
}

/// For each pack, whether a cycle can be reached from it (indexed by pack).
fn reaching_cycles(
    packs: &[Pack],
    by_id: &BTreeMap<&str, usize>,
    relevant: &BTreeSet<usize>,
    cyclic: &BTreeSet<usize>,
) -> Vec<bool> {
    let n = packs.len();
    // Packs from which a cycle can be reached: backwards from the cycles.
    let mut needed_by: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &i in relevant {
        for j in edges(packs, by_id, i) {
            needed_by[j].push(i);
        }
    }
    let mut reaches_cycle = vec![false; n];
    let mut queue: Vec<usize> = cyclic.iter().copied().collect();
    for &c in &queue {
        reaches_cycle[c] = true;
    }
    while let Some(x) = queue.pop() {
        for &y in &needed_by[x] {
            if !std::mem::replace(&mut reaches_cycle[y], true) {
                queue.push(y);
            }
        }
    }
    reaches_cycle
}

/// For each relevant pack that reaches no cycle, the rulesets it builds on (indexed by pack;
/// `None` for the others).
fn rulesets_built_on(
    packs: &[Pack],
    by_id: &BTreeMap<&str, usize>,
    relevant: &BTreeSet<usize>,
    reaches_cycle: &[bool],
) -> Vec<Option<BTreeSet<usize>>> {
    let n = packs.len();
    // The rulesets each cycle-free pack builds on (memoised, post-order, no recursion).
    let mut rulesets_of: Vec<Option<BTreeSet<usize>>> = vec![None; n];
    for &start in relevant {
        if reaches_cycle[start] || rulesets_of[start].is_some() {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((i, children_done)) = stack.pop() {
            if rulesets_of[i].is_some() {
                continue;
            }
            if children_done {
                let mut set: BTreeSet<usize> = BTreeSet::new();
                if packs[i].kind == PackKind::Ruleset {
                    set.insert(i);
                }
                for j in edges(packs, by_id, i) {
                    set.extend(rulesets_of[j].iter().flatten());
                }
                rulesets_of[i] = Some(set);
            } else {
                stack.push((i, true));
                stack.extend(edges(packs, by_id, i).filter(|&j| rulesets_of[j].is_none()).map(|j| (j, false)));
            }
        }
    }
    rulesets_of
}

/// The dependency edges of pack `i` to installed packs (incompatibilities are not edges).
fn edges<'a>(packs: &'a [Pack], by_id: &'a BTreeMap<&str, usize>, i: usize) -> impl Iterator<Item = usize> + 'a {
    packs[i]
        .depends
        .iter()
        .filter(|d| d.kind != DepKind::Incompatible)
        .filter_map(|d| by_id.get(d.id.as_str()).copied())
}

/// Every cycle among `from` and what they depend on, each once (the packs of the cycle in
/// dependency order, starting at the pack whose edge closes it). Linear in packs + edges.
fn find_cycles(packs: &[Pack], by_id: &BTreeMap<&str, usize>, from: &BTreeSet<usize>) -> Vec<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath(usize),
        Done,
    }
    let mut mark = vec![Mark::New; packs.len()];
    let mut cycles = Vec::new();
    for &start in from {
        if mark[start] != Mark::New {
            continue;
        }
        // The path being walked, each pack with the edges it has left to follow.
        let mut path: Vec<(usize, Vec<usize>)> = Vec::new();
        mark[start] = Mark::OnPath(0);
        path.push((start, edges(packs, by_id, start).collect::<Vec<_>>().into_iter().rev().collect()));
        while let Some((_, todo)) = path.last_mut() {
            match todo.pop() {
                Some(j) => match mark[j] {
                    Mark::New => {
                        mark[j] = Mark::OnPath(path.len());
                        path.push((j, edges(packs, by_id, j).collect::<Vec<_>>().into_iter().rev().collect()));
                    }
                    Mark::OnPath(at) => cycles.push(path[at..].iter().map(|(p, _)| *p).collect()),
                    Mark::Done => {}
                },
                None => {
                    let (done, _) = path.pop().expect("the loop holds a last entry");
                    mark[done] = Mark::Done;
                }
            }
        }
    }
    cycles
}

/// Dependencies first; among packs free to go, alphabetical by id, so the order never depends on
/// the disk. Kahn's algorithm with a heap: O((packs + edges) log packs).
fn topo_order(packs: &[Pack], by_id: &BTreeMap<&str, usize>, members: &BTreeSet<usize>) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let mut waiting: HashMap<usize, usize> = HashMap::new();
    let mut needed_by: HashMap<usize, Vec<usize>> = HashMap::new();
    for &m in members {
        let deps: BTreeSet<usize> = edges(packs, by_id, m).filter(|j| members.contains(j) && *j != m).collect();
        waiting.insert(m, deps.len());
        for j in deps {
            needed_by.entry(j).or_default().push(m);
        }
    }
    let mut ready: BinaryHeap<Reverse<(&str, usize)>> =
        waiting.iter().filter(|(_, n)| **n == 0).map(|(&m, _)| Reverse((packs[m].id.as_str(), m))).collect();
    let mut order = Vec::with_capacity(members.len());
    while let Some(Reverse((_, n))) = ready.pop() {
        order.push(n);
        for &m in needed_by.get(&n).map(Vec::as_slice).unwrap_or(&[]) {
            let w = waiting.get_mut(&m).expect("every member is counted");
            *w -= 1;
            if *w == 0 {
                ready.push(Reverse((packs[m].id.as_str(), m)));
            }
        }
    }
    order // short of `members` only on a cycle, which is reported elsewhere
}
