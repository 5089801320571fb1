//! A test's board: terrain, models (fitted with upgrades) where the test puts them, their states
//! and damage, squads, zones and the scenario's parts.

use super::*;

/// The card a test model plays: its model's, with its upgrades fitted (added to `rules`).
pub(super) fn fitted_card(rules: &mut Rules, spec: &cav_format::TestModel) -> Result<usize, String> {
    let card = rules
        .card(spec.model.as_str())
        .ok_or_else(|| format!("model `{}`: unknown model `{}`", spec.id, spec.model))?;
    let ups = fittings(rules, spec)?;
    Ok(rules.fit(card, &ups))
}

pub(super) fn fittings<'t>(rules: &Rules, spec: &'t cav_format::TestModel) -> Result<Vec<Fitting<'t>>, String> {
    let switched = spec
        .upgrades
        .iter()
        .filter(|u| rules.upgrade(u.id().as_str()).is_some_and(|ix| rules.upgrades[ix].switch.is_some()))
        .count();
    if switched > crate::compile::Switch::MAX {
        return Err(format!(
            "model `{}`: at most {} upgrades switched on by the Special action on one model",
            spec.id,
            crate::compile::Switch::MAX
        ));
    }
    spec.upgrades
        .iter()
        .map(|u| {
            let ix = rules
                .upgrade(u.id().as_str())
                .ok_or_else(|| format!("model `{}`: unknown upgrade `{}`", spec.id, u.id()))?;
            let up = &rules.upgrades[ix];
            if up.choose_grant {
                let card = rules.card(spec.model.as_str()).map(|c| &rules.cards[c]);
                let carried = u.weapon().is_some_and(|w| card.is_some_and(|c| c.weapons.iter().any(|m| m.weapon == w.as_str())));
                let granted = u.choice().is_some_and(|c| up.grants.iter().any(|(sa, _)| rules.sas[*sa as usize].id == c.as_str()));
                if !carried || !granted {
                    return Err(format!(
                        "model `{}`: {} grants one of its special attributes to one weapon type: give `weapon:` (one it carries) and `choice:` (one of its grants)",
                        spec.id, up.name
                    ));
                }
            }
            if let Some(v) = u.variant()
                && !up.variants.iter().any(|x| x.0 == v.as_str())
            {
                let ids: Vec<&str> = up.variants.iter().map(|x| x.0.as_str()).collect();
                return Err(format!("model `{}`: {} has no variant `{v}` (its variants: {})", spec.id, up.name, ids.join(", ")));
            }
            if u.times() > 1 && !up.repeatable {
                return Err(format!("model `{}`: {} is bought once per model: `times` is for repeatable upgrades", spec.id, up.name));
            }
            Ok(Fitting {
                upgrade: ix,
                weapon: u.weapon().map(|w| w.as_str()),
                choice: u.choice().map(|c| c.as_str()),
                variant: u.variant().map(|v| v.as_str()),
                times: u.times(),
            })
        })
        .collect()
}

pub(crate) fn setup<'r>(rules: &'r Rules, t: &Test) -> Result<(Game<'r>, HashMap<String, usize>), String> {
    if t.models.len() > cav_format::limits::MAX_MODELS {
        return Err(format!(
            "the test places {} models, more than the {} a game may hold",
            t.models.len(),
            cav_format::limits::MAX_MODELS
        ));
    }
    let (areas, minefields) = terrain_pieces(rules, t)?;
    let mut sides: Vec<String> = Vec::new();
    for spec in &t.models {
        if !sides.contains(&spec.side.0) {
            sides.push(spec.side.0.clone());
        }
    }
    let mut game = Game::new(rules, Board { size: t.board, areas }, sides.clone());
    // (An id that is no scenario's rule is the compiler's error.)
    game.scenario_rules = t
        .rules
        .iter()
        .filter_map(|id| rules.sas.iter().position(|s| s.id == id.as_str() && s.scenario_rule))
        .map(|i| i as crate::compile::SaIx)
        .collect();
    for (side, points) in &t.c3 {
        if let Some(i) = sides.iter().position(|s| s == side.as_str()) {
            game.features.c3.pool[i] = *points;
        }
    }
    if !t.pools.is_empty() {
        game.pools = sides.iter().map(|s| t.pools.get(&Id(s.clone())).copied().unwrap_or(0)).collect();
    }
    let c3_from_models = t.c3.is_empty();
    sides_holdings(rules, t, &sides, &mut game)?;
    let ids = place_models(rules, t, &sides, c3_from_models, &mut game)?;
    form_squads(rules, t, &ids, &mut game)?;
    crate::setup::composition(&game)?;
    for (asset, side, area) in minefields {
        let Some(side) = sides.iter().position(|s| s == side) else {
            return Err(format!("terrain: no model is on side `{side}`, which lays a minefield"));
        };
        game.lay_minefield(asset, Some(side), side, area, None)?;
    }
    links(rules, t, &ids, &mut game)?;
    Ok((game, ids))
}

/// A minefield the test lays once the sides are known.
type Minefield<'t> = (usize, &'t str, Polygon);

/// The test's terrain pieces, and its minefields (laid later, by side).
fn terrain_pieces<'t>(rules: &Rules, t: &'t Test) -> Result<(Vec<Area>, Vec<Minefield<'t>>), String> {
    let mut areas = Vec::new();
    // Minefields, laid once the sides are known: (asset, side id, template).
    let mut minefields = Vec::new();
    for (i, a) in t.terrain.iter().enumerate() {
        let mines = a.asset.as_ref().and_then(|id| rules.assets.iter().position(|x| x.id == id.as_str()));
        if let Some(ix) = mines.filter(|&ix| rules.assets[ix].mines.is_some()) {
            let Some(side) = &a.side else {
                return Err(format!("terrain {i}: minefield `{}` needs the `side` that laid it", rules.assets[ix].id));
            };
            let area = match (a.at, a.radius, a.polygon.is_empty()) {
                (Some([x, y]), Some(r), true) => Polygon::regular(P::new(x, y), r, 24),
                (None, None, false) => Polygon { points: a.polygon.iter().map(|[x, y]| P::new(*x, *y)).collect() },
                _ => return Err(format!("terrain {i}: give either `at` and `radius`, or `polygon`")),
            };
            minefields.push((ix, side.as_str(), area));
            continue;
        }
        if a.side.is_some() {
            return Err(format!("terrain {i}: only a minefield is laid by a side (`side`)"));
        }
        let terrain = match (&a.terrain, &a.asset) {
            (Some(id), None) => {
                rules.terrain(id.as_str()).ok_or_else(|| format!("terrain {i}: unknown terrain `{id}`"))?
            }
            (None, Some(id)) => match rules.assets.iter().find(|a| a.id == id.as_str()).map(|a| a.terrain) {
                Some(Some(t)) => t,
                Some(None) => {
                    return Err(format!("terrain {i}: asset `{id}` is not a terrain piece (it has no `terrain:`)"));
                }
                None => return Err(format!("terrain {i}: unknown asset `{id}`")),
            },
            _ => return Err(format!("terrain {i}: give either `terrain` or `asset`")),
        };
        if !a.hexes.is_empty() {
            let Some(g) = &rules.hexes else {
                return Err(format!("terrain {i}: `hexes` places on a hex board; this ruleset's board is continuous"));
            };
            if a.at.is_some() || a.radius.is_some() || !a.polygon.is_empty() {
                return Err(format!("terrain {i}: give `hexes`, or `at` and `radius`, or `polygon`: one of them"));
            }
            for &h in &a.hexes {
                let Some(h) = g.on_board_at(h, t.board) else {
                    return Err(format!("terrain {i}: hex [{}, {}] is not on the board", h[0], h[1]));
                };
                let (poly, center, radius) = g.piece(h);
                areas.push(Area { terrain, poly, center, radius, lasts: None });
            }
            continue;
        }
        let (poly, center, radius) = match (a.at, a.radius, a.polygon.is_empty()) {
            (Some([x, y]), Some(r), true) => (Polygon::regular(P::new(x, y), r, 24), P::new(x, y), r),
            (None, None, false) => {
                let pts: Vec<P> = a.polygon.iter().map(|[x, y]| P::new(*x, *y)).collect();
                let c = pts.iter().fold(P::default(), |acc, p| acc + *p).scale(1.0 / pts.len() as f64);
                let r = pts.iter().map(|p| p.dist(c)).fold(0.0, f64::max);
                (Polygon { points: pts }, c, r)
            }
            _ => return Err(format!("terrain {i}: give either `at` and `radius`, or `polygon`")),
        };
        areas.push(Area { terrain, poly, center, radius, lasts: None });
    }
    Ok((areas, minefields))
}

/// What each side holds besides its models: deployment zones, strike pools, ambush pieces and
/// assets in hand.
fn sides_holdings(rules: &Rules, t: &Test, sides: &[String], game: &mut Game<'_>) -> Result<(), String> {
    if !t.zones.is_empty() {
        game.zones = vec![None; sides.len()];
        for (side, z) in &t.zones {
            let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
                return Err(format!("zones: no model is on side `{side}`"));
            };
            game.zones[i] = Some(P::new(z.x + z.width / 2.0, z.y + z.height / 2.0));
        }
    }
    for (side, pools) in &t.strike_pools {
        if let Some(i) = sides.iter().position(|s| s == side.as_str()) {
            game.features.strikes.pools[i] = pools.clone();
        }
    }
    for (side, pieces) in &t.ambush_pieces {
        let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
            return Err(format!("ambush_pieces: no model is on side `{side}`"));
        };
        let allowed = rules.proc.setup.ambush.as_ref().map(|a| &a.pieces[..]).unwrap_or_default();
        for id in pieces {
            let Some(ix) = rules.assets.iter().position(|a| a.id == id.as_str()) else {
                return Err(format!("ambush_pieces: unknown asset `{id}`"));
            };
            if !allowed.iter().any(|p| p.asset == *id) || rules.assets[ix].piece.is_none() {
                return Err(format!(
                    "ambush_pieces: `{id}` is not a piece an ambushing model may bring (`setup.ambush.pieces`)"
                ));
            }
            game.features.deployment.ambush_pieces[i].push((ix, None));
        }
    }
    for (side, assets) in &t.assets {
        let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
            return Err(format!("assets: no model is on side `{side}`"));
        };
        for (id, &count) in assets {
            let Some(ix) = rules.assets.iter().position(|a| a.id == id.as_str()) else {
                return Err(format!("assets: unknown asset `{id}`"));
            };
            if !rules.assets[ix].held() {
                return Err(format!(
                    "assets: `{id}` does nothing from a side's hand: place it with `terrain: [{{asset: {id}, …}}]`"
                ));
            }
            game.features.held_assets.held[i].push((ix, count));
        }
    }
    Ok(())
}

/// Places the test's models where it puts them (none overlapping), with their C3 ratings when the
/// test gives none; returns each test id's model.
fn place_models(
    rules: &Rules,
    t: &Test,
    sides: &[String],
    c3_from_models: bool,
    game: &mut Game<'_>,
) -> Result<HashMap<String, usize>, String> {
    let mut ids = HashMap::new();
    for spec in &t.models {
        let card = rules
            .card(spec.model.as_str())
            .map(|c| rules.fitted_id(c, &fittings(rules, spec).unwrap_or_default()))
            .and_then(|id| rules.card(&id))
            .ok_or_else(|| format!("model `{}`: unknown model `{}`", spec.id, spec.model))?;
        let at = crate::compile::place(rules.hexes.as_ref(), spec.at, spec.hex, t.board)
            .map_err(|e| format!("model `{}`: {e}", spec.id))?;
        let (x, y) = (at.x, at.y);
        if x < 0.0 || y < 0.0 || x > t.board[0] || y > t.board[1] {
            return Err(format!(
                "model `{}` at ({x}, {y}) is off the {}\"×{}\" board",
                spec.id, t.board[0], t.board[1]
            ));
        }
        let pos = P::new(x, y);
        let r = rules.cards[card].base_radius;
        // A rider is not on the table, so it overlaps nothing.
        let riding = |id: &str| t.models.iter().any(|m| m.id.as_str() == id && m.aboard.is_some());
        if let Some((other, _)) = ids.iter().find(|(id, i): &(&String, &usize)| {
            let o: &crate::game::Model = &game.models[**i];
            spec.aboard.is_none()
                && !riding(id.as_str())
                && o.pos.dist(pos) < r + rules.cards[o.card].base_radius - 1e-9
        }) {
            return Err(format!("model `{}` overlaps model `{other}`", spec.id));
        }
        let side = sides.iter().position(|s| *s == spec.side.0).unwrap_or(0);
        let ix = game.add_model(card, side, pos, spec.facing);
        game.place_emplacement(ix, 1);
        ids.insert(spec.id.0.clone(), ix);
        if c3_from_models && let Some(c3) = rules.c3_sa {
            let rating: i32 = rules.cards[card].sas.iter().filter(|(s, _)| *s == c3).map(|(_, r)| (*r).max(0)).sum();
            game.features.c3.pool[side] = game.features.c3.pool[side].saturating_add(rating as u32);
        }
        model_state(rules, spec, card, ix, game)?;
    }
    Ok(ids)
}

/// A placed model's state as the test gives it: damage, states, ammunition, over-watch, and
/// waiting off the table (in ambush or for an orbital drop).
fn model_state(
    rules: &Rules,
    spec: &cav_format::TestModel,
    card: usize,
    ix: usize,
    game: &mut Game<'_>,
) -> Result<(), String> {
    let me = &mut game.models[ix];
    me.damage = spec.damage;
    me.prone = spec.prone;
    me.landed = spec.landed;
    for s in &spec.states {
        let st = rules.state(s.as_str()).ok_or_else(|| format!("model `{}`: unknown state `{s}`", spec.id))?;
        // A state given by the test lasts through the model's next activation at least; one that
        // activations and turns do not end (permanent, until repaired, until it stands up or
        // moves) lasts until what ends it happens.
        use cav_format::StateDuration as D;
        let ends = match rules.states[st as usize].duration {
            D::NextActivation | D::UntilNextActivation | D::Activations | D::UntilEndOfTurn | D::Turns => 1,
            D::Permanent | D::UntilRepaired | D::UntilStandUp | D::UntilMoves => u32::MAX,
        };
        me.states.push((st, ends));
    }
    for &w in &spec.out_of_ammo {
        let n = me.out_of_ammo.len();
        *me.out_of_ammo
            .get_mut(w)
            .ok_or_else(|| format!("model `{}`: out_of_ammo: no weapon mount {w} (it has {n})", spec.id))? = true;
    }
    if let Some(n) = spec.ammo_reserve {
        me.ammo_reserve = n;
    }
    if spec.overwatch {
        me.mark(&OVERWATCH);
    }
    if spec.ambush {
        if !crate::setup::ambusher(rules, card) {
            return Err(format!(
                "model `{}` is held back in ambush without the ruleset's ambush special attribute",
                spec.id
            ));
        }
        (me.ambush, me.waiting) = (true, Some(1));
    }
    // A model fitted for an orbital drop waits off the table (its `at` is not used) and
    // lands as it activates.
    if game.drops_in(card) {
        let me = &mut game.models[ix];
        (me.dropping, me.waiting) = (true, Some(1));
    }
    Ok(())
}

/// Forms the test's squads (by name, per side), each of its squad type if the test gives one.
fn form_squads(rules: &Rules, t: &Test, ids: &HashMap<String, usize>, game: &mut Game<'_>) -> Result<(), String> {
    let mut squads: Vec<(&str, usize, Vec<usize>)> = Vec::new();
    for spec in t.models.iter().filter(|m| m.squad.is_some()) {
        let (name, ix) = (spec.squad.as_ref().map_or("", |s| s.as_str()), ids[spec.id.as_str()]);
        let side = game.models[ix].side;
        match squads.iter_mut().find(|(n, s, _)| *n == name && *s == side) {
            Some((_, _, members)) => members.push(ix),
            None => squads.push((name, side, vec![ix])),
        }
    }
    for (name, ty) in &t.squad_types {
        if !squads.iter().any(|(n, _, _)| *n == name.as_str()) {
            return Err(format!("squad_types: no model is in squad `{name}`"));
        }
        if !rules.squad_types.iter().any(|(id, _)| id == ty.as_str()) {
            let known: Vec<&str> = rules.squad_types.iter().map(|(id, _)| id.as_str()).collect();
            return Err(format!("squad_types: `{ty}` is not a squad type of the ruleset ({})", known.join(", ")));
        }
    }
    for (name, _, members) in squads {
        let kind = t.squad_types.iter().find(|(n, _)| n.as_str() == name).map_or(String::new(), |(_, ty)| ty.0.clone());
        game.add_squad(name.to_owned(), kind, members);
    }
    Ok(())
}

/// What ties the test's models to one another: locks, riders aboard their transports, and
/// models engaged in base contact.
fn links(rules: &Rules, t: &Test, ids: &HashMap<String, usize>, game: &mut Game<'_>) -> Result<(), String> {
    let contact = rules.proc.movement.contact_distance;
    for spec in &t.models {
        let me = ids[spec.id.as_str()];
        if let Some(l) = &spec.lock {
            let target =
                *ids.get(l.as_str()).ok_or_else(|| format!("model `{}` locks on to unknown model `{l}`", spec.id))?;
            game.models[me].lock = Some(target);
        }
        if let Some(t) = &spec.aboard {
            let t = *ids.get(t.as_str()).ok_or_else(|| format!("model `{}` rides in unknown model `{t}`", spec.id))?;
            if t == me || game.models[t].side != game.models[me].side {
                return Err(format!("model `{}` must ride in a friendly model", spec.id));
            }
            game.models[me].features.transport.aboard = Some(t);
            game.models[me].pos = game.models[t].pos;
        }
        for other in &spec.engaged_with {
            let o = *ids
                .get(other.as_str())
                .ok_or_else(|| format!("model `{}` is engaged with unknown model `{other}`", spec.id))?;
            if game.models[o].side == game.models[me].side {
                return Err(format!("model `{}` is engaged with `{other}` of its own side", spec.id));
            }
            if game.distance(me, o) > contact + 1e-9 {
                return Err(format!(
                    "model `{}` is engaged with `{other}` but not in base contact ({:.2}\" apart)",
                    spec.id,
                    game.distance(me, o)
                ));
            }
            game.models[me].mark(&ENGAGED);
            game.models[o].mark(&ENGAGED);
        }
    }
    Ok(())
}
