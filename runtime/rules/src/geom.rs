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
