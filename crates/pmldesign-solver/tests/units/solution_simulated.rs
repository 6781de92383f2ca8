//! Tests of `solution::simulated`.

use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::Design;

/// A design with its estimation figures over `prior` under `notion`.
fn design(prior: Vec<f64>, notion: Notion) -> Design {
    let set = UncertaintySet::known(Prior::new(prior).unwrap());
    let d = pmldesign_solver::Problem::new(set)
        .notion(notion)
        .solve()
        .unwrap();
    d.with_estimation().unwrap()
}

/// The advice compares the figures it is given at m, states m, the seed and
/// the replicates; read back from a file, the same advice says it was not
/// re-checked; a copy of the wrong shape is refused.
#[test]
fn the_advice_follows_the_simulation_and_says_what_it_assumed() {
    let d = design(vec![0.25; 4], Notion::Pml { epsilon: 2.0 });
    let inputs = d.labels().len();
    let rows = &d.estimation().unwrap().rows;
    assert_eq!(rows[0].groups, inputs, "{rows:?}");
    let fake = |design: f64, others: f64| {
        move |_: &pmldesign_model::Mechanism,
              _: &[f64],
              draws: pmldesign_solver::AdviceDraws<'_>| {
            assert_eq!((draws.rows, draws.replicates, draws.seed), (1000, 200, 1));
            Ok::<_, pmldesign_solver::SolverError>(Some(match draws.stream {
                "design" => design,
                _ => others,
            }))
        }
    };
    let worse = d
        .clone()
        .with_simulated_advice(1000, fake(4.0, 1.0))
        .unwrap();
    let e = worse.estimation().unwrap();
    let advice = e.advice(&worse).expect("10x is advice");
    assert!(advice.contains("from m = 1000 rows"), "{advice}");
    // Within twice the literature's best figure (Hadamard response's 2.33 per
    // row, m -> infinity), the advice names the baseline simulated below it.
    assert!(advice.contains("4.0 times more accurate"), "{advice}");
    assert!(
        advice.contains("(EM, simulated: 200 replicates, seed 1;"),
        "{advice}"
    );
    let text = serde_json::to_string(&worse).unwrap();
    let read: Design = serde_json::from_str(&text).unwrap();
    let e = read.estimation().unwrap();
    let again = e.advice(&read).unwrap();
    assert!(
        again.contains("simulated when designed (seed 1, 200 replicates), not re-checked"),
        "{again}"
    );
    let better = d
        .clone()
        .with_simulated_advice(1000, fake(1.5, 1.0))
        .unwrap();
    let e = better.estimation().unwrap();
    assert_eq!(e.advice(&better), None, "within 2x at m: no advice");
    let mut forged: serde_json::Value = serde_json::from_str(&text).unwrap();
    forged["estimation"]["simulated"]["error_per_row"][0] = serde_json::json!(-1.0);
    let err = serde_json::from_value::<Design>(forged.clone()).unwrap_err();
    assert!(
        err.to_string()
            .contains("estimation.simulated.error_per_row[0]"),
        "{err}"
    );
    forged["estimation"]["simulated"]["error_per_row"] = serde_json::json!([1.0]);
    assert!(serde_json::from_value::<Design>(forged).is_err());
}

/// A baseline that fails the design's notion is never simulated, so never
/// advised; a design from more inputs than the bound keeps the limit.
#[test]
fn no_baseline_failing_the_notion_is_simulated_or_advised() {
    // Uniform over 4 at eps 2: randomized response at the same PML is the
    // identity (PML ln 4 < 2), whose LDP level is infinite.
    let d = design(vec![0.25; 4], Notion::Ldp { epsilon: 2.0 });
    let mut asked = Vec::new();
    let d = d
        .with_simulated_advice(50, |_, _, draws| {
            asked.push(draws.stream.to_string());
            Ok::<_, pmldesign_solver::SolverError>(Some(if draws.stream == "design" {
                1e6
            } else {
                1.0
            }))
        })
        .unwrap();
    assert!(asked.iter().all(|s| !s.contains("same PML")), "{asked:?}");
    let e = d.estimation().unwrap();
    let advice = e.advice(&d).unwrap_or_default();
    assert!(!advice.contains("same PML"), "{advice}");
    // e^5 > 65: the identity, found at once.
    let wide = design(vec![1.0 / 65.0; 65], Notion::Pml { epsilon: 5.0 });
    let wide = wide
        .with_simulated_advice(
            50,
            |_, _, _| -> Result<Option<f64>, pmldesign_solver::SolverError> {
                unreachable!("past the bound nothing is simulated")
            },
        )
        .unwrap();
    assert_eq!(wide.estimation().unwrap().simulated, None);
}
