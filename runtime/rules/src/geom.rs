//! Plane geometry in inches: points, polygons, segment tests. Bases are treated as circles of
//! their hex's inner radius, which is what "measure base edge to base edge" needs.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct P {
    pub x: f64,
    pub y: f64,
}

impl P {
    pub const fn new(x: f64, y: f64) -> P {
        P { x, y }
    }
    pub fn dist(self, o: P) -> f64 {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        (dx * dx + dy * dy).sqrt() // board distances never overflow: no need for hypot's care
    }
    pub fn scale(self, k: f64) -> P {
        P::new(self.x * k, self.y * k)
    }
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    /// Unit vector for a facing in degrees (0 = +y, clockwise).
    pub fn heading(deg: f64) -> P {
        let r = deg.to_radians();
        P::new(r.sin(), r.cos())
    }
    /// Facing in degrees (0 = +y, clockwise) of the direction from self to o.
    pub fn bearing(self, o: P) -> f64 {
        let d = o - self;
        normalise_deg(d.x.atan2(d.y).to_degrees())
    }
}

impl std::ops::Sub for P {
    type Output = P;
    fn sub(self, o: P) -> P {
        P::new(self.x - o.x, self.y - o.y)
    }
}

impl std::ops::Add for P {
    type Output = P;
    fn add(self, o: P) -> P {
        P::new(self.x + o.x, self.y + o.y)
    }
}

/// Degrees into [0, 360).
pub fn normalise_deg(d: f64) -> f64 {
    d.rem_euclid(360.0)
}

/// Smallest signed difference b − a in degrees, in (−180, 180].
pub fn angle_diff(a: f64, b: f64) -> f64 {
    let d = normalise_deg(b - a);
    if d > 180.0 { d - 360.0 } else { d }
}

/// `f` of the (cos, sin) of each corner's angle of a regular polygon of `sides` sides. Kept per
/// thread for a few side counts: every terrain piece of a scenario asks for the same ones (the
/// sines and cosines were most of setting up a game), and the values are exactly the ones
/// computed afresh, so the polygons are too.
fn with_unit_corners<T>(sides: usize, f: impl FnOnce(&[(f64, f64)]) -> T) -> T {
    /// Side count, and (cos, sin) per corner.
    type Kept = Vec<(usize, Vec<(f64, f64)>)>;
    thread_local! {
        static CORNERS: std::cell::RefCell<Kept> = const { std::cell::RefCell::new(Vec::new()) };
    }
    CORNERS.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some((_, corners)) = kept.iter().find(|(n, _)| *n == sides) {
            return f(corners);
        }
        let corners: Vec<(f64, f64)> = (0..sides)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / sides as f64;
                (a.cos(), a.sin())
            })
            .collect();
        let out = f(&corners);
        // A few side counts are all a ruleset uses; an odd request is not kept.
        if kept.len() < 8 {
            kept.push((sides, corners));
        }
        out
    })
}

/// A simple polygon (a terrain area).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Polygon {
    pub points: Vec<P>,
}

impl Polygon {
    /// A regular polygon approximating a circle: terrain features are placed as these.
    pub fn regular(center: P, radius: f64, sides: usize) -> Polygon {
        let points = with_unit_corners(sides, |corners| {
            corners.iter().map(|&(cos, sin)| P::new(center.x + radius * cos, center.y + radius * sin)).collect()
        });
        Polygon { points }
    }

    pub fn contains(&self, p: P) -> bool {
        let mut inside = false;
        let n = self.points.len();
        let mut j = n.wrapping_sub(1);
        for i in 0..n {
            let (a, b) = (self.points[i], self.points[j]);
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside = !inside;
            }
            j = i;
        }
        inside
    }

    /// Distance from a point to the polygon's boundary (0 inside).
    pub fn distance(&self, p: P) -> f64 {
        if self.contains(p) {
            return 0.0;
        }
        self.edges().map(|(a, b)| seg_point_dist(a, b, p)).fold(f64::INFINITY, f64::min)
    }

    /// Distance from a point to the polygon's edge, inside or outside.
    pub fn edge_distance(&self, p: P) -> f64 {
        self.edges().map(|(a, b)| seg_point_dist(a, b, p)).fold(f64::INFINITY, f64::min)
    }

    fn edges(&self) -> impl Iterator<Item = (P, P)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    /// Does the segment a–b touch the polygon (cross it or lie inside it)?
    pub fn touches_segment(&self, a: P, b: P) -> bool {
        self.contains(a) || self.contains(b) || self.edges().any(|(c, d)| segments_intersect(a, b, c, d))
    }

    /// How long a stretch of the segment a–b lies inside the polygon (convex or not): the
    /// segment is cut where it crosses an edge, and each piece whose middle is inside counts.
    pub fn length_inside(&self, a: P, b: P) -> f64 {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let mut cuts: Vec<f64> = vec![0.0, 1.0];
        for (c, d) in self.edges() {
            let (ex, ey) = (d.x - c.x, d.y - c.y);
            let den = dx * ey - dy * ex;
            if den.abs() < 1e-12 {
                continue; // parallel: the pieces either side decide
            }
            let t = ((c.x - a.x) * ey - (c.y - a.y) * ex) / den;
            let u = ((c.x - a.x) * dy - (c.y - a.y) * dx) / den;
            // (A little slack on the edge, so a line through a corner is cut there.)
            if (0.0..=1.0).contains(&t) && (-1e-9..=1.0 + 1e-9).contains(&u) {
                cuts.push(t);
            }
        }
        cuts.sort_unstable_by(f64::total_cmp);
        let len = a.dist(b);
        cuts.windows(2)
            .filter(|w| {
                w[1] > w[0] && self.contains(P::new(a.x + dx * (w[0] + w[1]) / 2.0, a.y + dy * (w[0] + w[1]) / 2.0))
            })
            .map(|w| (w[1] - w[0]) * len)
            .sum()
    }
}

fn cross(o: P, a: P, b: P) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

pub fn segments_intersect(a: P, b: P, c: P, d: P) -> bool {
    let (d1, d2, d3, d4) = (cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d));
    ((d1 > 0.0) != (d2 > 0.0)) && ((d3 > 0.0) != (d4 > 0.0))
}

/// Distance from p to the segment a–b.
pub fn seg_point_dist(a: P, b: P, p: P) -> f64 {
    let ab = b - a;
    let l2 = ab.x * ab.x + ab.y * ab.y;
    if l2 == 0.0 {
        return p.dist(a);
    }
    let t = (((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / l2).clamp(0.0, 1.0);
    p.dist(a + ab.scale(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn square_contains_and_segments() {
        let sq = Polygon { points: vec![P::new(0., 0.), P::new(4., 0.), P::new(4., 4.), P::new(0., 4.)] };
        assert!(sq.contains(P::new(2., 2.)));
        assert!(!sq.contains(P::new(5., 2.)));
        assert!(sq.touches_segment(P::new(-1., 2.), P::new(5., 2.)));
        assert!(!sq.touches_segment(P::new(-1., 5.), P::new(5., 5.)));
        assert!((sq.distance(P::new(6., 2.)) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn length_of_a_segment_inside() {
        let sq = Polygon { points: vec![P::new(0., 0.), P::new(4., 0.), P::new(4., 4.), P::new(0., 4.)] };
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(near(sq.length_inside(P::new(-1., 2.), P::new(5., 2.)), 4.0), "straight across");
        assert!(near(sq.length_inside(P::new(1., 1.), P::new(3., 1.)), 2.0), "wholly inside");
        assert!(near(sq.length_inside(P::new(2., 2.), P::new(9., 2.)), 2.0), "from inside out");
        assert!(near(sq.length_inside(P::new(-1., 5.), P::new(5., 5.)), 0.0), "beside it");
        // A U shape: the line crosses both arms and the gap between them.
        let u = Polygon {
            points: vec![
                P::new(0., 0.),
                P::new(6., 0.),
                P::new(6., 4.),
                P::new(4., 4.),
                P::new(4., 1.),
                P::new(2., 1.),
                P::new(2., 4.),
                P::new(0., 4.),
            ],
        };
        assert!(near(u.length_inside(P::new(-1., 3.), P::new(7., 3.)), 4.0), "two arms of 2\"");
    }

    #[test]
    fn bearings() {
        let o = P::new(0., 0.);
        assert!((o.bearing(P::new(0., 1.)) - 0.0).abs() < 1e-9);
        assert!((o.bearing(P::new(1., 0.)) - 90.0).abs() < 1e-9);
        assert!((angle_diff(350.0, 10.0) - 20.0).abs() < 1e-9);
        assert!((angle_diff(10.0, 350.0) + 20.0).abs() < 1e-9);
    }

    proptest! {
        #[test]
        fn regular_polygon_contains_its_center_and_not_far_points(x in -50.0..50.0f64, y in -50.0..50.0f64, r in 0.5..10.0f64) {
            let poly = Polygon::regular(P::new(x, y), r, 12);
            prop_assert!(poly.contains(P::new(x, y)));
            prop_assert!(!poly.contains(P::new(x + r * 1.01, y + r * 1.01)));
        }

        #[test]
        fn distance_is_symmetric_and_triangle(ax in -9.0..9.0f64, ay in -9.0..9.0f64, bx in -9.0..9.0f64, by in -9.0..9.0f64) {
            let (a, b) = (P::new(ax, ay), P::new(bx, by));
            prop_assert!((a.dist(b) - b.dist(a)).abs() < 1e-12);
            prop_assert!(a.dist(b) <= a.dist(P::new(0., 0.)) + P::new(0., 0.).dist(b) + 1e-9);
        }
    }
}

/// A uniform grid over points (model positions): which lie within a distance of a point, and
/// how far the nearest one is, without looking at every point — what keeps per-model questions
/// near-linear in large battles. The cells cover the points' bounding box; their size is at
/// least `cell` inches, and larger when the box would need more cells than a few per point.
pub struct Grid {
    cell: f64,
    origin: P,
    columns: i64,
    rows: i64,
    cells: Vec<Vec<(usize, P)>>,
    len: usize,
}

impl Grid {
    pub fn new(points: impl IntoIterator<Item = (usize, P)>, cell: f64) -> Grid {
        let points: Vec<(usize, P)> = points.into_iter().filter(|(_, p)| p.x.is_finite() && p.y.is_finite()).collect();
        let (mut lo, mut hi) = (P::new(f64::INFINITY, f64::INFINITY), P::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for (_, p) in &points {
            (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(p.x), lo.y.min(p.y), hi.x.max(p.x), hi.y.max(p.y));
        }
        if points.is_empty() {
            (lo, hi) = (P::new(0.0, 0.0), P::new(0.0, 0.0));
        }
        let mut cell = if cell.is_finite() { cell.max(1.0) } else { 1.0 };
        let most = 4 * points.len() + 64;
        let count = |cell: f64| (((hi.x - lo.x) / cell).floor() + 1.0) * (((hi.y - lo.y) / cell).floor() + 1.0);
        while count(cell) > most as f64 && cell.is_finite() {
            cell *= 2.0;
        }
        let (columns, rows) = (((hi.x - lo.x) / cell) as i64 + 1, ((hi.y - lo.y) / cell) as i64 + 1);
        let mut grid =
            Grid { cell, origin: lo, columns, rows, cells: vec![Vec::new(); (columns * rows) as usize], len: 0 };
        for (i, p) in points {
            let (x, y) = grid.key(p);
            grid.cells[(y * columns + x) as usize].push((i, p));
            grid.len += 1;
        }
        grid
    }

    /// The cell of `p`, which may lie outside the grid.
    fn key(&self, p: P) -> (i64, i64) {
        let f = |v: f64| if v.is_finite() { v.floor().clamp(-1e12, 1e12) as i64 } else { 0 };
        (f((p.x - self.origin.x) / self.cell), f((p.y - self.origin.y) / self.cell))
    }

    /// The points of the cells from (x0, y0) to (x1, y1), clipped to the grid.
    fn block(&self, (x0, y0): (i64, i64), (x1, y1): (i64, i64)) -> impl Iterator<Item = &(usize, P)> {
        let (x0, x1) = (x0.max(0), x1.min(self.columns - 1));
        let (y0, y1) = (y0.max(0), y1.min(self.rows - 1));
        (y0..=y1).flat_map(move |y| (x0..=x1).flat_map(move |x| self.cells[(y * self.columns + x) as usize].iter()))
    }

    /// The indices of the points within `radius` of `p`, in no particular order.
    pub fn near(&self, p: P, radius: f64) -> impl Iterator<Item = usize> + '_ {
        let (cx, cy) = self.key(p);
        let reach = (radius.max(0.0) / self.cell).ceil().min(1e12) as i64;
        self.block(
            (cx.saturating_sub(reach), cy.saturating_sub(reach)),
            (cx.saturating_add(reach), cy.saturating_add(reach)),
        )
        .filter(move |(_, q)| p.dist(*q) <= radius)
        .map(|(i, _)| *i)
    }

    /// The distance from `p` to the nearest point (infinity when there is none): rings of cells
    /// searched outwards until no unsearched cell can hold a nearer one.
    pub fn nearest(&self, p: P) -> f64 {
        if self.len == 0 {
            return f64::INFINITY;
        }
        let (cx, cy) = self.key(p);
        let mut best = f64::INFINITY;
        // Rings before `first` miss the grid (p may lie far outside it); past `last` every cell
        // of the grid has been searched.
        let first = [0, -cx, cx - (self.columns - 1), -cy, cy - (self.rows - 1)].into_iter().max().unwrap_or(0);
        let last = [cx, self.columns - 1 - cx, cy, self.rows - 1 - cy].into_iter().map(i64::abs).max().unwrap_or(0) + 1;
        for ring in first..=last {
            // Every cell of ring k is at least (k - 1) cells away from p.
            if (ring - 1) as f64 * self.cell > best {
                break;
            }
            // The ring's border: its bottom and top rows, then its sides between them.
            let (x0, x1, y0, y1) = (cx - ring, cx + ring, cy - ring, cy + ring);
            let border = self.block((x0, y0), (x1, y0)).chain(
                if ring > 0 {
                    Some(
                        self.block((x0, y1), (x1, y1))
                            .chain(self.block((x0, y0 + 1), (x0, y1 - 1)))
                            .chain(self.block((x1, y0 + 1), (x1, y1 - 1))),
                    )
                } else {
                    None
                }
                .into_iter()
                .flatten(),
            );
            for (_, q) in border {
                best = best.min(p.dist(*q));
            }
        }
        best
    }
}

#[cfg(test)]
mod grid_tests {
    use super::*;

    /// The grid answers as looking at every point does, for points spread over a board and
    /// queries on and off it.
    #[test]
    fn the_grid_agrees_with_looking_at_every_point() {
        let mut x: u64 = 9;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) as f64 / (1u64 << 31) as f64 * 120.0 - 10.0
        };
        let points: Vec<(usize, P)> = (0..300).map(|i| (i, P::new(next(), next()))).collect();
        for cell in [0.5, 3.0, 11.0, 500.0] {
            let grid = Grid::new(points.iter().copied(), cell);
            for _ in 0..200 {
                let (p, radius) = (P::new(next(), next()), next().abs() / 4.0);
                let all: Vec<usize> = points.iter().filter(|(_, q)| p.dist(*q) <= radius).map(|(i, _)| *i).collect();
                let mut near: Vec<usize> = grid.near(p, radius).collect();
                near.sort_unstable();
                assert_eq!(all, near, "cell {cell}");
                let nearest = points.iter().map(|(_, q)| p.dist(*q)).fold(f64::INFINITY, f64::min);
                assert_eq!(grid.nearest(p), nearest, "cell {cell}");
            }
        }
        assert_eq!(Grid::new(std::iter::empty(), 2.0).nearest(P::new(1.0, 1.0)), f64::INFINITY);
        // Far from the points, and points far apart: answered at once, exactly.
        let far = Grid::new([(0, P::new(0.0, 0.0)), (1, P::new(1e300, -1e300))], 1.0);
        assert_eq!(far.nearest(P::new(-1e15, 3.0)), P::new(-1e15, 3.0).dist(P::new(0.0, 0.0)));
        assert_eq!(far.near(P::new(1e300, -1e300), 1.0).collect::<Vec<_>>(), vec![1]);
    }
}
