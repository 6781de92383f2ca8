//! End-to-end tests of `pml design --notion` and `pml compare`.

use crate::common::{json, s, stdout, usage_error, words, write};
use serde_json::Value;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::INFINITY)
}

#[test]
fn compare_rows_meet_their_notions() {
    let eps = 0.5;
    let v = json(&["compare", "--prior", "0.4,0.3,0.2,0.1", "--epsilon", "0.5"]);
    let rows = v["rows"].as_array().unwrap();
    // Five notions, randomized response twice, then the structured baselines.
    assert!(rows.len() > 7, "{}", rows.len());
    let labels: Vec<&str> = rows.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(
        &labels[..5],
        &[
            "PML(0.5)",
            "PMC(0.5)",
            "ALIP(0.5, 0.5)",
            "LIP(0.5)",
            "LDP(0.5)"
        ]
    );
    let tol = 1e-9;
    let u: Vec<f64> = rows.iter().map(|r| f(&r["utility"])).collect();
    for r in &rows[..5] {
        let (pml_, pmc, ldp) = (f(&r["worst_case_pml"]), f(&r["pmc"]), f(&r["ldp_epsilon"]));
        match r["notion"]["notion"].as_str().unwrap() {
            "pml" => assert!(pml_ <= eps + tol),
            "pmc" => assert!(pmc <= eps + tol),
            "alip" | "lip" => assert!(pml_ <= eps + tol && pmc <= eps + tol),
            "ldp" => assert!(ldp <= eps + tol),
            other => panic!("unexpected notion {other}"),
        }
        assert_eq!(r["status"], "optimal");
        assert!(f(&r["upper_bound"]) >= f(&r["utility"]) - tol);
    }
    // LIP = ALIP(eps, eps) is inside PML and PMC; LDP at eps never below RR at eps.
    assert!((u[2] - u[3]).abs() < 1e-9);
    assert!(u[3] <= u[0] + tol && u[3] <= u[1] + tol);
    assert!(u[4] >= u[5] - tol);
    // The calibrated randomized response leaks exactly eps.
    assert!((f(&rows[6]["worst_case_pml"]) - eps).abs() < 1e-9);
    assert!((f(&rows[5]["ldp_epsilon"]) - eps).abs() < 1e-9);
    // The structured baselines are calibrated to the first notion (PML) and
    // never beat its design.
    for r in &rows[7..] {
        assert!(f(&r["worst_case_pml"]) <= eps + tol, "{r}");
        assert!(f(&r["utility"]) <= u[0] + tol, "{r}");
    }
}

#[test]
fn compare_uniform_four_small_eps_ldp_beats_randomized_response() {
    let v = json(&[
        "compare",
        "--prior",
        "0.25,0.25,0.25,0.25",
        "--epsilon",
        "0.1",
    ]);
    let rows = v["rows"].as_array().unwrap();
    let ldp = f(&rows[4]["utility"]);
    let rr = f(&rows[5]["utility"]);
    assert!(ldp > rr * 1.1, "LDP {ldp} vs RR {rr}");
}

#[test]
fn compare_table_and_alip_levels() {
    let t = stdout(&words(
        "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --epsilon-lower 2 --format table",
    ));
    for needle in [
        "PML(0.5)",
        "ALIP(2, 0.5)",
        "LDP(0.5)",
        "randomized response",
    ] {
        assert!(t.contains(needle), "missing {needle} in\n{t}");
    }
    usage_error(
        &words("compare --prior 0.5,0.5 --epsilon 0.5 --format csv"),
        "--format csv",
    );
}

#[test]
fn design_every_notion_certified() {
    for (notion, extra) in [
        ("pml", vec!["--epsilon", "0.4"]),
        ("pmc", vec!["--epsilon", "0.4"]),
        (
            "alip",
            vec!["--epsilon-lower", "0.6", "--epsilon-upper", "0.4"],
        ),
        ("lip", vec!["--epsilon", "0.4"]),
        ("ldp", vec!["--epsilon", "0.4"]),
    ] {
        let mut args = vec!["design", "--prior", "0.5,0.3,0.2", "--notion", notion];
        args.extend(extra);
        let v = json(&args);
        assert_eq!(v["notion"]["notion"], notion);
        let levels = &v["certificate"]["levels"];
        let tol = 1e-9;
        let ok = match notion {
            "pml" => f(&levels["pml"]) <= 0.4 + tol,
            "pmc" => f(&levels["pmc"]) <= 0.4 + tol,
            "alip" => f(&levels["pmc"]) <= 0.6 + tol && f(&levels["pml"]) <= 0.4 + tol,
            "lip" => f(&levels["pmc"]) <= 0.4 + tol && f(&levels["pml"]) <= 0.4 + tol,
            _ => f(&levels["ldp"]) <= 0.4 + tol,
        };
        assert!(ok, "{notion}: {levels}");
        assert_eq!(v["status"], "optimal");
    }
}

#[test]
fn design_alip_in_high_privacy_is_the_pml_design() {
    // [D] Corollary 5: p_min = 0.2, eps_u = 0.1 < -ln 0.8; eps*_l = ln(0.2 / (1 - e^0.1 0.8)).
    let star = (0.2f64 / (1.0 - 0.1f64.exp() * 0.8)).ln();
    let lower = format!("{}", star + 1e-6);
    let a = json(&[
        "design",
        "--prior",
        "0.5,0.3,0.2",
        "--notion",
        "alip",
        "--epsilon-lower",
        &lower,
        "--epsilon-upper",
        "0.1",
    ]);
    let b = json(&["design", "--prior", "0.5,0.3,0.2", "--epsilon", "0.1"]);
    assert!((f(&a["utility"]["value"]) - f(&b["utility"]["value"])).abs() < 1e-10);
    assert_eq!(a["mechanism"].as_array().unwrap().len(), 3);
}

#[test]
fn notion_usage_errors() {
    for (args, needle) in [
        (
            "design --prior 0.5,0.5 --notion alip --epsilon 0.3",
            "--epsilon-lower",
        ),
        (
            "design --prior 0.5,0.5 --epsilon 0.3 --epsilon-lower 1",
            "--notion alip",
        ),
        (
            "design --counts 50,50 --epsilon 0.3 --delta 0.01 --notion pmc",
            "--delta",
        ),
        (
            "design --prior 0.5,0.5 --notion alip --epsilon-lower -1 --epsilon-upper 0.2",
            "--epsilon-lower",
        ),
    ] {
        usage_error(&words(args), needle);
    }
}

#[test]
fn assess_reports_pmc_of_randomized_response() {
    // [D] Example 3: PMC = ln(1 + max p (e^e_r - 1)); ALIP gives LDP at the sum.
    let dir = tempfile::tempdir().unwrap();
    let e = 1.0f64.exp();
    let (d, o) = (e / (e + 2.0), 1.0 / (e + 2.0));
    let rows = format!("{d},{o},{o}\n{o},{d},{o}\n{o},{o},{d}\n");
    let path = write(dir.path(), "rr.csv", &rows);
    let v = json(&["assess", "--mechanism", s(&path), "--prior", "0.5,0.3,0.2"]);
    assert!((f(&v["pmc"]) - (1.0 + 0.5 * (e - 1.0)).ln()).abs() < 1e-9);
    assert_eq!(v["pmc_per_outcome"].as_array().unwrap().len(), 3);
    assert!(f(&v["ldp_parameter"]) <= f(&v["pmc"]) + f(&v["eps_min"]) + 1e-12);
    assert!((f(&v["lip_parameter"]) - f(&v["pmc"]).max(f(&v["eps_min"]))).abs() < 1e-15);
}

/// `pml compare` compares utilities: a loss is refused as a one-line usage error
/// naming `--utility` and the values it takes (it panicked with "clap restricts
/// utility names" before).
#[test]
fn compare_refuses_a_loss() {
    let err = crate::common::one_line_usage_error(&words(
        "compare --prior 0.5,0.3,0.2 --epsilon 0.5 --utility loss",
    ));
    assert!(err.contains("'loss' for '--utility"), "{err}");
    assert!(
        err.contains("pass one of: mi, tv, chi2, hellinger, map"),
        "{err}"
    );
}

/// `--time-limit` bounds the whole comparison: with a spent limit (1 ms over
/// 80 labels) every notion's design stops at once with its best structured
/// baseline, still certified for its notion, and the baselines follow; a limit
/// that is not a positive number of seconds is refused naming the flag.
#[test]
fn compare_shares_its_time_limit_among_the_notions() {
    let raw: Vec<f64> = (1..=80).map(|i| 1.0 / i as f64).collect();
    let total: f64 = raw.iter().sum();
    let prior: Vec<String> = raw.iter().map(|v| format!("{}", v / total)).collect();
    let prior = prior.join(",");
    let args = ["compare", "--prior", &prior, "--epsilon", "1"];
    let v = json(&[&args[..], &["--time-limit", "0.001"]].concat());
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() > 7, "{}", rows.len());
    let tol = 1e-9;
    for r in &rows[..5] {
        let status = r["status"].as_str().unwrap();
        assert!(["time_limit", "optimal"].contains(&status), "{r}");
        assert!(f(&r["upper_bound"]) >= f(&r["utility"]) - tol, "{r}");
        let (pml_, pmc, ldp) = (f(&r["worst_case_pml"]), f(&r["pmc"]), f(&r["ldp_epsilon"]));
        match r["notion"]["notion"].as_str().unwrap() {
            "pml" => assert!(pml_ <= 1.0 + tol),
            "pmc" => assert!(pmc <= 1.0 + tol),
            "alip" | "lip" => assert!(pml_ <= 1.0 + tol && pmc <= 1.0 + tol),
            "ldp" => assert!(ldp <= 1.0 + tol),
            other => panic!("unexpected notion {other}"),
        }
    }
    for bad in ["0", "-1", "inf"] {
        usage_error(
            &[&args[..], &["--time-limit", bad]].concat(),
            "--time-limit",
        );
    }
}
