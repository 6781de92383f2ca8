//! A two-level family's reduced cost along a line of the (W, L) plane (a chain
//! segment, or a floor of the dual mass), as a [`Smooth`] function of W for
//! [`segment_max`] (docs/theory.md §4b, "Two-level families").

use super::super::segment::{Interval, Smooth, convex_enclosure, segment_max};
use super::TwoLevelMember;
use crate::objective::utility::Separable;

/// Which term of mu a line follows: the f-information, or one of MAP
/// accuracy's two branches (`top max_in` or `level max_out`).
#[derive(Clone, Copy)]
pub enum Term {
    /// The f-information's term `f`.
    F(fn(f64) -> f64),
    /// MAP accuracy's `top max_in` branch, with `top`.
    Top(f64),
    /// MAP accuracy's `level max_out` branch, with `level`.
    Level(f64),
}

/// The reduced cost on the line `L = l0 + r (W - w0)`.
pub struct ChainLine<'a> {
    /// The member whose reduced cost it follows.
    pub member: &'a TwoLevelMember<'a>,
    /// The weight at which the line passes through `l0`.
    pub w0: f64,
    /// The dual mass at `w0`.
    pub l0: f64,
    /// The line's slope.
    pub r: f64,
    /// The term of mu it follows.
    pub term: Term,
}

/// The line's terms at one weight: the levels, and f at them for an
/// f-information (0 otherwise).
#[derive(Clone, Copy)]
pub struct Point {
    w: f64,
    top: f64,
    level: f64,
    f_top: f64,
    f_level: f64,
}

impl ChainLine<'_> {
    fn dual_mass(&self, w: f64) -> f64 {
        self.l0 + self.r * (w - self.w0)
    }

    /// The line's terms at the weight `w`.
    pub fn point(&self, w: f64) -> Point {
        let (top, level) = self.member.family.levels.at(w);
        let (f_top, f_level) = match self.term {
            Term::F(f) => (f(top), f(level)),
            Term::Top(_) | Term::Level(_) => (0.0, 0.0),
        };
        Point {
            w,
            top,
            level,
            f_top,
            f_level,
        }
    }

    fn value_at(&self, q: &Point) -> f64 {
        let mu = match self.term {
            Term::F(_) => q.w * q.f_top + (1.0 - q.w) * q.f_level,
            Term::Top(m) => q.top * m,
            Term::Level(m) => q.level * m,
        };
        mu - q.level * self.member.lambda_sum - (q.top - q.level) * self.dual_mass(q.w)
    }

    /// An upper bound on the line between `a` and `b` from their terms alone
    /// (no slope): f of a monotone level is largest at an end (f convex), each
    /// weight factor lies in `[0, 1]`, and the levels, their gap and the dual
    /// mass are monotone along the line. O(width) above the maximum, but it
    /// settles most segments of a proof, each for the cost of its two ends.
    pub fn crude(&self, a: &Point, b: &Point) -> f64 {
        let mu = match self.term {
            Term::F(_) => {
                let (ft, fl) = (a.f_top.max(b.f_top), a.f_level.max(b.f_level));
                (a.w * ft).max(b.w * ft) + ((1.0 - a.w) * fl).max((1.0 - b.w) * fl)
            }
            Term::Top(m) => a.top.max(b.top) * m,
            Term::Level(m) => a.level.max(b.level) * m,
        };
        let lambda_sum = self.member.lambda_sum;
        let dual = (-a.level * lambda_sum).max(-b.level * lambda_sum);
        let gap = Interval::between(a.top - a.level, b.top - b.level);
        let mass = Interval::between(self.dual_mass(a.w), self.dual_mass(b.w));
        let coupling = gap.mul(mass).scale(-1.0).hi;
        let size = mu.abs() + dual.abs() + coupling.abs();
        mu + dual + coupling + 16.0 * f64::EPSILON * size
    }
}

impl Smooth for ChainLine<'_> {
    fn value(&self, w: f64) -> f64 {
        self.value_at(&self.point(w))
    }

    /// `mu' - lambda_sum level' - (top - level)' L - (top - level) r`, each
    /// factor enclosed from its values at the ends (all are monotone in W).
    fn slope(&self, a: f64, b: f64) -> Option<Interval> {
        let levels = self.member.family.levels;
        let ((ta, la), (tb, lb)) = (levels.at(a), levels.at(b));
        let ((dta, dla), (dtb, dlb)) = (levels.slopes(a), levels.slopes(b));
        let (top, level) = (Interval::between(ta, tb), Interval::between(la, lb));
        let (d_top, d_level) = (Interval::between(dta, dtb), Interval::between(dla, dlb));
        let gap = Interval::between(ta - la, tb - lb);
        let d_gap = Interval::between(dta - dla, dtb - dlb);
        let mass = Interval::between(self.dual_mass(a), self.dual_mass(b));
        let w = Interval::between(a, b);
        let d_mu = match self.term {
            Term::F(f) => {
                let (st, ft) = convex_enclosure(f, top.lo, top.hi)?;
                let (sl, fl) = convex_enclosure(f, level.lo, level.hi)?;
                let values = ft.sub(fl);
                let one_minus_w = Interval::between(1.0 - a, 1.0 - b);
                values
                    .add(w.mul(st).mul(d_top))
                    .add(one_minus_w.mul(sl).mul(d_level))
            }
            Term::Top(m) => d_top.scale(m),
            Term::Level(m) => d_level.scale(m),
        };
        let terms = [
            d_mu,
            d_level.scale(-self.member.lambda_sum),
            d_gap.mul(mass).scale(-1.0),
            gap.scale(-self.r),
        ];
        let size: f64 = terms
            .iter()
            .map(|t| t.lo.abs().max(t.hi.abs()))
            .filter(|x| x.is_finite())
            .sum();
        let total = terms.iter().fold(Interval::point(0.0), |s, t| s.add(*t));
        let total = total.widen(16.0 * f64::EPSILON * size);
        (!total.lo.is_nan() && !total.hi.is_nan()).then_some(total)
    }
}

impl TwoLevelMember<'_> {
    /// An upper bound on the reduced cost along the line from `(a, la)` to
    /// `(b, lb)` with the given largest masses, halved up to `splits` times
    /// while above `refine`; `None` where a slope cannot be enclosed.
    pub(super) fn line_bound(
        &self,
        (a, la): (f64, f64),
        (b, lb): (f64, f64),
        (max_in, max_out): (f64, f64),
        refine: f64,
        splits: u32,
    ) -> Option<f64> {
        let r = if b > a { (lb - la) / (b - a) } else { 0.0 };
        let terms: &[Term] = match self.family.kind {
            Separable::FInformation(f) => &[Term::F(f)],
            Separable::MaxWeighted => &[Term::Top(max_in), Term::Level(max_out)],
        };
        let mut best = f64::NEG_INFINITY;
        for &term in terms {
            let line = ChainLine {
                member: self,
                w0: a,
                l0: la,
                r,
                term,
            };
            let (pa, pb) = (line.point(a), line.point(b));
            let crude = line.crude(&pa, &pb);
            best = best.max(if crude <= refine {
                crude
            } else {
                let ends = ((a, line.value_at(&pa)), (b, line.value_at(&pb)));
                segment_max(&line, ends.0, ends.1, refine, splits)?
            });
        }
        Some(best)
    }
}
