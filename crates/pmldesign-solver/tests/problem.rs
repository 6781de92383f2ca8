//! The single entry point `Problem … solve()`: every objective and
//! source of priors through one chain, designs that survive a JSON round trip,
//! and stored designs that are re-checked when read back.

use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::{
    Design, DesignStatus, FInformation, Interrupt, Loss, MapAccuracy, Problem, Sample, Settings,
};

fn example_1() -> UncertaintySet {
    UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap())
}

/// \[E\] Example 1 through the builder: the known optimum, labels and outputs.
#[test]
fn example_1_through_the_builder() {
    let d = Problem::new(example_1())
        .epsilon((9.0f64 / 8.0).ln())
        .utility(FInformation::mutual_information())
        .labels(vec!["a".into(), "b".into(), "c".into(), "d".into()])
        .solve()
        .unwrap();
    assert_eq!(d.status(), DesignStatus::Optimal);
    assert_eq!(d.labels(), ["a", "b", "c", "d"]);
    assert_eq!(d.outputs(), ["y1", "y2", "y3", "y4"]);
    assert!(d.certificate().worst_case_pml() <= (9.0f64 / 8.0).ln() + 1e-10);
    assert!(d.mechanism().matrix().is_standard_layout());
}

/// A design serialises to JSON and reads back equal, certificate included.
#[test]
fn designs_round_trip_through_json() {
    for set in [
        example_1(),
        UncertaintySet::l1_ball(Prior::new(vec![0.5, 0.3, 0.2]).unwrap(), 0.05).unwrap(),
    ] {
        let d = Problem::new(set)
            .notion(Notion::Lip { epsilon: 1.0 })
            .utility(MapAccuracy)
            .solve()
            .unwrap();
        let json = serde_json::to_string(&d).unwrap();
        let back: Design = serde_json::from_str(&json).unwrap();
        assert_eq!(back.mechanism(), d.mechanism());
        assert_eq!(back.labels(), d.labels());
        assert_eq!(back.notion(), d.notion());
        assert_eq!(back.uncertainty(), d.uncertainty());
        assert_eq!(back.status(), d.status());
        assert_eq!(
            back.certificate().worst_case_pml(),
            d.certificate().worst_case_pml()
        );
        assert_eq!(
            back.certificate().levels().pmc,
            d.certificate().levels().pmc
        );
        assert_eq!(
            back.baselines().same_ldp.ldp_epsilon,
            d.baselines().same_ldp.ldp_epsilon
        );
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }
}

/// A stored design edited into a leaky one is refused when read back.
#[test]
fn a_tampered_design_is_refused() {
    let d = Problem::new(example_1()).epsilon(0.1).solve().unwrap();
    let mut v = serde_json::to_value(&d).unwrap();
    v["epsilon"] = serde_json::json!(0.05);
    v["notion"]["epsilon"] = serde_json::json!(0.05);
    let err = serde_json::from_value::<Design>(v).unwrap_err().to_string();
    assert!(err.contains("PML"), "{err}");
}

/// A loss design from a sample: a Design with the loss, the guarantee, and the
/// labels as output names.
#[test]
fn loss_from_a_sample_is_a_design() {
    let sample = Sample::from_counts(&[500, 300, 150, 50], 1e-3).unwrap();
    let d = Problem::from_sample(sample)
        .epsilon(1.0)
        .loss(Loss::Hamming)
        .solve()
        .unwrap();
    let l = d.loss().unwrap();
    assert!(l.expected_loss >= l.lower_bound - 1e-9);
    assert_eq!(d.utility_value(), -l.expected_loss);
    assert_eq!(d.outputs(), d.labels());
    assert!(l.dual.is_some(), "the LP's dual travels with the design");
    let g = d.guarantee().unwrap();
    assert_eq!(g.samples(), 1000);
    assert!(d.certificate().worst_case_pml() <= 1.0 + 1e-10);
    let back: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back.loss(), d.loss());
}

/// Bad problems fail with one-line errors naming the field.
#[test]
fn bad_problems_name_the_field() {
    let no_level = Problem::new(example_1()).solve().unwrap_err().to_string();
    assert!(
        no_level.contains("notion") && no_level.contains(".epsilon"),
        "{no_level}"
    );
    let labels = Problem::new(example_1())
        .epsilon(1.0)
        .labels(vec!["a".into(), "a".into(), "b".into(), "c".into()])
        .solve()
        .unwrap_err()
        .to_string();
    assert!(labels.contains("labels[1]"), "{labels}");
    let blank = vec!["a".to_string(), " ".into(), "b".into()];
    let e = pmldesign_solver::labels::check_labels(Some(&blank), 3).unwrap_err();
    assert!(e.to_string().contains("labels[1]"), "{e}");
    let x = pmldesign_solver::labels::check_labels(None, 2).unwrap();
    assert_eq!(x, pmldesign_solver::labels::numbered("x", 2));
    let gap = Problem::new(example_1())
        .epsilon(1.0)
        .settings(Settings::default().gap(2.0))
        .solve()
        .unwrap_err()
        .to_string();
    assert!(gap.contains("gap_tolerance"), "{gap}");
    // A loss under LDP is designed now; column generation under PMC
    // over a ball is refused, naming the field.
    let pmc_ball =
        Problem::new(UncertaintySet::l1_ball(Prior::new(vec![0.5, 0.5]).unwrap(), 0.1).unwrap())
            .notion(Notion::Pmc { epsilon: 1.0 })
            .loss(Loss::Hamming)
            .settings(Settings {
                loss_method: pmldesign_solver::LossMethod::ColumnGeneration,
                ..Settings::default()
            })
            .solve()
            .unwrap_err()
            .to_string();
    assert!(pmc_ball.starts_with("invalid method"), "{pmc_ball}");
    for e in [no_level, labels, gap, pmc_ball] {
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

/// A set interrupt stops the run at its first pass with a certified mechanism.
#[test]
fn an_interrupt_returns_a_certified_mechanism() {
    let p: Vec<f64> = (1..=40).map(|k| 1.0 / k as f64).collect();
    let set = UncertaintySet::known(Prior::normalised(p).unwrap());
    let stop = Interrupt::new();
    stop.set();
    let mut settings = Settings::default();
    settings.column_generation.interrupt = stop;
    let mut passes = 0;
    let d = Problem::new(set)
        .epsilon(0.5)
        .settings(settings)
        .on_progress(|_| passes += 1)
        .solve()
        .unwrap();
    assert_eq!(passes, 1);
    assert!(d.certificate().worst_case_pml() <= 0.5 + 1e-10);
    assert!(d.certificate().gap() >= 0.0);
}

/// `solve()` fills what `pml design` shows beside the design: the envelope at
/// the delta asked for and what an analyst can estimate; `bare()` leaves both
/// out; a delta outside (0, 1) is refused naming it.
#[test]
fn a_solved_design_states_its_envelope_and_estimation() {
    let set = UncertaintySet::known(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap());
    let d = Problem::new(set.clone()).epsilon(1.0).solve().unwrap();
    assert_eq!(d.envelope().unwrap().delta, 0.05);
    assert!(d.estimation().is_some());
    let at = Problem::new(set.clone())
        .epsilon(1.0)
        .envelope_delta(0.1)
        .solve()
        .unwrap();
    assert_eq!(at.envelope().unwrap().delta, 0.1);
    let bare = Problem::new(set.clone())
        .epsilon(1.0)
        .bare()
        .solve()
        .unwrap();
    assert!(bare.envelope().is_none() && bare.estimation().is_none());
    assert_eq!(bare.mechanism(), d.mechanism());
    let e = Problem::new(set)
        .epsilon(1.0)
        .envelope_delta(1.5)
        .solve()
        .unwrap_err();
    assert!(
        e.to_string().starts_with("invalid envelope_delta = 1.5"),
        "{e}"
    );
}
