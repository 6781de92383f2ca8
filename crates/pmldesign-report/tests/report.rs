//! The reports as documents: well formed, self-contained, deterministic, escaped,
//! small at N = 2048; and the figures they show are the design's.

use pmldesign_model::record::RecordSample;
use pmldesign_model::{Mechanism, Prior, UncertaintySet};
use pmldesign_report::{PointOutcome, ReportOptions, design, record, tradeoff};
use pmldesign_solver::{Design, FInformation, Problem, RecordMode, RecordProblem, Settings};
use std::time::Duration;

use crate::common::{balanced, esc, self_contained, svgs_parse};

/// [E] Example 1: p = (0.4, 0.2, 0.2, 0.2), e^eps = 9/8, with labels to escape.
fn example(labels: &[&str]) -> Design {
    let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap());
    Problem::new(set)
        .epsilon((9.0f64 / 8.0).ln())
        .utility(FInformation::mutual_information())
        .labels(labels.iter().map(|s| s.to_string()).collect())
        .solve()
        .unwrap()
        .with_envelope(0.05)
        .unwrap()
}

#[test]
fn a_design_report_is_well_formed_self_contained_and_says_the_certificate() {
    let d = example(&["a", "b", "c", "d"]);
    let html = design(&d, &ReportOptions::default());
    let seen = balanced(&html);
    assert!(seen.iter().any(|t| t == "figcaption") && seen.iter().any(|t| t == "table"));
    assert!(
        svgs_parse(&html) >= 5,
        "heatmap, legend, leakage, prior, baselines, envelope"
    );
    self_contained(&html);
    // The CLI's words, and the numbers of the certificate.
    assert!(html.contains(&esc(&d.privacy_clause())));
    assert!(html.contains("Certificate (tolerance 1e-12): worst-case PML 0.117783036 &lt;= eps 0.117783036 over known prior."));
    assert!(html.contains("pml assess --design design.json"));
    assert!(html.contains(&format!("{:.9}", d.certificate().upper_bound())));
    assert!(html.contains("@media print"));
    assert!(html.contains("Post-processing envelope"));
    // Every figure has a text alternative.
    assert_eq!(
        html.matches("<svg").count(),
        html.matches("<svg class=\"").count()
    );
    assert_eq!(
        html.matches("<svg").count(),
        html.matches("aria-label=").count() - html.matches("<img").count()
    );
    assert!(
        !html.contains("Trade-off with eps"),
        "compact without a curve"
    );
}

#[test]
fn the_same_design_gives_the_same_bytes() {
    let d = example(&["a", "b", "c", "d"]);
    let o = ReportOptions {
        design_file: Some("d.json".into()),
        ..Default::default()
    };
    assert_eq!(design(&d, &o), design(&d, &o));
    assert_eq!(design(&d, &o), design(&example(&["a", "b", "c", "d"]), &o));
}

#[test]
fn labels_are_escaped() {
    let d = example(&["<script>alert(1)</script>", "\"q\"", "a&b", "d'"]);
    let html = design(
        &d,
        &ReportOptions {
            title: Some("<b>title</b>".into()),
            ..Default::default()
        },
    );
    assert!(!html.contains("<script>") && !html.contains("<b>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("a&amp;b") && html.contains("&quot;q&quot;"));
    balanced(&html);
    svgs_parse(&html);
}

/// A design of N = 2048 with a dense mechanism, for the size of the page only
/// (solving at that size takes seconds): the figures of the 4-symbol design, the
/// matrix and per-output vectors of a wide, smooth channel.
fn synthetic_large(n: usize) -> Design {
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|x| {
            let w: Vec<f64> = (0..n)
                .map(|y| 1.0 / (1.0 + (x as f64 - y as f64).abs() + ((x * 31 + y * 17) % 7) as f64))
                .collect();
            let s: f64 = w.iter().sum();
            w.into_iter().map(|v| v / s).collect()
        })
        .collect();
    pmldesign_solver::internals::unchecked_with_mechanism(
        example(&["a", "b", "c", "d"]),
        Mechanism::from_rows(rows).unwrap(),
        UncertaintySet::known(Prior::new(vec![1.0 / n as f64; n]).unwrap()),
        vec![0.1; n],
    )
}

#[test]
fn a_report_at_n_2048_is_under_5_mb_with_a_raster() {
    let html = design(&synthetic_large(2048), &ReportOptions::default());
    assert!(html.len() < 5_000_000, "{} bytes", html.len());
    assert!(html.contains("src=\"data:image/png;base64,"));
    assert!(html.contains("Each pixel is the mean of a block of about 4x4 entries"));
    assert!(
        !html.contains("class=\"numbers\""),
        "no numbers table past N = 20"
    );
    balanced(&html);
    svgs_parse(&html);
    self_contained(&html);
}

#[test]
fn the_tradeoff_curve_solves_each_level_and_marks_the_chosen_one() {
    let d = example(&["a", "b", "c", "d"]);
    let t = tradeoff(&d, &Settings::default(), Duration::from_secs(600));
    assert_eq!(t.points.len(), 13);
    let chosen: Vec<_> = t.points.iter().filter(|p| p.chosen).collect();
    assert_eq!(chosen.len(), 1);
    assert_eq!(chosen[0].epsilon, d.epsilon());
    let mut last = -1.0;
    for p in &t.points {
        let PointOutcome::Certified {
            utility,
            upper_bound,
            ..
        } = p.outcome
        else {
            panic!("eps {} not computed: {:?}", p.epsilon, p.outcome);
        };
        assert!(
            utility >= last - 1e-12 && utility <= upper_bound + 1e-12,
            "monotone in eps, below its bound"
        );
        last = utility;
    }
    // No mechanism reveals more than H(X).
    let entropy: f64 = [0.4f64, 0.2, 0.2, 0.2].iter().map(|p| -p * p.ln()).sum();
    assert!(last <= entropy + 1e-9);
    // Each point's estimation figures: the design's as the comparison computes
    // them, randomized response's in closed form, sum_x q_x (1 - q_x) / (a - b)^2
    // with q_x = b + (a - b) p_x, a = e^eps / (e^eps + 3), b = 1 / (e^eps + 3).
    let PointOutcome::Certified {
        estimation,
        same_ldp_estimation,
        ..
    } = chosen[0].outcome
    else {
        unreachable!()
    };
    let own = pmldesign_solver::compare::estimation_figures(d.mechanism(), d.uncertainty());
    assert_eq!(estimation, own.and_then(|f| f.1));
    let e = d.baselines().same_ldp.ldp_epsilon.exp();
    let (a, b) = (e / (e + 3.0), 1.0 / (e + 3.0));
    let rr: f64 = [0.4f64, 0.2, 0.2, 0.2]
        .iter()
        .map(|p| {
            let q = b + (a - b) * p;
            q * (1.0 - q) / (a - b).powi(2)
        })
        .sum();
    let got = same_ldp_estimation.expect("randomized response estimates every input");
    assert!((got - rr).abs() <= 1e-9 * rr, "{got} against {rr}");
    let html = design(
        &d,
        &ReportOptions {
            tradeoff: Some(t),
            ..Default::default()
        },
    );
    assert!(html.contains("Trade-off with eps") && html.contains("chosen eps = "));
    assert!(html.contains("Estimation error per row (m E|p^ - p|^2) against eps: eps "));
    balanced(&html);
    svgs_parse(&html);
}

#[test]
fn a_spent_budget_shows_points_as_not_computed() {
    let d = example(&["a", "b", "c", "d"]);
    let t = tradeoff(&d, &Settings::default(), Duration::ZERO);
    assert_eq!(
        t.points
            .iter()
            .filter(|p| matches!(p.outcome, PointOutcome::NotComputed(_)))
            .count(),
        12
    );
    let html = design(
        &d,
        &ReportOptions {
            tradeoff: Some(t),
            ..Default::default()
        },
    );
    assert!(html.contains("not computed (the report&#39;s time budget was spent)"));
}

fn two_columns() -> RecordSample {
    let joint = [
        [0.30, 0.02, 0.01, 0.01],
        [0.01, 0.25, 0.02, 0.01],
        [0.02, 0.01, 0.03, 0.31],
    ];
    let tuples = (0..3)
        .flat_map(|a| (0..4).map(move |b| (vec![a, b], (joint[a][b] * 1000.0f64).round() as u64)))
        .collect();
    let labels = vec![
        vec!["a1".into(), "a2".into(), "a3".into()],
        (1..=4).map(|b| format!("b{b}")).collect(),
    ];
    RecordSample::new(vec!["A".into(), "<B>".into()], labels, tuples).unwrap()
}

#[test]
fn a_record_report_shows_the_split_and_the_measured_leakage() {
    let r = RecordProblem::new(two_columns(), 1.0)
        .mode(RecordMode::Compose)
        .split(vec![0.7, 0.3])
        .solve()
        .unwrap();
    let html = record(&r, &ReportOptions::default());
    balanced(&html);
    svgs_parse(&html);
    self_contained(&html);
    assert!(html.contains(&esc(&r.guarantee().statement)));
    assert!(html.contains("pml = 0.7") && html.contains("pml = 0.3"));
    assert!(html.contains(&r.printed_leakage().unwrap()));
    assert!(html.contains("&lt;B&gt;") && !html.contains("<B>"));
    assert_eq!(html, record(&r, &ReportOptions::default()));
    let joint = RecordProblem::new(two_columns(), 1.0)
        .mode(RecordMode::Joint)
        .solve()
        .unwrap();
    let html = record(&joint, &ReportOptions::default());
    assert!(html.contains("joint (12 combinations)"));
    balanced(&html);
}
