//! The request behind `pml design` and Python's `design` and
//! `design_from_counts`, solved once for both: the set of priors, the notion,
//! the objective and the settings, checked by each front end in its own words
//! (flags, keyword arguments), then solved here into the same [`Design`], with
//! the estimation advice simulated at the data's size where the prior was
//! counted, and the provenance naming the front end.
//!
//! ```
//! use pmldesign_app::design::{DesignRequest, Objective, Priors};
//! use pmldesign_model::{Notion, Prior, UncertaintySet};
//!
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let request = DesignRequest::new(
//!     Priors::Set(set),
//!     Notion::Pml { epsilon: 1.125f64.ln() },
//!     Objective::utility("mi")?,
//!     "doc",
//! );
//! let d = request.solve(|_| {})?;
//! assert!(d.certificate().holds());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use pmldesign_model::{Mechanism, ModelError, Notion, UncertaintySet};
use pmldesign_solver::{
    AdviceDraws, Design, Loss, Problem, Progress, Result, Sample, Settings, builtin,
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
                "use one of mi, tv, chi2, hellinger, map, estimation (or pass loss=...)",
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

/// A design to make: what each front end has checked, solved by
/// [`DesignRequest::solve`].
#[derive(Debug, Clone)]
pub struct DesignRequest {
    priors: Priors,
    notion: Notion,
    objective: Objective,
    labels: Option<Vec<String>>,
    settings: Settings,
    envelope_delta: f64,
    rows: Option<u64>,
    tool: String,
}

impl DesignRequest {
    /// The request for `priors` under `notion` optimising `objective`, made by
    /// `tool` (its provenance's `tool`, e.g. `pml 0.1.0`); default settings,
    /// labels `x1..xN`, envelope at delta 0.05.
    pub fn new(priors: Priors, notion: Notion, objective: Objective, tool: &str) -> Self {
        DesignRequest {
            priors,
            notion,
            objective,
            labels: None,
            settings: Settings::default(),
            envelope_delta: 0.05,
            rows: None,
            tool: tool.to_string(),
        }
    }

    /// The input names.
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.labels = Some(labels);
        self
    }

    /// The solver's settings (time limit, gap, pricing, interrupt).
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The delta of the envelope bounds reported with the design.
    pub fn envelope_delta(mut self, delta: f64) -> Self {
        self.envelope_delta = delta;
        self
    }

    /// The rows the prior was counted from: the estimation advice then compares
    /// the mechanisms at that size by seeded simulation
    /// (docs/concepts/estimation.md).
    pub fn rows(mut self, rows: Option<u64>) -> Self {
        self.rows = rows;
        self
    }

    /// The certified design, `progress` told after every pricing pass.
    pub fn solve(self, progress: impl FnMut(Progress)) -> Result<Design> {
        let problem = match self.priors {
            Priors::Set(set) => Problem::new(set),
            Priors::Sample(sample) => Problem::from_sample(sample),
        };
        let problem = match self.objective {
            Objective::Loss(loss) => problem.loss(loss),
            Objective::Estimation => problem.estimation(),
            Objective::Utility(name) => match Objective::utility(&name)? {
                Objective::Utility(_) => {
                    problem.boxed_utility(builtin(&name).expect("a built-in utility's name"))
                }
                _ => problem.estimation(),
            },
        };
        let problem = match self.labels {
            Some(labels) => problem.labels(labels),
            None => problem,
        };
        let mut d = problem
            .notion(self.notion)
            .settings(self.settings)
            .envelope_delta(self.envelope_delta)
            .on_progress(progress)
            .solve()?;
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
