//! The game state: the board, the models and squads on it, and what the game keeps between
//! activations. The questions asked of it live beside it (`queries`, `sight`, `arcs`, `shot`,
//! `placement`); the engine changes the state.

use super::controller::AttackAnswer;
pub use super::features::laid_terrain::Laid;
pub use super::features::minefields::Minefield;
pub use super::features::missiles::Missile;
pub use super::features::seekers::Seeker;
use super::sight::{Sight, SightKey};
use crate::compile::{Rules, SaIx, StateIx};
use crate::geom::{P, Polygon};

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
    /// Damage the unit holds (`damage.unit_pool.leftover`): points too few to slay a model.
    pub held: u32,
    /// Damage of this activation's hits on it, not yet landed (a leftover pool sums them first),
    /// and the attacker whose hit came first (the pool's order starts from it).
    pub pending: u32,
    pub pending_from: usize,
    /// The model that first hit.
    pub pending_hit: usize,
    /// A model of the unit its models aim at during this activation (`one_target_per_unit`),
    /// once the first declared it.
    pub target: Option<usize>,
}

/// What a damage model's table rows did to a model for good; all empty for most models (and
/// every model of a ruleset without such rows).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Systems {
    /// Each attribute's change from its card's value (`Rules::attributes` order); empty: none.
    pub attributes: Vec<i32>,
    /// Each mount's lasting modifier to its rolls, normalised; empty: none.
    pub weapon_mods: Vec<i32>,
    /// Each mount lost; empty: none.
    pub weapons_lost: Vec<bool>,
}

/// A model whose tables changed nothing (`Model::systems`).
static UNCHANGED: Systems = Systems { attributes: Vec::new(), weapon_mods: Vec::new(), weapons_lost: Vec::new() };

impl Model {
    /// What damage tables changed of the model for good.
    pub fn systems(&self) -> &Systems {
        self.systems.as_deref().unwrap_or(&UNCHANGED)
    }

    /// Whether a damage table destroyed its weapon mount `w`.
    #[inline]
    pub fn weapon_lost(&self, w: usize) -> bool {
        self.systems.as_ref().is_some_and(|s| s.weapon_lost(w))
    }

    /// Its weapon mount `w`'s lasting modifier from damage tables (normalised).
    #[inline]
    pub fn weapon_mod(&self, w: usize) -> i32 {
        self.systems.as_ref().map_or(0, |s| s.weapon_mod(w))
    }

    /// What damage tables changed of its attributes (empty: nothing).
    #[inline]
    pub fn changed_attributes(&self) -> &[i32] {
        self.systems.as_ref().map_or(&[], |s| &s.attributes)
    }

    /// `systems`, to change.
    pub fn systems_mut(&mut self) -> &mut Systems {
        self.systems.get_or_insert_with(Default::default)
    }
}

impl Systems {
    pub fn weapon_lost(&self, mount: usize) -> bool {
        self.weapons_lost.get(mount).copied().unwrap_or(false)
    }

    pub fn weapon_mod(&self, mount: usize) -> i32 {
        self.weapon_mods.get(mount).copied().unwrap_or(0)
    }
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
    /// What a damage model's tables changed for good (`Row::attributes`, `weapon_modifier`,
    /// `weapon_lost`): boxed, and only where a row changed something, so a model stays small.
    systems: Option<Box<Systems>>,
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
    /// `minefields::Kept::fields`). It never stands on the table, activates or is attacked.
    pub asset: bool,
    /// Held back for an orbital drop (`setup.orbital_drop`): it lands as it activates.
    pub dropping: bool,
    /// Held back in ambush: while `waiting`, it is placed anywhere the ruleset's `setup.ambush`
    /// allows as it activates, not on an edge.
    pub ambush: bool,
    /// An aircraft on the ground (models that fly are in flight otherwise).
    pub landed: bool,
    /// Free facing changes left to the action being taken (one per Move action it is).
    pub free_turns: u32,
    /// Inches moved this activation, and of them forward (the movement states).
    pub moved: f64,
    pub moved_forward: f64,
    /// MV spent on moves this activation (the `attacker-speed` condition).
    pub mv_spent: u32,
    pub activated: bool,
    pub activations: u32,
    /// The action slots (`Rules::action_slots`, by bit) its unit used this turn.
    pub slots_used: u32,
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
    /// What the features keep on it, each part its feature's own type.
    pub features: super::features::OnModel,
}

impl Model {
    /// A piece on the table: not destroyed, not gone, not riding in a transport.
    pub fn on_table(&self) -> bool {
        !self.destroyed
            && !self.left_board
            && self.features.transport.aboard.is_none()
            && self.waiting.is_none()
            && !self.asset
    }
    /// Still in the game for its side: on the table or riding in a transport (a missile in
    /// flight is on the table but not one of the side's forces).
    pub fn in_play(&self) -> bool {
        !self.destroyed
            && !self.left_board
            && !self.asset
            && self.features.missiles.missile.is_none()
            && !self.out_of_action
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

/// The acting model's answer to the reactions' attacks on it during one action: asked at the
/// first such attack, paid from the action points its activation has left after the action, and
/// rolled once for all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct ActingAnswer {
    pub model: usize,
    /// Action points left once the declared action is paid.
    pub ap_left: u32,
    pub asked: bool,
    pub choice: Option<AttackAnswer>,
    pub roll: Option<crate::compile::Thrown>,
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
            systems,
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
            ambush,
            landed,
            free_turns,
            moved,
            moved_forward,
            mv_spent,
            activated,
            activations,
            slots_used,
            pending,
            strike_memory,
            marks,
            charges_used,
            path,
            features,
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
        self.systems.clone_from(systems);
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
        self.ambush.clone_from(ambush);
        self.landed.clone_from(landed);
        self.free_turns.clone_from(free_turns);
        self.moved.clone_from(moved);
        self.moved_forward.clone_from(moved_forward);
        self.mv_spent.clone_from(mv_spent);
        self.activated.clone_from(activated);
        self.activations.clone_from(activations);
        self.slots_used.clone_from(slots_used);
        self.pending.clone_from(pending);
        self.strike_memory.clone_from(strike_memory);
        self.marks.clone_from(marks);
        self.charges_used.clone_from(charges_used);
        self.path.clone_from(path);
        self.features.clone_from(features);
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
            scripted,
            chains,
            sides,
            turn,
            active,
            joined,
            activation_over,
            squad_activating,
            unit_activating,
            used,
            slots_now,
            pools,
            owed_activations,
            extra_targets,
            counter_battery,
            reacting,
            forfeited,
            reacted_now,
            answering,
            acting_answer,
            closing_on,
            acting_as,
            counter_battery_waits,
            counter_battery_pending,
            sight_memo,
            board_index,
            board_version,
            in_model_state,
            started,
            turn_limit,
            declined,
            settled_reactions,
            fumbles,
            single_use_fired,
            damage_dealt,
            schedule,
            features,
            flags,
            markers,
            scenario_rules,
            checkpoint: _,
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
        self.scripted.clone_from(scripted);
        self.chains.clone_from(chains);
        self.sides.clone_from(sides);
        self.turn.clone_from(turn);
        self.active.clone_from(active);
        self.joined.clone_from(joined);
        self.activation_over.clone_from(activation_over);
        self.squad_activating.clone_from(squad_activating);
        self.unit_activating.clone_from(unit_activating);
        self.used.clone_from(used);
        self.slots_now.clone_from(slots_now);
        self.pools.clone_from(pools);
        self.owed_activations.clone_from(owed_activations);
        self.extra_targets.clone_from(extra_targets);
        self.counter_battery.clone_from(counter_battery);
        self.reacting.clone_from(reacting);
        self.forfeited.clone_from(forfeited);
        self.reacted_now.clone_from(reacted_now);
        self.answering.clone_from(answering);
        self.acting_answer.clone_from(acting_answer);
        self.closing_on.clone_from(closing_on);
        self.acting_as.clone_from(acting_as);
        self.counter_battery_waits.clone_from(counter_battery_waits);
        self.counter_battery_pending.clone_from(counter_battery_pending);
        self.sight_memo.clone_from(sight_memo);
        self.board_index.clone_from(board_index);
        self.board_version.clone_from(board_version);
        self.in_model_state.clone_from(in_model_state);
        self.started.clone_from(started);
        self.turn_limit.clone_from(turn_limit);
        self.declined.clone_from(declined);
        self.settled_reactions.clone_from(settled_reactions);
        self.fumbles.clone_from(fumbles);
        self.single_use_fired.clone_from(single_use_fired);
        self.damage_dealt.clone_from(damage_dealt);
        self.schedule = *schedule;
        self.features.clone_from(features);
        self.flags.clone_from(flags);
        self.markers.clone_from(markers);
        self.scenario_rules.clone_from(scenario_rules);
        // A copy keeps no checkpoint: one is taken from a run, never played into another.
        self.checkpoint = None;
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
    /// Scripts run in this game (the engine's hooks are active): a controller may take the
    /// Special actions they grant.
    pub scripted: bool,
    /// Chains of indirect fire started this game (Chain-Fire Pod): squad, target, turn, and the
    /// strike point if the first roll landed (`None`: it missed).
    pub chains: Vec<(usize, usize, u32, Option<P>)>,
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
    /// The unit (squad) whose activation is open (per-squad rules), till its end.
    pub unit_activating: Option<usize>,
    /// Non-repeatable actions the active model has used this activation.
    pub used: Vec<cav_format::ActionKind>,
    /// The action slots the active model has used this activation (its unit's once it ends).
    pub slots_now: u32,
    /// Each side's pool points left this turn, in a pooled turn (`turn_order`); empty otherwise.
    pub pools: Vec<u32>,
    /// Each side's activations its reactions took this turn (`counts_as_activation`), which the
    /// alternation passes over.
    pub owed_activations: Vec<u32>,
    /// Targets beyond the first of the active model's combat action (split fire, a lock on
    /// another model): the `multiple-targets` condition of its combat rolls this activation.
    pub extra_targets: i32,
    /// A counter-battery answer is being resolved (the `counter-battery` condition).
    pub counter_battery: bool,
    /// A reaction (`reaction_windows`) is being resolved: its attacks are not opposed.
    pub reacting: bool,
    /// A model whose unit forfeits its reactions to the action now declared (another unit
    /// reacted in its place: `target_forfeits`).
    pub forfeited: Option<usize>,
    /// The models that reacted during the active model's activation (windows with
    /// `once_an_activation`).
    pub reacted_now: Vec<usize>,
    /// The answers the targets of the combat action being resolved chose
    /// (`procedures.attack.opposed`): (target, answer); one that shoots back is taken off as it
    /// is used.
    pub answering: Vec<(usize, AttackAnswer)>,
    /// The acting model's one answer to the attacks reactions aim at it during its action
    /// (`procedures.attack.opposed.acting_answer_cost`), open from the action's declaration until
    /// its last window has closed.
    pub acting_answer: Option<ActingAnswer>,
    /// The model a charge being moved closes on: its unit's models are no bar to the move
    /// (`movement.enemy_clearance`).
    pub closing_on: Option<usize>,
    /// The ruleset's own action type the action being resolved is taken as (index into
    /// `Rules::own_actions`): how its moves go, its attacks' rolls, the `action-<id>` condition.
    pub acting_as: Option<u16>,
    /// Counter-battery answers wait until the attacker's move is over (run 'n gun with move left).
    pub(crate) counter_battery_waits: bool,
    /// Counter-battery answers declared and waiting to land: (answering model, weapon mounts, the
    /// attacker's firing place).
    pub(crate) counter_battery_pending: Vec<(usize, Vec<usize>, P)>,
    /// The last line-of-sight answers, keyed by models, positions and terrain count: a decision
    /// asks the same question for every weapon.
    pub(super) sight_memo: std::cell::RefCell<Vec<(SightKey, Sight)>>,
    /// The board's terrain pieces by hex and by what is asked of them (`Game::board_index`),
    /// built for one board (`board_version`, number of pieces) and shared by the games copied
    /// from this one.
    pub(super) board_index: std::cell::RefCell<std::rc::Rc<super::board_index::BoardIndex>>,
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
    /// The models that rolled a critical fumble during the current action, once per fumble
    /// (an out-of-ammo check's target point may rise with each).
    pub(crate) fumbles: Vec<usize>,
    /// (model, mount) of single-use mounts that fired in the current action.
    pub(crate) single_use_fired: Vec<(usize, usize)>,
    pub damage_dealt: Vec<u32>,
    /// The features of play this game's rules have, by the moments they act at.
    pub(crate) schedule: super::features::Schedule,
    /// What the features keep during the game, each part its feature's own type.
    pub features: super::features::Kept,
    /// What the scripts remember (`ctx.set_flag`).
    pub flags: super::flags::Flags,
    /// Markers scripts put on the board (`ctx.place_marker`), in the order first placed.
    pub markers: Vec<Marker>,
    /// The scenario's rules in play (`applies_to: scenario` special attributes its scenario or
    /// scenario test names).
    pub scenario_rules: Vec<crate::compile::SaIx>,
    /// Where this run's combat action may be resumed from, kept when the hooks allowed one
    /// (`game/resume.rs`; exact odds).
    pub checkpoint: Option<Box<super::resume::Checkpoint<'r>>>,
}

/// A marker a script put on the board: named by its special attribute's handler (two special
/// attributes never share one), at a point.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    pub sa: crate::compile::SaIx,
    pub id: String,
    pub at: P,
}

impl<'r> Game<'r> {
    pub fn new(rules: &'r Rules, board: Board, sides: Vec<String>) -> Self {
        Game {
            rules,
            board,
            models: Vec::new(),
            damage_dealt: vec![0; sides.len()],
            schedule: super::features::Schedule::of(rules),
            features: super::features::Kept::new(sides.len()),
            flags: Default::default(),
            markers: Vec::new(),
            scenario_rules: Vec::new(),
            checkpoint: None,
            squads: Vec::new(),
            victory: cav_format::VictoryKind::LastStanding,
            commanders: Vec::new(),
            scenario: None,
            zones: Vec::new(),
            objective_points: Vec::new(),
            scripted: false,
            chains: Vec::new(),
            tv_pool: vec![None; sides.len()],
            tv_bonus: vec![0; sides.len()],
            sides,
            turn: 0,
            active: None,
            used: Vec::new(),
            slots_now: 0,
            pools: Vec::new(),
            owed_activations: Vec::new(),
            squad_activating: false,
            unit_activating: None,
            activation_over: false,
            joined: Vec::new(),
            extra_targets: 0,
            reacting: false,
            forfeited: None,
            reacted_now: Vec::new(),
            answering: Vec::new(),
            acting_answer: None,
            closing_on: None,
            acting_as: None,
            counter_battery: false,
            counter_battery_waits: false,
            counter_battery_pending: Vec::new(),
            sight_memo: std::cell::RefCell::new(Vec::new()),
            board_index: Default::default(),
            board_version: 0,
            in_model_state: false,
            started: false,
            turn_limit: rules.turn_limit,
            declined: Vec::new(),
            settled_reactions: Vec::new(),
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
        self.squads.push(Squad {
            name,
            kind,
            side,
            members,
            held: 0,
            pending: 0,
            pending_from: 0,
            pending_hit: 0,
            target: None,
        });
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
            if m.side != side
                || !m.in_play()
                || m.waiting.is_some_and(|t| t > self.turn)
                || m.features.missiles.missile.is_some()
            {
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
            .filter(|m| m.side == side && !m.in_play() && !m.asset && m.features.missiles.missile.is_none())
            .filter(|m| m.squad.is_none() || !per_squad)
            .count();
        squads + loners
    }

    pub fn add_model(&mut self, card: usize, side: usize, pos: P, facing: f64) -> usize {
        // On a hex board a model stands at its hex's centre, facing a hexside.
        let (pos, facing) = match &self.rules.hexes {
            Some(g) => (g.centre(g.hex_at(pos)), g.snap_facing(facing)),
            None => (pos, facing),
        };
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
            systems: None,
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
            free_turns: 1,
            waiting: None,
            asset: false,
            dropping: false,
            ambush: false,
            landed: false,
            moved: 0.0,
            mv_spent: 0,
            moved_forward: 0.0,
            activated: false,
            squad: None,
            activations: 0,
            slots_used: 0,
            pending: Pending::default(),
            strike_memory: None,
            marks: Vec::new(),
            charges_used: Vec::new(),
            path: Vec::new(),
            features: Default::default(),
        });
        self.models.len() - 1
    }
}
