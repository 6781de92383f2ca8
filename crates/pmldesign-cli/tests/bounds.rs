//! End-to-end tests of `pml bounds`.

use crate::common::{json, one_line_usage_error, stdout, usage_stderr, words};

use serde_json::Value;

/// `pml bounds` followed by the words of `args`.
fn argv(args: &str) -> Vec<&str> {
    [&["bounds"][..], &words(args)].concat()
}

/// Runs `pml bounds ARGS --format json` and returns the object.
fn bounds(args: &str) -> Value {
    json(&argv(args))
}

fn answer(v: &Value) -> f64 {
    v["answer"]["value"].as_f64().unwrap()
}

/// Runs `pml bounds ARGS` expecting a usage error (exit 2); returns stderr.
fn usage_error(args: &str) -> String {
    usage_stderr(&argv(args))
}

/// Like [`usage_error`], and the message is one line.
fn one_line_error(args: &str) -> String {
    one_line_usage_error(&argv(args))
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

const LN5: &str = "1.6094379124341003";

/// m = 10000 samples, delta = 1e-6, N = 20 categories.
const EQ7: &str = "--samples 10000 --delta 1e-6 --alphabet 20";

#[test]
fn radius_free_matches_eq7_example() {
    let v = bounds(&format!("radius {EQ7}"));
    assert_eq!(v["question"], "radius");
    assert_eq!(v["formula"], "[E] eq. (7)");
    assert_eq!(v["answer"]["name"], "beta");
    assert!((answer(&v) - 0.0744).abs() < 1e-3, "{v}");
    assert_eq!(v["inputs"]["samples"], 10000);
    assert_eq!(v["inputs"]["alphabet"], 20);
    assert_eq!(v["inputs"]["delta"].as_f64(), Some(1e-6));
    assert!(v["statement"].as_str().unwrap().contains("1 - delta"));
}

#[test]
fn radius_kappa_uses_the_estimate() {
    // Counts give both N and m; a skewed estimate has kappa < 1/2, a smaller radius.
    let v = bounds("radius --counts 970,10,10,10 --delta 1e-3 --radius kappa");
    assert_eq!(v["formula"], "[E] Theorem 2");
    assert_eq!(v["inputs"]["samples"], 1000);
    assert_eq!(v["inputs"]["alphabet"], 4);
    let beta = answer(&v);
    let free = v["related"]["beta_distribution_free"].as_f64().unwrap();
    assert!(beta < free, "{beta} vs {free}");
    assert!((v["related"]["kappa"].as_f64().unwrap() - 0.03).abs() < 1e-12);
    assert!(v["related"]["phi"].as_f64().unwrap() > 2.0);
    let notes = v["notes"].to_string();
    assert!(notes.contains("in its place"), "{notes}");

    // The free radius from the same counts is eq. (7) with N = 4, m = 1000.
    let f = bounds("radius --counts 970,10,10,10 --delta 1e-3");
    let g = bounds("radius --samples 1000 --delta 1e-3 --alphabet 4");
    assert_eq!(answer(&f), answer(&g));
    assert_eq!(answer(&f), free);

    // A uniform estimate has kappa = 1/2: Theorem 2 equals eq. (7).
    let u = bounds("radius --prior 0.25,0.25,0.25,0.25 --samples 1000 --delta 1e-3 --radius kappa");
    assert!(rel(answer(&u), free) < 1e-14);
}

#[test]
fn failure_probability_inverts_radius() {
    let beta = answer(&bounds(&format!("radius {EQ7}")));
    let v = bounds(&format!(
        "failure-probability --beta {beta} --samples 10000 --alphabet 20"
    ));
    assert_eq!(v["formula"], "[E] Theorem 2");
    assert!(rel(answer(&v), 1e-6) < 1e-6, "{v}");
}

#[test]
fn epsilon_prime_round_trips_through_delta_min() {
    for (m, delta, n, eps) in [
        ("10000", 1e-6, "20", LN5),
        ("1000000", 1e-9, "50", "1.0"),
        ("500", 0.05, "2", "0.2"),
    ] {
        let v = bounds(&format!(
            "epsilon-prime --epsilon {eps} --samples {m} --delta {delta} --alphabet {n}"
        ));
        assert_eq!(v["formula"], "[E] eqs. (7), (8)");
        assert_eq!(v["answer"]["name"], "epsilon_prime");
        let ep = answer(&v);
        assert!(ep > eps.parse::<f64>().unwrap());
        let back = bounds(&format!(
            "delta-min --epsilon {eps} --epsilon-prime {ep} --samples {m} --alphabet {n}"
        ));
        assert_eq!(back["formula"], "[E] Corollary 3");
        assert!(rel(answer(&back), delta) < 1e-6, "{back} vs {delta}");

        // max-epsilon inverts eq. (8): the design level comes back.
        let me = bounds(&format!(
            "max-epsilon --samples {m} --delta {delta} --alphabet {n} --epsilon-prime {ep}"
        ));
        assert!(
            (answer(&me) - eps.parse::<f64>().unwrap()).abs() < 1e-9,
            "{me}"
        );
    }
}

#[test]
fn epsilon_prime_from_beta_and_exp_epsilon() {
    let a = bounds("epsilon-prime --exp-epsilon 5 --beta 0.1");
    let b = bounds(&format!("epsilon-prime --epsilon {LN5} --beta 0.1"));
    assert_eq!(a["formula"], "[E] eq. (8)");
    assert!((answer(&a) - answer(&b)).abs() < 1e-15);
    // e^-eps' = e^-eps - beta/2 = 0.2 - 0.05.
    assert!((answer(&a) - (1.0f64 / 0.15).ln()).abs() < 1e-12, "{a}");
    // beta = 0: no loss.
    let z = bounds("epsilon-prime --epsilon 0.7 --beta 0");
    assert_eq!(answer(&z), 0.7);
}

#[test]
fn samples_is_the_smallest_sufficient_m() {
    for (eps, ep, delta, n) in [
        (LN5, "1.7", "1e-5", "20"),
        ("1.0", "1.5", "1e-3", "2"),
        ("0.5", "0.6", "1e-9", "100"),
    ] {
        let v = bounds(&format!(
            "samples --epsilon {eps} --epsilon-prime {ep} --delta {delta} --alphabet {n}"
        ));
        assert_eq!(v["answer"]["name"], "samples");
        let m = v["answer"]["value"].as_u64().unwrap();
        let delta: f64 = delta.parse().unwrap();
        let at = |m: u64| {
            answer(&bounds(&format!(
                "delta-min --epsilon {eps} --epsilon-prime {ep} --samples {m} --alphabet {n}"
            )))
        };
        assert!(at(m) <= delta, "m = {m}");
        assert!(at(m - 1) > delta, "m - 1 = {} also suffices", m - 1);
        assert!(v["related"]["delta_min_at_m"].as_f64().unwrap() <= delta);
        let achieved = v["related"]["epsilon_prime_at_m"].as_f64().unwrap();
        assert!(achieved <= ep.parse::<f64>().unwrap() * (1.0 + 1e-12));
    }
}

#[test]
fn max_epsilon_meets_the_target() {
    let v = bounds(&format!("max-epsilon {EQ7} --epsilon-prime 2"));
    let eps = answer(&v);
    assert!(eps > 0.0 && eps < 2.0);
    let check = v["related"]["epsilon_prime_at_answer"].as_f64().unwrap();
    assert!((check - 2.0).abs() < 1e-12, "{v}");
    // --exp-epsilon-prime is the same target.
    let w = bounds(&format!(
        "max-epsilon {EQ7} --exp-epsilon-prime {}",
        2f64.exp()
    ));
    assert!((answer(&w) - eps).abs() < 1e-12);
}

#[test]
fn delta_min_vacuous_is_capped_with_a_note() {
    let v = bounds("delta-min --epsilon 1 --epsilon-prime 1.01 --samples 10 --alphabet 30");
    assert_eq!(answer(&v), 1.0);
    assert!(v["notes"].to_string().contains("vacuous"));
}

#[test]
fn table_and_csv_formats() {
    let t = stdout(&argv(&format!("radius {EQ7} --format table")));
    assert!(t.contains("[E] eq. (7)") && t.contains("0.0744"), "{t}");

    let c = stdout(&argv(&format!(
        "epsilon-prime --epsilon {LN5} {EQ7} --format csv"
    )));
    let mut lines = c.lines();
    assert_eq!(lines.next(), Some("key,value"));
    assert!(c.contains("formula,\"[E] eqs. (7), (8)\""), "{c}");
    assert!(c.lines().any(|l| l.starts_with("epsilon_prime,1.8")), "{c}");
}

#[test]
fn invalid_regions_exit_2_naming_the_field_and_a_fix() {
    // beta* e^eps >= 2: eq. (8) gives no bound; the message gives valid eps and beta.
    let e = one_line_error("epsilon-prime --epsilon 3 --samples 100 --delta 1e-6 --alphabet 20");
    assert!(e.starts_with("error: invalid beta*(delta)"), "{e}");
    assert!(e.contains("--samples") && e.contains("ln(2/beta)"), "{e}");
    assert!(e.contains("2 e^-eps ="), "{e}");

    // The same with --beta names --beta.
    let e = usage_error("epsilon-prime --epsilon 1 --beta 0.9");
    assert!(e.starts_with("error: invalid --beta = 0.9"), "{e}");

    // The suggested eps is valid.
    let eps_ok = e
        .split("for example eps = ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .unwrap()
        .to_string();
    bounds(&format!("epsilon-prime --epsilon {eps_ok} --beta 0.9"));

    // Too few samples for the target: names --epsilon-prime and the nearest m.
    let e =
        one_line_error("max-epsilon --samples 100 --delta 1e-6 --alphabet 20 --epsilon-prime 0.1");
    assert!(e.starts_with("error: invalid --epsilon-prime = 0.1"), "{e}");
    let m = e
        .split("--samples ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap()
        .to_string();
    let v = bounds(&format!(
        "max-epsilon --samples {m} --delta 1e-6 --alphabet 20 --epsilon-prime 0.1"
    ));
    assert!(answer(&v) >= 0.0);

    // eps' must exceed eps.
    for q in ["delta-min", "samples"] {
        let extra = if q == "delta-min" {
            "--samples 1000"
        } else {
            "--delta 1e-6"
        };
        let e = usage_error(&format!(
            "{q} --epsilon 1 --epsilon-prime 0.5 {extra} --alphabet 4"
        ));
        assert!(e.starts_with("error: invalid --epsilon-prime = 0.5"), "{e}");
        assert!(e.contains("eps' > eps"), "{e}");
    }

    // Bad scalars name their flag.
    for (args, flag) in [
        ("radius --samples 0 --delta 0.1 --alphabet 4", "--samples"),
        ("radius --samples 10 --delta 1.5 --alphabet 4", "--delta"),
        ("radius --samples 10 --delta 0.1 --alphabet 1", "--alphabet"),
        (
            "radius --prior 0.5,0.5 --samples 10 --delta 0.1 --alphabet 3",
            "--alphabet",
        ),
        (
            "radius --samples 10 --delta 0.1 --alphabet 4 --radius kappa",
            "--radius",
        ),
        ("epsilon-prime --epsilon -1 --beta 0.1", "--epsilon"),
        ("epsilon-prime --epsilon 1 --beta -0.1", "--beta"),
        (
            "max-epsilon --samples 10 --delta 0.1 --alphabet 4 --exp-epsilon-prime 0.5",
            "--exp-epsilon-prime",
        ),
    ] {
        let e = one_line_error(args);
        assert!(
            e.starts_with(&format!("error: invalid {flag}")),
            "{args:?}: {e}"
        );
    }
}

#[test]
fn missing_arguments_exit_2() {
    for args in [
        "radius --samples 100 --alphabet 4",
        "radius --samples 100 --delta 0.1",
        "radius --prior 0.5,0.5 --delta 0.1",
        "epsilon-prime --samples 100 --delta 0.1 --alphabet 4",
        "epsilon-prime --epsilon 1 --samples 100",
        "epsilon-prime --epsilon 1 --beta 0.1 --samples 100",
        "delta-min --epsilon 1 --samples 100 --alphabet 4",
        "samples --epsilon 1 --epsilon-prime 2 --alphabet 4",
        "max-epsilon --samples 100 --delta 0.1 --alphabet 4",
        "",
    ] {
        usage_error(args);
    }
}
