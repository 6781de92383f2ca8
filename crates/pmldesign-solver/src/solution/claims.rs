//! A stored design is a claim: every figure it states that can be derived from its
//! set, notion, utility and matrix is derived again when it is read, and a stated
//! figure that differs is refused naming the field, the stated value and the
//! re-derived one. Levels may differ by the certificate's tolerance
//! ([`PML_TOLERANCE`]), values by 1e-9 relative; names, notions and sentences not
//! at all. The duals, the loss and the status are re-checked by `Design::verify`;
//! solver statistics (`solver.*`) are not claims.

use crate::error::Result;
use crate::reference::baseline::{Baselines, RandomizedResponse};
use crate::reference::structured::StructuredBaseline;
use crate::solution::certificate::Certificate;
use crate::solution::design::Design;
use crate::solution::guarantee::Guarantee;
use crate::tolerance::{PML_TOLERANCE, value_tolerance};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::private_prior::PrivateRadius;
use pmldesign_model::{Mechanism, ModelError, UncertaintySet, sample};

/// The figures a design file states beside its matrix.
pub(crate) struct Stated<'a> {
    pub prior: &'a [f64],
    pub epsilon: f64,
    pub exp_epsilon: f64,
    pub note: Option<&'a str>,
    pub output_probabilities: &'a [f64],
    pub pml_per_output: &'a [f64],
    pub pmc_per_output: &'a [f64],
    pub certificate: &'a Certificate,
    pub baselines: &'a Baselines,
    /// The structured baselines as stated (empty in files before version 5).
    pub structured: &'a [StructuredBaseline],
}

/// How closely a stated figure must meet its re-derivation.
#[derive(Clone, Copy)]
enum Within {
    /// A leakage level: the certificate's tolerance, absolute.
    Level,
    /// A value or a bound: 1e-9 relative to `1 + |x|`.
    Value,
}

impl Within {
    fn holds(self, stated: f64, derived: f64) -> bool {
        if stated == derived {
            return true; // infinite levels included
        }
        let allowed = match self {
            Within::Level => PML_TOLERANCE,
            Within::Value => value_tolerance(derived),
        };
        (stated - derived).abs() <= allowed
    }
}

/// The error for a stored figure or name that does not hold: one line naming the
/// field, its value and the problem.
pub(crate) fn altered(
    field: &str,
    value: impl std::fmt::Display,
    problem: &str,
) -> crate::SolverError {
    ModelError::invalid(
        field,
        value,
        problem,
        "the design was altered or damaged; use it as it was written, or design it again",
    )
    .into()
}

/// Checks that a stored value agrees with its re-measurement on the matrix
/// ([`value_tolerance`]; a NaN never does).
pub(crate) fn agree(field: &str, stored: f64, recomputed: f64) -> Result<()> {
    if (stored - recomputed).abs() > value_tolerance(recomputed) || stored.is_nan() {
        return Err(altered(
            field,
            stored,
            &format!("re-measured on the matrix it is {recomputed}"),
        ));
    }
    Ok(())
}

/// A stated sentence or word against its re-derivation: equal, or refused
/// whatever the tolerance.
pub(crate) fn agree_text(field: &str, stated: &str, derived: &str) -> Result<()> {
    if stated == derived {
        Ok(())
    } else {
        Err(refused(
            field,
            format!("{stated:?}"),
            format!("{derived:?}"),
        ))
    }
}

/// The error for a stated figure that its re-derivation does not support.
fn refused(
    field: &str,
    stated: impl std::fmt::Display,
    derived: impl std::fmt::Display,
) -> crate::SolverError {
    altered(
        field,
        stated,
        &format!("re-derived from the design it is {derived}"),
    )
}

fn number(field: &str, stated: f64, derived: f64, within: Within) -> Result<()> {
    if within.holds(stated, derived) {
        Ok(())
    } else {
        Err(refused(field, stated, derived))
    }
}

fn numbers(field: &str, stated: &[f64], derived: &[f64], within: Within) -> Result<()> {
    if stated.len() != derived.len() {
        return Err(refused(
            field,
            format!("{} entries", stated.len()),
            format!("{} entries", derived.len()),
        ));
    }
    for (i, (&s, &d)) in stated.iter().zip(derived).enumerate() {
        number(&format!("{field}[{i}]"), s, d, within)?;
    }
    Ok(())
}

pub(crate) use pmldesign_model::names::check_names;

/// Checks every figure of `stated` against the design `derived` (built from the
/// file's set, notion, utility and matrix, its figures re-measured).
pub(crate) fn check(
    stated: &Stated,
    derived: &Design,
    value: &dyn Fn(&Mechanism) -> f64,
) -> Result<()> {
    let reference = derived.uncertainty.reference();
    numbers(
        "prior",
        stated.prior,
        reference.as_slice().unwrap_or(&reference.to_vec()),
        Within::Value,
    )?;
    number("epsilon", stated.epsilon, derived.epsilon, Within::Value)?;
    number(
        "exp_epsilon",
        stated.exp_epsilon,
        derived.epsilon.exp(),
        Within::Value,
    )?;
    let note = derived.note();
    if stated.note != note.as_deref() {
        return Err(refused(
            "note",
            stated.note.unwrap_or("null"),
            note.unwrap_or_else(|| "null".into()),
        ));
    }
    numbers(
        "output_probabilities",
        stated.output_probabilities,
        &derived.output_probabilities,
        Within::Value,
    )?;
    numbers(
        "pml_per_output",
        stated.pml_per_output,
        &derived.pml_per_output,
        Within::Level,
    )?;
    numbers(
        "pmc_per_output",
        stated.pmc_per_output,
        &derived.pmc_per_output,
        Within::Level,
    )?;
    certificate(stated.certificate, &derived.certificate)?;
    if let Some(outcome) = &derived.loss {
        // A loss design states its loss and bound twice: as the loss and as the
        // negated utility and upper bound.
        let (u, ub) = (derived.utility_value, stated.certificate.upper_bound);
        number(
            "loss.expected_loss",
            outcome.expected_loss,
            -u,
            Within::Value,
        )?;
        number("loss.lower_bound", outcome.lower_bound, -ub, Within::Value)?;
    }
    baselines(stated.baselines, &derived.baselines)?;
    if !stated.structured.is_empty() {
        structured(stated.structured, &derived.baselines.structured)?;
    }
    match &derived.guarantee {
        Some(g) => guarantee(g, derived, value),
        None => Ok(()),
    }
}

/// A sample guarantee: the radius re-derived from m, delta and the method over the
/// estimate, equal to the ball's; the simpler route's level, leakage and utility
/// re-measured, and its mechanism private for the estimate at its level.
fn guarantee(g: &Guarantee, d: &Design, value: &dyn Fn(&Mechanism) -> f64) -> Result<()> {
    let UncertaintySet::L1Ball { center, beta, .. } = &d.uncertainty else {
        return Err(refused(
            "guarantee",
            "a sample guarantee",
            "a design that is not over an l1 ball",
        ));
    };
    let again = match &g.private_prior {
        None => Guarantee::new(center, g.samples, g.delta, g.radius_method)?,
        Some(p) => Guarantee::private(center, g.samples, g.delta, g.radius_method, p.epsilon)?,
    }
    .stated_at(d.epsilon);
    if let (Some(s), Some(a)) = (&g.private_prior, &again.private_prior) {
        private_prior(s, a)?;
    }
    if let (Some(s), Some(again)) = (&g.statement, &again.statement) {
        agree_text("guarantee.statement", s, again)?;
    }
    number("guarantee.beta", g.beta, again.beta, Within::Value)?;
    number("uncertainty.beta", *beta, again.beta, Within::Value)?;
    if g.radius_note != again.radius_note {
        let show = |n: &Option<String>| n.clone().unwrap_or_else(|| "null".into());
        return Err(refused(
            "guarantee.radius_note",
            show(&g.radius_note),
            show(&again.radius_note),
        ));
    }
    let Some(route) = &g.simpler_route else {
        return Ok(());
    };
    let field = |f: &str| format!("guarantee.simpler_route.{f}");
    let Some(eps0) = sample::estimate_level(d.epsilon, g.beta) else {
        return Err(refused(
            &field("epsilon_for_estimate"),
            route.epsilon_for_estimate,
            "none (e^-eps + beta/2 > 1)",
        ));
    };
    number(
        &field("epsilon_for_estimate"),
        route.epsilon_for_estimate,
        eps0,
        Within::Value,
    )?;
    let leak = d.uncertainty.worst_case_pml(&route.mechanism);
    number(
        &field("worst_case_pml"),
        route.worst_case_pml,
        leak,
        Within::Level,
    )?;
    number(
        &field("utility"),
        route.utility,
        value(&route.mechanism),
        Within::Value,
    )?;
    let for_estimate = UncertaintySet::known(center.clone()).worst_case_pml(&route.mechanism);
    if for_estimate > eps0 + PML_TOLERANCE {
        return Err(refused(
            &field("mechanism"),
            format!("PML {for_estimate} for the estimate"),
            format!("at most {eps0}"),
        ));
    }
    Ok(())
}

/// A private prior's figures against their re-derivation from the noisy total,
/// delta, the level of the noise and the centre.
fn private_prior(s: &PrivateRadius, d: &PrivateRadius) -> Result<()> {
    let field = |f: &str| format!("guarantee.private_prior.{f}");
    number(
        &field("noise_delta"),
        s.noise_delta,
        d.noise_delta,
        Within::Value,
    )?;
    for (f, a, b) in [
        ("noise_bound", s.noise_bound, d.noise_bound),
        ("samples_lower", s.samples_lower, d.samples_lower),
    ] {
        if a != b {
            return Err(refused(&field(f), a, b));
        }
    }
    number(
        &field("sample_beta"),
        s.sample_beta,
        d.sample_beta,
        Within::Value,
    )?;
    number(
        &field("noise_beta"),
        s.noise_beta,
        d.noise_beta,
        Within::Value,
    )
}

fn certificate(s: &Certificate, d: &Certificate) -> Result<()> {
    let field = |f: &str| format!("certificate.{f}");
    if s.notion != d.notion {
        return Err(refused(
            &field("notion"),
            format!("{:?}", s.notion),
            format!("{:?}", d.notion),
        ));
    }
    if !(0.0..=PML_TOLERANCE).contains(&s.tolerance) {
        return Err(refused(&field("tolerance"), s.tolerance, PML_TOLERANCE));
    }
    number(
        &field("target_epsilon"),
        s.target_epsilon,
        d.target_epsilon,
        Within::Value,
    )?;
    levels(&s.levels, &d.levels)?;
    number(
        &field("worst_case_pml"),
        s.worst_case_pml,
        d.worst_case_pml,
        Within::Level,
    )?;
    numbers(
        &field("worst_case_pml_per_output"),
        &s.worst_case_pml_per_output,
        &d.worst_case_pml_per_output,
        Within::Level,
    )?;
    number(
        &field("max_row_sum_error"),
        s.max_row_sum_error,
        d.max_row_sum_error,
        Within::Level,
    )?;
    number(&field("min_entry"), s.min_entry, d.min_entry, Within::Level)?;
    number(
        &field("utility_value"),
        s.utility_value,
        d.utility_value,
        Within::Value,
    )?;
    number(&field("gap"), s.gap, d.gap, Within::Value)
}

fn levels(s: &NotionLevels, d: &NotionLevels) -> Result<()> {
    let field = |f: &str| format!("certificate.levels.{f}");
    number(&field("pml"), s.pml, d.pml, Within::Level)?;
    number(&field("pmc"), s.pmc, d.pmc, Within::Level)?;
    number(&field("ldp"), s.ldp, d.ldp, Within::Level)?;
    number(
        &field("maximal_leakage"),
        s.maximal_leakage,
        d.maximal_leakage,
        Within::Level,
    )?;
    match (s.metric, d.metric) {
        (None, None) => Ok(()),
        (Some(a), Some(b)) => number(&field("metric"), a, b, Within::Level),
        (a, b) => Err(refused(
            &field("metric"),
            format!("{a:?}"),
            format!("{b:?}"),
        )),
    }
}

fn baselines(s: &Baselines, d: &Baselines) -> Result<()> {
    baseline(
        "baselines.randomized_response.same_ldp",
        &s.same_ldp,
        &d.same_ldp,
    )?;
    baseline(
        "baselines.randomized_response.pml_calibrated",
        &s.pml_calibrated,
        &d.pml_calibrated,
    )
}

fn baseline(field: &str, s: &RandomizedResponse, d: &RandomizedResponse) -> Result<()> {
    number(
        &format!("{field}.ldp_epsilon"),
        s.ldp_epsilon,
        d.ldp_epsilon,
        Within::Value,
    )?;
    number(
        &format!("{field}.worst_case_pml"),
        s.worst_case_pml,
        d.worst_case_pml,
        Within::Level,
    )?;
    number(
        &format!("{field}.utility"),
        s.utility,
        d.utility,
        Within::Value,
    )?;
    if !s.has_matrix() {
        return Ok(());
    }
    matrix(&format!("{field}.mechanism"), &s.mechanism, &d.mechanism)
}

/// A stated matrix against its re-derivation, entry by entry.
fn matrix(field: &str, s: &Mechanism, d: &Mechanism) -> Result<()> {
    let (a, b) = (s.matrix(), d.matrix());
    if a.dim() != b.dim() {
        return Err(refused(
            field,
            format!("{:?}", a.dim()),
            format!("{:?}", b.dim()),
        ));
    }
    for ((i, x), y) in a.indexed_iter().zip(b.iter()) {
        number(&format!("{field}[{}][{}]", i.0, i.1), *x, *y, Within::Value)?;
    }
    Ok(())
}

/// The stated structured baselines against their re-derivation.
fn structured(s: &[StructuredBaseline], d: &[StructuredBaseline]) -> Result<()> {
    let field = "baselines.structured";
    if s.len() != d.len() {
        return Err(refused(&format!("{field}.len"), s.len(), d.len()));
    }
    for (i, (s, d)) in s.iter().zip(d).enumerate() {
        let field = format!("{field}[{i}]");
        let shape = |b: &StructuredBaseline| format!("{:?} {} {}", b.family, b.groups, b.arc);
        agree_text(&format!("{field}.family"), &shape(s), &shape(d))?;
        number(&format!("{field}.mix"), s.mix, d.mix, Within::Value)?;
        number(&format!("{field}.level"), s.level, d.level, Within::Level)?;
        number(
            &format!("{field}.worst_case_pml"),
            s.worst_case_pml,
            d.worst_case_pml,
            Within::Level,
        )?;
        number(
            &format!("{field}.utility"),
            s.utility,
            d.utility,
            Within::Value,
        )?;
        if s.has_matrix() {
            matrix(&format!("{field}.mechanism"), &s.mechanism, &d.mechanism)?;
        }
    }
    Ok(())
}
