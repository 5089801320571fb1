//! Checks of the models a test names: position, damage, states, ammo… against the game.

use super::*;

/// Compare models with what is expected of them; `at` says where (a step's check, or the end).
pub(super) fn check_models(
    game: &Game,
    ids: &HashMap<String, usize>,
    wants: &BTreeMap<Id, TestModelState>,
    at: &str,
    failures: &mut Vec<String>,
) {
    for (id, want) in wants {
        let Some(&model) = ids.get(id.as_str()) else {
            failures.push(format!("{at}unknown model `{id}`"));
            continue;
        };
        for f in model_differences(game, ids, model, want) {
            failures.push(format!("{at}`{id}` {f}"));
        }
    }
}

/// Each way `model` differs from `want`, as "what: expected X, got Y".
pub(super) fn model_differences(
    game: &Game,
    ids: &HashMap<String, usize>,
    model: usize,
    want: &TestModelState,
) -> Vec<String> {
    let mut out = Vec::new();
    let got = &game.models[model];
    let card = game.card(model);
    let column = game.column(model);
    let name_of = |i: usize| ids.iter().find(|(_, x)| **x == i).map_or_else(|| format!("#{i}"), |(k, _)| k.clone());
    let mut same = |what: &str, want: String, got: String| {
        if want != got {
            out.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    if let Some(d) = want.damage {
        same("damage", d.to_string(), got.damage.to_string());
    }
    if let Some(states) = &want.states {
        let mut have: Vec<&str> = got.states.iter().map(|(s, _)| game.rules.states[*s as usize].id.as_str()).collect();
        let mut want: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
        have.sort_unstable();
        want.sort_unstable();
        same("states", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(d) = want.destroyed {
        same("destroyed", d.to_string(), got.destroyed.to_string());
    }
    if let Some(m) = want.mission_kill {
        same("mission kill", m.to_string(), got.mission_kill.to_string());
    }
    if let Some(m) = want.out_of_action {
        same("out of action", m.to_string(), got.out_of_action.to_string());
    }
    if let Some([x, y]) = want.at
        && got.pos.dist(P::new(x, y)) > 0.01
    {
        same("position", format!("({x}, {y})"), format!("({:.2}, {:.2})", got.pos.x, got.pos.y));
    }
    if let (Some(h), Some(g)) = (want.hex, &game.rules.hexes) {
        let [c, r] = g.offset(g.hex_at(got.pos));
        same("hex", format!("[{}, {}]", h[0], h[1]), format!("[{c}, {r}]"));
    } else if want.hex.is_some() {
        same("hex", "a hex board".into(), "a continuous board".into());
    }
    if let Some(f) = want.facing
        && angle_diff(f, got.facing).abs() > 0.1
    {
        same("facing", format!("{f}°"), format!("{:.1}°", got.facing));
    }
    if let Some(p) = want.prone {
        same("prone", p.to_string(), got.prone.to_string());
    }
    if let Some(l) = &want.lock {
        same("target-lock", l.to_string(), got.lock.map_or_else(|| "none".to_owned(), name_of));
    }
    if let Some(l) = want.landed {
        same("landed", l.to_string(), got.landed.to_string());
    }
    if let Some(n) = want.noe {
        same("nap of the earth", n.to_string(), got.features.flight.noe.to_string());
    }
    if let Some(t) = &want.aboard {
        same("aboard", t.to_string(), got.features.transport.aboard.map_or_else(|| "none".to_owned(), name_of));
    }
    if let Some(w) = &want.out_of_ammo {
        let mut w = w.clone();
        w.sort_unstable();
        let have: Vec<usize> = (0..got.out_of_ammo.len()).filter(|&k| got.out_of_ammo[k]).collect();
        same("weapons out of ammo", format!("{w:?}"), format!("{have:?}"));
    }
    if let Some(n) = want.ammo_reserve {
        same("ammo-bin uses left", n.to_string(), got.ammo_reserve.to_string());
    }
    if let Some(marks) = &want.marks {
        let mut have: Vec<&str> = got.marks.iter().map(|m| m.name).collect();
        let mut want: Vec<&str> = marks.iter().map(String::as_str).collect();
        have.sort_unstable();
        want.sort_unstable();
        same("marks", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(a) = want.activated {
        same("activated", a.to_string(), got.activated.to_string());
    }
    if let Some(c) = want.column {
        same("damage column", c.to_string(), column.to_string());
    }
    if let Some(mv) = want.mv {
        same("MV", mv.to_string(), game.move_value(model).to_string());
    }
    if let Some(av) = want.av {
        same("AV", av.to_string(), card.armor[column].to_string());
    }
    if let Some(dc) = want.dc {
        same("DC", dc.to_string(), card.damage_control[column].map_or_else(|| "NA".to_owned(), |v| v.to_string()));
    }
    for (id, value) in &want.attributes {
        let got =
            game.rules.attributes.iter().position(|a| *a == id.0).and_then(|i| game.attributes(model).get(i).copied());
        same(
            &format!("attributes.{id}"),
            value.to_string(),
            got.map_or_else(|| "no such attribute".into(), |v| v.to_string()),
        );
    }
    if let Some(ap) = want.action_points {
        same("action points", ap.to_string(), game.action_points(model).to_string());
    }
    if let Some(lost) = &want.weapons_lost {
        let got: Vec<u32> =
            (0..card.weapons.len()).filter(|&w| game.models[model].weapon_lost(w)).map(|w| w as u32).collect();
        same("weapons lost", format!("{lost:?}"), format!("{got:?}"));
    }
    if let Some(e) = want.elevation {
        same("elevation", e.to_string(), game.elevation(model).to_string());
    }
    if let Some(c) = &want.criticals {
        critical_differences(game, model, c, &mut out);
    }
    for a in &want.against {
        against_differences(game, ids, model, a, &mut out);
    }
    out
}

/// Each way the model's critical damage differs from `c`, as "criticals.what: expected X, got Y".
fn critical_differences(game: &Game, model: usize, c: &cav_format::TestCriticals, out: &mut Vec<String>) {
    let mut same = |what: &str, want: String, got: String| {
        if want != got {
            out.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    let got = &game.models[model];
    let mut crit = |what: &str, want: String, have: String| same(&format!("criticals.{what}"), want, have);
    if let Some(v) = c.action_points {
        crit("action_points", v.to_string(), got.crit_ap.to_string());
    }
    if let Some(v) = c.action_points_set {
        crit("action_points_set", format!("{v:?}"), format!("{:?}", got.ap_set));
    }
    if let Some(v) = c.move_value {
        crit("move_value", v.to_string(), got.mv_add.to_string());
    }
    if let Some(v) = c.move_factor {
        crit("move_factor", v.to_string(), got.mv_factor.to_string());
    }
    if let Some(v) = c.combat_modifier {
        // In the table's own convention (to the target point where the ruleset's are).
        crit("combat_modifier", v.to_string(), (got.crit_combat * game.rules.sign).to_string());
    }
    if let Some(v) = c.no_combat {
        crit("no_combat", v.to_string(), got.no_combat.to_string());
    }
    if let Some(v) = c.weapons_zeroed {
        crit("weapons_zeroed", v.to_string(), got.zeroed.to_string());
    }
}

/// Each way the model differs from what `a` expects of it against another model (distance,
/// range band, arc, line of sight, cover…).
fn against_differences(
    game: &Game,
    ids: &HashMap<String, usize>,
    model: usize,
    a: &cav_format::TestAgainst,
    out: &mut Vec<String>,
) {
    let card = game.card(model);
    let Some(&other) = ids.get(a.model.as_str()) else {
        out.push(format!("against: unknown model `{}`", a.model));
        return;
    };
    let o = &a.model;
    let weapon = match a.weapon {
        Some(w) if w >= card.weapons.len() => {
            out.push(format!("against `{o}`: no weapon mount {w} (it has {})", card.weapons.len()));
            return;
        }
        w => w,
    };
    let needs_weapon = |what: &str| format!("against `{o}`: `{what}` needs `weapon:`");
    let mut same = |what: String, want: String, got: String| {
        if want != got {
            out.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    if let Some(d) = a.distance {
        let got = game.distance(model, other);
        if (got - d).abs() > 0.01 {
            same(format!("distance to `{o}`"), format!("{d}\""), format!("{got:.2}\""));
        }
    }
    let gap = game.distance(model, other);
    if let Some(x) = a.in_contact {
        let got = gap <= game.rules.proc.movement.contact_distance;
        same(format!("in base contact with `{o}`"), x.to_string(), got.to_string());
    }
    if let Some(x) = a.adjacent {
        let got = gap <= game.rules.proc.sight.adjacent_cover;
        same(format!("adjacent to `{o}`"), x.to_string(), got.to_string());
    }
    let w = weapon.map_or(String::new(), |w| format!(" (weapon {w})"));
    match (&a.band, weapon) {
        (Some(_), None) => same(needs_weapon("band"), String::new(), "?".into()),
        (Some(b), Some(k)) => {
            let got = game.band(model, k, other).map_or("none", |x| game.rules.bands[x].name.as_str());
            if !got.eq_ignore_ascii_case(b) {
                same(format!("range band to `{o}`{w}"), b.clone(), got.to_owned());
            }
        }
        _ => {}
    }
    match (a.rav, weapon) {
        (Some(_), None) => same(needs_weapon("rav"), String::new(), "?".into()),
        (Some(r), Some(k)) => {
            same(format!("RAV against `{o}`{w}"), r.to_string(), game.rav(model, k, other).to_string())
        }
        _ => {}
    }
    match (a.in_arc, weapon) {
        (Some(_), None) => same(needs_weapon("in_arc"), String::new(), "?".into()),
        (Some(x), Some(k)) => {
            same(format!("`{o}` in the arc{w}"), x.to_string(), game.in_arc(model, k, other).to_string())
        }
        _ => {}
    }
    if let Some(c) = a.ccv {
        same(format!("CCV against `{o}`"), c.to_string(), game.ccv(model, other).to_string());
    }
    if a.line_of_sight.is_some() || a.cover.is_some() {
        let (los, cover) = game.sight(model, other, false);
        if let Some(l) = a.line_of_sight {
            same(format!("line of sight to `{o}`"), l.to_string(), los.to_string());
        }
        if let Some(c) = a.cover {
            same(format!("cover against `{o}`"), format!("{c:?}").to_lowercase(), format!("{cover:?}").to_lowercase());
        }
    }
}
