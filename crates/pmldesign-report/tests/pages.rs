//! The pages of an audit, a comparison and an envelope: well formed,
//! self-contained, deterministic, and the numbers they show are the model's.

use pmldesign_model::envelope::{Envelope, log_grid};
use pmldesign_model::measures::Assessment;
use pmldesign_model::{Mechanism, Prior, UncertaintySet};
use pmldesign_report::{Audit, EnvelopeCurve, audit, comparison, envelope};
use pmldesign_solver::compare::{common_level_notions, compare};
use pmldesign_solver::{FInformation, Settings};

use crate::common::{balanced, esc, self_contained, svgs_parse};

fn prior() -> Prior {
    Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap()
}

/// [E] Example 1's optimal mechanism: every output leaks ln(9/8).
fn example_mechanism() -> Mechanism {
    Mechanism::from_rows(vec![
        vec![0.325, 0.225, 0.225, 0.225],
        vec![0.45, 0.1, 0.225, 0.225],
        vec![0.45, 0.225, 0.1, 0.225],
        vec![0.45, 0.225, 0.225, 0.1],
    ])
    .unwrap()
}

fn labels() -> Vec<String> {
    ["a", "<b>", "c", "d"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn checked(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    balanced(html);
    self_contained(html);
    assert!(svgs_parse(html) >= 2);
    assert_eq!(
        html.matches("<svg").count(),
        html.matches("aria-label=").count() - html.matches("<img").count()
    );
}

#[test]
fn an_audit_shows_the_leakage_under_the_prior_and_over_the_ball() {
    let (w, p) = (example_mechanism(), prior());
    let ball = UncertaintySet::l1_ball(p.clone(), 0.1).unwrap();
    let a = Assessment::new(&w, &p, Some(&ball)).unwrap();
    let env = Envelope::new(&w, &p).unwrap().bounds(0.05).unwrap();
    let page = |source| {
        audit(&Audit {
            assessment: &a,
            envelope: &env,
            labels: &labels(),
            source,
        })
    };
    let html = page("w.json");
    checked(&html);
    assert!((a.eps_min - (9.0f64 / 8.0).ln()).abs() < 1e-12);
    // ln(9/8) = 0.1177830357, printed rounded up.
    assert!(html.contains("eps-PML for every eps &gt;= 0.117784"));
    let capacity = a.uncertainty.as_ref().unwrap().leakage_capacity;
    let printed = pmldesign_model::printed::level(capacity);
    assert!(capacity > a.eps_min && html.contains(&printed));
    assert!(html.contains(&esc("<b>")) && !html.contains("<b>"));
    assert!(html.contains("tail curve") && html.contains("Post-processing envelope"));
    assert_eq!(html, page("w.json"));
}

#[test]
fn a_comparison_lists_every_notion_and_draws_each_mechanism() {
    let set = UncertaintySet::known(prior());
    let notions = common_level_notions(0.5, None);
    let mi = FInformation::mutual_information();
    let c = compare(&set, 0.5, &notions, &mi, &Settings::default()).unwrap();
    let html = comparison(&c, &labels());
    checked(&html);
    for row in &c.rows {
        assert!(html.contains(&esc(&row.label)), "{}", row.label);
    }
    assert_eq!(html.matches("<section").count(), 1 + c.rows.len());
    assert!(html.contains(&format!("{:.6}", c.rows[0].utility)[..7]));
}

#[test]
fn an_envelope_page_draws_the_bounds_and_the_lp() {
    let (w, p) = (example_mechanism(), prior());
    let env = Envelope::new(&w, &p).unwrap();
    let grid = log_grid(1e-3, 0.5, 10).unwrap();
    let curve = env.curve(&grid).unwrap();
    let lp: Vec<(f64, f64)> = curve.iter().map(|b| (b.lower, b.upper)).collect();
    let html = envelope(&EnvelopeCurve {
        source: "w.json",
        mechanism: &w,
        prior: &p,
        labels: &labels(),
        curve: &curve,
        lp: Some(lp),
        delta: 0.05,
        statement: "a statement & more",
    });
    checked(&html);
    assert!(html.contains("Statement: a statement &amp; more."));
    assert!(html.contains("LP upper") && html.matches("<tr>").count() >= 11);
}
