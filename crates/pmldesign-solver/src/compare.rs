//! Side-by-side designs under every information-density notion at a common level:
//! the optimal mechanism for each notion on the same prior (or set) and
//! utility, each re-measured under every notion, with the randomized-response rows.
//!
//! The common level eps maps to PML(eps), PMC(eps), ALIP(eps_l, eps_u) with both
//! levels eps unless given, LIP(eps) and LDP(eps).

use crate::design::utility::design_notion;
use crate::error::Result;
use crate::objective::utility::Utility;
use crate::reference::baseline::baselines;
use crate::solution::design::DesignStatus;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use serde::Serialize;

/// One row of a comparison: a mechanism, its utility and its measured levels.
#[derive(Debug, Clone, Serialize)]
pub struct ComparisonRow {
    /// What the row is: the notion's label, or a randomized-response baseline.
    pub label: String,
    /// The notion designed for (`None` for a baseline).
    pub notion: Option<Notion>,
    /// How the design was obtained (`None` for a baseline).
    pub status: Option<DesignStatus>,
    /// Utility under the reference prior.
    pub utility: f64,
    /// The certified upper bound on the utility (`None` for a baseline).
    pub upper_bound: Option<f64>,
    /// Worst-case PML and PMC over the set, LDP parameter and maximal leakage.
    pub levels: NotionLevels,
    /// The mechanism.
    pub mechanism: Mechanism,
    /// What an analyst can estimate from its released rows under the reference
    /// prior: the groups of inputs released alike and `m E||p^ - p||^2` in the
    /// m -> infinity limit (inverse Fisher information; docs/theory.md §13);
    /// `None` past 1,024 inputs.
    pub estimation: Option<(usize, Option<f64>)>,
}

/// Designs under several notions on one set and utility.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// The common level eps.
    pub epsilon: f64,
    /// The priors protected.
    pub uncertainty: UncertaintySet,
    /// Name of the utility.
    pub utility_name: String,
    /// One row per notion, then randomized response at LDP level eps and
    /// randomized response calibrated to worst-case PML eps.
    pub rows: Vec<ComparisonRow>,
}

impl Comparison {
    /// The JSON of `pml compare --format json` and of Python's `compare`: the
    /// set, the level and one object per row (infinite levels as `null`).
    pub fn to_json(&self, labels: &[String]) -> serde_json::Value {
        use serde_json::json;
        let rows: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|r| {
                json!({
                    "label": r.label,
                    "notion": r.notion,
                    "status": r.status,
                    "utility": r.utility,
                    "upper_bound": r.upper_bound,
                    "worst_case_pml": r.levels.pml,
                    "pmc": r.levels.pmc,
                    "ldp_epsilon": r.levels.ldp,
                    "maximal_leakage": r.levels.maximal_leakage,
                    "mechanism": r.mechanism.to_rows(),
                    "estimation": r.estimation.map(|(groups, error)| json!({
                        "groups": groups,
                        "error_per_row": error,
                    })),
                })
            })
            .collect();
        json!({
            "format_version": crate::OUTPUT_FORMAT_VERSION,
            "prior": self.uncertainty.reference().to_vec(),
            "labels": labels,
            "epsilon": self.epsilon,
            "uncertainty": self.uncertainty,
            "utility": self.utility_name,
            "rows": rows,
        })
    }
}

/// What an analyst can estimate from rows released by `m`, under the reference
/// prior of `set`: the estimable groups and, where every input is its own
/// group, the error per row of the maximum-likelihood estimate (`m E|p^ - p|^2`,
/// m -> inf; docs/theory.md §13). `None` past [`crate::limits::FIGURES_UP_TO`] inputs. The
/// figures of a comparison's rows and of a trade-off curve.
pub fn estimation_figures(m: &Mechanism, set: &UncertaintySet) -> Option<(usize, Option<f64>)> {
    if m.inputs() > crate::limits::FIGURES_UP_TO {
        return None;
    }
    let prior = set.reference().to_vec();
    let e = pmldesign_model::frequency::estimability(m, &prior).ok()?;
    Some((e.groups.len(), e.error_per_row))
}

/// Baselines a comparison lists beside its notions' designs, at most
/// (randomized response twice and the best structured mechanism of each family
/// that applies).
const BASELINE_ROWS: usize = 5;

/// When the designs of a comparison under `notions` notions over `n` inputs
/// must be done for its rows' figures to fit in the time limit (at most half
/// of it left to them); `None` without a limit.
fn designs_deadline(
    settings: &crate::Settings,
    n: usize,
    notions: usize,
) -> Option<std::time::Instant> {
    let limit = settings.column_generation.time_limit?;
    let figures = crate::solution::estimation::square_rows_time(n, notions + BASELINE_ROWS);
    Some(std::time::Instant::now() + limit.saturating_sub(figures.min(limit / 2)))
}

/// The notions at a common level eps: PML, PMC, ALIP (`alip` gives `(eps_l, eps_u)`,
/// default `(eps, eps)`), LIP and LDP, all at eps.
pub fn common_level_notions(epsilon: f64, alip: Option<(f64, f64)>) -> Vec<Notion> {
    let (epsilon_lower, epsilon_upper) = alip.unwrap_or((epsilon, epsilon));
    vec![
        Notion::Pml { epsilon },
        Notion::Pmc { epsilon },
        Notion::Alip {
            epsilon_lower,
            epsilon_upper,
        },
        Notion::Lip { epsilon },
        Notion::Ldp { epsilon },
    ]
}

/// Designs the optimal certified mechanism under each notion and adds the
/// baselines calibrated to the first notion: randomized response and the
/// structured mechanisms ([`crate::reference::baseline::baselines`]). A time
/// limit in `settings` bounds the whole comparison: each notion's design gets
/// an equal share of the time left to the notions not yet designed, after
/// what the rows' estimation figures are expected to take.
pub fn compare(
    set: &UncertaintySet,
    epsilon: f64,
    notions: &[Notion],
    utility: &dyn Utility,
    settings: &crate::Settings,
) -> Result<Comparison> {
    let mut rows = Vec::with_capacity(notions.len() + 2);
    let mut first = None;
    let deadline = designs_deadline(settings, set.len(), notions.len());
    for (i, notion) in notions.iter().enumerate() {
        let shared = settings.share_until(deadline, notions.len() - i);
        let d = design_notion(set, notion, utility, &shared)?;
        first.get_or_insert_with(|| d.baselines.clone());
        rows.push(ComparisonRow {
            label: notion.label(),
            notion: Some(notion.clone()),
            status: Some(d.status),
            utility: d.utility_value,
            upper_bound: Some(d.certificate.upper_bound),
            levels: d.certificate.levels,
            estimation: estimation_figures(&d.mechanism, set),
            mechanism: d.mechanism,
        });
    }
    // The baselines of the first notion's design (the PML design at eps), or
    // of eps-PML when no notion is asked.
    let b = match first {
        Some(b) => b,
        None => {
            let value = |m: &Mechanism| utility.value(m, set.reference().view());
            baselines(set, &Notion::Pml { epsilon }, &value, None)?
        }
    };
    for r in b.rows() {
        rows.push(ComparisonRow {
            label: r.label,
            notion: None,
            status: None,
            utility: r.utility,
            upper_bound: None,
            levels: NotionLevels::measure(r.mechanism, set),
            estimation: estimation_figures(r.mechanism, set),
            mechanism: r.mechanism.clone(),
        });
    }
    Ok(Comparison {
        epsilon,
        uncertainty: set.clone(),
        utility_name: utility.name(),
        rows,
    })
}
