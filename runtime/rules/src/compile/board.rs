//! A hex board's geometry (`board: {topology: hex}`): which hex a point in inches lies in, a
//! hex's centre and corners, hexes between two hexes, and the hexside one hex faces another by.
//! `hexx` does the hex maths; its world maths is `f32`, so the engine keeps to `Hex` and uses
//! points only to place models and terrain given in inches and to draw.

use cav_format as f;
use hexx::{DirectionWay, HexLayout, Vec2};
pub use hexx::{EdgeDirection, Hex};

use crate::geom::P;

/// The hexes of a board: how they lie and their size in inches across the flats.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct HexGeometry {
    pub orientation: f::HexOrientation,
    pub across_flats: f64,
}

impl HexGeometry {
    fn layout(&self) -> HexLayout {
        let layout = match self.orientation {
            f::HexOrientation::Flat => HexLayout::flat(),
            f::HexOrientation::Pointy => HexLayout::pointy(),
        };
        // `hexx` sizes a hex by its circumradius: neighbours are √3 of it apart.
        layout.with_hex_size((self.across_flats / 3f64.sqrt()) as f32)
    }

    /// The hex a point lies in.
    pub fn hex_at(&self, p: P) -> Hex {
        self.layout().world_pos_to_hex(Vec2::new(p.x as f32, p.y as f32))
    }

    /// A hex's centre, worked out in `f64` (the layout `hexx` uses, without its `f32`
    /// rounding: models stand here, and the event log prints it).
    pub fn centre(&self, h: Hex) -> P {
        let (q, r, d) = (f64::from(h.x), f64::from(h.y), self.across_flats);
        let half_root3 = 3f64.sqrt() / 2.0;
        match self.orientation {
            f::HexOrientation::Flat => P::new(q * d * half_root3, d * (q / 2.0 + r)),
            f::HexOrientation::Pointy => P::new(d * (q + r / 2.0), r * d * half_root3),
        }
    }

    /// A hex's corners, for drawing.
    pub fn corners(&self, h: Hex) -> [P; 6] {
        self.layout().hex_corners(h).map(|v| P::new(f64::from(v.x), f64::from(v.y)))
    }

    /// A hex as a terrain piece: its outline, centre and the radius around the centre it fills.
    pub fn piece(&self, h: Hex) -> (crate::geom::Polygon, P, f64) {
        let corners = self.corners(h);
        (crate::geom::Polygon { points: corners.to_vec() }, self.centre(h), self.across_flats / 3f64.sqrt())
    }

    /// A hex's place as packs and maps write it, `[column, row]`: columns run along x and rows
    /// along y from the board's corner (hex `[0, 0]` is centred on it); on a flat-topped board
    /// odd columns sit half a hex further along y, on a pointy-topped one odd rows half a hex
    /// further along x.
    pub fn offset(&self, h: Hex) -> [i32; 2] {
        let c = self.centre(h);
        let (flats, spacing) = (self.across_flats, self.across_flats * 3f64.sqrt() / 2.0);
        match self.orientation {
            f::HexOrientation::Flat => {
                let col = (c.x / spacing).round() as i32;
                [col, (c.y / flats - 0.5 * f64::from(col & 1)).round() as i32]
            }
            f::HexOrientation::Pointy => {
                let row = (c.y / spacing).round() as i32;
                [(c.x / flats - 0.5 * f64::from(row & 1)).round() as i32, row]
            }
        }
    }

    /// The hex at `[column, row]` (the inverse of [`offset`](Self::offset)).
    pub fn from_offset(&self, [col, row]: [i32; 2]) -> Hex {
        let (flats, spacing) = (self.across_flats, self.across_flats * 3f64.sqrt() / 2.0);
        let (col_f, row_f) = (f64::from(col), f64::from(row));
        let p = match self.orientation {
            f::HexOrientation::Flat => P::new(col_f * spacing, (row_f + 0.5 * f64::from(col & 1)) * flats),
            f::HexOrientation::Pointy => P::new((col_f + 0.5 * f64::from(row & 1)) * flats, row_f * spacing),
        };
        self.hex_at(p)
    }

    /// Whether a hex is on a board of `size` inches: its centre lies on it (as a model's place
    /// is judged on or off the table).
    pub fn on_board(&self, h: Hex, size: [f64; 2]) -> bool {
        let c = self.centre(h);
        (0.0..=size[0]).contains(&c.x) && (0.0..=size[1]).contains(&c.y)
    }

    /// The hex at `[column, row]` where it lies on a board of `size` inches; `None` off it (or
    /// so far off that its coordinates are no hex of any board).
    pub fn on_board_at(&self, at: [i32; 2], size: [f64; 2]) -> Option<Hex> {
        // (A board is at most `MAX_BOARD_INCHES` across and a hex at least 0.01": 100,000 hexes.)
        if at.iter().any(|v| v.unsigned_abs() > 200_000) {
            return None;
        }
        Some(self.from_offset(at)).filter(|&h| self.on_board(h, size))
    }

    /// The hexside facing nearest `facing` (degrees, 0 = +y, clockwise): a multiple of 60° on
    /// flat-topped hexes, 30° off one on pointy-topped ones.
    pub fn snap_facing(&self, facing: f64) -> f64 {
        let off = match self.orientation {
            f::HexOrientation::Flat => 0.0,
            f::HexOrientation::Pointy => 30.0,
        };
        let snapped = ((facing - off) / 60.0).round() * 60.0 + off;
        snapped.rem_euclid(360.0)
    }

    /// Hexes from `a` to `b` (neighbours: 1).
    pub fn hexes(a: Hex, b: Hex) -> u32 {
        a.unsigned_distance_to(b)
    }

    /// The hexes a line from `a` to `b` crosses, both ends included; where the line runs along
    /// hexsides (between two hexes at some step), the second line takes the other hex at every
    /// such step (`None` where there is no such tie). The ruleset says which line counts.
    pub fn lines(a: Hex, b: Hex) -> (Vec<Hex>, Option<Vec<Hex>>) {
        // Nudged a hair each way (axial coordinates), as the usual hex line does, so a line
        // along a hexside falls into one hex or the other rather than where rounding puts it.
        // The nudge (3:1) is parallel to no line that runs along hexsides, so it always moves
        // such a line sideways.
        const NUDGE: f32 = 1e-4;
        let n = a.unsigned_distance_to(b);
        let steps = n.max(1) as f32;
        let line = |nudge: f32| -> Vec<Hex> {
            let (from, to) = (a.as_vec2() + Vec2::new(nudge, nudge / 3.0), b.as_vec2() + Vec2::new(nudge, nudge / 3.0));
            (0..=n)
                .map(|i| {
                    let p = from.lerp(to, i as f32 / steps);
                    Hex::round([p.x, p.y])
                })
                .collect()
        };
        let (one, other) = (line(NUDGE), line(-NUDGE));
        if one == other { (one, None) } else { (one, Some(other)) }
    }

    /// The hexside of `from` that faces `to`, or both where `to` lies on the line between two
    /// (a tie the ruleset breaks); `None` for the same hex.
    pub fn hexsides_toward(from: Hex, to: Hex) -> Option<(EdgeDirection, Option<EdgeDirection>)> {
        if from == to {
            return None;
        }
        Some(match from.way_to(to) {
            DirectionWay::Single(d) => (d, None),
            DirectionWay::Tie([a, b]) => (a, Some(b)),
        })
    }
}

/// Where a pack puts something: a point in inches (`at`) or, on a hex board, a hex (`hex`,
/// `[column, row]`, on the board of `size` inches) — one of them.
pub fn place(
    hexes: Option<&HexGeometry>,
    at: Option<[f64; 2]>,
    hex: Option<[i32; 2]>,
    size: [f64; 2],
) -> Result<P, String> {
    match (at, hex, hexes) {
        (Some(_), Some(_), _) => Err("give `at` (inches) or `hex` ([column, row]), not both".into()),
        (Some([x, y]), None, _) => Ok(P::new(x, y)),
        (None, Some(h), Some(g)) => g
            .on_board_at(h, size)
            .map(|h| g.centre(h))
            .ok_or_else(|| format!("hex [{}, {}] is not on the {}\"×{}\" board", h[0], h[1], size[0], size[1])),
        (None, Some(_), None) => {
            Err("`hex` places on a hex board; this ruleset's board is continuous: give `at`".into())
        }
        (None, None, _) => Err("give where: `at` (inches) or, on a hex board, `hex` ([column, row])".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(orientation: f::HexOrientation) -> HexGeometry {
        HexGeometry { orientation, across_flats: 1.0 }
    }

    /// Every hex's centre lies in it, its neighbours' centres are one size apart, and a hex's
    /// corners are as far from its centre as the size over √3, for both orientations.
    #[test]
    fn centres_and_hexes_agree() {
        for o in [f::HexOrientation::Flat, f::HexOrientation::Pointy] {
            let g = geometry(o);
            for x in -6..=6 {
                for y in -6..=6 {
                    let h = Hex::new(x, y);
                    let c = g.centre(h);
                    assert_eq!(g.hex_at(c), h);
                    for n in h.all_neighbors() {
                        assert!((g.centre(n).dist(c) - 1.0).abs() < 1e-5);
                        assert_eq!(HexGeometry::hexes(h, n), 1);
                    }
                    for k in g.corners(h) {
                        assert!((k.dist(c) - 1.0 / 3f64.sqrt()).abs() < 1e-5);
                    }
                }
            }
        }
    }

    /// `[column, row]` and hexes agree both ways; columns and rows grow along x and y; the
    /// board's corner is `[0, 0]`.
    #[test]
    fn offsets_name_columns_and_rows() {
        for o in [f::HexOrientation::Flat, f::HexOrientation::Pointy] {
            let g = HexGeometry { orientation: o, across_flats: 1.5 };
            assert_eq!(g.offset(g.hex_at(P::new(0.0, 0.0))), [0, 0]);
            for col in -3..12 {
                for row in -3..12 {
                    let h = g.from_offset([col, row]);
                    assert_eq!(g.offset(h), [col, row], "{o:?}");
                    let (right, down) = (g.from_offset([col + 1, row]), g.from_offset([col, row + 1]));
                    assert!(g.centre(right).x > g.centre(h).x && g.centre(down).y > g.centre(h).y);
                    assert_eq!(HexGeometry::hexes(h, right), 1, "{o:?} [{col}, {row}] → right");
                }
            }
            assert!(g.on_board(g.from_offset([0, 0]), [10.0, 10.0]));
            assert!(!g.on_board(g.from_offset([-1, 0]), [10.0, 10.0]));
        }
    }

    /// Facings snap to hexsides, and each snapped facing points at a neighbour's centre.
    #[test]
    fn facings_snap_to_hexsides() {
        for o in [f::HexOrientation::Flat, f::HexOrientation::Pointy] {
            let g = geometry(o);
            for deg in (0..360).step_by(7) {
                let f = g.snap_facing(f64::from(deg));
                assert!(crate::geom::angle_diff(f, f64::from(deg)).abs() <= 30.0 + 1e-9);
                let ahead = g.hex_at(crate::geom::P::heading(f).scale(1.0));
                assert_eq!(HexGeometry::hexes(Hex::ZERO, ahead), 1, "{o:?} {deg}° → {f}°");
            }
        }
        assert_eq!(geometry(f::HexOrientation::Flat).snap_facing(-20.0), 0.0);
        assert_eq!(geometry(f::HexOrientation::Pointy).snap_facing(10.0), 30.0);
    }

    /// A straight line crosses one hex per step; a line along hexsides has two, differing only
    /// where it runs between hexes (003's line-of-sight ties).
    #[test]
    fn lines_and_their_ties() {
        let (line, tie) = HexGeometry::lines(Hex::ZERO, Hex::new(3, 0));
        assert_eq!(line, vec![Hex::ZERO, Hex::new(1, 0), Hex::new(2, 0), Hex::new(3, 0)]);
        assert!(tie.is_none());
        let (one, other) = HexGeometry::lines(Hex::ZERO, Hex::new(2, -1));
        let other = other.expect("a line along hexsides");
        assert_eq!((one.len(), other.len()), (3, 3));
        assert_eq!((one[0], one[2], other[0], other[2]), (Hex::ZERO, Hex::new(2, -1), Hex::ZERO, Hex::new(2, -1)));
        let mut middles = [one[1], other[1]].map(|h| (h.x, h.y));
        middles.sort();
        assert_eq!(middles, [(1, -1), (1, 0)], "each side of the hexside");
        for line in [&one, &other] {
            assert!(line.windows(2).all(|w| HexGeometry::hexes(w[0], w[1]) == 1), "{line:?}");
        }
        assert_eq!(HexGeometry::lines(Hex::ZERO, Hex::ZERO), (vec![Hex::ZERO], None));
        // Every direction that runs along hexsides has its tie, from anywhere, at any length.
        for (x, y) in [(2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2)] {
            for k in 1..4 {
                let from = Hex::new(5, -7);
                let to = from + Hex::new(x * k, y * k);
                let (one, other) = HexGeometry::lines(from, to);
                let other = other.unwrap_or_else(|| panic!("({x}, {y}) × {k}: no tie"));
                assert_eq!(one.iter().zip(&other).filter(|(a, b)| a != b).count(), k as usize);
            }
        }
    }

    /// A hex three steps away is three hexes away; straight along a hexside's line the hexside
    /// is one, and between two lines both are named.
    #[test]
    fn hexes_and_hexsides() {
        let o = Hex::ZERO;
        let far = Hex::new(3, 0);
        assert_eq!(HexGeometry::hexes(o, far), 3);
        assert!(HexGeometry::hexsides_toward(o, o).is_none());
        let (side, tie) = HexGeometry::hexsides_toward(o, far).unwrap();
        assert_eq!((o.neighbor(side), tie), (Hex::new(1, 0), None));
        let (a, b) = HexGeometry::hexsides_toward(o, Hex::new(2, -1)).unwrap();
        let b = b.expect("(2, -1) lies between two hexsides");
        assert_ne!(a, b);
        assert_eq!(HexGeometry::hexes(o, Hex::new(2, -1)), 2);
    }
}
