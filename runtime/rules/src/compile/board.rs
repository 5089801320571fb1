//! A hex board's geometry (`board: {topology: hex}`): which hex a point in inches lies in, a
//! hex's centre and corners, hexes between two hexes, and the hexside one hex faces another by.
//! `hexx` does the hex maths; its world maths is `f32`, so the engine keeps to `Hex` and uses
//! points only to place models and terrain given in inches and to draw.

use cav_format as f;
use hexx::{DirectionWay, HexLayout, Vec2};
pub use hexx::{EdgeDirection, Hex};

use crate::geom::P;

/// The hexes of a board: how they lie and their size in inches across the flats.
#[derive(Debug, Clone, Copy, PartialEq)]
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

    /// A hex's centre.
    pub fn centre(&self, h: Hex) -> P {
        let v = self.layout().hex_to_world_pos(h);
        P::new(f64::from(v.x), f64::from(v.y))
    }

    /// A hex's corners, for drawing.
    pub fn corners(&self, h: Hex) -> [P; 6] {
        self.layout().hex_corners(h).map(|v| P::new(f64::from(v.x), f64::from(v.y)))
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
