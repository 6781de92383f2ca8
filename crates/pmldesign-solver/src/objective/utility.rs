//! Sub-convex utilities (\[E\] eq. 2): `U(W, p) = sum_y mu(W[:, y])` with mu
//! sub-linear (positively homogeneous and convex) in the column.

use crate::objective::a_priori::DensityBound;
use ndarray::ArrayView1;
use pmldesign_model::linalg::column_dots;
use pmldesign_model::{DensityRange, Mechanism};

/// A sub-convex utility, given by its column function mu.
///
/// Implementations must make `mu` positively homogeneous and convex in `column`
/// (\[E\] eq. 2); the LP over extreme rays is exact only then.
pub trait Utility: Send + Sync {
    /// A short name (`mi`, `tv`, ...), used in reports.
    fn name(&self) -> String;

    /// `mu(c)`: the contribution of one output with likelihood column `c` under
    /// prior `p`.
    fn column_value(&self, column: ArrayView1<f64>, prior: ArrayView1<f64>) -> f64;

    /// `mu(c)` for a column that is constant on the blocks of a partition of `[N]`:
    /// each block gives its prior mass `p(S)`, its largest single mass
    /// `max_{x in S} p_x` and the column's value on it. Extreme rays have at most
    /// three blocks (docs/theory.md §4), so utilities that implement this are priced in
    /// O(1) per ray. `None` (the default) makes the solver build the column and
    /// call [`Utility::column_value`].
    fn column_value_on_blocks(&self, blocks: &[Block]) -> Option<f64> {
        let _ = blocks;
        None
    }

    /// The separable form of mu on the slice `p . c = 1`, which branch-and-bound
    /// pricing needs ([`Separable`]). `None` (the default) keeps exhaustive
    /// enumeration of the extreme rays, with its alphabet limits.
    fn separable(&self) -> Option<Separable> {
        None
    }

    /// The matrix C where `mu(c) = c^T C c / (p . c)` with C positive
    /// semidefinite (the linearisation of a design for estimation): past the
    /// alphabet that enumeration reaches, the eps-PML cone of a known prior
    /// and the eps-LDP cone are then priced by ascent with a bound from
    /// separable majorants (docs/theory.md §13). `None` (the default) for
    /// every other utility.
    fn quadratic(&self) -> Option<&ndarray::Array2<f64>> {
        None
    }

    /// Whether `m(W) = s (W f(E / s) + (1 - W) f(1 / s))`, `s = 1 + (E - 1) W`, is
    /// concave in W on [0, 1] for every `E > 1` (true for mutual information,
    /// total variation and chi-square): LDP pricing then prunes by an exact
    /// concave bound instead of interval arithmetic (docs/theory.md §4b).
    fn staircase_concave(&self) -> bool {
        false
    }

    /// Whether, for every support mass `S` in `(0, 1]` and ratio `E_B >= 1`,
    /// `m(W) = s (W f(E_B / s) + (S - W) f(1 / s) + (1 - S) f(0))` with
    /// `s = S + (E_B - 1) W` is concave in W (true for mutual information and
    /// chi-square, not for total variation): the three-level rays of the exact
    /// l1 ball past \[E\] Prop 2 are then pruned by the concave test, else by
    /// slope enclosures in W (docs/theory.md §4b). MAP accuracy needs no such
    /// property.
    fn three_level_concave(&self) -> bool {
        false
    }

    /// An upper bound on U for every mechanism whose information density
    /// `i(x; y) = ln(W[x][y] / q_y)` under the reference prior stays in `range`,
    /// if one is known, proven by the dual `bound p` (docs/theory.md §4d). Mutual
    /// information: eps under eps-PML, since
    /// `I(X; Y) = E_y D(P_X|y || P_X) <= E_y D_inf(P_X|y || P_X) <= eps`, and the
    /// two-point maxima under LIP, ALIP and LDP; chi-square, total variation and
    /// squared Hellinger likewise (their two-point values in closed form).
    /// Column generation stops once its mechanism is within the gap tolerance of
    /// this bound.
    fn bound_on_density(&self, range: DensityRange) -> Option<f64> {
        let _ = range;
        None
    }

    /// `U(W, p) = sum_y mu(W[:, y])`.
    fn value(&self, mechanism: &Mechanism, prior: ArrayView1<f64>) -> f64 {
        by_columns(self, mechanism, prior)
    }
}

/// `sum_y mu(W[:, y])`, column by column: [`Utility::value`]'s default, and
/// f-information's where its passes in memory order do not apply.
fn by_columns<U: Utility + ?Sized>(u: &U, mechanism: &Mechanism, prior: ArrayView1<f64>) -> f64 {
    mechanism.columns().map(|c| u.column_value(c, prior)).sum()
}

/// A reference to a utility is the utility: `Problem::new(set).utility(&mi)` keeps
/// `mi` for later use.
impl<U: Utility + ?Sized> Utility for &U {
    fn name(&self) -> String {
        (**self).name()
    }
    fn column_value(&self, column: ArrayView1<f64>, prior: ArrayView1<f64>) -> f64 {
        (**self).column_value(column, prior)
    }
    fn column_value_on_blocks(&self, blocks: &[Block]) -> Option<f64> {
        (**self).column_value_on_blocks(blocks)
    }
    fn separable(&self) -> Option<Separable> {
        (**self).separable()
    }
    fn quadratic(&self) -> Option<&ndarray::Array2<f64>> {
        (**self).quadratic()
    }
    fn staircase_concave(&self) -> bool {
        (**self).staircase_concave()
    }
    fn three_level_concave(&self) -> bool {
        (**self).three_level_concave()
    }
    fn bound_on_density(&self, range: DensityRange) -> Option<f64> {
        (**self).bound_on_density(range)
    }
    fn value(&self, mechanism: &Mechanism, prior: ArrayView1<f64>) -> f64 {
        (**self).value(mechanism, prior)
    }
}

/// The form of a utility's column function on the slice `p . c = 1` (p the
/// reference prior), which lets pricing bound mu over sets of rays without
/// enumerating them (docs/theory.md, "Pricing by branch and bound").
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Separable {
    /// `mu(c) = sum_x p_x f(c_x)` on the slice, with f convex: every f-information.
    FInformation(fn(f64) -> f64),
    /// `mu(c) = max_x p_x c_x`: MAP accuracy.
    MaxWeighted,
}

/// A block of a column constant on a set S of inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block {
    /// `p(S)`.
    pub mass: f64,
    /// `max_{x in S} p_x`.
    pub max_mass: f64,
    /// The column's value on S.
    pub value: f64,
}

/// An f-information `I_f(X; Y) = sum_y q_y sum_x p_x f(W[x][y] / q_y)` with f convex
/// and `f(1) = 0` (docs/theory.md §4): `mu(c) = s sum_x p_x f(c_x / s)`, `s = p . c`.
#[derive(Debug, Clone, Copy)]
pub struct FInformation {
    name: &'static str,
    f: fn(f64) -> f64,
    /// Its bound in closed form over a range of densities, if any.
    density_bound: Option<DensityBound>,
    /// See [`Utility::staircase_concave`].
    staircase_concave: bool,
    /// See [`Utility::three_level_concave`].
    three_level_concave: bool,
}

impl FInformation {
    /// An f-information from a convex `f` with `f(1) = 0`.
    pub fn new(name: &'static str, f: fn(f64) -> f64) -> Self {
        FInformation {
            name,
            f,
            density_bound: None,
            staircase_concave: false,
            three_level_concave: false,
        }
    }

    /// Mutual information, `f(t) = t ln t` (nats).
    pub fn mutual_information() -> Self {
        FInformation {
            density_bound: Some(DensityBound::MutualInformation),
            // m(W) = W E ln E - s ln s (also with E_B and S: f(0) = 0).
            staircase_concave: true,
            three_level_concave: true,
            ..FInformation::new("mi", |t| if t > 0.0 { t * t.ln() } else { 0.0 })
        }
    }

    /// Total-variation information, `f(t) = |t - 1| / 2`.
    pub fn total_variation() -> Self {
        FInformation {
            density_bound: Some(DensityBound::TotalVariation),
            // m(W) = (E - 1) W (1 - W) / 2.
            staircase_concave: true,
            ..FInformation::new("tv", |t| (t - 1.0).abs() / 2.0)
        }
    }

    /// Chi-square information, `f(t) = (t - 1)^2`.
    pub fn chi_square() -> Self {
        FInformation {
            density_bound: Some(DensityBound::ChiSquare),
            // m(W) = (E - 1)^2 W (1 - W) / (1 + (E - 1) W); with E_B and S,
            // m(W) = (W E_B^2 + S - W) / s - s.
            staircase_concave: true,
            three_level_concave: true,
            ..FInformation::new("chi2", |t| (t - 1.0) * (t - 1.0))
        }
    }

    /// Squared-Hellinger information, `f(t) = (sqrt t - 1)^2`.
    pub fn hellinger() -> Self {
        FInformation {
            density_bound: Some(DensityBound::Hellinger),
            ..FInformation::new("hellinger", |t| (t.sqrt() - 1.0).powi(2))
        }
    }
}

impl Utility for FInformation {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn separable(&self) -> Option<Separable> {
        Some(Separable::FInformation(self.f))
    }

    fn bound_on_density(&self, range: DensityRange) -> Option<f64> {
        self.density_bound.map(|b| b.over(range))
    }

    fn staircase_concave(&self) -> bool {
        self.staircase_concave
    }

    fn three_level_concave(&self) -> bool {
        self.three_level_concave
    }

    /// `sum_y mu(W[:, y])` in two row-major passes (a pass column by column over a
    /// row-major N x N matrix misses the cache at every entry). Each column's sums take
    /// the same terms in the same order as [`Utility::column_value`] over its
    /// strided column, so the value is the same to the last bit.
    fn value(&self, mechanism: &Mechanism, prior: ArrayView1<f64>) -> f64 {
        let w = mechanism.matrix();
        let k = w.ncols();
        // `s_y = p . W[:, y]`, as column by column to the last bit.
        let (Some(rows), Some(s)) = (w.as_slice(), column_dots(prior, w)) else {
            return by_columns(self, mechanism, prior);
        };
        // f of the previous entry of each column is reused where it repeats.
        let mut last = vec![(f64::NAN, 0.0); k];
        let mut sum = vec![-0.0; k];
        for (row, &px) in rows.chunks_exact(k).zip(prior) {
            for (y, &c) in row.iter().enumerate() {
                if s[y] > 0.0 {
                    if c != last[y].0 {
                        last[y] = (c, (self.f)(c / s[y]));
                    }
                    sum[y] += px * last[y].1;
                }
            }
        }
        s.iter()
            .zip(&sum)
            .map(|(&sy, &t)| if sy <= 0.0 { 0.0 } else { sy * t })
            .sum()
    }

    fn column_value_on_blocks(&self, blocks: &[Block]) -> Option<f64> {
        let s: f64 = blocks.iter().map(|b| b.mass * b.value).sum();
        if s <= 0.0 {
            return Some(0.0);
        }
        Some(
            s * blocks
                .iter()
                .map(|b| b.mass * (self.f)(b.value / s))
                .sum::<f64>(),
        )
    }

    fn column_value(&self, column: ArrayView1<f64>, prior: ArrayView1<f64>) -> f64 {
        let s = prior.dot(&column);
        if s <= 0.0 {
            return 0.0;
        }
        // Structured columns repeat one or two values (a mixture `t d + (1 - t) / K`):
        // f of the previous entry is reused where the entry repeats (the same
        // numbers, fewer logarithms: 38 % of the baselines at N = 2048 under LDP).
        let mut last = (f64::NAN, 0.0);
        s * prior
            .iter()
            .zip(column.iter())
            .map(|(p, &c)| {
                if c != last.0 {
                    last = (c, (self.f)(c / s));
                }
                p * last.1
            })
            .sum::<f64>()
    }
}

/// MAP accuracy: the probability that the best guess of X from Y is right,
/// `mu(c) = max_x p_x c_x` (docs/theory.md §4).
#[derive(Debug, Clone, Copy, Default)]
pub struct MapAccuracy;

impl Utility for MapAccuracy {
    fn name(&self) -> String {
        "map".to_string()
    }

    fn separable(&self) -> Option<Separable> {
        Some(Separable::MaxWeighted)
    }

    fn column_value_on_blocks(&self, blocks: &[Block]) -> Option<f64> {
        Some(
            blocks
                .iter()
                .map(|b| b.max_mass * b.value)
                .fold(0.0, f64::max),
        )
    }

    fn column_value(&self, column: ArrayView1<f64>, prior: ArrayView1<f64>) -> f64 {
        prior
            .iter()
            .zip(column.iter())
            .map(|(p, c)| p * c)
            .fold(0.0, f64::max)
    }
}

/// The built-in utilities by their CLI names: `mi`, `tv`, `chi2`, `hellinger`, `map`.
pub fn builtin(name: &str) -> Option<Box<dyn Utility>> {
    Some(match name {
        "mi" => Box::new(FInformation::mutual_information()),
        "tv" => Box::new(FInformation::total_variation()),
        "chi2" => Box::new(FInformation::chi_square()),
        "hellinger" => Box::new(FInformation::hellinger()),
        "map" => Box::new(MapAccuracy),
        _ => return None,
    })
}

/// Names accepted by [`builtin`].
pub const BUILTIN_NAMES: [&str; 5] = ["mi", "tv", "chi2", "hellinger", "map"];
