//! A two-level family's reduced cost along a line of the (W, L) plane (a chain
//! segment, or a floor of the dual mass), as a [`Smooth`] function of W for
//! [`segment_max`] (docs/theory.md §4b, "Two-level families").

use super::segment::{Interval, Smooth, convex_enclosure, segment_max};
use super::{Separable, TwoLevelMember};

/// Which term of mu a line follows: the f-information, or one of MAP
/// accuracy's two branches (`top max_in` or `level max_out`).
#[derive(Clone, Copy)]
enum Term {
    F(fn(f64) -> f64),
    Top(f64),
    Level(f64),
}

/// The reduced cost on the line `L = l0 + r (W - w0)`.
struct ChainLine<'a> {
    member: &'a TwoLevelMember<'a>,
    w0: f64,
    l0: f64,
    r: f64,
    term: Term,
}

impl ChainLine<'_> {
    fn dual_mass(&self, w: f64) -> f64 {
        self.l0 + self.r * (w - self.w0)
    }
}

impl Smooth for ChainLine<'_> {
    fn value(&self, w: f64) -> f64 {
        let (top, level) = self.member.family.levels.at(w);
        let mu = match self.term {
            Term::F(f) => w * f(top) + (1.0 - w) * f(level),
            Term::Top(m) => top * m,
            Term::Level(m) => level * m,
        };
        mu - level * self.member.lambda_sum - (top - level) * self.dual_mass(w)
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
            let ends = ((a, line.value(a)), (b, line.value(b)));
            best = best.max(segment_max(&line, ends.0, ends.1, refine, splits)?);
        }
        Some(best)
    }
}
