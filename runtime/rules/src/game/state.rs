//! The game state and the questions asked of it: the board, the models on it, distances, line of
//! sight, arcs and what a weapon could do now. Read-only queries only; the engine changes the state.

use cav_format::{Cover, ModelTrait, RangeMeasure, StateDuration, TargetClass};

use crate::compile::{Rules, SaIx, StateIx};
use crate::geom::{P, Polygon, angle_diff};

/// A terrain area on the board.
#[derive(Debug, Clone)]
pub struct Area {
    pub terrain: usize,
    pub poly: Polygon,
    pub center: P,
    pub radius: f64,
    /// A piece laid during play (a smoke cloud), and for how long.
    pub lasts: Option<Laid>,
}

/// A piece of terrain laid during play: the model that laid it, and how many more of what it
/// counts (that model's activations to start, or turns to end) before it is lifted.
#[derive(Debug, Clone, Copy)]
pub struct Laid {
    pub by: usize,
    pub left: u32,
    pub counts: cav_format::LastsFor,
}

#[derive(Debug, Clone)]
pub struct Board {
    pub size: [f64; 2],
    pub areas: Vec<Area>,
}

/// A squad: models that activate together on one draw-deck card (full rules).
#[derive(Debug, Clone, PartialEq)]
pub struct Squad {
    pub name: String,
    /// The squad type's id.
    pub kind: String,
    pub side: usize,
    pub members: Vec<usize>,
}

/// A model's state on the table.
#[derive(Debug, Clone)]
pub struct Model {
    pub name: String,
    pub side: usize,
    /// The squad the model serves in (`Game::squads`), when its force was built in squads.
    pub squad: Option<usize>,
    pub card: usize,
    pub pos: P,
    pub facing: f64,
    pub damage: u32,
    /// (state, activation count at whose end it ends; u32::MAX = not by activations)
    pub states: Vec<(StateIx, u32)>,
    pub prone: bool,
    pub lock: Option<usize>,
    /// The squad mate that shared the lock (EST), when the model did not take it itself.
    pub lock_from: Option<usize>,
    pub out_of_ammo: Vec<bool>,
    pub ammo_reserve: u32,
    pub crit_combat: i32,
    pub crit_ap: i32,
    pub ap_set: Option<u32>,
    /// Action points of its next activation only (a regrouped squad's models).
    pub ap_once: Option<u32>,
    /// Action points spent ahead of the model's next activation (reactions such as defensive
    /// fire that cost AP), taken off when it activates.
    pub ap_owed: u32,
    pub mv_add: i32,
    pub mv_factor: f64,
    pub no_combat: bool,
    pub zeroed: bool,
    pub destroyed: bool,
    pub left_board: bool,
    /// Left across an edge the scenario scores (not a retreat).
    pub exited: bool,
    pub mission_kill: bool,
    /// Out of action (`procedures.damage.out_of_action`): on the table, never acting again.
    pub out_of_action: bool,
    /// Not yet on the table: it enters across its zone's edge when it activates on or after this
    /// turn (rolling and delayed deployment), standing at `pos` on the edge.
    pub waiting: Option<u32>,
    /// Not a model of the force: an asset that attacks on its own (a minefield's attacker,
    /// `Game::minefields`). It never stands on the table, activates or is attacked.
    pub asset: bool,
    /// Held back for an orbital drop (`setup.orbital_drop`): it lands as it activates.
    pub dropping: bool,
    /// A strike flying in as a model (a cruise missile): it has no card of its own in the draw
    /// deck, and moves when its caller activates (`Engine::missile_flies`).
    pub missile: Option<Missile>,
    /// Held back in ambush: while `waiting`, it is placed anywhere the ruleset's `setup.ambush`
    /// allows as it activates, not on an edge.
    pub ambush: bool,
    /// An aircraft on the ground (models that fly are in flight otherwise).
    pub landed: bool,
    /// Flying nap of the earth; `noe_last` — its activation's last action so far was an NoE move
    /// (it stays NoE only if it ends the activation with one).
    pub noe: bool,
    pub noe_last: bool,
    /// Free facing changes left to the action being taken (one per Move action it is).
    pub free_turns: u32,
    /// Inches moved this activation, and of them forward (the movement states).
    pub moved: f64,
    pub moved_forward: f64,
    /// The transport it rides in: off the table, in play (it activates, to dismount, and counts
    /// for its side), and lost with the transport.
    pub aboard: Option<usize>,
    pub activated: bool,
    pub activations: u32,
    pub pending: Pending,
    /// Last strike point fired at, attempts made there, and whether it was hit.
    pub strike_memory: Option<(P, u32, bool)>,
    /// Flags the action modules put on the model (engaged in close combat, on over-watch, …).
    pub marks: Vec<&'static Mark>,
    /// Uses spent of its single-use upgrades (`SaDef::charges`), by the upgrade's special
    /// attribute: it has as many as the card's rating of it (the purchases).
    pub charges_used: Vec<(SaIx, u32)>,
    /// The corners of the path it moved in its latest activation (from where it started): an
    /// aircraft's declared flight path, along which Airborne riders may jump.
    pub path: Vec<P>,
}

impl Model {
    /// A piece on the table: not destroyed, not gone, not riding in a transport.
    pub fn on_table(&self) -> bool {
        !self.destroyed && !self.left_board && self.aboard.is_none() && self.waiting.is_none() && !self.asset
    }
    /// Still in the game for its side: on the table or riding in a transport (a missile in
    /// flight is on the table but not one of the side's forces).
    pub fn in_play(&self) -> bool {
        !self.destroyed && !self.left_board && !self.asset && self.missile.is_none() && !self.out_of_action
    }
    pub fn has_state(&self, state: StateIx) -> bool {
        self.states.iter().any(|(x, _)| *x == state)
    }
    pub fn has(&self, mark: &Mark) -> bool {
        self.marks.iter().any(|m| m.name == mark.name)
    }
    pub fn mark(&mut self, mark: &'static Mark) {
        if !self.has(mark) {
            self.marks.push(mark);
        }
    }
    pub fn unmark(&mut self, mark: &Mark) {
        self.marks.retain(|m| m.name != mark.name);
    }
    /// Uses of the single-use upgrade `sa` spent so far.
    pub fn charges_spent(&self, sa: SaIx) -> u32 {
        self.charges_used.iter().find(|(x, _)| *x == sa).map_or(0, |(_, n)| *n)
    }
    /// Spend one use of `sa`; the number spent now.
    pub fn spend_charge(&mut self, sa: SaIx) -> u32 {
        match self.charges_used.iter_mut().find(|(x, _)| *x == sa) {
            Some((_, n)) => {
                *n = n.saturating_add(1);
                *n
            }
            None => {
                self.charges_used.push((sa, 1));
                1
            }
        }
    }
}

/// A flag an action puts on a model, declared (as a `static`) by the module of the action that
/// sets it, with how long it lasts. The engine only ends marks by their [`Lasts`]; everything
/// else about a mark (what sets it, what it forbids) stays in its action's module. A mark is a
/// name, not a field of [`Model`], so an action that needs one adds no field here.
#[derive(Debug, PartialEq, Eq)]
pub struct Mark {
    pub name: &'static str,
    pub lasts: Lasts,
}

/// How long a [`Mark`] lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lasts {
    /// Until the start of the next turn.
    Turn,
    /// Until the model takes its next action (any action; one that wants the mark sets it again).
    NextAction,
    /// Until the module that set it takes it away.
    Cleared,
}

impl Model {
    /// `*self = src.clone()`, keeping the buffers `self` holds (its name, states, mounts):
    /// `Game::copy_from`'s. Every field is named, so one added to `Model` is not forgotten here.
    fn copy_from(&mut self, src: &Model) {
        let Model {
            name,
            side,
            squad,
            card,
            pos,
            facing,
            damage,
            states,
            prone,
            lock,
            lock_from,
            out_of_ammo,
            ammo_reserve,
            crit_combat,
            crit_ap,
            ap_set,
            ap_once,
            ap_owed,
            mv_add,
            mv_factor,
            no_combat,
            zeroed,
            destroyed,
            left_board,
            exited,
            mission_kill,
            out_of_action,
            waiting,
            asset,
            dropping,
            missile,
            ambush,
            landed,
            noe,
            noe_last,
            free_turns,
            moved,
            moved_forward,
            aboard,
            activated,
            activations,
            pending,
            strike_memory,
            marks,
            charges_used,
            path,
        } = src;
        self.name.clone_from(name);
        self.side.clone_from(side);
        self.squad.clone_from(squad);
        self.card.clone_from(card);
        self.pos.clone_from(pos);
        self.facing.clone_from(facing);
        self.damage.clone_from(damage);
        self.states.clone_from(states);
        self.prone.clone_from(prone);
        self.lock.clone_from(lock);
        self.lock_from.clone_from(lock_from);
        self.out_of_ammo.clone_from(out_of_ammo);
        self.ammo_reserve.clone_from(ammo_reserve);
        self.crit_combat.clone_from(crit_combat);
        self.crit_ap.clone_from(crit_ap);
        self.ap_set.clone_from(ap_set);
        self.ap_once.clone_from(ap_once);
        self.ap_owed.clone_from(ap_owed);
        self.mv_add.clone_from(mv_add);
        self.mv_factor.clone_from(mv_factor);
        self.no_combat.clone_from(no_combat);
        self.zeroed.clone_from(zeroed);
        self.destroyed.clone_from(destroyed);
        self.left_board.clone_from(left_board);
        self.exited.clone_from(exited);
        self.mission_kill.clone_from(mission_kill);
        self.out_of_action.clone_from(out_of_action);
        self.waiting.clone_from(waiting);
        self.asset.clone_from(asset);
        self.dropping.clone_from(dropping);
        self.missile.clone_from(missile);
        self.ambush.clone_from(ambush);
        self.landed.clone_from(landed);
        self.noe.clone_from(noe);
        self.noe_last.clone_from(noe_last);
        self.free_turns.clone_from(free_turns);
        self.moved.clone_from(moved);
        self.moved_forward.clone_from(moved_forward);
        self.aboard.clone_from(aboard);
        self.activated.clone_from(activated);
        self.activations.clone_from(activations);
        self.pending.clone_from(pending);
        self.strike_memory.clone_from(strike_memory);
        self.marks.clone_from(marks);
        self.charges_used.clone_from(charges_used);
        self.path.clone_from(path);
    }
}

impl<'r> Game<'r> {
    /// `*self = src.clone()`, keeping the buffers `self` holds where it can (the odds replay an
    /// attack from one game once per die sequence, in the same game each time). Every field is
    /// named, so one added to `Game` is not forgotten here.
    pub fn copy_from(&mut self, src: &Game<'r>) {
        let Game {
            rules,
            board,
            models,
            squads,
            victory,
            commanders,
            scenario,
            zones,
            objective_points,
            tv_pool,
            tv_bonus,
            hvo,
            containers,
            structures,
            c3,
            scripted,
            strike_pools,
            held,
            ambush_pieces,
            skipped_in_turn,
            chains,
            inspired,
            sides,
            turn,
            active,
            joined,
            activation_over,
            squad_activating,
            used,
            extra_targets,
            counter_battery,
            counter_battery_waits,
            counter_battery_pending,
            sight_memo,
            board_version,
            in_model_state,
            started,
            turn_limit,
            declined,
            settled_reactions,
            minefields,
            seekers,
            drop_zones,
            mined,
            fumbles,
            single_use_fired,
            damage_dealt,
        } = src;
        self.models.truncate(models.len());
        let kept = self.models.len();
        for (m, from) in self.models.iter_mut().zip(models) {
            m.copy_from(from);
        }
        self.models.extend_from_slice(&models[kept..]);
        self.rules.clone_from(rules);
        self.board.clone_from(board);
        self.squads.clone_from(squads);
        self.victory.clone_from(victory);
        self.commanders.clone_from(commanders);
        self.scenario.clone_from(scenario);
        self.zones.clone_from(zones);
        self.objective_points.clone_from(objective_points);
        self.tv_pool.clone_from(tv_pool);
        self.tv_bonus.clone_from(tv_bonus);
        self.hvo.clone_from(hvo);
        self.containers.clone_from(containers);
        self.structures.clone_from(structures);
        self.c3.clone_from(c3);
        self.scripted.clone_from(scripted);
        self.strike_pools.clone_from(strike_pools);
        self.held.clone_from(held);
        self.ambush_pieces.clone_from(ambush_pieces);
        self.skipped_in_turn.clone_from(skipped_in_turn);
        self.chains.clone_from(chains);
        self.inspired.clone_from(inspired);
        self.sides.clone_from(sides);
        self.turn.clone_from(turn);
        self.active.clone_from(active);
        self.joined.clone_from(joined);
        self.activation_over.clone_from(activation_over);
        self.squad_activating.clone_from(squad_activating);
        self.used.clone_from(used);
        self.extra_targets.clone_from(extra_targets);
        self.counter_battery.clone_from(counter_battery);
        self.counter_battery_waits.clone_from(counter_battery_waits);
        self.counter_battery_pending.clone_from(counter_battery_pending);
        self.sight_memo.clone_from(sight_memo);
        self.board_version.clone_from(board_version);
        self.in_model_state.clone_from(in_model_state);
        self.started.clone_from(started);
        self.turn_limit.clone_from(turn_limit);
        self.declined.clone_from(declined);
        self.settled_reactions.clone_from(settled_reactions);
        self.minefields.clone_from(minefields);
        self.seekers.clone_from(seekers);
        self.drop_zones.clone_from(drop_zones);
        self.mined.clone_from(mined);
        self.fumbles.clone_from(fumbles);
        self.single_use_fired.clone_from(single_use_fired);
        self.damage_dealt.clone_from(damage_dealt);
    }
}

/// Effects waiting for the end of the current activation.
#[derive(Debug, Clone, Default)]
pub struct Pending {
    pub damage: u32,
    pub pilot_check: Option<i32>,
    pub states: Vec<StateIx>,
    pub criticals: u32,
}

/// Why `shot` refuses a target beyond the weapon's longest band.
pub const OUT_OF_RANGE: &str = "out of range";

/// The whole game state.
#[derive(Debug, Clone)]
pub struct Game<'r> {
    pub rules: &'r Rules,
    pub board: Board,
    pub models: Vec<Model>,
    /// Squads of forces built in squads (rosters); empty when every model stands alone.
    pub squads: Vec<Squad>,
    /// How the scenario is won (beyond the last side standing).
    pub victory: cav_format::VictoryKind,
    /// Per side, its commander when the scenario is won by keeping one (chosen at the start).
    pub commanders: Vec<Option<usize>>,
    /// The scenario being played (its objectives), when the game was set up from one.
    pub scenario: Option<usize>,
    /// Per side, the centre of its deployment zone, where the game has zones (a scenario's, or a
    /// test's): the half of the board nearer a side's zone is that side's half.
    pub zones: Vec<Option<P>>,
    /// Per side, objective points scored.
    pub objective_points: Vec<u32>,
    /// Per side, the threat value pool its force was built to (`None`: a scenario's fixed force,
    /// whose starting TVP is its models' TV).
    pub tv_pool: Vec<Option<u32>>,
    /// Per side, the force group bonus added to its surviving TVP.
    pub tv_bonus: Vec<u32>,
    /// The rescue's high-value operative, where the scenario has one.
    pub hvo: Option<super::missions::HvoState>,
    /// The salvage containers, where the scenario has them (number = index + 1).
    pub containers: Vec<super::missions::Container>,
    /// What structures (board areas) have suffered: armor class and damage points lost, fire.
    pub structures: Vec<super::structures::StructureState>,
    /// Per side, C3 points left in the force's pool.
    pub c3: Vec<u32>,
    /// Scripts run in this game (the engine's hooks are active): a controller may take the
    /// Special actions they grant.
    pub scripted: bool,
    /// Per side, threat value left in its strike pool for each strike package (`call-strike`).
    pub strike_pools: Vec<std::collections::BTreeMap<cav_format::StrikePackage, u32>>,
    /// Per side, the battlefield assets it holds off the table (`Rules::assets` index, how many).
    pub held: Vec<Vec<(usize, u32)>>,
    /// Per side, the pieces held back with its ambushing models (asset, variant terrain): set
    /// down under one as it is placed (`setup.ambush.pieces`).
    pub ambush_pieces: Vec<Vec<(usize, Option<usize>)>>,
    /// Per side, the turn it last skipped a drawn card with a held asset (one a turn).
    pub skipped_in_turn: Vec<u32>,
    /// Chains of indirect fire started this game (Chain-Fire Pod): squad, target, turn, and the
    /// strike point if the first roll landed (`None`: it missed).
    pub chains: Vec<(usize, usize, u32, Option<P>)>,
    /// A C3 point inspires the current action's next target-point roll.
    pub inspired: bool,
    pub sides: Vec<String>,
    pub turn: u32,
    pub active: Option<usize>,
    /// Models that join the activating squad now (a regrouped partner squad): the turn loop
    /// activates them with it.
    pub joined: Vec<usize>,
    /// The active model's activation ends now, whatever AP it has left (a charge that fell short).
    pub activation_over: bool,
    /// A squad of several models is activating: damage waits for the last of them.
    pub squad_activating: bool,
    /// Non-repeatable actions the active model has used this activation.
    pub used: Vec<cav_format::ActionKind>,
    /// Targets beyond the first of the active model's combat action (split fire, a lock on
    /// another model): the `multiple-targets` condition of its combat rolls this activation.
    pub extra_targets: i32,
    /// A counter-battery answer is being resolved (the `counter-battery` condition).
    pub counter_battery: bool,
    /// Counter-battery answers wait until the attacker's move is over (run 'n gun with move left).
    pub(crate) counter_battery_waits: bool,
    /// Counter-battery answers declared and waiting to land: (answering model, weapon mounts, the
    /// attacker's firing place).
    pub(crate) counter_battery_pending: Vec<(usize, Vec<usize>, P)>,
    /// The last line-of-sight answers, keyed by models, positions and terrain count: a decision
    /// asks the same question for every weapon.
    sight_memo: std::cell::RefCell<Vec<(SightKey, Sight)>>,
    /// Counts changes to the board's terrain that keep its number of pieces (one laid, one
    /// lifted), so a remembered line of sight is not taken for the new board's.
    pub(crate) board_version: u64,
    /// A `model_state` hook is running (its effects do not call it again).
    pub(crate) in_model_state: bool,
    /// `Engine::start` has run (`game_setup` is called once per game).
    pub started: bool,
    /// Turns after which the game is a draw: the ruleset's, or the scenario's own.
    pub turn_limit: u32,
    /// Optional special attributes the active model declined for the action being resolved:
    /// (SA index, weapon mount for a weapon's SA). They neither modify rolls nor run handlers.
    pub declined: Vec<(u16, Option<usize>)>,
    /// (watcher, mover) pairs whose over-watch reaction is settled for the current move: a script
    /// refused it, or the watcher already stopped the mover.
    pub(crate) settled_reactions: Vec<(usize, usize)>,
    /// Minefields on the table (001 L10701-10761).
    pub minefields: Vec<Minefield>,
    /// The landing zone each squad dropping in named this turn: (squad, turn, zone).
    pub drop_zones: Vec<(usize, u32, P)>,
    /// Seeking submunitions waiting for a target (`MountDef::seeks`).
    pub seekers: Vec<Seeker>,
    /// (minefield, model) pairs attacked during the current action (one attack per action each).
    pub(crate) mined: Vec<(usize, usize)>,
    /// The models that rolled a critical fumble during the current action, once per fumble
    /// (an out-of-ammo check's target point may rise with each).
    pub(crate) fumbles: Vec<usize>,
    /// (model, mount) of single-use mounts that fired in the current action.
    pub(crate) single_use_fired: Vec<(usize, usize)>,
    pub damage_dealt: Vec<u32>,
}

/// The four firing arcs of a model (001 L3757-3911): quarters around its facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arc {
    Front,
    Right,
    Back,
    Left,
}

impl Arc {
    pub fn name(self) -> &'static str {
        match self {
            Arc::Front => "front",
            Arc::Right => "right",
            Arc::Back => "back",
            Arc::Left => "left",
        }
    }
}

/// What one weapon would do against a target right now.
#[derive(Debug, Clone, PartialEq)]
pub enum Shot {
    Direct { band: usize, distance: f64 },
    Indirect { band: usize, distance: f64 },
    No(String),
}

impl<'r> Game<'r> {
    pub fn new(rules: &'r Rules, board: Board, sides: Vec<String>) -> Self {
        Game {
            rules,
            board,
            models: Vec::new(),
            damage_dealt: vec![0; sides.len()],
            squads: Vec::new(),
            victory: cav_format::VictoryKind::LastStanding,
            commanders: Vec::new(),
            scenario: None,
            zones: Vec::new(),
            objective_points: Vec::new(),
            c3: vec![0; sides.len()],
            scripted: false,
            strike_pools: vec![Default::default(); sides.len()],
            held: vec![Vec::new(); sides.len()],
            ambush_pieces: vec![Vec::new(); sides.len()],
            skipped_in_turn: vec![0; sides.len()],
            chains: Vec::new(),
            tv_pool: vec![None; sides.len()],
            hvo: None,
            structures: Vec::new(),
            containers: Vec::new(),
            tv_bonus: vec![0; sides.len()],
            inspired: false,
            sides,
            turn: 0,
            active: None,
            used: Vec::new(),
            squad_activating: false,
            activation_over: false,
            joined: Vec::new(),
            extra_targets: 0,
            counter_battery: false,
            counter_battery_waits: false,
            counter_battery_pending: Vec::new(),
            sight_memo: std::cell::RefCell::new(Vec::new()),
            board_version: 0,
            in_model_state: false,
            started: false,
            turn_limit: rules.turn_limit,
            declined: Vec::new(),
            settled_reactions: Vec::new(),
            minefields: Vec::new(),
            seekers: Vec::new(),
            drop_zones: Vec::new(),
            mined: Vec::new(),
            fumbles: Vec::new(),
            single_use_fired: Vec::new(),
        }
    }

    /// Form a squad of models already on the table (of one side).
    pub fn add_squad(&mut self, name: String, kind: String, members: Vec<usize>) -> usize {
        let ix = self.squads.len();
        let side = members.first().map_or(0, |&m| self.models[m].side);
        for &m in &members {
            self.models[m].squad = Some(ix);
        }
        self.squads.push(Squad { name, kind, side, members });
        ix
    }

    /// The activation units of a side: squads (per-squad activation) or models (per-model, and
    /// models that serve in no squad), in model order, each with its members still on the table.
    pub fn units(&self, side: usize) -> Vec<Vec<usize>> {
        let per_squad = self.rules.activation == cav_format::ActivationMode::PerSquad;
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut squad_slot: Vec<Option<usize>> = vec![None; self.squads.len()];
        // A side's weapon emplacements share one card (001 L10544-10564).
        let mut emplacements: Option<usize> = None;
        for (i, m) in self.models.iter().enumerate() {
            // A delayed squad has no cards before its turn; a missile flies with its caller.
            if m.side != side || !m.in_play() || m.waiting.is_some_and(|t| t > self.turn) || m.missile.is_some() {
                continue;
            }
            if self.card(i).emplacement.is_some() {
                match emplacements {
                    Some(slot) => out[slot].push(i),
                    None => {
                        emplacements = Some(out.len());
                        out.push(vec![i]);
                    }
                }
                continue;
            }
            match m.squad.filter(|_| per_squad) {
                Some(s) => match squad_slot[s] {
                    Some(slot) => out[slot].push(i),
                    None => {
                        squad_slot[s] = Some(out.len());
                        out.push(vec![i]);
                    }
                },
                None => out.push(vec![i]),
            }
        }
        out
    }

    /// Units of a side that have left play: squads with no model on the table, and models off
    /// the table that serve in no squad (every model, under per-model activation).
    pub fn units_gone(&self, side: usize) -> usize {
        let per_squad = self.rules.activation == cav_format::ActivationMode::PerSquad;
        let squads = if per_squad {
            self.squads
                .iter()
                .filter(|s| s.side == side && s.members.iter().all(|&m| !self.models[m].in_play()))
                .count()
        } else {
            0
        };
        let loners = self
            .models
            .iter()
            .filter(|m| m.side == side && !m.in_play() && !m.asset && m.missile.is_none())
            .filter(|m| m.squad.is_none() || !per_squad)
            .count();
        squads + loners
    }

    pub fn add_model(&mut self, card: usize, side: usize, pos: P, facing: f64) -> usize {
        let c = &self.rules.cards[card];
        let side_name = self.sides.get(side).cloned().unwrap_or_default();
        let n = self.models.iter().filter(|u| u.side == side && u.card == card).count();
        let name =
            if n == 0 { format!("{} {}", side_name, c.name) } else { format!("{} {} #{}", side_name, c.name, n + 1) };
        self.models.push(Model {
            name,
            side,
            card,
            pos,
            facing,
            damage: 0,
            states: Vec::new(),
            prone: false,
            lock: None,
            lock_from: None,
            out_of_ammo: vec![false; c.weapons.len()],
            ammo_reserve: c.ammo_reserve,
            crit_combat: 0,
            crit_ap: 0,
            ap_set: None,
            ap_once: None,
            ap_owed: 0,
            mv_add: 0,
            mv_factor: 1.0,
            no_combat: false,
            zeroed: false,
            destroyed: false,
            left_board: false,
            exited: false,
            mission_kill: false,
            out_of_action: false,
            aboard: None,
            free_turns: 1,
            waiting: None,
            asset: false,
            dropping: false,
            missile: None,
            ambush: false,
            landed: false,
            noe: false,
            noe_last: false,
            moved: 0.0,
            moved_forward: 0.0,
            activated: false,
            squad: None,
            activations: 0,
            pending: Pending::default(),
            strike_memory: None,
            marks: Vec::new(),
            charges_used: Vec::new(),
            path: Vec::new(),
        });
        self.models.len() - 1
    }

    /// Damage-track column in use.
    pub fn column(&self, model: usize) -> usize {
        let me = &self.models[model];
        (me.damage as usize).min(self.rules.cards[me.card].columns - 1)
    }

    /// The card `model` plays as: its own, or the one its switched upgrades give while their
    /// states are on (`CardDef::switch`).
    pub fn card(&self, model: usize) -> &crate::compile::CardDef {
        self.rules.card_of(&self.models[model])
    }

    /// The gap between two bases (edge to edge): what base contact and adjacency are about.
    pub fn distance(&self, model: usize, other: usize) -> f64 {
        let (a, b) = (&self.models[model], &self.models[other]);
        (a.pos.dist(b.pos) - self.card(model).base_radius - self.card(other).base_radius).max(0.0)
    }

    /// The range between two models as the ruleset measures it (`sight.range_measured`): what
    /// range bands, minimum and point-blank range are read against.
    pub fn range(&self, model: usize, other: usize) -> f64 {
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => self.distance(model, other),
            RangeMeasure::CentreToCentre => self.models[model].pos.dist(self.models[other].pos),
        }
    }

    /// The range from a model to a point on the board (a strike point), measured as
    /// [`range`](Self::range) measures it between models.
    pub fn range_to_point(&self, model: usize, p: P) -> f64 {
        (self.models[model].pos.dist(p) - self.range_offset(model)).max(0.0)
    }

    /// How much nearer than its centre a model's ranges start: its base's radius when ranges
    /// are measured from the edge of the base, 0 from its centre.
    pub fn range_offset(&self, model: usize) -> f64 {
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => self.card(model).base_radius,
            RangeMeasure::CentreToCentre => 0.0,
        }
    }

    /// Is the point on the board (edges included)?
    pub fn on_board(&self, p: P) -> bool {
        let [w, h] = self.board.size;
        (-1e-9..=w + 1e-9).contains(&p.x) && (-1e-9..=h + 1e-9).contains(&p.y)
    }

    /// Lying down: gone prone, or in the ruleset's prone state (a knocked-down CAV).
    pub fn lying(&self, model: usize) -> bool {
        let me = &self.models[model];
        me.prone || me.has_state(self.rules.proc.damage.prone_state)
    }

    pub fn enemies(&self, model: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.models[model].side;
        (0..self.models.len()).filter(move |&i| self.models[i].side != side && self.models[i].on_table())
    }

    /// The enemies still in the fight: on the table and not out of action (what a bot aims at;
    /// an out-of-action model may still be attacked).
    pub fn fighting_enemies(&self, model: usize) -> impl Iterator<Item = usize> + '_ {
        self.enemies(model).filter(|&i| !self.models[i].out_of_action)
    }

    pub fn state_blocks(&self, model: usize, f: impl Fn(&crate::compile::StateDef) -> bool) -> bool {
        self.models[model].states.iter().any(|(s, _)| f(&self.rules.states[*s as usize]))
    }

    /// Current move value: card column, criticals and states.
    pub fn move_value(&self, model: usize) -> u32 {
        let me = &self.models[model];
        if self.state_blocks(model, |s| s.no_move)
            || self.rules.has_trait(self.card(model).model_type, ModelTrait::Towed)
        {
            return 0;
        }
        let base = self.damaged_mv(model);
        let states: i32 = me.states.iter().map(|(s, _)| self.rules.states[*s as usize].move_value).sum();
        (((base + states).max(0) as f64) * me.mv_factor).floor() as u32
    }

    /// The structure (board area) a ground model stands inside, if any.
    pub fn structure_at(&self, model: usize) -> Option<usize> {
        if self.flying(model) || !self.models[model].on_table() {
            return None;
        }
        let p = self.models[model].pos;
        (0..self.board.areas.len()).find(|&a| {
            let area = &self.board.areas[a];
            // Every area's corners lie within its radius of its centre (to rounding, allowed for
            // here): a point farther out cannot be inside, and the polygon test need not run.
            self.rules.terrains[area.terrain].structure.is_some()
                && area.center.dist(p) <= area.radius.abs() * (1.0 + 1e-9) + 1e-9
                && area.poly.contains(p)
        })
    }

    /// Whether the model is in flight: its type flies and it has not landed.
    pub fn flying(&self, model: usize) -> bool {
        self.rules.has_trait(self.card(model).model_type, ModelTrait::Flies) && !self.models[model].landed
    }

    /// A trait of the model's type as it stands now: `flies` only while in flight.
    pub fn has_trait_now(&self, model: usize, t: ModelTrait) -> bool {
        if t == ModelTrait::Flies { self.flying(model) } else { self.rules.has_trait(self.card(model).model_type, t) }
    }

    /// The move value damage and criticals leave, states aside: 0 = it will never move again.
    pub fn lasting_move_value(&self, model: usize) -> u32 {
        let base = self.damaged_mv(model);
        ((base.max(0) as f64) * self.models[model].mv_factor).floor() as u32
    }

    /// The MV of the model's damage-track column with its criticals' changes, less any part of
    /// the loss against its first column that its card gives back (Relentless, 001 L8119-8123).
    fn damaged_mv(&self, model: usize) -> i32 {
        let card = self.card(model);
        let now = (card.mv[self.column(model)] as i32).saturating_add(self.models[model].mv_add);
        let lost = (card.mv.first().map_or(0, |&m| m as i32) - now).max(0);
        now + lost.min(card.mv_loss_cut.max(0))
    }

    /// Why the ruleset's action type `action` is closed to `model` (its `model_types:`), or to
    /// being aimed at `target` (its `target_model_types:`); `None` when it is open.
    pub fn action_closed(&self, model: usize, action: &str, target: Option<usize>) -> Option<String> {
        let types = self.rules.action_model_types.get(action)?;
        let card = self.card(model);
        let ty = card.model_type;
        let opened = || card.sas.iter().any(|(s, _)| types.open_with.contains(s));
        if !types.by.is_empty() && !types.by.contains(&ty) && !opened() {
            return Some(format!("{} models may not take the {action} action", ty.id()));
        }
        // (A target that is no model is the action's own refusal to make.)
        let ty = self.card(target.filter(|&t| t < self.models.len())?).model_type;
        (!types.at.is_empty() && !types.at.contains(&ty))
            .then(|| format!("the {action} action may not be aimed at {} models", ty.id()))
    }

    pub fn can_fight(&self, model: usize) -> bool {
        let me = &self.models[model];
        !me.no_combat
            && !me.out_of_action
            && !self.state_blocks(model, |s| s.no_combat || s.no_actions && s.duration == StateDuration::Permanent)
    }

    /// Ground level under a point (hills raise it).
    pub fn ground(&self, p: P) -> i32 {
        self.board
            .areas
            .iter()
            .filter(|a| {
                self.rules.terrains[a.terrain].raises_ground && a.center.dist(p) <= a.radius && a.poly.contains(p)
            })
            .map(|a| self.rules.terrains[a.terrain].elevation)
            .max()
            .unwrap_or(0)
    }

    fn height(&self, model: usize) -> i32 {
        let me = &self.models[model];
        let own = if self.lying(model) {
            self.rules.proc.sight.prone_height
        } else {
            self.rules.model_type(self.card(model).model_type).map_or(0, |t| t.height) // compile refuses unplayed types
        };
        own + self.ground(me.pos)
    }

    /// Total elevation level: the model's own height (prone height when prone) plus the ground
    /// it stands on.
    pub fn elevation(&self, model: usize) -> i32 {
        self.height(model)
    }

    /// The close-combat value of `model` against `other` now: hard or soft by the other's card,
    /// in the current column; 0 with its weapons zeroed.
    pub fn ccv(&self, model: usize, other: usize) -> i32 {
        let (hard, soft) = self.card(model).ccv[self.column(model)];
        let oc = self.card(other);
        let v = if oc.soft && !oc.hard { soft } else { hard };
        if self.models[model].zeroed { 0 } else { v.map_or(0, i32::from) }
    }

    /// The range band mount `weapon` of `attacker` is in against `target`, if any (at the range
    /// as the ruleset measures it).
    pub fn band(&self, attacker: usize, weapon: usize, target: usize) -> Option<usize> {
        let m = self.card(attacker).weapons.get(weapon)?;
        let dist = self.range(attacker, target);
        let band = self.rules.bands.iter().position(|b| dist <= m.range * b.multiplier)?;
        Some(self.shifted_band(attacker, weapon, Some(target), dist, band))
    }

    /// The band an attack counts as: the measured `band` shifted by the mount's range-band
    /// effects that hold against `target` (Improved Range: one band shorter, 001 L7691-7699),
    /// never past the shortest or the longest band. Out of range stays out of range.
    pub fn shifted_band(&self, attacker: usize, weapon: usize, target: Option<usize>, dist: f64, band: usize) -> usize {
        let Some(m) = self.card(attacker).weapons.get(weapon) else { return band };
        if m.band_shift.is_empty() {
            return band;
        }
        let s = crate::game::engine::Situation {
            attacker,
            defender: target,
            weapon: Some(weapon),
            band: Some(band),
            distance: dist,
            ..Default::default()
        };
        let shift: i32 =
            m.band_shift.iter().filter(|(_, when)| when.iter().all(|c| c.times(self, &s) > 0)).map(|(v, _)| *v).sum();
        (band as i32 + shift).clamp(0, self.rules.bands.len() as i32 - 1) as usize
    }

    /// Whether one of the model's own declarative effects on `target` holds for it now: one
    /// without conditions, or one whose `when:` conditions hold with the model as the roller
    /// (Improved Handling's drift for aircraft and quad CAVs only).
    pub fn own_effect_holds(&self, model: usize, target: cav_format::ModifierTarget) -> bool {
        self.own_effect(model, target).is_some()
    }

    /// The largest value of the model's own declarative effects on `target` that hold for it now
    /// (as `own_effect_holds`), if any does (a drift's widest angle off the facing).
    pub fn own_effect(&self, model: usize, target: cav_format::ModifierTarget) -> Option<i32> {
        let s = crate::game::engine::Situation { attacker: model, ..Default::default() };
        self.card(model)
            .sas
            .iter()
            .flat_map(|&(sa, _)| &self.rules.sas[sa as usize].effects)
            .filter(|e| e.target == target && e.value > 0 && e.when.iter().all(|c| c.times(self, &s) > 0))
            .map(|e| e.value)
            .max()
    }

    /// A shift by `model` (keeping its facing) from `from` to `to`: a lateral shift straight
    /// sideways, or a drift forwards and aside up to its `drift` effect's degrees off the facing,
    /// as the model's chassis allows (001 L7659-7676). Its cost per inch travelled (a drift pays only for the inches
    /// gained forwards), or why it may not.
    pub fn shift_cost_factor(&self, model: usize, from: P, to: P) -> Result<f64, String> {
        if to.dist(from) <= 1e-9 {
            return Ok(1.0);
        }
        let off = crate::geom::angle_diff(self.models[model].facing, from.bearing(to)).abs();
        let drift = self.own_effect(model, cav_format::ModifierTarget::Drift).map(|d| f64::from(d.min(89)));
        if off > 90.0 + 1e-6 {
            return Err("a shift goes sideways or forwards, not back".into());
        }
        if (off - 90.0).abs() < 1e-6 {
            return match self.own_effect_holds(model, cav_format::ModifierTarget::LateralShift) {
                true => Ok(1.0),
                false => Err("this model drifts forwards and aside but does not shift straight sideways".into()),
            };
        }
        match drift {
            Some(widest) if off <= widest + 1e-6 => Ok(off.to_radians().cos()),
            Some(widest) => Err(format!("a drift goes at most {widest}° off the facing, or straight sideways")),
            None => Err("this model shifts straight sideways only: it has no drift".into()),
        }
    }

    /// Whether the model stands in terrain its move class may not enter, where only a special
    /// attribute brought it (Amphibious under water, 001 L6649-6655).
    pub fn underwater(&self, model: usize) -> bool {
        let (pos, mc) = (self.models[model].pos, self.card(model).move_class);
        self.board.areas.iter().any(|a| {
            let t = &self.rules.terrains[a.terrain];
            !t.entered_with.is_empty()
                && t.costs[mc] == crate::compile::Cost::No
                && a.center.dist(pos) <= a.radius
                && a.poly.contains(pos)
        })
    }

    /// Whether special attribute `sa` of mount `weapon` of `attacker` applies to an attack on
    /// `target`: a special attribute given under a condition (`MountDef::sa_when`) only while it
    /// holds.
    pub fn mount_sa_holds(
        &self,
        attacker: usize,
        weapon: usize,
        sa: crate::compile::SaIx,
        target: Option<usize>,
    ) -> bool {
        let Some(m) = self.card(attacker).weapons.get(weapon) else { return true };
        let mut when = m.sa_when.iter().filter(|(s, _)| *s == sa).peekable();
        if when.peek().is_none() {
            return true;
        }
        let s = crate::game::engine::Situation {
            attacker,
            defender: target,
            weapon: Some(weapon),
            distance: target.map_or(0.0, |t| self.range(attacker, t)),
            ..Default::default()
        };
        when.all(|(_, c)| c.times(self, &s) > 0)
    }

    /// Line of sight and the best cover that counts between attacker and defender.
    /// `only_defenders_own`: guided missiles and rockets ignore intervening cover (000 L686).
    pub fn sight(&self, attacker: usize, target: usize, only_defenders_own: bool) -> (bool, Cover) {
        let v = self.sight_full(attacker, target, only_defenders_own);
        (v.los, v.cover)
    }

    /// How many points of woods along the line of sight go beyond the cover type's own (the full
    /// rules' woods stacking: two intervening light woods and the defender's own near its edge
    /// are heavy cover worth 3), for the `extra-woods` condition.
    pub fn cover_extra(&self, attacker: usize, target: usize, only_defenders_own: bool) -> i32 {
        self.sight_full(attacker, target, only_defenders_own).extra
    }

    /// `sight`'s cover and `cover_extra` together (one line of sight asked for both).
    pub fn sight_cover(&self, attacker: usize, target: usize, only_defenders_own: bool) -> (bool, Cover, i32) {
        let v = self.sight_full(attacker, target, only_defenders_own);
        (v.los, v.cover, v.extra)
    }

    fn sight_full(&self, attacker: usize, target: usize, only_defenders_own: bool) -> Sight {
        let key = SightKey {
            attacker,
            target,
            own: only_defenders_own,
            pa: self.models[attacker].pos,
            pd: self.models[target].pos,
            areas: self.board.areas.len(),
            version: self.board_version,
            models: self.models_fingerprint(),
        };
        if let Some((_, v)) = self.sight_memo.borrow().iter().find(|(k, _)| *k == key) {
            return self.dug_in(target, *v);
        }
        let v = self.sight_uncached(attacker, target, only_defenders_own);
        let mut memo = self.sight_memo.borrow_mut();
        if memo.len() >= 8 {
            memo.remove(0);
        }
        memo.push((key, v));
        self.dug_in(target, v)
    }

    /// A dug-in target has at least the ruleset's dig-in cover where it is in sight.
    fn dug_in(&self, target: usize, v: Sight) -> Sight {
        match &self.rules.proc.dig_in {
            Some((cover, _))
                if v.los
                    && self.models[target].has(&super::actions::DUG_IN)
                    && cover_rank(*cover) > cover_rank(v.cover) =>
            {
                Sight { cover: *cover, ..v }
            }
            _ => v,
        }
    }

    fn sight_uncached(&self, attacker: usize, target: usize, only_defenders_own: bool) -> Sight {
        if let Some(air) = self.rules.proc.sight.aircraft
            && (self.flying(attacker) || self.flying(target))
        {
            return self.sight_with_aircraft(attacker, target, air);
        }
        let end = SightEnd {
            pos: self.models[target].pos,
            height: self.height(target),
            radius: self.card(target).base_radius,
            model: Some(target),
        };
        self.sight_to(attacker, end, only_defenders_own)
    }

    /// Whether `attacker` sees the ground at `p` (an indirect attack's strike point with no model
    /// on it): the line of sight to a model standing there, as tall as the ground and no wider
    /// than a point.
    pub fn sees_point(&self, attacker: usize, p: P) -> bool {
        if self.rules.proc.sight.aircraft.is_some() && self.flying(attacker) {
            // From the air only the terrain the point lies in can hide it (001 L4233-4275).
            let ground = self.ground(p);
            return !self
                .board
                .areas
                .iter()
                .any(|a| a.poly.contains(p) && self.area_cover(a, ground).0 == Cover::Blocking);
        }
        let end = SightEnd { pos: p, height: self.ground(p), radius: 0.0, model: None };
        self.sight_to(attacker, end, false).los
    }

    /// `sight_uncached` towards `end`, a model on the ground or a point.
    fn sight_to(&self, attacker: usize, end: SightEnd, only_defenders_own: bool) -> Sight {
        let (pa, pd) = (self.models[attacker].pos, end.pos);
        let (ha, hd) = (self.height(attacker), end.height);
        let (ra, rd) = (self.card(attacker).base_radius, end.radius);
        let sight = &self.rules.proc.sight;
        let adj = sight.adjacent_cover;
        // Models this close ignore light and heavy cover between them.
        let close = sight.cover_ignored_within.is_some_and(|d| match end.model {
            Some(target) => self.distance(attacker, target) < d,
            None => pa.dist(pd) - ra < d,
        });
        let mut best = Cover::None;
        // Woods (terrain whose cover counts wherever the line crosses it) stack: the points of
        // all of them make the modifier; only those no model stands in near their edge make the
        // cover type (001 L4078-4096, L4149-4159).
        let (mut woods_points, mut stacking_points) = (0, 0);
        for area in &self.board.areas {
            let t = &self.rules.terrains[area.terrain];
            // Its cover goes by its height against the target's where the ruleset says so (not
            // for woods, which have no height), else it is what its document names.
            let by_elevation = !sight.cover_by_elevation.is_empty() && t.elevation > 0 && !t.cover_when_crossed;
            if t.cover == Cover::None && !by_elevation || t.raises_ground && t.elevation <= 0 {
                continue;
            }
            // Cheap rejects first: areas far from both ends and from the line between them.
            if crate::geom::seg_point_dist(pa, pd, area.center) > area.radius + ra.max(rd) + adj {
                continue;
            }
            // Ground a model stands on raises it; it is no cover for or against that model. A
            // structure a model is inside shelters it by its armor class, not as cover.
            if (t.raises_ground || t.structure.is_some()) && (area.poly.contains(pa) || area.poly.contains(pd)) {
                continue;
            }
            let standing_in = area.poly.contains(pd);
            if only_defenders_own && !standing_in {
                continue;
            }
            // A trench or fighting position shelters only the models it is for.
            if standing_in && end.model.is_some_and(|target| !self.sheltered(area, target)) {
                continue;
            }
            if !standing_in && !area.poly.touches_segment(pa, pd) {
                continue;
            }
            // Low terrain the attacker fires over (Pop-Up, hull-down) does not stop its sight.
            if self.fires_over(attacker, area).is_some() {
                continue;
            }
            let (mut cover, height) = self.area_cover(area, hd);
            // Against a model firing over it, it gives the cover the ruleset says (hull-down: heavy);
            // a model risen over it for a snapshot has none from it (over-watch fire at it).
            match end.model.and_then(|target| self.fires_over(target, area).map(|f| (target, f))) {
                Some((target, f)) if f.snapshot && self.models[target].has(&crate::game::actions::POPPED_UP) => {
                    continue;
                }
                Some((_, f)) => cover = f.counts_as.unwrap_or(cover),
                None => {}
            }
            if cover == Cover::None || close && cover != Cover::Blocking {
                continue;
            }
            let counts = if t.cover_when_crossed {
                // Crossed, it counts — but not the attacker's own, while the attacker stands
                // within the adjacent distance of its edge.
                standing_in || !area.poly.contains(pa) || area.poly.edge_distance(pa) - ra > adj
            } else {
                // The ways cover counts (000 L670-676, 001 L4016-4032), cheapest first.
                standing_in
                    || sight.cover_next_to_attacker && area.poly.distance(pa) <= ra + adj
                    || area.poly.distance(pd) <= rd + adj
                    || height >= ha && height >= hd
            };
            if !counts {
                continue;
            }
            if t.cover_when_crossed {
                let points = i32::from(cover_rank(cover));
                woods_points += points;
                let near_edge = |p: P, r: f64| area.poly.contains(p) && area.poly.edge_distance(p) - r <= adj;
                if !near_edge(pa, ra) && !near_edge(pd, rd) {
                    stacking_points += points;
                }
            } else if cover_rank(cover) > cover_rank(best) {
                best = cover;
            }
        }
        // Other models on the line, as cover objects of the ruleset's kinds (never for guided
        // missiles and rockets: no model is something the defender stands in).
        if !only_defenders_own && best != Cover::Blocking {
            for other in 0..self.models.len() {
                if other == attacker || Some(other) == end.model || !self.models[other].on_table() {
                    continue;
                }
                let cover = self.model_cover(other);
                if cover_rank(cover) <= cover_rank(best) {
                    continue;
                }
                let (po, ro) = (self.models[other].pos, self.card(other).base_radius);
                if crate::geom::seg_point_dist(pa, pd, po) >= ro {
                    continue; // the line passes beside its base
                }
                // Counted as terrain is (000 L673-677): as tall as both models, or next to either.
                let gap = |p: P, r: f64| p.dist(po) - r - ro;
                let ho = self.height(other);
                if ho >= ha && ho >= hd || gap(pa, ra) <= adj || gap(pd, rd) <= adj {
                    best = cover;
                }
            }
        }
        // The ruleset's stacking: by the points of the woods crossed away from either model
        // (woods counting only as a model's own make the first entry too).
        let stacking = &sight.woods_stacking;
        let woods = match woods_points {
            0 => Cover::None,
            _ => {
                let i = (stacking_points.max(1) as usize - 1).min(stacking.len().saturating_sub(1));
                stacking.get(i).copied().unwrap_or(Cover::None)
            }
        };
        let (terrain_points, woods_rank) = (i32::from(cover_rank(best)), cover_rank(woods));
        if woods_rank > cover_rank(best) {
            best = woods;
        }
        let extra = if best == Cover::Blocking {
            0
        } else {
            (terrain_points.max(woods_points) - i32::from(cover_rank(best))).max(0)
        };
        Sight { los: best != Cover::Blocking, cover: best, extra }
    }

    /// Sight where one side flies (001 L4233-4275): a line of sight over terrain and models;
    /// a flying target's cover is only tall terrain crossed next to its ground attacker, a ground
    /// target's only the terrain it stands in or next to; between two aircraft, none.
    fn sight_with_aircraft(&self, attacker: usize, target: usize, air: cav_format::AircraftSight) -> Sight {
        let (pa, pd) = (self.models[attacker].pos, self.models[target].pos);
        let (ra, rd) = (self.card(attacker).base_radius, self.card(target).base_radius);
        let adj = self.rules.proc.sight.adjacent_cover;
        let (fa, fd) = (self.flying(attacker), self.flying(target));
        let mut best = Cover::None;
        for area in &self.board.areas {
            let t = &self.rules.terrains[area.terrain];
            let crossed = area.poly.touches_segment(pa, pd);
            let counts = match (fa, fd) {
                // Tall terrain hugged by the ground attacker; or woods it stands deep inside, which
                // screen it both ways (001 L4247-4252).
                (false, true) => {
                    t.elevation >= air.ground_attacker_cover_elevation && crossed && area.poly.distance(pa) <= ra + adj
                        || t.cover_when_crossed && area.poly.contains(pa) && area.poly.edge_distance(pa) - ra > adj
                }
                (true, false) => area.poly.contains(pd) || crossed && area.poly.distance(pd) <= rd + adj,
                _ => false,
            };
            if !counts {
                continue;
            }
            let (cover, _) = self.area_cover(area, self.height(target));
            if cover_rank(cover) > cover_rank(best) {
                best = cover;
            }
        }
        // Seen over everything else: only tall terrain hugged by a ground attacker can hide an
        // aircraft (it is blocking cover there, as for any target next to it).
        Sight { los: best != Cover::Blocking, cover: best, extra: 0 }
    }

    /// The ruleset's way for `model` to fire over `area` (`sight.fire_over`), if it has one:
    /// its special attribute (or a weapon it carries) and type, terrain no higher than the
    /// entry's level beside it (not under it); or, for an entry naming terrain, a piece of it the
    /// model stands in and is sheltered by.
    pub fn fires_over(&self, model: usize, area: &Area) -> Option<&crate::compile::FireOverDef> {
        let rules = &self.rules.proc.fire_over;
        if rules.is_empty() {
            return None;
        }
        let (card, pos) = (self.card(model), self.models[model].pos);
        let elevation = self.rules.terrains[area.terrain].elevation;
        rules.iter().find(|f| {
            let placed = if f.terrain.is_empty() {
                (f.sa.is_some_and(|sa| card.sas.iter().any(|(s, _)| *s == sa))
                    || card.weapons.iter().any(|m| f.weapons.contains(&m.weapon)))
                    && !area.poly.contains(pos)
                    && area.poly.distance(pos) <= card.base_radius + f.within
            } else {
                f.terrain.contains(&area.terrain) && area.poly.contains(pos) && self.sheltered(area, model)
            };
            placed
                && (f.model_types.is_empty() || f.model_types.contains(&card.model_type))
                && (1..=f.max_elevation).contains(&elevation)
        })
    }

    /// Whether a shot by `model` at `target` is a snapshot over low terrain beside it (Pop-Up:
    /// a `sight.fire_over` entry with `snapshot`), crossing it on the line between them.
    pub fn snapshot_at(&self, model: usize, target: usize) -> bool {
        let snapshots = self.rules.proc.fire_over.iter().any(|f| f.snapshot);
        let (a, b) = (self.models[model].pos, self.models[target].pos);
        snapshots
            && self
                .board
                .areas
                .iter()
                .any(|area| area.poly.touches_segment(a, b) && self.fires_over(model, area).is_some_and(|f| f.snapshot))
    }

    /// A piece with room for so many models (`room`: a bunker section) that `model` may not
    /// end a move in at `p`, because others fill it: the piece's terrain and its room.
    pub fn full_piece_at(&self, model: usize, p: P) -> Option<(&str, u32)> {
        self.board.areas.iter().find_map(|a| {
            let t = &self.rules.terrains[a.terrain];
            let room = t.room?;
            if !a.poly.contains(p) || a.poly.contains(self.models[model].pos) {
                return None;
            }
            let inside = (0..self.models.len())
                .filter(|&m| m != model && self.models[m].on_table() && a.poly.contains(self.models[m].pos))
                .count();
            (inside >= room as usize).then_some((t.id.as_str(), room))
        })
    }

    /// Whether `model`, standing in `area`, takes its cover (`shelters`: a trench covers two
    /// infantry models, 001 L10986-10990): of a type it shelters, and among the `at_most` of
    /// those in it nearest its centre (ties: the earlier model).
    pub fn sheltered(&self, area: &Area, model: usize) -> bool {
        let Some(s) = &self.rules.terrains[area.terrain].shelters else { return true };
        let of_type = |m: usize| s.model_types.is_empty() || s.model_types.contains(&self.card(m).model_type);
        if !of_type(model) {
            return false;
        }
        let Some(limit) = s.at_most else { return true };
        let mine = (self.models[model].pos.dist(area.center), model);
        let ahead = (0..self.models.len())
            .filter(|&m| {
                m != model && self.models[m].on_table() && of_type(m) && area.poly.contains(self.models[m].pos)
            })
            .filter(|&m| (self.models[m].pos.dist(area.center), m) < mine)
            .count();
        ahead < limit as usize
    }

    /// The cover a terrain area gives a target at total elevation `target_elevation`, and how
    /// tall the area stands: by its height against the target's where the ruleset says so
    /// (`sight.cover_by_elevation`; not woods, which have no height), else the cover its document
    /// names.
    pub fn area_cover(&self, area: &Area, target_elevation: i32) -> (Cover, i32) {
        let t = &self.rules.terrains[area.terrain];
        let levels = &self.rules.proc.sight.cover_by_elevation;
        // A hill is its level; other objects stand on the ground under them.
        let height = t.elevation + if t.raises_ground { 0 } else { self.ground(area.center) };
        if levels.is_empty() || t.elevation <= 0 || t.cover_when_crossed {
            return (t.cover, height);
        }
        let below = (target_elevation - height).max(0) as usize;
        (levels.get(below).copied().unwrap_or(Cover::None), height)
    }

    /// Whether blocking cover on the line between two models lies next to either of them (within
    /// the ruleset's adjacent distance): what stops an indirect attack's combat roll where the
    /// ruleset says so (`sight.blocking_cover_stops_indirect`).
    pub fn blocking_next_to(&self, attacker: usize, target: usize) -> bool {
        let (pa, pd) = (self.models[attacker].pos, self.models[target].pos);
        let (ra, rd) = (self.card(attacker).base_radius, self.card(target).base_radius);
        let adj = self.rules.proc.sight.adjacent_cover;
        let hd = self.height(target);
        self.board.areas.iter().any(|area| {
            let t = &self.rules.terrains[area.terrain];
            // Ground a model stands on raises it; it is no cover for or against that model.
            let stood_on = t.raises_ground && (area.poly.contains(pa) || area.poly.contains(pd));
            !stood_on
                && (area.poly.distance(pa) <= ra + adj || area.poly.distance(pd) <= rd + adj)
                && area.poly.touches_segment(pa, pd)
                && self.area_cover(area, hd).0 == Cover::Blocking
        })
    }

    /// The cover a model gives standing on someone else's line of sight, by the ruleset.
    fn model_cover(&self, model: usize) -> Cover {
        let ty = self.card(model).model_type;
        let lying = self.lying(model);
        self.rules
            .proc
            .sight
            .model_cover
            .iter()
            .find(|c| c.model_types.contains(&ty))
            .map_or(Cover::None, |c| if lying { c.prone } else { c.standing })
    }

    /// What the models add to a line-of-sight answer: where each stands, whether it is lying
    /// down and still on the table (0 when the ruleset's models never obstruct).
    /// (FNV-1a over 64-bit words: this runs on every sight query, where SipHash cost a tenth of
    /// a game's instructions; a memo of 8 answers needs no collision resistance.)
    fn models_fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        let obstruct = !self.rules.proc.sight.model_cover.is_empty();
        for (i, m) in self.models.iter().enumerate() {
            // Lying down changes a model's own height, whatever the ruleset says of cover.
            mix(u64::from(self.lying(i)) | u64::from(obstruct && m.on_table()) << 1);
            if obstruct {
                mix(m.pos.x.to_bits());
                mix(m.pos.y.to_bits());
            }
        }
        h
    }

    /// Can mount `weapon` of `attacker` attack `target` now, and how?
    pub fn shot(&self, attacker: usize, weapon: usize, target: usize, indirect: bool) -> Shot {
        self.shot_with(attacker, weapon, target, indirect, 0.0)
    }

    /// `shot`, with the weapon's range changed by `more_range` inches (a script's `range`
    /// modifier at `attack_declare`).
    pub fn shot_with(&self, attacker: usize, weapon: usize, target: usize, indirect: bool, more_range: f64) -> Shot {
        self.shooter(attacker).answer(weapon, target, indirect, more_range).unwrap_or_else(|why| Shot::No(why.text()))
    }

    /// The questions `shot` asks of `attacker` alone, answered once for every weapon and target
    /// asked about through it (a bot weighing all its weapons, direct and indirect).
    /// Whether mount `weapon` of `attacker` may fire indirectly: an indirect-fire weapon, or a
    /// guided one where the ruleset lets those (`sight.guided_indirect`).
    pub fn fires_indirect(&self, attacker: usize, weapon: usize) -> bool {
        self.card(attacker)
            .weapons
            .get(weapon)
            .is_some_and(|m| m.indirect || m.requires_target_lock && self.rules.proc.sight.guided_indirect)
    }

    /// What mount `weapon` of `attacker` can do against the point `p` of the board, fired
    /// indirectly with no model aimed at (`Shot::Indirect` or why not).
    /// Whether mount `weapon` of `attacker` may attack the cloud at `p` to destroy it (a cloud
    /// lies there whose mount names the weapon, 001 L9016-9022): ready, in its arc, in reach (its
    /// range's longest band, or a template's length from the base) and in sight of the point.
    pub fn clears_cloud_at(&self, attacker: usize, weapon: usize, p: P) -> Result<(), String> {
        let shooter = self.shooter(attacker);
        let m = shooter.ready(weapon).map_err(Refusal::text)?;
        let clears = |f: &Minefield| {
            f.cloud.is_some_and(|(at, radius)| at.dist(p) <= radius)
                && self.card(f.model).weapons[f.weapon].cloud.as_deref().is_some_and(|ids| ids.contains(&m.weapon))
        };
        if !self.minefields.iter().any(clears) {
            return Err(format!(
                "{}: only indirect fire is aimed at a point, or a weapon at a cloud there that it destroys",
                m.name
            ));
        }
        let reach = match m.template {
            Some((length, _, _)) => length + self.card(attacker).base_radius,
            None => m.range * self.rules.bands.last().map_or(1.0, |b| b.multiplier),
        };
        if self.range_to_point(attacker, p) > reach {
            return Err(format!("{}: {OUT_OF_RANGE}", m.name));
        }
        if !self.in_arc_at(attacker, weapon, p) {
            return Err(format!("{}: the cloud is out of its arc", m.name));
        }
        if !self.sees_point(attacker, p) {
            return Err(format!("{}: no line of sight to the point", m.name));
        }
        Ok(())
    }

    pub fn point_shot(&self, attacker: usize, weapon: usize, p: P, more_range: f64) -> Shot {
        self.shooter(attacker).at_point(weapon, p, more_range).unwrap_or_else(|why| Shot::No(why.text()))
    }

    pub fn shooter(&self, attacker: usize) -> Shooter<'_, 'r> {
        Shooter {
            g: self,
            attacker,
            underwater: std::cell::OnceCell::new(),
            in_structure: std::cell::OnceCell::new(),
            turn: std::cell::Cell::new(None),
        }
    }
}

/// Why a weapon may not attack: a fixed sentence, or one built only when someone reads it (a
/// caller asking only *whether* a weapon can fire never allocates the text).
#[derive(Debug, Clone, Copy)]
enum Refusal {
    Said(&'static str),
    InsideMinRange(f64),
}

impl Refusal {
    fn text(self) -> String {
        match self {
            Refusal::Said(s) => s.to_owned(),
            Refusal::InsideMinRange(r) => format!("inside minimum range {r}\""),
        }
    }
}

/// `Game::shot` for one attacker, remembering what depends on the attacker alone (whether it is
/// under water, whether it stands in a structure) between questions. The answers stay valid
/// while it lives: it borrows the game, so the state cannot change under it.
pub struct Shooter<'g, 'r> {
    g: &'g Game<'r>,
    attacker: usize,
    underwater: std::cell::OnceCell<bool>,
    in_structure: std::cell::OnceCell<bool>,
    /// The last target asked about and the attacker's turn towards it (`Game::turn_to`): the
    /// same for every weapon.
    turn: std::cell::Cell<Option<(usize, f64)>>,
}

impl Shooter<'_, '_> {
    /// What `Game::shot` answers, without its reason when the weapon cannot attack: `None` for
    /// every `Shot::No`.
    pub fn shot(&self, weapon: usize, target: usize, indirect: bool) -> Option<Shot> {
        self.answer(weapon, target, indirect, 0.0).ok()
    }

    /// `Game::in_arc` for the shooter's weapon, its turn towards `target` remembered.
    fn in_arc(&self, weapon: usize, target: usize) -> bool {
        let (g, attacker, at) = (self.g, self.attacker, self.g.models[target].pos);
        g.in_arc_turned(attacker, weapon, at, || match self.turn.get() {
            Some((t, v)) if t == target => v,
            _ => {
                let v = g.turn_to(attacker, at);
                self.turn.set(Some((target, v)));
                v
            }
        })
    }

    /// Whether `Game::sight` finds a line of sight to `target` (memoised there).
    fn los(&self, target: usize, only_defenders_own: bool) -> bool {
        self.g.sight(self.attacker, target, only_defenders_own).0
    }

    /// The mount `weapon`, if it may fire now at all: a weapon (not a strike package or a
    /// close-quarters reaction) with ammo, out of water, unlimbered.
    fn ready(&self, weapon: usize) -> Result<&'_ crate::compile::MountDef, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let me = &g.models[attacker];
        let Some(m) = g.card(attacker).weapons.get(weapon) else { return Err(Said("no such weapon")) };
        if m.strike.is_some() {
            return Err(Said("a strike package is called in (`call-strike`), not fired"));
        }
        if m.reaction {
            return Err(Said("it strikes only as a reaction, when attacked from close quarters"));
        }
        if me.out_of_ammo[weapon] {
            return Err(Said("out of ammo"));
        }
        if *self.underwater.get_or_init(|| g.underwater(attacker)) {
            return Err(Said("under water: its weapons cannot fire"));
        }
        if me.has(&crate::game::actions::LIMBERED) {
            return Err(Said("limbered: the gun unlimbers before it fires"));
        }
        Ok(m)
    }

    /// An indirect attack at the point `p` of the board, with no model aimed at (001 L4474-4479):
    /// an indirect-fire weapon in reach; no line of sight needed.
    fn at_point(&self, weapon: usize, p: P, more_range: f64) -> Result<Shot, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let m = self.ready(weapon)?;
        if *self.in_structure.get_or_init(|| g.structure_at(attacker).is_some()) {
            return Err(Said("from inside a structure a model fires direct only"));
        }
        if m.dropped.is_some() {
            return Err(Said("a bomb falls beneath the aircraft: aim it at a model there"));
        }
        if m.template.is_some() {
            return Err(Said("a template weapon fires direct only"));
        }
        if m.requires_target_lock {
            return Err(Said("needs a target-lock on a model"));
        }
        if !m.indirect {
            return Err(Said("only an indirect-fire weapon fires at a point"));
        }
        if !g.on_board(p) {
            return Err(Said("the point is off the board"));
        }
        let dist = g.range_to_point(attacker, p);
        if m.min_range > 0.0 && dist <= m.min_range {
            return Err(Refusal::InsideMinRange(m.min_range));
        }
        let range = (m.range + more_range).max(0.0);
        let Some(band) = g.rules.bands.iter().position(|b| dist <= range * b.multiplier) else {
            return Err(Said(OUT_OF_RANGE));
        };
        Ok(Shot::Indirect { band: g.shifted_band(attacker, weapon, None, dist, band), distance: dist })
    }

    /// `Game::shot_with`, the refusal kept cheap. The checks and their order are `shot_with`'s.
    fn answer(&self, weapon: usize, target: usize, indirect: bool, more_range: f64) -> Result<Shot, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let me = &g.models[attacker];
        let m = self.ready(weapon)?;
        if g.models.get(target).is_some_and(|t| g.card_of(t).emplacement.is_some()) {
            return Err(Said("an emplacement is attacked through its bunker (fire at the structure)"));
        }
        let Some(aimed) = g.models.get(target) else { return Err(Said("no such model")) };
        if indirect && *self.in_structure.get_or_init(|| g.structure_at(attacker).is_some()) {
            return Err(Said("from inside a structure a model fires direct only"));
        }
        if !aimed.on_table() {
            return Err(Said("target is gone"));
        }
        let tc = g.card(target).model_type;
        if m.cannot_target.iter().any(|c| match c {
            TargetClass::Infantry => g.rules.has_trait(tc, ModelTrait::Infantry),
            TargetClass::Aircraft => g.rules.has_trait(tc, ModelTrait::Aircraft),
            TargetClass::AircraftInFlight => g.rules.has_trait(tc, ModelTrait::Aircraft) && g.flying(target),
            TargetClass::Structure => g.rules.has_trait(tc, ModelTrait::Structure),
        }) {
            return Err(Said("cannot attack that kind of model"));
        }
        // Nap of the earth hides an aircraft from the ground, but where it ended its activation
        // close to the attacker (and in sight: checked below) (001 L3742-3748).
        if aimed.noe && !g.flying(attacker) {
            // Anti-Aircraft reaches farther (`noe_reach`: on the model, or on the weapon).
            let reach = |list: &[(u16, i32)]| {
                crate::compile::SaDef::card_effect(&g.rules.sas, list, cav_format::ModifierTarget::NoeReach)
                    .unwrap_or(0)
                    .max(0)
            };
            let exposed = g.rules.proc.flight.as_ref().map_or(0.0, |f| f.noe_exposed_within)
                + f64::from(reach(&g.card(attacker).sas).saturating_add(reach(&m.sas)));
            if g.active == Some(target) || g.range(attacker, target) > exposed {
                return Err(Said("flying nap of the earth"));
            }
        }
        // A bomb falls on the ground beneath the aircraft: it reaches what lies under its area
        // there, with no range band (001 L9278-9310, L9505-9549, L9187-9235).
        if m.dropped.is_some() {
            if !g.flying(attacker) || me.noe {
                return Err(Said("a bomb is dropped from an aircraft in flight, not nap of the earth"));
            }
            if !indirect {
                return Err(Said("fires only indirectly"));
            }
            let under = g.card(target).base_radius;
            let dist = g.models[target].pos.dist(me.pos);
            let reach = match m.strip {
                Some((length, width)) => {
                    let (a, b) = strip_ends(me.pos, me.facing, length);
                    crate::geom::seg_point_dist(a, b, g.models[target].pos) <= width / 2.0 + under
                }
                None => dist <= m.aoe + under,
            };
            if !reach {
                return Err(Said("not beneath the bomb's area"));
            }
            return Ok(Shot::Indirect { band: 0, distance: dist });
        }
        // A template weapon reaches what its strip, laid towards the target, touches.
        if let Some((length, width, _)) = m.template {
            if indirect {
                return Err(Said("a template weapon fires direct only"));
            }
            let (a, b) = g.template_strip(attacker, aimed.pos, length);
            let dist = g.range(attacker, target);
            if crate::geom::seg_point_dist(a, b, aimed.pos) > width / 2.0 + g.card(target).base_radius {
                return Err(Said("beyond the template"));
            }
            if !self.in_arc(weapon, target) {
                return Err(Said("outside the weapon's firing arc"));
            }
            if !self.los(target, false) {
                return Err(Said("no line of sight"));
            }
            return Ok(Shot::Direct { band: 0, distance: dist });
        }
        if m.requires_target_lock
            && me.lock != Some(target)
            && !g.painted_for(attacker, target, !g.snapshot_at(attacker, target))
            && !g.homes_on(m, target)
        {
            return Err(Said("needs a target-lock"));
        }
        if indirect && !g.fires_indirect(attacker, weapon) {
            return Err(Said("cannot fire indirectly"));
        }
        if !indirect && m.indirect {
            return Err(Said("fires only indirectly"));
        }
        let dist = g.range(attacker, target);
        if m.min_range > 0.0 && dist <= m.min_range {
            return Err(Refusal::InsideMinRange(m.min_range));
        }
        let range = (m.range + more_range).max(0.0);
        let Some(band) = g.rules.bands.iter().position(|b| dist <= range * b.multiplier) else {
            return Err(Said(OUT_OF_RANGE));
        };
        let band = g.shifted_band(attacker, weapon, Some(target), dist, band);
        if indirect {
            return Ok(Shot::Indirect { band, distance: dist });
        }
        if !self.in_arc(weapon, target) {
            return Err(Said("outside the weapon's firing arc"));
        }
        if !self.los(target, m.requires_target_lock && g.rules.proc.sight.guided_ignore_cover) {
            return Err(Said("no line of sight"));
        }
        Ok(Shot::Direct { band, distance: dist })
    }
}

impl Game<'_> {
    /// Why `model`, held back in ambush, may not be placed at `p` (`setup.ambush`, 001
    /// L6519-6535), if it may not: off the board or on another base, in the opponent's half (the
    /// half nearer its deployment zone, where the scenario has zones), too near an enemy, or too
    /// near an enemy recon model.
    pub fn ambush_refusal(&self, model: usize, p: P) -> Option<String> {
        self.ambush_refusal_among(model, p, 0..self.models.len())
    }

    /// Whether an attack may fall on `model`: it is on the table and not a weapon emplacement,
    /// which is attacked only through its bunker (001 L10544-10564; fire at the structure), by
    /// no area, template, close combat or missile.
    pub fn attackable(&self, model: usize) -> bool {
        self.models[model].on_table() && self.card(model).emplacement.is_none()
    }

    /// Whether `model` is held back for an orbital drop that may come this turn (it lands as it
    /// activates, on its unit's own card).
    pub fn drops_now(&self, model: usize) -> bool {
        let me = &self.models[model];
        me.dropping && me.waiting.is_some_and(|t| t <= self.turn) && !me.activated
    }

    /// [`Game::ambush_refusal`], looking only at the models `others` for bases and enemies too
    /// close: those a `Grid` finds near `p` give the same verdict (the first reason found may
    /// differ with the order).
    fn ambush_refusal_among(&self, model: usize, p: P, others: impl IntoIterator<Item = usize>) -> Option<String> {
        if self.models[model].dropping {
            return self.drop_refusal(model, p);
        }
        let Some(rule) = &self.rules.proc.setup.ambush else { return Some("this ruleset has no ambush".into()) };
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        if p.x < r || p.y < r || p.x > w - r || p.y > h - r {
            return Some("off the board".into());
        }
        let side = self.models[model].side;
        // The opponent's half: nearer an enemy's deployment zone than its own.
        let own = self.zones.get(side).copied().flatten();
        let nearer_foe = self
            .zones
            .iter()
            .enumerate()
            .any(|(i, z)| i != side && z.zip(own).is_some_and(|(z, o)| p.dist(z) < p.dist(o)));
        if nearer_foe {
            return Some("in the opponent's half of the board".into());
        }
        for i in others {
            let other = &self.models[i];
            if i == model || !other.on_table() {
                continue;
            }
            let gap = p.dist(other.pos) - r - self.card(i).base_radius;
            if gap < -1e-9 {
                return Some(format!("on {}'s base", other.name));
            }
            if other.side == side {
                continue;
            }
            // Measured as the ruleset measures between models (the full rules: centre to centre,
            // 001 L36-42).
            let apart = self.measured_from(p, r, i);
            if apart <= rule.enemy_within {
                return Some(format!("within {}\" of an enemy", rule.enemy_within));
            }
            if rule.recon.contains(&self.card(i).task) && apart <= rule.recon_within {
                return Some(format!("within {}\" of an enemy recon model", rule.recon_within));
            }
        }
        None
    }

    /// What measuring adds to a distance between centres: both base radii edge to edge, else 0.
    fn bases_apart(&self, r: f64, other: usize) -> f64 {
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => r + self.card(other).base_radius,
            RangeMeasure::CentreToCentre => 0.0,
        }
    }

    /// From a model of base radius `r` standing at `p` to model `other`, measured as the ruleset
    /// measures between models (`sight.range_measured`).
    fn measured_from(&self, p: P, r: f64, other: usize) -> f64 {
        let centres = p.dist(self.models[other].pos);
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => centres - r - self.card(other).base_radius,
            RangeMeasure::CentreToCentre => centres,
        }
    }

    /// Why `model`, held back for an orbital drop, may not name `p` as its landing zone, if it
    /// may not: off the board, or within the ruleset's distance of an enemy (001 L10215-10293).
    pub fn drop_refusal(&self, model: usize, p: P) -> Option<String> {
        let Some(rule) = &self.rules.proc.setup.orbital_drop else {
            return Some("this ruleset has no orbital drop".into());
        };
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        if p.x < r || p.y < r || p.x > w - r || p.y > h - r {
            return Some("off the board".into());
        }
        for i in self.enemies(model).filter(|&i| self.models[i].on_table()) {
            if self.measured_from(p, r, i) < rule.enemy_within {
                return Some(format!("within {}\" of an enemy", rule.enemy_within));
            }
        }
        None
    }

    /// Where `model` stands when it lands at `p`: there, or the nearest place around it on the
    /// board that is on no other model's base.
    pub fn beside_bases(&self, model: usize, p: P) -> P {
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        let free = |q: P| {
            q.x >= r
                && q.y >= r
                && q.x <= w - r
                && q.y <= h - r
                && (0..self.models.len()).all(|i| {
                    i == model
                        || !self.models[i].on_table()
                        || self.flying(i)
                        || q.dist(self.models[i].pos) >= r + self.card(i).base_radius - 1e-9
                })
        };
        if free(p) {
            return p;
        }
        for ring in 1..=200 {
            let d = f64::from(ring) * 0.25;
            if let Some(q) = (0..24).map(|k| p + P::heading(f64::from(k) * 15.0).scale(d)).find(|&q| free(q)) {
                return q;
            }
        }
        p
    }

    /// Whether models of `card` drop in (`setup.orbital_drop`): the card carries its upgrade.
    pub fn drops_in(&self, card: usize) -> bool {
        let Some(rule) = &self.rules.proc.setup.orbital_drop else { return false };
        let Some(u) = self.rules.upgrade(rule.upgrade.as_str()) else { return false };
        let sa = self.rules.upgrades[u].sa;
        self.rules.cards[card].sas.iter().any(|(x, _)| *x == sa)
    }

    /// Legal places for `model` held back in ambush, nearest to an enemy first: rings around
    /// each enemy just beyond the ruleset's distances, and the way from where it waits to each
    /// enemy, inch by inch.
    pub fn ambush_spots(&self, model: usize) -> Vec<P> {
        if self.models[model].dropping {
            let Some(rule) = &self.rules.proc.setup.orbital_drop else { return Vec::new() };
            let r = self.card(model).base_radius;
            let mut spots = Vec::new();
            for i in self.enemies(model).filter(|&i| self.models[i].on_table()) {
                for extra in [0.25, 2.0, 6.0] {
                    let ring = rule.enemy_within + self.bases_apart(r, i) + extra;
                    spots.extend((0..24).map(|k| self.models[i].pos + P::heading(f64::from(k) * 15.0).scale(ring)));
                }
            }
            spots.retain(|&p| self.drop_refusal(model, p).is_none());
            return spots;
        }
        let Some(rule) = &self.rules.proc.setup.ambush else { return Vec::new() };
        let (me, r) = (self.models[model].pos, self.card(model).base_radius);
        let mut spots: Vec<P> = vec![me];
        let enemies: Vec<usize> = (0..self.models.len())
            .filter(|&i| self.models[i].side != self.models[model].side && self.models[i].on_table())
            .collect();
        for &i in &enemies {
            let other = self.models[i].pos;
            let reach = if rule.recon.contains(&self.card(i).task) { rule.recon_within } else { rule.enemy_within };
            for extra in [0.25, 2.0, 6.0] {
                let ring = reach + self.bases_apart(r, i) + extra;
                spots.extend((0..24).map(|k| other + P::heading(f64::from(k) * 15.0).scale(ring)));
            }
            let steps = me.dist(other).min(200.0) as usize;
            let dir = other - me;
            spots.extend((1..steps).map(|k| me + dir.scale(k as f64 / steps as f64)));
        }
        // Grids of the models on the table and of the enemies: each spot is checked against the
        // models near it, not every model (a battle's spots × its models made large ones slow).
        let on_table = (0..self.models.len()).filter(|&i| i != model && self.models[i].on_table());
        let widest = on_table.clone().map(|i| self.card(i).base_radius).fold(0.0, f64::max);
        let near = r + widest + rule.enemy_within.max(rule.recon_within).max(0.0) + 0.01;
        let models = crate::geom::Grid::new(on_table.map(|i| (i, self.models[i].pos)), near);
        spots.retain(|&p| self.ambush_refusal_among(model, p, models.near(p, near)).is_none());
        let foes = crate::geom::Grid::new(enemies.iter().map(|&e| (e, self.models[e].pos)), near);
        // Each spot's distance worked out once, not at every comparison.
        let mut keyed: Vec<(f64, P)> = spots.into_iter().map(|p| (foes.nearest(p), p)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        keyed.into_iter().map(|(_, p)| p).collect()
    }

    /// Whether `model` carries the ruleset's asset-user special attribute (Combat Engineer): the
    /// models that use field repair modules and lay barriers.
    pub fn asset_user(&self, model: usize) -> bool {
        self.rules.asset_user.is_some_and(|u| self.card(model).sas.iter().any(|(s, _)| *s == u))
    }

    /// Whether `target` is painted for `attacker`'s weapons (a TAG, 001 L8528-8560): it is in a
    /// painted state (the `tag` action of a model of another side), or the attacker carries a
    /// TAG that reaches it in its line of sight (painting it as part of its combat action).
    /// The single-use upgrade (its entry in `Rules::sas`) of `model` with a use left that meets
    /// the cloud of mount `weapon` of `by` (`MountDef::cloud_stopped_by`: an anti-nano pod).
    pub fn pulse(&self, model: usize, by: usize, weapon: usize) -> Option<crate::compile::SaIx> {
        let stopped_by = &self.card(by).weapons.get(weapon)?.cloud_stopped_by;
        if stopped_by.is_empty() {
            return None;
        }
        self.card(model).sas.iter().find_map(|&(sa, rating)| {
            let left = rating.max(0) as u32 > self.models[model].charges_spent(sa);
            (left && stopped_by.contains(&self.rules.sas[sa as usize].id)).then_some(sa)
        })
    }

    /// Whether mount `m` homes on `target` (`MountDef::homes_on`): then it needs no target-lock.
    pub fn homes_on(&self, m: &crate::compile::MountDef, target: usize) -> bool {
        m.homes_on.iter().any(|&s| self.models[target].has_state(s))
    }

    pub fn painted(&self, attacker: usize, target: usize) -> bool {
        self.painted_for(attacker, target, true)
    }

    /// `painted`, counting the attacker's own TAG only when `own_tag` (not for a Pop-Up
    /// snapshot, 001 L8012-8016).
    pub fn painted_for(&self, attacker: usize, target: usize, own_tag: bool) -> bool {
        let states = &self.rules.states;
        let me = &self.models[target];
        (me.side != self.models[attacker].side && me.states.iter().any(|(s, _)| states[*s as usize].painted))
            || own_tag
                && self.card(attacker).tag.is_some_and(|reach| {
                    self.range(attacker, target) <= reach
                        && self.sight(attacker, target, false).0
                        && self.designator_line(attacker, target)
                })
    }

    /// Whether a TAG's beam passes from `a` to `b`: no terrain that blocks designators (smoke)
    /// lies across the line or under either model.
    pub fn designator_line(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.models[a].pos, self.models[b].pos);
        !self.board.areas.iter().any(|area| {
            self.rules.terrains[area.terrain].blocks_designators
                && (area.poly.touches_segment(pa, pb) || area.poly.contains(pa) || area.poly.contains(pb))
        })
    }

    /// Is `target` inside the firing arc of mount `weapon` of `attacker`? Front mounts (F, L, R arms) fire into
    /// the front arc, B into the rear, T all round; a torso twist widens the front and rear arcs.
    pub fn in_arc(&self, attacker: usize, weapon: usize, target: usize) -> bool {
        self.in_arc_at(attacker, weapon, self.models[target].pos)
    }

    /// `in_arc` for a point of the board (a structure aimed at).
    pub fn in_arc_at(&self, attacker: usize, weapon: usize, at: P) -> bool {
        self.in_arc_turned(attacker, weapon, at, || self.turn_to(attacker, at))
    }

    /// How far `attacker` would turn to face `at`, in degrees (signed, -180 to 180).
    fn turn_to(&self, attacker: usize, at: P) -> f64 {
        let a = &self.models[attacker];
        angle_diff(a.facing, a.pos.bearing(at))
    }

    /// `in_arc_at`, with `turn` giving `turn_to(attacker, at)` when the arc depends on it.
    fn in_arc_turned(&self, attacker: usize, weapon: usize, at: P, turn: impl FnOnce() -> f64) -> bool {
        let card = self.card(attacker);
        let m = &card.weapons[weapon];
        if m.mounts.contains(&cav_format::Mount::T) || self.rules.has_trait(card.model_type, ModelTrait::AllRoundArc) {
            return true;
        }
        if self.rules.has_trait(card.model_type, ModelTrait::MountArcs) {
            return self.copies_in_arc_at(attacker, weapon, at) > 0;
        }
        let p = &self.rules.proc;
        let off = turn().abs();
        let rear = !m.mounts.is_empty() && m.mounts.iter().all(|x| *x == cav_format::Mount::B);
        // The torso twist turns the front arc only: back-mounted weapons keep to the back arc
        // (001 L3781-3789).
        let twist = if rear { 0.0 } else { self.rules.model_type(card.model_type).map_or(0.0, |t| t.torso_twist) };
        let off = if rear { 180.0 - off } else { off };
        off <= p.sight.arc_half_width + twist + 1e-9
    }

    /// How many of a weapon entry's copies may fire at `target`: all of them, except on a model
    /// whose mounts fire into their own arcs (`mount-arcs`), where a copy fires only if its
    /// mount's arc (one mount per copy; one mount for all copies) holds the target.
    pub fn copies_in_arc(&self, attacker: usize, weapon: usize, target: usize) -> u32 {
        self.copies_in_arc_at(attacker, weapon, self.models[target].pos)
    }

    /// `copies_in_arc` for a point of the board.
    pub fn copies_in_arc_at(&self, attacker: usize, weapon: usize, at: P) -> u32 {
        use cav_format::Mount;
        let card = self.card(attacker);
        let m = &card.weapons[weapon];
        if !self.rules.has_trait(card.model_type, ModelTrait::MountArcs) {
            return m.quantity;
        }
        let arc = self.arc_at(attacker, at);
        let covers = |x: &Mount| match x {
            Mount::T => true,
            Mount::F => arc == Arc::Front,
            Mount::L => arc == Arc::Left,
            Mount::R => arc == Arc::Right,
            Mount::B => arc == Arc::Back,
        };
        match m.mounts.as_slice() {
            [] => m.quantity,
            [one] => {
                if covers(one) {
                    m.quantity
                } else {
                    0
                }
            }
            many => many.iter().filter(|x| covers(x)).count().min(m.quantity as usize) as u32,
        }
    }

    /// The firing arc of `attacker` that `target` stands in (front where the quarter lines fall).
    pub fn arc_of(&self, attacker: usize, target: usize) -> Arc {
        self.arc_at(attacker, self.models[target].pos)
    }

    /// The firing arc of `attacker` a point lies in.
    pub fn arc_at(&self, attacker: usize, at: P) -> Arc {
        let a = &self.models[attacker];
        let off = angle_diff(a.facing, a.pos.bearing(at));
        let half = self.rules.proc.sight.arc_half_width;
        match off {
            o if o.abs() <= half + 1e-9 => Arc::Front,
            o if o.abs() >= 180.0 - half - 1e-9 => Arc::Back,
            o if o > 0.0 => Arc::Right,
            _ => Arc::Left,
        }
    }

    pub fn rav(&self, attacker: usize, weapon: usize, target: usize) -> i32 {
        if self.models[attacker].zeroed {
            return 0;
        }
        let (hard, soft) = self.card(attacker).weapons[weapon].rav[self.column(attacker)];
        let dc = self.card(target);
        let v = if dc.soft && !dc.hard { soft } else { hard };
        v.map_or(self.rules.proc.rolls.na_rav, i32::from)
    }
}

/// A line-of-sight answer: is there one, the cover type, and the woods points beyond the type.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sight {
    los: bool,
    cover: Cover,
    extra: i32,
}

/// Where a line of sight ends: a model, or a point on the ground (`model: None`).
#[derive(Debug, Clone, Copy)]
struct SightEnd {
    pos: P,
    height: i32,
    radius: f64,
    model: Option<usize>,
}

/// What a line-of-sight answer depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SightKey {
    attacker: usize,
    target: usize,
    own: bool,
    pa: P,
    pd: P,
    areas: usize,
    version: u64,
    models: u64,
}

pub(super) fn cover_rank(c: Cover) -> u8 {
    match c {
        Cover::None => 0,
        Cover::Light => 1,
        Cover::Heavy => 2,
        Cover::Blocking => 3,
    }
}

/// The two ends of a strip `length` long centred on `at`, along `facing` (a bomb rack's carpet).
pub(crate) fn strip_ends(at: P, facing: f64, length: f64) -> (P, P) {
    let half = P::heading(facing).scale(length / 2.0);
    (at + half.scale(-1.0), at + half)
}

/// A missile in flight: the model that called it, the strike, the point it flies at, the
/// inches it has flown (it arms at its attack's minimum range) and whether its next move is the
/// launcher's straight first one (no facing change, not armed).
#[derive(Debug, Clone, Copy)]
pub struct Missile {
    pub caller: usize,
    pub strike: usize,
    pub aim: P,
    pub flown: f64,
    pub straight: bool,
}

/// A seeking submunition waiting over its point (`MountDef::seeks`): the firer and mount whose
/// shell released it, the point and how far from it it seeks.
#[derive(Debug, Clone)]
pub struct Seeker {
    pub model: usize,
    pub weapon: usize,
    pub at: P,
    pub radius: f64,
}

/// A minefield on the table: the asset, the side that laid it, its template, the charges left,
/// and the off-table model of the laying side that makes its attacks.
#[derive(Debug, Clone)]
pub struct Minefield {
    /// The asset it is; `None`: a cloud a shell left (`MountDef::cloud`).
    pub asset: Option<usize>,
    /// What it attacks: models on the ground, or flying nap of the earth.
    pub against: cav_format::MinesAgainst,
    /// The side whose models pass safely; `None`: its mines spare no one (FASCAM).
    pub side: Option<usize>,
    pub area: Polygon,
    /// Attacks left; `None`: it never runs out (a cloud).
    pub charges: Option<u32>,
    /// A cloud's centre and radius: it drifts, and the weapons its mount names destroy it.
    pub cloud: Option<(P, f64)>,
    /// The model and mount whose attack the mines make: the asset's own off-table model, or the
    /// shell or strike that seeded them.
    pub model: usize,
    pub weapon: usize,
}

impl Game<'_> {
    fn card_of(&self, m: &Model) -> &crate::compile::CardDef {
        self.rules.card_of(m)
    }

    /// Lay the terrain piece of weapon emplacement `model` (its asset's `terrain:`) under it:
    /// `sections` squares as wide as its base in a row, square to its facing, the first under it
    /// and the others to its right.
    pub fn place_emplacement(&mut self, model: usize, sections: u32) {
        let Some(asset) = self.card(model).emplacement else { return };
        let Some(terrain) = self.rules.assets[asset].terrain else { return };
        let (at, half, facing) = (self.models[model].pos, self.card(model).base_radius, self.models[model].facing);
        let n = f64::from(sections.max(1));
        let (ahead, right) = (P::heading(facing).scale(half), P::heading(facing + 90.0).scale(half));
        let (near, far) = (at + right.scale(-1.0), at + right.scale(2.0 * n - 1.0));
        let corners = vec![near + ahead, far + ahead, far + ahead.scale(-1.0), near + ahead.scale(-1.0)];
        let center = at + right.scale(n - 1.0);
        self.board.areas.push(Area {
            terrain,
            poly: Polygon { points: corners },
            center,
            radius: half * (n * n + 1.0).sqrt(),
            lasts: None,
        });
        self.board_version += 1;
    }

    /// The strip of a template weapon of `model` laid towards `towards`: from the front of its
    /// base, `length` inches on.
    pub fn template_strip(&self, model: usize, towards: P, length: f64) -> (P, P) {
        let me = &self.models[model];
        let dir = P::heading(me.pos.bearing(towards));
        let start = me.pos + dir.scale(self.card(model).base_radius);
        (start, start + dir.scale(length))
    }

    /// Lay minefield `asset` (one with `mines`) on `area`, sparing `side`'s models (none: it
    /// spares no one). Its attacks are those of `attack` (model, mount: the shell or strike
    /// that seeded it), else of the asset's own off-table model of `owner`'s side.
    pub fn lay_minefield(
        &mut self,
        asset: usize,
        side: Option<usize>,
        owner: usize,
        area: Polygon,
        attack: Option<(usize, usize)>,
    ) -> Result<(), String> {
        let a = self.rules.assets.get(asset).ok_or("no such asset")?;
        let Some((against, charges, card)) = a.mines else {
            return Err(format!("asset `{}` is not a minefield", a.id));
        };
        let (model, weapon) = match attack {
            Some(by) => by,
            None => {
                let n = area.points.len().max(1) as f64;
                let at = area.points.iter().fold(P::default(), |acc, p| acc + *p).scale(1.0 / n);
                let model = self.add_model(card, owner, at, 0.0);
                self.models[model].asset = true;
                (model, 0)
            }
        };
        let charges = Some(charges);
        self.minefields.push(Minefield {
            asset: Some(asset),
            against,
            side,
            area,
            charges,
            cloud: None,
            model,
            weapon,
        });
        Ok(())
    }

    /// Leave the cloud of mount `weapon` of `by` (`MountDef::cloud`) at `at`, `radius` wide: it
    /// attacks models on the ground with that mount, sparing no one, and never runs out.
    pub fn lay_cloud(&mut self, by: usize, weapon: usize, at: P, radius: f64) {
        self.minefields.push(Minefield {
            asset: None,
            against: cav_format::MinesAgainst::Ground,
            side: None,
            area: Polygon::regular(at, radius, 24),
            charges: None,
            cloud: Some((at, radius)),
            model: by,
            weapon,
        });
    }
}
