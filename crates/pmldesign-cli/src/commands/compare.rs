//! `pml compare`: the optimal mechanism under every information-density notion at a
//! common level, side by side with randomized response.

use crate::args::compare::CompareArgs;
use crate::args::design::limited_settings;
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::load_metric;
use crate::io::write::{check_outputs, emit_with_report};
use crate::render::compare::render_comparison;
use pmldesign_model::{ModelError, Notion, UncertaintySet};
use pmldesign_solver::builtin;
use pmldesign_solver::compare::{common_level_notions, compare};

/// Runs `pml compare`.
pub fn run(a: CompareArgs) -> Result<(), CliError> {
    check_outputs(
        &[a.input.named(), a.metric.named()],
        &[
            ("--output", a.output.path()),
            ("--report", a.report.report.as_deref()),
        ],
    )?;
    let report_path = a.report.report.clone();
    let est = load_estimate(&a.input)?;
    let epsilon = a.level.epsilon()?;
    let alip = Notion::alip_levels(a.epsilon_lower, a.epsilon_upper, epsilon).map_err(|e| {
        let ModelError::Invalid {
            field,
            value,
            problem,
            ..
        } = e
        else {
            return CliError::from(e);
        };
        let flag = format!("--{}", field.replace('_', "-"));
        CliError::Usage(format!(
            "invalid {flag} = {value}: {problem}; pass e.g. {flag} 0.5"
        ))
    })?;
    let utility = builtin(a.utility.name()).ok_or_else(|| {
        CliError::Usage(format!(
            "invalid --utility = {}: not a built-in utility; pass mi, tv, chi2, hellinger or map",
            a.utility.name()
        ))
    })?;
    let set = match a.beta {
        None => UncertaintySet::known(est.prior),
        Some(beta) => UncertaintySet::l1_ball(est.prior, beta)?,
    };
    let mut notions = common_level_notions(epsilon, alip);
    if let Some(metric) = load_metric(&a.metric, set.len())? {
        notions.push(Notion::Metric { epsilon, metric });
    }
    let settings = limited_settings(a.time_limit)?;
    let c = compare(&set, epsilon, &notions, utility.as_ref(), &settings)?;
    let text = render_comparison(&c, &est.labels, a.output.format())?;
    let page = report_path.map(|p| (p, pmldesign_report::comparison(&c, &est.labels)));
    emit_with_report(a.output.path(), &text, page)
}
