//! `pml assess`: audit a given mechanism under a prior and, optionally, a set of
//! priors. Parsing and formatting only: every number comes from
//! `pmldesign_model::measures::assessment`.

use crate::args::MetricArgs;
use crate::args::assess::{AssessArgs, AssessFormat};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::{load_mechanism, load_metric, read_design};
use crate::io::matrix::read_priors;
use crate::io::write::emit;
use crate::render::design::meets;
use crate::render::envelope::envelope_json;
use crate::render::number::{finite_or_null, num, opt, short};
use crate::render::words::describe_assessed_set;
use pmldesign_model::envelope::{Envelope, EnvelopeBounds};
use pmldesign_model::measures::{Assessment, SetAssessment, Theorem4Check};
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{Mechanism, UncertaintySet};
use pmldesign_solver::{Design, Repricing, Verification, numbered};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::Path;

/// How the l1 radius was obtained from a failure probability.
struct RadiusSource {
    delta: f64,
    samples: u64,
    method: &'static str,
    beta: f64,
}

/// Runs `pml assess`.
pub fn run(a: AssessArgs) -> Result<(), CliError> {
    if let Some(path) = &a.design {
        return verify_design(path, &a);
    }
    let path = a.mechanism.as_deref().ok_or_else(|| {
        CliError::Usage(
            "give the mechanism with --mechanism FILE, or a design with --design FILE".into(),
        )
    })?;
    let est = load_estimate(&a.input)?;
    let (mechanism, labels) = load_mechanism(path, &a.input, &est)?;
    let n = est.prior.len();

    let mut radius = None;
    let set = if let Some(beta) = a.beta {
        Some(
            UncertaintySet::l1_ball(est.prior.clone(), beta)
                .map_err(|e| CliError::Usage(format!("--beta: {e}")))?,
        )
    } else if let Some(delta) = a.delta {
        let samples = est.samples.ok_or_else(|| {
            CliError::Usage(
                "invalid --delta: a failure probability needs a sample size; give --counts (whole numbers) or --data FILE --column NAME instead of --prior, or use --beta".into(),
            )
        })?;
        let beta = a.radius.radius(samples, delta, &est.prior)?;
        let method = match a.radius {
            RadiusMethod::DistributionFree => "distribution-free, eq. (7)",
            RadiusMethod::Kappa => "Theorem 2 with phi(kappa) of the estimate",
        };
        radius = Some(RadiusSource {
            delta,
            samples,
            method,
            beta,
        });
        Some(UncertaintySet::l1_ball(est.prior.clone(), beta)?)
    } else if let Some(path) = &a.priors {
        Some(read_priors(path, n)?)
    } else {
        None
    };

    let assessment = Assessment::new(&mechanism, &est.prior, set.as_ref())?;
    let metric = metric_level(&a.metric, &mechanism)?;
    let env = Envelope::new(&mechanism, &est.prior)?
        .bounds(a.envelope_delta)
        .map_err(|e| CliError::Usage(format!("--envelope-delta: {e}")))?;
    let source = path.display().to_string();
    let text = match a.format() {
        AssessFormat::Json => {
            let mut v = to_json(&assessment, &env, &labels, &source, radius.as_ref())?;
            if let Some((name, level)) = &metric {
                v["metric"] = json!({ "metric": name, "smallest_epsilon": finite_or_null(*level) });
            }
            let mut s =
                serde_json::to_string_pretty(&v).map_err(|e| CliError::Failure(e.to_string()))?;
            s.push('\n');
            s
        }
        AssessFormat::Table => {
            let mut s = to_table(&assessment, &env, &labels, &source, radius.as_ref());
            if let Some((name, level)) = &metric {
                let _ = writeln!(
                    s,
                    "\nMetric privacy ({name} distance): smallest eps with W[x][y] <= e^(eps d(x, x')) W[x'][y]: {}",
                    num(*level)
                );
            }
            s
        }
    };
    emit(a.output.as_deref(), &text)
}

// ---------------------------------------------------------------- verifying designs

/// `pml assess --design FILE`: the design read back (which re-measures its
/// privacy over the whole set), verified ([`Design::verify`]), and the verdict.
fn verify_design(path: &Path, a: &AssessArgs) -> Result<(), CliError> {
    let shown = path.display().to_string();
    let refused = |e: &dyn std::fmt::Display| CliError::Usage(format!("--design {shown}: {e}"));
    let d: Design = read_design(path)?;
    let v = d.verify().map_err(|e| refused(&e))?;
    let text = match a.format() {
        AssessFormat::Json => crate::render::pretty(&json!({
            "source": shown,
            "verdict": "verified",
            "status": d.status,
            "notion": d.notion,
            "utility": d.utility_name,
            "verification": v,
            "certificate": d.certificate,
        }))?,
        AssessFormat::Table => verdict_table(&d, &v, &shown),
    };
    emit(a.output.as_deref(), &text)
}

/// The verdict of a verified design, for people.
fn verdict_table(d: &Design, v: &Verification, source: &str) -> String {
    let c = &d.certificate;
    let mut s = format!("Verified {source}: every check passed.\n");
    let set = describe_assessed_set(&d.uncertainty);
    let _ = writeln!(s, "  privacy  {} over {set} (re-measured)", meets(d));
    let _ = writeln!(
        s,
        "  rows     sum to 1 within {:.1e}; min entry {:.3e}",
        c.max_row_sum_error, c.min_entry
    );
    // A loss is reported as it is minimised: its value and lower bounds negated.
    let (what, sign, bound) = match &d.loss {
        Some(l) => (format!("expected {} loss", l.name), -1.0, "lower bound"),
        None => (d.utility_name.clone(), 1.0, "upper bound"),
    };
    let value = sign * v.utility_value;
    let _ = writeln!(s, "  value    {what} {value:.9}, re-measured on the matrix");
    let dual = match (v.repricing, v.dual_bound.map(|b| sign * b)) {
        (Repricing::Exact, Some(b)) if d.loss.is_some() => {
            format!("proves the {bound} {b:.9}, re-checked against the loss LP")
        }
        (Repricing::Exact, Some(b)) => {
            format!("proves the {bound} {b:.9}, re-priced over every ray of the design's cone")
        }
        (Repricing::Containing, Some(b)) => format!(
            "proves the {bound} {b:.9}, re-priced over every ray of a cone containing the design's"
        ),
        (Repricing::NoDual, _) => "none (no LP was needed)".into(),
        _ => "not re-priced (beyond the enumeration limits); the identity's utility bounds the optimum".into(),
    };
    let _ = writeln!(s, "  dual     {dual}");
    let status = json!(d.status);
    let _ = writeln!(
        s,
        "  bound    {bound} {:.9} holds (gap {:.1e}); status {} holds",
        sign * c.upper_bound,
        c.gap,
        status.as_str().unwrap_or("-")
    );
    s
}

/// The metric of `--metric`/`--metric-matrix` and the smallest eps for which
/// the mechanism is d-private under it (`measures::metric_level`).
fn metric_level(
    args: &MetricArgs,
    mechanism: &Mechanism,
) -> Result<Option<(&'static str, f64)>, CliError> {
    let Some(metric) = load_metric(args, mechanism.inputs())? else {
        return Ok(None);
    };
    let d = metric.distances(mechanism.inputs())?;
    let level = pmldesign_model::measures::metric_level(mechanism, d.view());
    Ok(Some((metric.name(), level)))
}

// ---------------------------------------------------------------- formatting

fn to_json(
    a: &Assessment,
    env: &EnvelopeBounds,
    labels: &[String],
    source: &str,
    radius: Option<&RadiusSource>,
) -> Result<Value, CliError> {
    let mut v = serde_json::to_value(a).map_err(|e| CliError::Failure(e.to_string()))?;
    // serde_json writes non-finite numbers as null; say so where they can occur.
    v["ldp_parameter"] = finite_or_null(a.ldp_parameter);
    v["pmc"] = finite_or_null(a.pmc);
    v["lip_parameter"] = finite_or_null(a.lip_parameter);
    v["envelope"] = envelope_json(env);
    v["source"] = json!(source);
    v["labels"] = json!(labels);
    v["outputs"] = json!(numbered("y", a.mechanism.outputs()));
    v["notes"] = json!([
        "null numbers are infinite (ldp_parameter, pmc, lip_parameter, worst-case PML, capacity, sensitivity) or undefined (PML or PMC of an output of probability 0)",
        "tail_curve: delta(eps) = P(l(Y) > eps) is constant from one point's epsilon to the next; it is 1 below the first point",
    ]);
    if let Some(r) = radius {
        v["radius"] = json!({
            "delta": r.delta,
            "samples": r.samples,
            "method": r.method,
            "beta": r.beta,
        });
    }
    Ok(v)
}

/// "tight" when a bound's slack over the exact value is rounding, else the slack.
fn verdict(slack: f64, bound: f64) -> String {
    if slack.abs() <= 1e-9 * (1.0 + bound.abs()) {
        "tight".into()
    } else {
        format!("exact C is {} below", num(slack))
    }
}

/// One labelled line of a report section: name, value, note.
fn row(s: &mut String, name: &str, value: String, note: String) {
    let _ = writeln!(s, "  {name:<40} {value:>12}  {note}");
}

fn to_table(
    a: &Assessment,
    env: &EnvelopeBounds,
    labels: &[String],
    source: &str,
    radius: Option<&RadiusSource>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Assessment of {source}  ({} inputs x {} outputs)\n",
        a.mechanism.inputs(),
        a.mechanism.outputs()
    );
    matrix_table(&mut s, a, labels);
    prior_table(&mut s, a, env);
    tail_table(&mut s, a);
    if let Some(u) = &a.uncertainty {
        set_table(&mut s, u, a.eps_min, radius);
    }
    s
}

/// The mechanism with the prior beside it and, under it, P(y), PML(y), PMC(y) and
/// the worst-case PML(y) over the set.
fn matrix_table(s: &mut String, a: &Assessment, labels: &[String]) {
    let names = numbered("y", a.mechanism.outputs());
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(1).max(13);
    let _ = write!(s, "{:<width$} {:>8}", "input", "prior");
    for y in &names {
        let _ = write!(s, " {y:>9}");
    }
    s.push('\n');
    let prior = a.prior.masses();
    for (x, label) in labels.iter().enumerate() {
        let _ = write!(s, "{label:<width$} {:>8.4}", prior[x]);
        for v in a.mechanism.matrix().row(x) {
            let _ = write!(s, " {v:>9.6}");
        }
        s.push('\n');
    }
    let _ = write!(s, "{:<width$} {:>8}", "P(y)", "");
    for q in &a.output_probabilities {
        let _ = write!(s, " {q:>9.6}");
    }
    s.push('\n');
    let mut per_output = |name: &str, values: &[Option<f64>]| {
        let _ = write!(s, "{name:<width$} {:>8}", "");
        for l in values {
            let _ = write!(s, " {:>9}", opt(*l));
        }
        s.push('\n');
    };
    per_output("PML(y)", &a.pml_per_outcome);
    per_output("PMC(y)", &a.pmc_per_outcome);
    if let Some(u) = &a.uncertainty {
        per_output("worst PML(y)", &u.worst_case_pml_per_outcome);
    }
}

/// The figures under the prior (eps_min, envelope, region, eps_max, PMC) and the
/// prior-free ones (LDP parameter, maximal leakage).
fn prior_table(s: &mut String, a: &Assessment, env: &EnvelopeBounds) {
    s.push_str("\nUnder the prior:\n");
    row(
        s,
        "eps_min (PML of the mechanism)",
        num(a.eps_min),
        format!("e^eps = {}", num(a.exp_eps_min)),
    );
    let bound = if env.exact {
        "exact".to_string()
    } else {
        format!("lower bound {}", num(env.lower))
    };
    row(
        s,
        &format!("PML envelope at delta = {} ([V])", env.delta),
        num(env.upper),
        format!(
            "{bound}: for every post-processing, P(leakage > it) <= delta; raw eps_Y {}",
            num(env.left_quantile)
        ),
    );
    let k = a.privacy_region;
    row(
        s,
        "privacy region ([E] Def 4)",
        format!("{k} of {}", a.region_thresholds.len() - 1),
        format!(
            "[{}, {}); a column has at most {} zero(s)",
            num(a.region_thresholds[k - 1]),
            num(a.region_thresholds[k]),
            k - 1
        ),
    );
    row(
        s,
        "eps_max = -ln min p",
        num(a.eps_max),
        "every mechanism is eps_max-PML".into(),
    );
    row(
        s,
        "PMC ([D] Thm 1)",
        num(a.pmc),
        format!(
            "information density >= -PMC; ALIP ({}, {}), LIP {}",
            num(a.pmc),
            num(a.eps_min),
            num(a.lip_parameter)
        ),
    );
    s.push_str("\nPrior-free:\n");
    row(
        s,
        "LDP parameter",
        num(a.ldp_parameter),
        "max_y ln(max_x W / min_x W)".into(),
    );
    row(
        s,
        "maximal leakage",
        num(a.maximal_leakage),
        "ln sum_y max_x W[x][y]".into(),
    );
}

/// The (eps, delta) tail curve, from eps = 0.
fn tail_table(s: &mut String, a: &Assessment) {
    s.push_str("\n(eps, delta) tail curve ([E] Def 3): delta(eps) = P(l(Y) > eps)\n");
    let _ = writeln!(s, "  {:>12} {:>12}", "eps from", "delta");
    if a.tail_curve.first().is_some_and(|t| t.epsilon > 0.0) {
        let _ = writeln!(s, "  {:>12} {:>12}", num(0.0), num(1.0));
    }
    for t in &a.tail_curve {
        let _ = writeln!(s, "  {:>12} {:>12}", num(t.epsilon), num(t.delta));
    }
}

fn set_table(s: &mut String, u: &SetAssessment, eps_min: f64, radius: Option<&RadiusSource>) {
    let _ = writeln!(s, "\nOver {}:", describe_assessed_set(&u.set));
    if let Some(r) = radius {
        let _ = writeln!(
            s,
            "  (radius from delta = {} and m = {} samples, {}: holds the true prior w.p. >= 1 - delta)",
            r.delta, r.samples, r.method
        );
    }
    row(
        s,
        "leakage capacity C ([E] Def 5)",
        num(u.leakage_capacity),
        "exact worst-case PML over the set".into(),
    );
    row(
        s,
        "sensitivity S = C - eps_min ([E] Def 6)",
        num(u.sensitivity),
        "exact".into(),
    );
    row(
        s,
        "Lipschitz constant e^C ([E] Thm 3)",
        num(u.lipschitz_constant),
        "|eps_min(P) - eps_min(Q)| <= e^C |P - Q|_1".into(),
    );
    if let Some(t) = &u.theorem4 {
        theorem4_rows(s, t, eps_min);
    }
}

/// [E] Theorem 4 and Corollary 2 beside the exact capacity of an l1 ball.
fn theorem4_rows(s: &mut String, t: &Theorem4Check, eps_min: f64) {
    match (t.sensitivity_bound, t.capacity_bound, t.capacity_slack) {
        (Some(sb), Some(cb), Some(slack)) => {
            let verdict = verdict(slack, cb);
            row(
                s,
                &format!("Theorem 4 bound on S (region {})", t.region),
                num(sb),
                format!("C <= eps_min + bound = {}: {verdict}", num(cb)),
            );
        }
        _ => row(
            s,
            "Theorem 4 bound on S",
            "-".into(),
            format!("needs beta < 2 min p (beta = {})", short(t.beta)),
        ),
    }
    match (t.corollary2_bound, t.corollary2_slack) {
        (Some(b), Some(slack)) => row(
            s,
            "Corollary 2 bound on C",
            num(b),
            format!(
                "eps - ln(1 - e^eps beta/2), any region: {}",
                verdict(slack, b)
            ),
        ),
        _ => row(
            s,
            "Corollary 2 bound on C",
            "-".into(),
            "vacuous: needs beta e^eps < 2".into(),
        ),
    }
    if t.eps_min_at_center != eps_min {
        row(
            s,
            "eps_min at the centre of the ball",
            num(t.eps_min_at_center),
            "the bounds are taken there".into(),
        );
    }
}
