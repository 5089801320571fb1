//! What the engine asks of the board's terrain before every move and shot, indexed once per
//! board: the pieces by hex (a hex board), the pieces that raise the ground (`Game::ground`)
//! and those entered only with a special attribute (`Game::underwater`). Without it each
//! question walks every piece of the board, most of which are neither.

use super::*;
use crate::compile::Hex;

/// A piece reaching more hexes than this from its centre is not indexed (`BoardIndex::loose`):
/// a hostile radius must not make the index huge.
const MAX_INDEXED_REACH: i64 = 32;

/// The board's terrain pieces (indices into `Board::areas`, in board order) by what is asked of
/// them.
#[derive(Debug, Default)]
pub(crate) struct BoardIndex {
    /// The board it was built for: (`Game::board_version`, number of pieces).
    key: Option<(u64, usize)>,
    /// On a hex board, each hex's pieces (those its centre lies in).
    pub(super) by_hex: std::collections::HashMap<Hex, Vec<u32>>,
    /// Pieces too big to index by hex, tested hex by hex.
    pub(super) loose: Vec<u32>,
    /// Pieces whose terrain raises the ground (`TerrainDef::raises_ground`).
    pub(super) raising: Vec<u32>,
    /// Pieces whose terrain is entered only with a special attribute (`TerrainDef::entered_with`).
    pub(super) entered_with: Vec<u32>,
}

impl Game<'_> {
    /// The board's index, built where it is not this board's (`board_version` counts every
    /// change to the terrain) and shared by the games copied from this one. It depends on each
    /// piece's terrain, not only on its shape: whatever changes a piece's terrain in place (a
    /// collapse to rubble, felled woods) must count it in `board_version`.
    #[inline]
    pub(super) fn board_index(&self) -> std::cell::Ref<'_, BoardIndex> {
        let key = (self.board_version, self.board.areas.len());
        if self.board_index.borrow().key != Some(key) {
            self.build_board_index(key);
        }
        std::cell::Ref::map(self.board_index.borrow(), |index| &**index)
    }

    #[cold]
    fn build_board_index(&self, key: (u64, usize)) {
        let mut index = BoardIndex { key: Some(key), ..BoardIndex::default() };
        for (i, a) in self.board.areas.iter().enumerate() {
            let t = &self.rules.terrains[a.terrain];
            if t.raises_ground {
                index.raising.push(i as u32);
            }
            if !t.entered_with.is_empty() {
                index.entered_with.push(i as u32);
            }
            let Some(g) = &self.rules.hexes else { continue };
            // The hexes whose centres may lie in it: those within its radius of its own.
            let reach = (a.radius / g.across_flats).ceil() as i64 + 1;
            if !(0..=MAX_INDEXED_REACH).contains(&reach) {
                index.loose.push(i as u32);
                continue;
            }
            for h in g.hex_at(a.center).range(reach as u32) {
                let c = g.centre(h);
                if a.center.dist(c) <= a.radius + 1e-6 && a.poly.contains(c) {
                    index.by_hex.entry(h).or_default().push(i as u32);
                }
            }
        }
        *self.board_index.borrow_mut() = std::rc::Rc::new(index);
    }
}
