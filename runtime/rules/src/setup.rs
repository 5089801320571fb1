//! Setting up a scenario: the board, random terrain from the ruleset's table, deployment.

use cav_format::limits::MAX_TERRAIN_FEATURES;

use crate::compile::{Rules, SaIx};
use crate::dice::Dice;
use crate::event::{Event, Sink};
use crate::game::{Area, Board, Game};
use crate::geom::{P, Polygon};

/// Build a game for scenario `sc` of the rules: random terrain rolled with `dice` (each side rolls
/// the scenario's feature count on the random-terrain table; features go outside deployment
/// zones), then the scenario's forces placed in their zones facing the enemy.
pub fn scenario_game<'r>(
    rules: &'r Rules,
    sc: usize,
    dice: &mut dyn Dice,
    log: &mut dyn Sink,
    seed: Option<u64>,
) -> Game<'r> {
    let s = &rules.scenarios[sc];
    let sides: Vec<String> = s.sides.iter().map(|(n, _)| n.clone()).collect();
    let mut game = Game::new(rules, Board { size: s.board, areas: Vec::new() }, sides);
    if let Some(limit) = s.turn_limit {
        game.turn_limit = limit;
    }
    if let Some(d) = s.turn_dice {
        // The length is rolled now and kept from the controllers (they never read it).
        game.turn_limit = u32::try_from(d.roll(dice).1).unwrap_or(1).clamp(1, cav_format::limits::MAX_TURNS);
    }
    game.victory = s.victory;
    if log.enabled() {
        let hexes = rules.hexes.map(|h| match h.orientation {
            cav_format::HexOrientation::Flat => "flat",
            cav_format::HexOrientation::Pointy => "pointy",
        });
        let hex_size = rules.hexes.map(|h| h.across_flats);
        log.push(Event::GameStart {
            ruleset: rules.id.clone(),
            scenario: s.id.clone(),
            seed,
            board: s.board,
            hexes,
            hex_size,
        });
    }
    game.scenario = Some(sc);
    game.scenario_rules.clone_from(&s.rules);
    game.zones = s.sides.iter().map(|(_, z)| Some(P::new(z.x + z.width / 2.0, z.y + z.height / 2.0))).collect();
    game.objective_points = vec![0; game.sides.len()];
    game.place_mission_pieces();
    for &(t, [x, y], r) in &s.terrain {
        let center = P::new(x, y);
        if log.enabled() {
            log.push(Event::TerrainPlaced { terrain: rules.terrains[t].id.clone(), center, radius: r });
        }
        game.board.areas.push(Area {
            terrain: t,
            poly: Polygon::regular(center, r, 24),
            center,
            radius: r,
            lasts: None,
        });
    }
    if let Some(g) = &rules.hexes {
        for (t, hexes) in &s.hex_terrain {
            for &h in hexes {
                let (poly, center, radius) = g.piece(h);
                if log.enabled() {
                    log.push(Event::TerrainPlaced { terrain: rules.terrains[*t].id.clone(), center, radius });
                }
                game.board.areas.push(Area { terrain: *t, poly, center, radius, lasts: None });
            }
        }
    }
    if let (Some(count), Some(table), Some(size)) =
        (s.terrain_features, &rules.random_terrain, rules.proc.setup.terrain_feature_size)
    {
        // Safety cap: however many features the dice ask for, at most MAX_TERRAIN_FEATURES in all.
        let mut budget = MAX_TERRAIN_FEATURES;
        for _side in 0..s.sides.len() {
            let (_, n) = count.roll(dice);
            let n = usize::try_from(n).unwrap_or(0).min(budget);
            budget -= n;
            for _ in 0..n {
                let roll = table.dice.unwrap_or(rules.standard).roll(dice).1;
                let Some(row) = table.row(roll) else { continue };
                // "players' choice" and unknown results: take open ground (no feature).
                let Some(t) = row.result.as_deref().and_then(|id| rules.terrain(id)) else { continue };
                let r = size / 2.0;
                let x = r + f64::from(dice.roll(((s.board[0] - 2.0 * r).max(1.0)) as u32)) - 1.0;
                let y_min = s
                    .sides
                    .iter()
                    .map(|(_, z)| z.y + z.height)
                    .fold(0.0f64, |m, v| if v < s.board[1] / 2.0 { m.max(v) } else { m });
                let y_max = s
                    .sides
                    .iter()
                    .map(|(_, z)| z.y)
                    .fold(s.board[1], |m, v| if v > s.board[1] / 2.0 { m.min(v) } else { m });
                let span = (y_max - y_min - 2.0 * r).max(1.0);
                let y = y_min + r + f64::from(dice.roll(span as u32)) - 1.0;
                let center = P::new(x, y);
                if log.enabled() {
                    log.push(Event::TerrainPlaced { terrain: rules.terrains[t].id.clone(), center, radius: r });
                }
                game.board.areas.push(Area {
                    terrain: t,
                    poly: Polygon::regular(center, r, 12),
                    center,
                    radius: r,
                    lasts: None,
                });
            }
        }
    }
    for (side, placements) in &s.forces {
        let zone = &s.sides[*side].1;
        // The side's units, by name, in the order first named.
        let mut units: Vec<(&str, Vec<usize>)> = Vec::new();
        for (i, (card, at, facing, unit)) in placements.iter().enumerate() {
            let pos = match at {
                Some([x, y]) => P::new(*x, *y),
                None => P::new(
                    zone.x + zone.width * (i as f64 + 1.0) / (placements.len() as f64 + 1.0),
                    zone.y + zone.height / 2.0,
                ),
            };
            let toward_centre = pos.bearing(P::new(s.board[0] / 2.0, s.board[1] / 2.0));
            let facing = facing.unwrap_or(toward_centre);
            let u = game.add_model(*card, *side, pos, facing);
            if log.enabled() {
                log.push(Event::Deployed {
                    model: u,
                    name: game.models[u].name.clone(),
                    side: game.sides[*side].clone(),
                    at: pos,
                    facing,
                });
            }
            if let Some(name) = unit.as_deref() {
                match units.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, members)) => members.push(u),
                    None => units.push((name, vec![u])),
                }
            }
        }
        for (name, members) in units {
            game.add_squad(name.to_owned(), String::new(), members);
        }
    }
    game
}

/// A squad a side brings from its roster: its name, squad type and models' cards.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadCards {
    pub name: String,
    pub kind: String,
    pub cards: Vec<usize>,
}

/// A side's force from its roster: its squads and its C3 pool.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterForce {
    pub squads: Vec<SquadCards>,
    pub c3: u32,
    /// The threat value pool the force was built to (its starting TVP); `None`: its models' TV.
    pub pool: Option<u32>,
    /// The force group bonus (001 L1830-1845): the pool left unspent, added to the surviving TVP
    /// at the end (with what its strike pools still hold then).
    pub bonus: u32,
    /// Threat value in its strike pools, per package, for `call-strike`.
    pub strike_pools: std::collections::BTreeMap<cav_format::StrikePackage, u32>,
    /// Battlefield assets it holds off the table (`Rules::assets` index, how many): those whose
    /// effects act from a side's hand (`AssetDef::held`).
    pub held: Vec<(usize, u32)>,
    /// Pieces it sets down before deployment (`AssetDef::piece`: fortifications, minefields):
    /// the asset, the terrain of the variant bought (`None`: its own), how many.
    pub pieces: Vec<(usize, Option<usize>, u32)>,
    /// Weapon emplacements it sets down before deployment: the weapon card (naming its asset) and
    /// the bunker's sections, one entry per emplacement.
    pub emplacements: Vec<(usize, u32)>,
}

/// Build a game for a scenario that leaves forces to the players: the scenario's board and
/// terrain as [`scenario_game`], then each side's squads (`forces[side]`) deployed on a grid in
/// its zone, facing the board's centre, and formed into squads.
pub fn roster_game<'r>(
    rules: &'r Rules,
    sc: usize,
    forces: &[RosterForce],
    dice: &mut dyn Dice,
    log: &mut dyn Sink,
    seed: Option<u64>,
) -> Game<'r> {
    let mut game = scenario_game(rules, sc, dice, log, seed);
    let s = &rules.scenarios[sc];
    let mut rooms: Vec<Vec<usize>> = vec![Vec::new(); s.sides.len()];
    // Pieces go down before any model deploys (001 L10522-10526, L10713-10717), but for those
    // the bot holds back with its ambushers: one each, that an ambusher of its type may bring.
    for (side, force) in forces.iter().enumerate().take(s.sides.len()) {
        let mut pieces = force.pieces.clone();
        if let Some(ambush) = &rules.proc.setup.ambush {
            let cards: Vec<usize> = force
                .squads
                .iter()
                .flat_map(|q| q.cards.iter().copied())
                .filter(|&c| ambusher(rules, c) && !game.drops_in(c))
                .collect();
            for card in cards {
                let ty = rules.cards[card].model_type;
                let brings = |a: usize| {
                    ambush
                        .pieces
                        .iter()
                        .any(|p| p.asset.as_str() == rules.assets[a].id && rules.type_in(&p.model_types, ty))
                };
                if let Some(p) = pieces.iter_mut().find(|p| p.2 > 0 && brings(p.0)) {
                    p.2 -= 1;
                    game.features.deployment.ambush_pieces[side].push((p.0, p.1));
                }
            }
        }
        // The pieces with room for models (bunkers) it set down: its infantry deploy in them,
        // one model to a room (001 L10538-10540).
        let placed = set_down_pieces(&mut game, sc, side, &pieces, log);
        set_down_emplacements(&mut game, sc, side, &force.emplacements, log);
        for a in placed {
            let room = rules.terrains[game.board.areas[a].terrain].room.unwrap_or(0);
            rooms[side].extend(std::iter::repeat_n(a, room.min(cav_format::limits::MAX_MODELS as u32) as usize));
        }
    }
    for (side, force) in forces.iter().enumerate().take(s.sides.len()) {
        game.features.c3.pool[side] = force.c3;
        game.tv_pool[side] = force.pool;
        game.tv_bonus[side] = force.bonus;
        game.features.strikes.pools[side] = force.strike_pools.clone();
        game.features.held_assets.held[side] = force.held.clone();
        let squads = &force.squads;
        let zone = &s.sides[side].1;
        let n: usize = squads.iter().map(|q| q.cards.len()).sum();
        let mut spots = match s.within.get(side).cloned().flatten() {
            Some((area, percent)) => split_deployment(zone, &area, percent, n, rules),
            None => grid(zone, n, rules),
        }
        .into_iter();
        for squad in squads {
            let mut members = Vec::new();
            for &card in &squad.cards {
                let Some([x, y]) = spots.next() else { break };
                let infantry = rules.has_trait(rules.cards[card].model_type, cav_format::ModelTrait::Infantry);
                let waits = game.drops_in(card) || ambusher(rules, card);
                let pos = match rooms[side].pop() {
                    Some(a) if infantry && !waits => game.board.areas[a].center,
                    Some(a) => {
                        rooms[side].push(a);
                        P::new(x, y)
                    }
                    None => P::new(x, y),
                };
                let facing = pos.bearing(P::new(s.board[0] / 2.0, s.board[1] / 2.0));
                let u = game.add_model(card, side, pos, facing);
                game.place_emplacement(u, 1);
                // A bot holds every model with Ambush back, to be placed as it activates.
                if game.drops_in(card) {
                    (game.models[u].dropping, game.models[u].waiting) = (true, Some(1));
                } else if ambusher(rules, card) && game.models[u].waiting.is_none() {
                    (game.models[u].ambush, game.models[u].waiting) = (true, Some(1));
                } else if log.enabled() {
                    log.push(Event::Deployed {
                        model: u,
                        name: game.models[u].name.clone(),
                        side: game.sides[side].clone(),
                        at: pos,
                        facing,
                    });
                }
                members.push(u);
            }
            game.add_squad(squad.name.clone(), squad.kind.clone(), members);
        }
        hold_back(&mut game, side);
    }
    game
}

/// Whether a piece of `side` reaching `reach` from `c` lies on the board and out of every
/// opposing deployment zone (001 L10522-10526).
fn may_lie(sides: &[(String, cav_format::Rect)], [bw, bh]: [f64; 2], side: usize, c: P, reach: f64) -> bool {
    c.x - reach >= 0.0
        && c.y - reach >= 0.0
        && c.x + reach <= bw
        && c.y + reach <= bh
        && sides.iter().enumerate().all(|(o, (_, z))| {
            o == side
                || c.x + reach <= z.x
                || c.x - reach >= z.x + z.width
                || c.y + reach <= z.y
                || c.y - reach >= z.y + z.height
        })
}

/// A deployment zone's front edge (the one facing the board's centre): its middle, the unit vector
/// along it, the one pointing out of the zone, and its length.
fn front_edge(zone: &cav_format::Rect, [bw, bh]: [f64; 2]) -> (P, P, P, f64) {
    let centre = P::new(zone.x + zone.width / 2.0, zone.y + zone.height / 2.0);
    if zone.width >= zone.height {
        let up = if bh / 2.0 >= centre.y { 1.0 } else { -1.0 };
        let y = if up > 0.0 { zone.y + zone.height } else { zone.y };
        (P::new(centre.x, y), P::new(1.0, 0.0), P::new(0.0, up), zone.width)
    } else {
        let right = if bw / 2.0 >= centre.x { 1.0 } else { -1.0 };
        let x = if right > 0.0 { zone.x + zone.width } else { zone.x };
        (P::new(x, centre.y), P::new(0.0, 1.0), P::new(right, 0.0), zone.height)
    }
}

/// Set down `side`'s weapon emplacements before deployment, as its pieces go (anywhere but an
/// opposing deployment zone, 001 L10522-10526): the bot's choice is a row 4" in front of its own
/// zone's front edge, spread evenly along it and shifted (up to 12") clear of the terrain and
/// models already down, each facing out of the zone with its bunker laid under it; where none
/// fits, just inside its own front edge.
fn set_down_emplacements(game: &mut Game, sc: usize, side: usize, emplacements: &[(usize, u32)], log: &mut dyn Sink) {
    let rules = game.rules;
    let s = &rules.scenarios[sc];
    let Some((_, zone)) = s.sides.get(side) else { return };
    let (mid, along, out, length) = front_edge(zone, game.board.size);
    let [bw, bh] = game.board.size;
    let n = emplacements.len().min(MAX_TERRAIN_FEATURES);
    for (i, &(card, sections)) in emplacements.iter().take(n).enumerate() {
        let half = rules.cards[card].base_radius;
        let reach = half * (f64::from(sections.max(1)) * 2.0).max(2.0);
        let spot = mid + along.scale(length * ((i as f64 + 0.5) / n as f64 - 0.5)) + out.scale(4.0);
        let fits = |c: P| {
            may_lie(&s.sides, [bw, bh], side, c, reach)
                && game.board.areas.iter().all(|t| t.center.dist(c) >= t.radius + reach)
                && game.models.iter().all(|m| !m.on_table() || m.pos.dist(c) >= reach + 1.0)
        };
        let shifts = (0..=(length as i32).min(12)).flat_map(|k| [k, -k]).map(|k| along.scale(f64::from(k)));
        // (Where none fits, just inside its own front edge, each at its own place along it.)
        let inside = spot + out.scale(-(4.0 + 1.0 + half));
        let at = shifts.map(|d| spot + d).find(|&c| fits(c)).unwrap_or(inside);
        let u = game.add_model(card, side, at, P::new(0.0, 0.0).bearing(out));
        game.place_emplacement(u, sections);
        if log.enabled() {
            log.push(Event::Deployed {
                model: u,
                name: game.models[u].name.clone(),
                side: game.sides[side].clone(),
                at,
                facing: game.models[u].facing,
            });
        }
    }
}

/// Set down `side`'s pre-deployment pieces (a roster's bunkers, trenches, revetments, fighting
/// positions and minefields), which go anywhere but an opposing deployment zone (001
/// L10522-10526, L10588-10592, L10713-10717, L10940-10944, L11004-11008). Where is the player's
/// choice; this is the bot's: fortifications in a row 1" in front of its own zone's front edge
/// (the one facing the board's centre), minefields in a row 6" further out, each row spread
/// evenly along the edge, each shifted along its row (up to 12") as little as keeps it clear of
/// the terrain already down. A piece that cannot lie there without reaching off the table or into an
/// opposing zone goes just inside the side's own front edge instead.
fn set_down_pieces(
    game: &mut Game,
    sc: usize,
    side: usize,
    pieces: &[(usize, Option<usize>, u32)],
    log: &mut dyn Sink,
) -> Vec<usize> {
    let rules = game.rules;
    let s = &rules.scenarios[sc];
    let mut placed = Vec::new();
    let Some((_, zone)) = s.sides.get(side) else { return placed };
    let [bw, bh] = game.board.size;
    let (mid, along, out, length) = front_edge(zone, game.board.size);
    // A side sets down at most as many pieces as a scenario may have terrain features; the log
    // says what is left off (a roster with a huge pool must not stall the set-up).
    let mut all: Vec<(usize, Option<usize>)> = pieces
        .iter()
        .flat_map(|&(a, v, n)| std::iter::repeat_n((a, v), n.min(MAX_TERRAIN_FEATURES as u32) as usize))
        .take(MAX_TERRAIN_FEATURES + 1)
        .collect();
    if all.len() > MAX_TERRAIN_FEATURES {
        all.truncate(MAX_TERRAIN_FEATURES);
        if log.enabled() {
            log.push(Event::AssetUsed {
                side: game.sides[side].clone(),
                asset: "pieces".into(),
                detail: format!("only the first {MAX_TERRAIN_FEATURES} are set down"),
                left: 0,
            });
        }
    }
    for mines in [false, true] {
        let row: Vec<(usize, Option<usize>)> =
            all.iter().copied().filter(|&(a, _)| rules.assets[a].mines.is_some() == mines).collect();
        for (i, &(asset, variant)) in row.iter().enumerate() {
            let Some((a, b)) = rules.assets[asset].piece else { continue };
            // A round piece is (radius, 0); a rectangle lies with its length along the edge.
            let (depth, reach) = if b == 0.0 { (a, a) } else { (b / 2.0, (a * a + b * b).sqrt() / 2.0) };
            let spot = mid + along.scale(length * ((i as f64 + 0.5) / row.len() as f64 - 0.5));
            let ahead = if mines { 7.0 } else { 1.0 } + depth;
            let fits = |c: P| may_lie(&s.sides, [bw, bh], side, c, reach);
            // Clear of the terrain already down where it can be: the spot, then 1", 2", … (up to
            // 12") to either side along the row.
            let clear = |c: P| game.board.areas.iter().all(|t| t.center.dist(c) >= t.radius + reach);
            let shifts = (0..=(length as i32).min(12)).flat_map(|k| [k, -k]).map(|k| along.scale(f64::from(k)));
            let row_at = |ahead: f64| shifts.clone().map(move |d| spot + d + out.scale(ahead));
            let at = row_at(ahead)
                .find(|&c| fits(c) && clear(c))
                .or_else(|| row_at(ahead).find(|&c| fits(c)))
                .unwrap_or(spot + out.scale(-(1.0 + depth)));
            placed.extend(set_down(game, asset, variant, side, at, along, log));
        }
    }
    placed
}

/// Set down a piece of `asset` for `side`, centred on `at`, a rectangle's length along `along`:
/// its minefield (sparing `side`), or its terrain — the `variant` bought, else its own.
pub(crate) fn set_down(
    game: &mut Game,
    asset: usize,
    variant: Option<usize>,
    side: usize,
    at: P,
    along: P,
    log: &mut dyn Sink,
) -> Option<usize> {
    let rules = game.rules;
    let def = &rules.assets[asset];
    let (a, b) = def.piece?;
    let reach = if b == 0.0 { a } else { (a * a + b * b).sqrt() / 2.0 };
    let poly = if b == 0.0 {
        Polygon::regular(at, a, 24)
    } else {
        let (l, w) = (along.scale(a / 2.0), P::new(-along.y, along.x).scale(b / 2.0));
        Polygon {
            points: vec![
                at + l + w,
                at + l + w.scale(-1.0),
                at + l.scale(-1.0) + w.scale(-1.0),
                at + l.scale(-1.0) + w,
            ],
        }
    };
    if def.mines.is_some() {
        if game.lay_minefield(asset, Some(side), side, poly, None).is_ok() && log.enabled() {
            log.push(Event::AssetUsed {
                side: game.sides[side].clone(),
                asset: def.name.clone(),
                detail: format!("a minefield laid at ({:.1}, {:.1})", at.x, at.y),
                left: 0,
            });
        }
    } else if let Some(terrain) = variant.or(def.terrain) {
        game.board.areas.push(Area { terrain, poly, center: at, radius: reach, lasts: None });
        game.board_version += 1;
        if log.enabled() {
            log.push(Event::TerrainPlaced { terrain: rules.terrains[terrain].id.clone(), center: at, radius: reach });
        }
        return Some(game.board.areas.len() - 1);
    }
    None
}

/// The piece `side` held back with its ambushers that `model`, just placed from ambush, brings:
/// the first whose asset a model of its type may bring (`setup.ambush.pieces`, 001
/// L6537-6557), set down under it, its length across the model's front.
pub(crate) fn bring_ambush_piece(game: &mut Game, model: usize, log: &mut dyn Sink) {
    let rules = game.rules;
    let Some(ambush) = &rules.proc.setup.ambush else { return };
    let (side, ty) = (game.models[model].side, game.card(model).model_type);
    let brings = |asset: usize| {
        ambush.pieces.iter().any(|p| p.asset.as_str() == rules.assets[asset].id && rules.type_in(&p.model_types, ty))
    };
    let Some(k) = game.features.deployment.ambush_pieces[side].iter().position(|&(a, _)| brings(a)) else { return };
    let (asset, variant) = game.features.deployment.ambush_pieces[side].remove(k);
    let (at, facing) = (game.models[model].pos, game.models[model].facing);
    set_down(game, asset, variant, side, at, P::heading(facing + 90.0), log);
}

/// What the sides field breaks no rule of the ruleset's force building that holds for models on
/// the table: one model of each kind with the unique special attribute per side (001
/// L8666-8680), and models with a reserved special attribute only in squads of its type (001
/// L845-885; a squad with no type, as a test may form, follows no squad-type rule). Rosters are
/// checked in full before play (`cav force check`); this guards the forces a test places.
pub fn composition(game: &Game) -> Result<(), String> {
    let rules = game.rules;
    let has = |m: usize, sa: SaIx| rules.cards[game.models[m].card].sas.iter().any(|&(x, _)| x == sa);
    if let Some(unique) = rules.unique_sa {
        let mut seen: Vec<(usize, &str)> = Vec::new();
        for m in (0..game.models.len()).filter(|&m| has(m, unique)) {
            // A fitted card (`model+upgrade`) is still the same kind of model.
            let card = &rules.cards[game.models[m].card].id;
            let kind = card.split('+').next().unwrap_or(card);
            let side = game.models[m].side;
            if seen.contains(&(side, kind)) {
                return Err(format!(
                    "{} fields two `{kind}`: it is {}, and a force group fields at most one",
                    game.sides[side], rules.sas[unique as usize].name
                ));
            }
            seen.push((side, kind));
        }
    }
    for q in game.squads.iter().filter(|q| !q.kind.is_empty()) {
        for &m in &q.members {
            if let Some((sa, ty)) = rules.reserved.iter().find(|(sa, ty)| has(m, *sa) && *ty != q.kind) {
                return Err(format!(
                    "`{}` has {} and may only serve in a {ty} squad, not in {} ({})",
                    rules.cards[game.models[m].card].id, rules.sas[*sa as usize].name, q.name, q.kind
                ));
            }
        }
    }
    Ok(())
}

/// Whether models of `card` may be held back in ambush (`setup.ambush`): the card or one of its
/// weapons (a crewed gun) has the special attribute.
pub(crate) fn ambusher(rules: &Rules, card: usize) -> bool {
    let Some(a) = &rules.proc.setup.ambush else { return false };
    let c = &rules.cards[card];
    let named =
        |sas: &[(crate::compile::SaIx, i32)]| sas.iter().any(|(s, _)| rules.sas[*s as usize].id == a.sa.as_str());
    named(&c.sas) || c.weapons.iter().any(|w| named(&w.sas))
}

/// A side that deploys during play (rolling, delayed) waits off the table, each model where it
/// will come on: on its zone's table edge, level with its spot in the zone.
fn hold_back(game: &mut Game, side: usize) {
    let Some(s) = game.scenario.and_then(|s| game.rules.scenarios.get(s)) else { return };
    let Some(turn) = s.methods.get(side).and_then(|m| m.enters()) else { return };
    let Some(edge) = crate::game::victory::zone_edge(&s.sides[side].1, s.board) else { return };
    let [w, h] = s.board;
    for m in 0..game.models.len() {
        if game.models[m].side != side {
            continue;
        }
        let r = game.card(m).base_radius;
        let p = game.models[m].pos;
        game.models[m].pos = match edge {
            cav_format::BoardEdge::Left => P::new(r, p.y),
            cav_format::BoardEdge::Right => P::new(w - r, p.y),
            cav_format::BoardEdge::Bottom => P::new(p.x, r),
            cav_format::BoardEdge::Top => P::new(p.x, h - r),
        };
        game.models[m].waiting = Some(turn);
    }
}

/// `n` spots of which `percent` (rounded up) lie inside `area` and the rest in `zone` outside it.
fn split_deployment(
    zone: &cav_format::Rect,
    area: &cav_format::BoardArea,
    percent: u32,
    n: usize,
    rules: &Rules,
) -> Vec<[f64; 2]> {
    let inside = (n * percent.min(100) as usize).div_ceil(100);
    let square = match area {
        cav_format::BoardArea::Rect(r) => r.clone(),
        cav_format::BoardArea::Circle { at, radius } => {
            let half = radius / std::f64::consts::SQRT_2;
            cav_format::Rect { x: at[0] - half, y: at[1] - half, width: 2.0 * half, height: 2.0 * half }
        }
    };
    let mut out = grid(&square, inside, rules);
    let rest = n - inside;
    let base = rules.cards.iter().map(|c| c.base_radius).fold(0.5f64, f64::max);
    let clear = |p: &[f64; 2]| !crate::game::victory::inside(area, P::new(p[0], p[1]), -base);
    // More spots than needed, so enough fall outside the area.
    let mut extra = rest;
    loop {
        let outside: Vec<[f64; 2]> = grid(zone, extra, rules).into_iter().filter(clear).collect();
        if outside.len() >= rest || extra >= 8 * rest.max(1) {
            out.extend(outside.into_iter().take(rest));
            break;
        }
        extra += rest.max(1);
    }
    // A zone too crowded to keep clear of the area: the last models stand where they can.
    let short = n - out.len();
    out.extend(grid(zone, short, rules));
    out
}

/// `n` spots on a grid inside `zone`, the widest base apart where they fit (closer when they do
/// not), filled row by row along the zone's long side.
fn grid(zone: &cav_format::Rect, n: usize, rules: &Rules) -> Vec<[f64; 2]> {
    if n == 0 {
        return Vec::new();
    }
    let base = rules.cards.iter().map(|c| 2.0 * c.base_radius).fold(1.0f64, f64::max);
    let (long, short) = if zone.width >= zone.height { (zone.width, zone.height) } else { (zone.height, zone.width) };
    let per_row = ((long / base).floor() as usize).clamp(1, n);
    let rows = n.div_ceil(per_row);
    let (step_long, step_short) = (long / per_row as f64, short / rows as f64);
    (0..n)
        .map(|i| {
            let (a, b) = ((i % per_row) as f64 + 0.5, (i / per_row) as f64 + 0.5);
            let (u, v) = (a * step_long, b * step_short);
            if zone.width >= zone.height { [zone.x + u, zone.y + v] } else { [zone.x + v, zone.y + u] }
        })
        .collect()
}

/// Scenario `sc` set up from `seed` — its own forces, or `rosters` on the table for a scenario that
/// leaves forces to the players — and handed to `play` as an engine whose dice are seeded with
/// `seed`: the one way `cav play`, `cav replay`, `cav map`, `cav sim` and `cav watch --run` start a
/// game, so the same seed is the same game in each. Returns the game as `play` left it.
pub fn run<'r, T>(
    rules: &'r Rules,
    sc: usize,
    rosters: Option<&[RosterForce]>,
    seed: u64,
    log: &mut dyn Sink,
    hooks: &mut dyn crate::hooks::Hooks,
    play: impl FnOnce(&mut crate::game::Engine<'_, 'r>) -> T,
) -> (Game<'r>, T) {
    let mut dice = crate::dice::SeededDice::new(seed);
    let game = match rosters {
        Some(forces) => roster_game(rules, sc, forces, &mut dice, log, Some(seed)),
        None => scenario_game(rules, sc, &mut dice, log, Some(seed)),
    };
    let mut engine = crate::game::Engine { game, dice: &mut dice, log, hooks };
    let out = play(&mut engine);
    (engine.game, out)
}
