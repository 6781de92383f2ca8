//! The request behind `pml design` and Python's `design` and
//! `design_from_counts`, solved once for both: the problem (the priors, the
//! objective by name, then `Problem`'s own builder for the notion, labels and
//! settings), checked by each front end in its own words (flags, keyword
//! arguments), then solved here into the same [`Design`], with the estimation
//! advice simulated at the data's size where the prior was counted, and the
//! provenance naming the front end.
//!
//! ```
//! use pmldesign_app::design::{DesignRequest, Objective, Priors, problem};
//! use pmldesign_model::{Notion, Prior, UncertaintySet};
//!
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let p = problem(Priors::Set(set), Objective::utility("mi")?)?
//!     .notion(Notion::Pml { epsilon: 1.125f64.ln() });
//! let d = DesignRequest::new(p, "doc").solve()?;
//! assert!(d.certificate().holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use pmldesign_model::{Mechanism, ModelError, UncertaintySet};
use pmldesign_solver::{
    AdviceDraws, BUILTIN_NAMES, Design, Loss, Problem, Result, Sample, builtin,
};

/// What a design optimises.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Objective {
    /// A built-in utility by name: `mi`, `tv`, `chi2`, `hellinger` or `map`.
    Utility(String),
    /// The error per row of the estimated input distribution (docs/theory.md §13).
    Estimation,
    /// An expected loss (a label loss by name, or a matrix).
    Loss(Loss),
}

impl Objective {
    /// The objective named `name`: `estimation` or a built-in utility; an
    /// unknown name is refused, quoted, naming the names it takes.
    pub fn utility(name: &str) -> std::result::Result<Self, ModelError> {
        match name {
            "estimation" => Ok(Objective::Estimation),
            _ if builtin(name).is_some() => Ok(Objective::Utility(name.to_string())),
            _ => Err(ModelError::invalid(
                "utility",
                format!("{name:?}"),
                "unknown utility",
                format!(
                    "use one of {}, estimation (or pass loss=...)",
                    BUILTIN_NAMES.join(", ")
                ),
            )),
        }
    }
}

/// A loss matrix `d(x, y)` from its rows, square; `field` names where it came
/// from in the error (`loss`, `--loss-matrix PATH`).
pub fn loss_matrix(field: &str, rows: Vec<Vec<f64>>) -> std::result::Result<Loss, String> {
    let n = rows.len();
    if rows.iter().any(|r| r.len() != n) {
        return Err(format!(
            "invalid {field}: {n} rows but a row of another length; give a square N x N matrix, one row per secret x and one column per guess y"
        ));
    }
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    let matrix = ndarray::Array2::from_shape_vec((n, n), flat).expect("checked square above");
    Ok(Loss::Matrix(matrix))
}

/// The priors a design is for.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Priors {
    /// A known prior, an l1 ball around one (Proposition 2) or a polytope.
    Set(UncertaintySet),
    /// The ball of a sample guarantee around an estimate (docs/theory.md §6).
    Sample(Sample),
}

/// The problem for `priors` optimising `objective`, before its notion,
/// labels and settings (set by `Problem`'s own builder).
pub fn problem<'a>(priors: Priors, objective: Objective) -> Result<Problem<'a>> {
    let problem = match priors {
        Priors::Set(set) => Problem::new(set),
        Priors::Sample(sample) => Problem::from_sample(sample),
    };
    Ok(match objective {
        Objective::Loss(loss) => problem.loss(loss),
        Objective::Estimation => problem.estimation(),
        Objective::Utility(name) => match Objective::utility(&name)? {
            Objective::Utility(_) => {
                problem.boxed_utility(builtin(&name).expect("a built-in utility's name"))
            }
            _ => problem.estimation(),
        },
    })
}

/// A design to make: the problem each front end has built and checked in its
/// own words, the data's rows where the prior was counted, and the tool its
/// provenance names; solved by [`DesignRequest::solve`].
pub struct DesignRequest<'a> {
    problem: Problem<'a>,
    rows: Option<u64>,
    tool: String,
}

impl<'a> DesignRequest<'a> {
    /// The request to solve `problem`, made by `tool` (its provenance's `tool`,
    /// e.g. `pml 0.1.0`).
    pub fn new(problem: Problem<'a>, tool: &str) -> Self {
        DesignRequest {
            problem,
            rows: None,
            tool: tool.to_string(),
        }
    }

    /// The rows the prior was counted from: the estimation advice then compares
    /// the mechanisms at that size by seeded simulation
    /// (docs/concepts/estimation.md).
    pub fn rows(mut self, rows: Option<u64>) -> Self {
        self.rows = rows;
        self
    }

    /// The certified design, with the advice simulated at the data's rows and
    /// the provenance naming the tool.
    pub fn solve(self) -> Result<Design> {
        let mut d = self.problem.solve()?;
        if let Some(rows) = self.rows {
            d = d.with_simulated_advice(rows, simulated_error)?;
        }
        if let Some(p) = d.provenance_mut() {
            *p = p.clone().with_tool(self.tool);
        }
        Ok(d)
    }
}

/// The estimation error the advice compares at the data's rows, by the data
/// crate's seeded simulation.
fn simulated_error(
    mechanism: &Mechanism,
    prior: &[f64],
    draws: AdviceDraws<'_>,
) -> pmldesign_model::Result<Option<f64>> {
    let sim = pmldesign_data::simulate::Simulation {
        rows: draws.rows,
        replicates: draws.replicates,
        seed: draws.seed,
        stream: draws.stream,
    };
    pmldesign_data::simulate::simulated_error(mechanism, prior, &sim)
}
