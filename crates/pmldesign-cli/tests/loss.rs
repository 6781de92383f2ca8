//! End-to-end tests of `pml design --utility loss`.

use crate::common::{json, s, stdout, usage_error, write};
use serde_json::Value;

const PRIORS: [&str; 3] = [
    "0.4,0.3,0.2,0.1",
    "0.25,0.25,0.25,0.25",
    "0.5,0.2,0.15,0.1,0.05",
];

/// Designs `base` for MAP accuracy and for Hamming loss, asserts that the least
/// loss is 1 minus the best accuracy (to 1e-9), and returns both JSON reports.
fn hamming_meets_map(base: &[&str]) -> (Value, Value) {
    let map = json(&[base, &["--utility", "map"]].concat());
    let loss = json(&[base, &["--utility", "loss", "--loss", "hamming"]].concat());
    let accuracy = map["utility"]["value"].as_f64().unwrap();
    let expected = loss["loss"]["expected_loss"].as_f64().unwrap();
    assert!(
        (1.0 - accuracy - expected).abs() < 1e-9,
        "{base:?}: 1 - {accuracy} vs {expected}"
    );
    (map, loss)
}

/// The best MAP accuracy (LP over rays) is 1 minus the least Hamming loss (direct
/// LP / column generation), end to end, for a known prior and a ball.
#[test]
fn hamming_loss_meets_map_accuracy() {
    for prior in PRIORS {
        for extra in [&[][..], &["--beta", "0.05"][..]] {
            let base = [&["design", "--prior", prior, "--epsilon", "0.5"][..], extra].concat();
            let (_, loss) = hamming_meets_map(&base);
            let c = &loss["certificate"];
            assert!(c["worst_case_pml"].as_f64().unwrap() <= 0.5 + 1e-12);
            assert!(c["gap"].as_f64().unwrap() <= 1e-9);
        }
    }
}

/// The direct LP and column generation agree, and a loss matrix from a file gives
/// the same answer as the built-in loss it spells out.
#[test]
fn methods_and_matrix_file_agree() {
    let dir = tempfile::tempdir().unwrap();
    let n = 5;
    let rows: Vec<String> = (0..n)
        .map(|x: i32| {
            (0..n)
                .map(|y: i32| ((x - y) * (x - y)).to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let path = write(dir.path(), "squared.csv", &rows.join("\n"));
    let base = ["design", "--prior", PRIORS[2], "--epsilon", "0.7"];
    let value = |extra: &[&str]| {
        json(&[&base[..], &["--utility", "loss"], extra].concat())["loss"]["expected_loss"]
            .as_f64()
            .unwrap()
    };
    let builtin = value(&["--loss", "squared"]);
    let file = value(&["--loss-matrix", s(&path)]);
    let direct = value(&["--loss", "squared", "--loss-method", "direct"]);
    assert!((builtin - file).abs() < 1e-12, "{builtin} vs {file}");
    assert!((builtin - direct).abs() < 1e-8, "{builtin} vs {direct}");
}

/// The JSON is the design's own serialisation, with the loss and the LP's dual:
/// lambda of column generation (`-bound` is the lower bound) or the multipliers of
/// the direct LP (`sum(alpha)` is).
#[test]
fn json_carries_the_loss_and_its_dual() {
    let base = ["design", "--prior", PRIORS[0], "--epsilon", "0.5"];
    let cg = json(&[&base[..], &["--utility", "loss", "--loss", "hamming"]].concat());
    assert_eq!(cg["outputs"], cg["labels"]);
    assert_eq!(cg["utility"]["name"], "loss");
    let (l, dual) = (&cg["loss"], &cg["loss"]["dual"]);
    assert_eq!(l["name"], "hamming");
    assert_eq!(dual["lp"], "column_generation");
    let lambda: f64 = dual["lambda"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    let lower = l["lower_bound"].as_f64().unwrap();
    assert!(lambda >= -lower - 1e-9, "{lambda} vs {lower}");
    let direct = json(
        &[
            &base[..],
            &[
                "--utility",
                "loss",
                "--loss",
                "absolute",
                "--loss-method",
                "direct",
            ],
        ]
        .concat(),
    );
    let dual = &direct["loss"]["dual"];
    assert_eq!(dual["lp"], "direct");
    let alpha: f64 = dual["alpha"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((alpha - dual["bound"].as_f64().unwrap()).abs() < 1e-12);
    assert!(alpha <= direct["loss"]["lower_bound"].as_f64().unwrap() + 1e-12);
    assert_eq!(dual["gamma"].as_array().unwrap().len(), 4);
}

/// CSV: one row per input, each summing to 1; the header names the guesses.
#[test]
fn csv_rows_sum_to_one() {
    let csv = stdout(&[
        "design",
        "--prior",
        PRIORS[0],
        "--epsilon",
        "0.5",
        "--utility",
        "loss",
        "--loss",
        "absolute",
        "--format",
        "csv",
    ]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "input,guess x1,guess x2,guess x3,guess x4"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4);
    for row in rows {
        let sum: f64 = row
            .split(',')
            .skip(1)
            .map(|v| v.parse::<f64>().unwrap())
            .sum();
        assert!((sum - 1.0).abs() < 1e-12, "{row}");
    }
}

#[test]
fn usage_errors_exit_2() {
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [
            &["design", "--prior", PRIORS[0], "--epsilon", "0.5"][..],
            extra,
        ]
        .concat()
    }
    usage_error(&with(&["--utility", "loss"]), "--loss hamming");
    usage_error(&with(&["--loss", "hamming"]), "--utility loss");
    // Bad matrix files: (name, contents, what the error must say).
    let dir = tempfile::tempdir().unwrap();
    for (name, text, needle) in [
        ("ragged.csv", "0,1,1\n1,0\n", "square"),
        ("three.csv", "0,1,1\n1,0,1\n1,1,0\n", "loss"),
        (
            "negative.csv",
            "0,1,1,1\n1,0,1,1\n1,1,0,-1\n1,1,1,0\n",
            "loss[2][3]",
        ),
    ] {
        let path = write(dir.path(), name, text);
        usage_error(
            &with(&["--utility", "loss", "--loss-matrix", s(&path)]),
            needle,
        );
    }
}

/// From counts with --delta: the same ball as the utility designs (Hamming loss =
/// 1 - MAP accuracy of the sample design), and the (eps, delta) statement.
#[test]
fn loss_from_a_sample_with_delta() {
    let base = [
        "design",
        "--counts",
        "4000,3000,2000,1000",
        "--epsilon",
        "0.5",
        "--delta",
        "0.05",
    ];
    let (map, loss) = hamming_meets_map(&base);
    assert_eq!(loss["uncertainty"], map["uncertainty"]);
    let g = loss["guarantee"]["statement"].as_str().unwrap();
    assert!(g.contains("1 - 0.05") && g.contains("10000"), "{g}");
}

/// A Hamming-loss design at N = 128 over a known prior is made by generated
/// labels (the default past 64 inputs), and its file says so: the route
/// `label_generation`, the method whose dual bounds it `column_generation`;
/// asked for by name, the full direct LP is `direct_lp` and `direct` (without
/// HiGHS, which always solves the full LP).
#[test]
fn a_design_by_generated_labels_names_its_route() {
    if cfg!(feature = "highs") {
        return; // HiGHS solves the full direct LP.
    }
    let n = 128;
    let weights: Vec<f64> = (1..=n).map(|i| 1.0 + (i % 7) as f64).collect();
    let total: f64 = weights.iter().sum();
    let prior = weights
        .iter()
        .map(|w| (w / total).to_string())
        .collect::<Vec<_>>()
        .join(",");
    let base = ["design", "--prior", &prior, "--epsilon", "0.9"];
    let loss = ["--utility", "loss", "--loss", "hamming"];
    let labels = json(&[&base[..], &loss[..]].concat());
    assert_eq!(labels["solver"]["pricing"], "label_generation");
    assert_eq!(labels["loss"]["method"], "column_generation");
    assert_eq!(labels["loss"]["dual"]["lp"], "column_generation");
    let full = json(&[&base[..], &loss[..], &["--loss-method", "direct"]].concat());
    assert_eq!(full["solver"]["pricing"], "direct_lp");
    assert_eq!(full["loss"]["method"], "direct");
}
