//! Privacy notions that bound the information density `i(x; y) = ln(W[x][y] / q_y)`,
//! each a set of linear inequalities on a column `c = W[:, y]` for a fixed prior p
//! (docs/theory.md §3; \[D\] Sec. II):
//!
//! - eps-PML (\[E\] Thm 1, \[15\] Lemma 1): `i <= eps`, i.e. `c_x <= e^eps (p . c)`;
//! - eps-PMC (\[D\] Thm 1): `i >= -eps`, i.e. `p . c <= e^eps c_x`;
//! - (eps_l, eps_u)-ALIP (\[D\] Def 5): `-eps_l <= i <= eps_u`, both of the above;
//! - eps-LIP (\[D\] Def 4): ALIP with `eps_l = eps_u = eps`;
//! - eps-LDP (\[D\] Def 6): `c_x <= e^eps c_x'`, free of the prior;
//! - metric (d-) privacy (docs/theory.md §9): `c_x <= e^(eps d(x, x')) c_x'`, free
//!   of the prior, for a distance d on the inputs ([`Metric`]).
//!
//! The lower bounds follow \[D\] Thm 1 and docs/theory.md §3: `i(x; y) >= -eps_l` for every x
//! of the (full-support) prior, so a column with a zero entry and positive mass is
//! never PMC, ALIP or LIP (as in \[D\] Remark 5).

use crate::error::{ModelError, Result};
use crate::metric::Metric;
use ndarray::{Array1, ArrayView1};
use serde::Serialize;

/// What a notion says of the information density `i(x; y) = ln(c_x / (p . c))`
/// of every column c under the reference prior p (docs/theory.md §4d): the
/// range an a-priori bound on a utility is taken over.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum DensityRange {
    /// `-lower <= i(x; y) <= upper` (PML: no lower level; LIP, ALIP).
    Levels {
        /// The PMC level eps_l, if any.
        lower: Option<f64>,
        /// The PML level eps_u.
        upper: f64,
    },
    /// `i(x; y) - i(x'; y) <= eps` for all x, x' (LDP): the densities of one
    /// column spread over at most eps, wherever they sit.
    Spread {
        /// The LDP level eps.
        epsilon: f64,
    },
}

/// A privacy notion and its level(s). Read from a file, its levels are
/// checked as [`Notion::check`] checks them (the derived reader is
/// `remote = "Self"`, wrapped by the `Deserialize` impl below).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(
    tag = "notion",
    rename_all = "snake_case",
    deny_unknown_fields,
    remote = "Self"
)]
#[non_exhaustive]
pub enum Notion {
    /// eps-PML: the information density is at most eps (\[E\] Thm 1).
    Pml {
        /// The level eps.
        epsilon: f64,
    },
    /// eps-PMC: pointwise maximal cost at most eps, i.e. the information density is
    /// at least -eps (\[D\] Thm 1).
    Pmc {
        /// The level eps.
        epsilon: f64,
    },
    /// (eps_l, eps_u)-ALIP: `-eps_l <= i(x; y) <= eps_u` (\[D\] Def 5).
    Alip {
        /// The lower level eps_l (a PMC bound).
        epsilon_lower: f64,
        /// The upper level eps_u (a PML bound).
        epsilon_upper: f64,
    },
    /// eps-LIP: `|i(x; y)| <= eps` (\[D\] Def 4).
    Lip {
        /// The level eps.
        epsilon: f64,
    },
    /// eps-LDP: `W[x][y] <= e^eps W[x'][y]` (\[D\] Def 6), independent of the prior.
    Ldp {
        /// The level eps.
        epsilon: f64,
    },
    /// eps metric (d-) privacy: `W[x][y] <= e^(eps d(x, x')) W[x'][y]`
    /// (docs/theory.md §9), independent of the prior.
    Metric {
        /// The level eps (per unit of distance).
        epsilon: f64,
        /// The distance d on the inputs.
        metric: Metric,
    },
}

impl Serialize for Notion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        Notion::serialize(self, s)
    }
}

impl<'de> serde::Deserialize<'de> for Notion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let notion = Notion::deserialize(d)?;
        notion.check().map_err(serde::de::Error::custom)?;
        Ok(notion)
    }
}

impl Notion {
    /// Checks the levels (finite, `>= 0`), naming the field on error.
    pub fn check(&self) -> Result<()> {
        match *self {
            Notion::Alip {
                epsilon_lower,
                epsilon_upper,
            } => {
                for (field, v) in [
                    ("epsilon_lower", epsilon_lower),
                    ("epsilon_upper", epsilon_upper),
                ] {
                    if !v.is_finite() || v < 0.0 {
                        return Err(ModelError::invalid(
                            field,
                            v,
                            "an ALIP level must be a finite number >= 0",
                            "pass levels such as epsilon_lower = 1.0, epsilon_upper = 0.5",
                        ));
                    }
                }
                Ok(())
            }
            Notion::Metric {
                epsilon,
                ref metric,
            } => {
                check_epsilon(epsilon)?;
                metric.check()
            }
            _ => check_epsilon(self.epsilon()),
        }
    }

    /// [`Notion::check`] for an alphabet of N inputs: a metric's matrix must be
    /// N x N (the error names the field `metric`).
    pub fn check_alphabet(&self, n: usize) -> Result<()> {
        self.check()?;
        if let Notion::Metric { metric, .. } = self {
            metric.distances(n)?;
        }
        Ok(())
    }

    /// The distances of a metric notion on N inputs (`None` for the others, and
    /// for a matrix of another size: [`Notion::check_alphabet`] reports that).
    pub fn distances(&self, n: usize) -> Option<ndarray::Array2<f64>> {
        match self {
            Notion::Metric { metric, .. } => metric.distances(n).ok(),
            _ => None,
        }
    }

    /// The ALIP levels `(eps_l, eps_u)` when either is given, each defaulting to the
    /// common level `epsilon` (\[D\] Def 5; `docs/theory.md` §3); `None` when neither
    /// is. A given level that is not finite and `>= 0` is an error naming it.
    pub fn alip_levels(
        epsilon_lower: Option<f64>,
        epsilon_upper: Option<f64>,
        epsilon: f64,
    ) -> Result<Option<(f64, f64)>> {
        if epsilon_lower.is_none() && epsilon_upper.is_none() {
            return Ok(None);
        }
        let levels = (
            epsilon_lower.unwrap_or(epsilon),
            epsilon_upper.unwrap_or(epsilon),
        );
        Notion::Alip {
            epsilon_lower: levels.0,
            epsilon_upper: levels.1,
        }
        .check()?;
        Ok(Some(levels))
    }

    /// Short name: `pml`, `pmc`, `alip`, `lip`, `ldp` or `metric`.
    pub fn name(&self) -> &'static str {
        match self {
            Notion::Pml { .. } => "pml",
            Notion::Pmc { .. } => "pmc",
            Notion::Alip { .. } => "alip",
            Notion::Lip { .. } => "lip",
            Notion::Ldp { .. } => "ldp",
            Notion::Metric { .. } => "metric",
        }
    }

    /// A label with the level(s), e.g. `PML(0.5)` or `ALIP(1, 0.5)`.
    pub fn label(&self) -> String {
        match *self {
            Notion::Alip {
                epsilon_lower,
                epsilon_upper,
            } => format!("ALIP({epsilon_lower}, {epsilon_upper})"),
            Notion::Metric {
                epsilon,
                ref metric,
            } => format!("METRIC({epsilon}, {})", metric.name()),
            _ => format!("{}({})", self.name().to_uppercase(), self.epsilon()),
        }
    }

    /// The headline level: eps, or eps_u for ALIP.
    pub fn epsilon(&self) -> f64 {
        match *self {
            Notion::Pml { epsilon }
            | Notion::Pmc { epsilon }
            | Notion::Lip { epsilon }
            | Notion::Ldp { epsilon }
            | Notion::Metric { epsilon, .. } => epsilon,
            Notion::Alip { epsilon_upper, .. } => epsilon_upper,
        }
    }

    /// The range of the information density under the reference prior that the
    /// notion implies, if it bounds it from above: PML, LIP and ALIP by their
    /// levels, LDP by the spread of a column's densities; none for PMC (no upper
    /// level) and metric privacy (a spread that grows with the distance).
    pub fn density_range(&self) -> Option<DensityRange> {
        match *self {
            Notion::Ldp { epsilon } => Some(DensityRange::Spread { epsilon }),
            _ => self.upper().map(|upper| DensityRange::Levels {
                lower: self.lower(),
                upper,
            }),
        }
    }

    /// The bound `i <= upper` on the information density, if the notion has one
    /// (PML, ALIP, LIP).
    pub fn upper(&self) -> Option<f64> {
        match *self {
            Notion::Pml { epsilon } | Notion::Lip { epsilon } => Some(epsilon),
            Notion::Alip { epsilon_upper, .. } => Some(epsilon_upper),
            Notion::Pmc { .. } | Notion::Ldp { .. } | Notion::Metric { .. } => None,
        }
    }

    /// The bound `i >= -lower` on the information density (a PMC level), if the
    /// notion has one (PMC, ALIP, LIP).
    pub fn lower(&self) -> Option<f64> {
        match *self {
            Notion::Pmc { epsilon } | Notion::Lip { epsilon } => Some(epsilon),
            Notion::Alip { epsilon_lower, .. } => Some(epsilon_lower),
            Notion::Pml { .. } | Notion::Ldp { .. } | Notion::Metric { .. } => None,
        }
    }

    /// True for LDP and metric privacy, whose constraints do not involve the prior.
    pub fn is_prior_free(&self) -> bool {
        matches!(self, Notion::Ldp { .. } | Notion::Metric { .. })
    }

    /// The notion's inequalities for one prior `r` (ignored by LDP): rows `a` with
    /// `a . c >= 0`. Upper bound `e^eps_u r - e_x` (\[15\] Lemma 1), lower bound
    /// `e^eps_l e_x - r` (\[D\] Thm 1), LDP `e^eps e_x' - e_x` for `x != x'`,
    /// metric `e^(eps d(x, x')) e_x' - e_x` for the tight pairs
    /// ([`Metric::is_tight`]).
    pub fn column_inequalities(&self, r: ArrayView1<f64>) -> Vec<Array1<f64>> {
        let n = r.len();
        let mut rows = Vec::new();
        if let Notion::Metric { epsilon, metric } = self {
            // A matrix of another size is refused by `check_alphabet`; should
            // one get here, zero distances (equal rows) are the strictest.
            let d = metric
                .distances(n)
                .unwrap_or_else(|_| ndarray::Array2::zeros((n, n)));
            for x in 0..n {
                for x2 in (0..n).filter(|&x2| x2 != x && Metric::is_tight(&d, *epsilon, x, x2)) {
                    let mut a = Array1::zeros(n);
                    a[x2] = Metric::factor(*epsilon, d[[x, x2]]);
                    a[x] -= 1.0;
                    rows.push(a);
                }
            }
            return rows;
        }
        if let Notion::Ldp { epsilon } = *self {
            let e = epsilon.exp();
            for x in 0..n {
                for x2 in (0..n).filter(|&x2| x2 != x) {
                    let mut a = Array1::zeros(n);
                    a[x2] = e;
                    a[x] -= 1.0;
                    rows.push(a);
                }
            }
            return rows;
        }
        if let Some(u) = self.upper() {
            let e = u.exp();
            for x in 0..n {
                let mut a = r.to_owned() * e;
                a[x] -= 1.0;
                rows.push(a);
            }
        }
        if let Some(l) = self.lower() {
            let e = l.exp();
            for x in 0..n {
                let mut a = -r.to_owned();
                a[x] += e;
                rows.push(a);
            }
        }
        rows
    }
}

/// Checks a privacy level: finite and `>= 0`.
pub fn check_epsilon(epsilon: f64) -> Result<()> {
    if !epsilon.is_finite() || epsilon < 0.0 {
        return Err(ModelError::invalid(
            "epsilon",
            epsilon,
            "the privacy level must be a finite number >= 0",
            "pass eps >= 0 (or e^eps >= 1)",
        ));
    }
    Ok(())
}
