//! Privacy constraints as polyhedral cones of admissible columns (docs/theory.md §3).
//!
//! A mechanism satisfies the constraint iff every column `c = W[:, y]` lies in the
//! cone and the rows sum to 1. All cones here lie in the non-negative orthant.

use crate::error::{ModelError, Result};
use crate::notion::{Notion, check_epsilon};
use crate::prior::Prior;
use crate::uncertainty::{DEFAULT_VERTEX_LIMIT, UncertaintySet, within_proposition_2};
use ndarray::{Array1, Array2, ArrayView1};
use serde::Serialize;

/// A cone `{c >= 0 : a . c >= 0 for every inequality row a}` of admissible columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ColumnCone {
    /// eps-PML for a known prior (\[15\] Lemma 1): `c_x <= e^eps (p . c)` for all x.
    PmlKnownPrior {
        /// The prior p.
        prior: Prior,
        /// The level eps.
        epsilon: f64,
    },
    /// eps-PML for every prior of `B_beta(p^) ∩ simplex`: `max c <= e^eps min_Q Q . c`.
    /// For `beta < 2 min p^` this is \[E\] Prop 2,
    /// `c_x <= e^eps' (p^ . c + beta/2 c_x')` for all x, x', with
    /// `e^eps' = e^eps / (1 + beta/2 e^eps)` (\[E\] eq. 13); for larger radii the
    /// inequalities come from the vertices of the set (\[E\] Cor 1, docs/theory.md §2).
    PmlL1Ball {
        /// The estimate p^.
        center: Prior,
        /// The radius beta.
        beta: f64,
        /// The level eps.
        epsilon: f64,
    },
    /// eps-PML for every prior in the convex hull of `vertices` (\[E\] Cor 1):
    /// `c_x <= e^eps (pi^(k) . c)` for all x, k.
    PmlPolytope {
        /// The vertices pi^(k).
        vertices: Vec<Array1<f64>>,
        /// The level eps.
        epsilon: f64,
    },
    /// A [`Notion`] for every prior in the convex hull of `priors`: the notion's
    /// inequalities for each of them (docs/theory.md §3). They are linear in the prior, so
    /// the hull is covered iff every vertex is (\[E\] Cor 1; for PMC, \[D\] Thm 1 bounds
    /// `p . c`, also linear in p). LDP lists no priors.
    Notion {
        /// The notion and its levels.
        notion: Notion,
        /// The priors (vertices of the set), one for a known prior.
        priors: Vec<Array1<f64>>,
        /// The reference prior that normalises rays (`normaliser . v = 1`).
        normaliser: Array1<f64>,
    },
    /// The intersection of cones of the same dimension: every inequality of every
    /// part (e.g. PML for the ball and PMC for the estimate).
    Intersection {
        /// The parts; the first one supplies the normaliser and eps.
        cones: Vec<ColumnCone>,
    },
}

/// `e^eps' = e^eps / (1 + beta/2 e^eps)` (\[E\] eq. 13): every column whose
/// densities at the centre of an l1 ball of radius beta stay within `e^eps'`
/// has them within `e^eps` at every prior of the ball, within Proposition 2
/// or past it (`q . c >= p . c - (beta/2)(max c - min c)`; docs/theory.md
/// §13). Within Proposition 2 the converse holds too.
pub fn ball_exp_epsilon(epsilon: f64, beta: f64) -> f64 {
    let e = epsilon.exp();
    e / (1.0 + beta / 2.0 * e)
}

impl ColumnCone {
    /// The cone of `notion` over an uncertainty set: the PML cones above for PML,
    /// the prior-free LDP cone, and otherwise the vertex form
    /// [`ColumnCone::Notion`] over the vertices of the set.
    pub fn for_notion(set: &UncertaintySet, notion: &Notion) -> Result<Self> {
        notion.check_alphabet(set.len())?;
        if let Notion::Pml { epsilon } = *notion {
            return ColumnCone::pml(set, epsilon);
        }
        let priors = if notion.is_prior_free() {
            Vec::new()
        } else {
            set.vertices(DEFAULT_VERTEX_LIMIT)?
        };
        Ok(ColumnCone::Notion {
            notion: notion.clone(),
            priors,
            normaliser: set.reference(),
        })
    }

    /// The intersection of `cones` (at least one, all of one dimension).
    pub fn intersection(cones: Vec<ColumnCone>) -> Result<Self> {
        let Some(first) = cones.first() else {
            return Err(ModelError::invalid(
                "cones",
                0,
                "an intersection needs at least one cone",
                "pass the cones to intersect",
            ));
        };
        let n = first.dimension();
        if let Some((k, c)) = cones.iter().enumerate().find(|(_, c)| c.dimension() != n) {
            return Err(ModelError::invalid(
                format!("cones[{k}]"),
                c.dimension(),
                format!("has a different dimension than cones[0] ({n})"),
                "intersect cones on the same alphabet",
            ));
        }
        Ok(ColumnCone::Intersection { cones })
    }

    /// The single prior of a notion cone for a known prior (`None` otherwise):
    /// where the structured ray families of the notions apply.
    pub fn known_prior(&self) -> Option<ArrayView1<'_, f64>> {
        match self {
            ColumnCone::PmlKnownPrior { prior, .. } => Some(prior.masses()),
            ColumnCone::Notion { priors, .. } if priors.len() == 1 => Some(priors[0].view()),
            _ => None,
        }
    }

    /// The eps-PML cone for an uncertainty set.
    pub fn pml(set: &UncertaintySet, epsilon: f64) -> Result<Self> {
        check_epsilon(epsilon)?;
        Ok(match set {
            UncertaintySet::Known { prior } => ColumnCone::PmlKnownPrior {
                prior: prior.clone(),
                epsilon,
            },
            UncertaintySet::L1Ball { center, beta } => ColumnCone::PmlL1Ball {
                center: center.clone(),
                beta: *beta,
                epsilon,
            },
            UncertaintySet::Polytope { .. } => ColumnCone::PmlPolytope {
                vertices: set.vertices(DEFAULT_VERTEX_LIMIT)?,
                epsilon,
            },
        })
    }

    /// Dimension N of a column.
    pub fn dimension(&self) -> usize {
        match self {
            ColumnCone::PmlKnownPrior { prior, .. } => prior.len(),
            ColumnCone::PmlL1Ball { center, .. } => center.len(),
            ColumnCone::PmlPolytope { vertices, .. } => vertices[0].len(),
            ColumnCone::Notion { normaliser, .. } => normaliser.len(),
            ColumnCone::Intersection { cones } => cones[0].dimension(),
        }
    }

    /// The level eps of the constraint (the notion's headline level, that of the
    /// first part for an intersection).
    pub fn epsilon(&self) -> f64 {
        match self {
            ColumnCone::PmlKnownPrior { epsilon, .. }
            | ColumnCone::PmlL1Ball { epsilon, .. }
            | ColumnCone::PmlPolytope { epsilon, .. } => *epsilon,
            ColumnCone::Notion { notion, .. } => notion.epsilon(),
            ColumnCone::Intersection { cones } => cones[0].epsilon(),
        }
    }

    /// The factor bounding a column by its mass: `e^eps`, or for the ball under
    /// Proposition 2 `e^eps'` ([`ball_exp_epsilon`]).
    pub fn effective_exp_epsilon(&self) -> f64 {
        match self {
            ColumnCone::PmlL1Ball { beta, epsilon, .. } if self.is_proposition_2() => {
                ball_exp_epsilon(*epsilon, *beta)
            }
            _ => self.epsilon().exp(),
        }
    }

    /// The positive vector `r` by which extreme rays are normalised, `r . v = 1`:
    /// the prior, the estimate, or the centroid of the vertices.
    pub fn normaliser(&self) -> Array1<f64> {
        match self {
            ColumnCone::PmlKnownPrior { prior, .. } => prior.masses().to_owned(),
            ColumnCone::PmlL1Ball { center, .. } => center.masses().to_owned(),
            ColumnCone::PmlPolytope { vertices, .. } => {
                let mut c = Array1::zeros(self.dimension());
                for v in vertices {
                    c += v;
                }
                c / vertices.len() as f64
            }
            ColumnCone::Notion { normaliser, .. } => normaliser.clone(),
            ColumnCone::Intersection { cones } => cones[0].normaliser(),
        }
    }

    /// True for the ball when Proposition 2 applies (`beta < 2 min p^`).
    pub fn is_proposition_2(&self) -> bool {
        matches!(self, ColumnCone::PmlL1Ball { center, beta, .. } if within_proposition_2(center, *beta))
    }

    /// The cone as inequalities: rows `a` with `a . c >= 0`, the N non-negativity
    /// rows first. The ball uses the N^2 form of Proposition 2 when it applies and
    /// the vertex form of Corollary 1 otherwise (which can be large: it is meant
    /// for cross-checks and small alphabets).
    pub fn inequalities(&self) -> Array2<f64> {
        let n = self.dimension();
        let e = self.effective_exp_epsilon();
        let mut rows: Vec<Array1<f64>> = (0..n)
            .map(|x| {
                let mut a = Array1::zeros(n);
                a[x] = 1.0;
                a
            })
            .collect();
        let mut push_bounds = |reference: ArrayView1<f64>, extra: Option<f64>| {
            // c_x <= e (reference . c + extra c_x')
            for x in 0..n {
                match extra {
                    None => {
                        let mut a = reference.to_owned() * e;
                        a[x] -= 1.0;
                        rows.push(a);
                    }
                    Some(h) => {
                        for x2 in 0..n {
                            let mut a = reference.to_owned() * e;
                            a[x2] += e * h;
                            a[x] -= 1.0;
                            rows.push(a);
                        }
                    }
                }
            }
        };
        match self {
            ColumnCone::PmlKnownPrior { prior, .. } => push_bounds(prior.masses(), None),
            ColumnCone::PmlL1Ball { center, beta, .. } if self.is_proposition_2() => {
                push_bounds(center.masses(), Some(beta / 2.0))
            }
            ColumnCone::PmlL1Ball { center, beta, .. } => {
                let vertices =
                    crate::uncertainty::l1_ball_vertices(center, *beta, DEFAULT_VERTEX_LIMIT)
                        .expect("vertex limit");
                for v in &vertices {
                    push_bounds(v.view(), None);
                }
            }
            ColumnCone::PmlPolytope { vertices, .. } => {
                for v in vertices {
                    push_bounds(v.view(), None);
                }
            }
            ColumnCone::Notion {
                notion,
                priors,
                normaliser,
            } => {
                if notion.is_prior_free() {
                    rows.extend(notion.column_inequalities(normaliser.view()));
                }
                for v in priors {
                    rows.extend(notion.column_inequalities(v.view()));
                }
            }
            ColumnCone::Intersection { cones } => {
                for c in cones {
                    let a = c.inequalities();
                    rows.extend(a.rows().into_iter().skip(n).map(|r| r.to_owned()));
                }
            }
        }
        let mut out = Array2::zeros((rows.len(), n));
        for (i, r) in rows.into_iter().enumerate() {
            out.row_mut(i).assign(&r);
        }
        out
    }

    /// Largest violation `max(0, -a . c)` over the inequalities, relative to
    /// `max c`: zero for a member of the cone.
    pub fn violation(&self, c: ArrayView1<f64>) -> f64 {
        let scale = c.iter().copied().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        self.inequalities()
            .dot(&c)
            .iter()
            .map(|v| (-v / scale).max(0.0))
            .fold(0.0, f64::max)
    }
}
