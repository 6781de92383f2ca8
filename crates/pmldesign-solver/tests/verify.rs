//! `Design::verify` ("certificates anyone can check"): every kind of
//! design read back from JSON passes; an altered dual, utility or bound fails
//! with a one-line error naming the field.

use ndarray::Array2;
use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::Route;
use pmldesign_solver::builtin;
use pmldesign_solver::{Design, Loss, LossMethod, Problem, Repricing, Sample, Settings};
use serde_json::{Value, json};

fn known(p: &[f64]) -> UncertaintySet {
    UncertaintySet::known(Prior::new(p.to_vec()).unwrap())
}

fn ball(p: &[f64], beta: f64) -> UncertaintySet {
    UncertaintySet::l1_ball(Prior::normalised(p.to_vec()).unwrap(), beta).unwrap()
}

/// The design through JSON, as a third party reads it.
fn stored(d: &Design) -> Value {
    serde_json::to_value(d).unwrap()
}

fn read(v: Value) -> Design {
    serde_json::from_value(v).unwrap()
}

/// Every notion and utility, a ball under and past Proposition 2 (exact for
/// mutual information, inner/outer for total variation at N = 14), and the identity: the stored design verifies, and its dual is
/// re-priced where one was solved.
#[test]
fn genuine_designs_verify() {
    let p5 = [0.3, 0.25, 0.2, 0.15, 0.1];
    let p14: Vec<f64> = (1..=14).map(|k| 1.0 / k as f64).collect();
    let cases: Vec<(UncertaintySet, Notion, &str, Repricing)> = vec![
        (
            known(&p5),
            Notion::Pml { epsilon: 0.5 },
            "mi",
            Repricing::Exact,
        ),
        (
            ball(&p5, 0.1),
            Notion::Pml { epsilon: 0.7 },
            "tv",
            Repricing::Exact,
        ),
        (
            ball(&p5, 0.5),
            Notion::Pml { epsilon: 0.7 },
            "chi2",
            Repricing::Exact,
        ),
        (
            ball(&p14, 0.5),
            Notion::Pml { epsilon: 1.0 },
            "mi",
            Repricing::Exact,
        ),
        // Past Prop 2 at N = 14: total variation is priced over the exact
        // ball's families (it was bracketed, and re-priced over the
        // containing cone, before they covered it).
        (
            ball(&p14, 0.5),
            Notion::Pml { epsilon: 1.0 },
            "tv",
            Repricing::Exact,
        ),
        (
            known(&p5),
            Notion::Ldp { epsilon: 1.0 },
            "map",
            Repricing::Exact,
        ),
        (
            known(&p5),
            Notion::Pmc { epsilon: 0.5 },
            "hellinger",
            Repricing::Exact,
        ),
        (
            known(&p5),
            Notion::Lip { epsilon: 0.5 },
            "mi",
            Repricing::Exact,
        ),
        (
            known(&p5),
            Notion::Alip {
                epsilon_lower: 0.4,
                epsilon_upper: 0.6,
            },
            "tv",
            Repricing::Exact,
        ),
        (
            known(&p5),
            Notion::Pml { epsilon: 5.0 },
            "mi",
            Repricing::NoDual,
        ),
    ];
    for (set, notion, u, how) in cases {
        let d = Problem::new(set)
            .notion(notion.clone())
            .boxed_utility(builtin(u).unwrap())
            .solve()
            .unwrap();
        let v = read(stored(&d))
            .verify()
            .unwrap_or_else(|e| panic!("{notion:?} {u}: {e}"));
        assert_eq!(v.repricing, how, "{notion:?} {u}");
        assert!(
            v.proven_bound <= d.certificate().upper_bound() + 1e-9,
            "{notion:?} {u}"
        );
    }
}

/// Loss designs: column generation, the direct LP, a user matrix, eps = 0.
#[test]
fn genuine_loss_designs_verify() {
    let p = [0.4, 0.3, 0.2, 0.1];
    let matrix = Array2::from_shape_fn((4, 4), |(x, y)| (x as f64 - y as f64).abs().sqrt());
    let cases = [
        (known(&p), 0.5, Loss::Hamming, LossMethod::Auto),
        (ball(&p, 0.1), 0.5, Loss::Squared, LossMethod::Auto),
        (ball(&p, 0.1), 0.5, Loss::Absolute, LossMethod::Direct),
        (ball(&p, 0.5), 0.8, Loss::Hamming, LossMethod::Auto),
        (known(&p), 0.7, Loss::Matrix(matrix), LossMethod::Auto),
        (known(&p), 0.0, Loss::Hamming, LossMethod::Auto),
    ];
    for (set, eps, loss, method) in cases {
        let settings = Settings {
            loss_method: method,
            ..Settings::default()
        };
        let d = Problem::new(set)
            .epsilon(eps)
            .loss(loss.clone())
            .settings(settings)
            .solve()
            .unwrap();
        let v = read(stored(&d))
            .verify()
            .unwrap_or_else(|e| panic!("{loss:?} {method:?}: {e}"));
        assert!(-v.proven_bound <= d.loss().unwrap().lower_bound + 1e-9 || eps == 0.0);
    }
}

/// The error of verifying `v`, which must name `field` on one line.
/// Reading the altered file back, or verifying what was read, fails naming `field`.
fn refused(v: Value, field: &str) {
    let e = match serde_json::from_value::<Design>(v) {
        Ok(d) => d.verify().unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    assert!(e.contains(field), "{field}: {e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

/// An altered dual, utility or bound is refused, naming the field.
#[test]
fn altered_designs_are_refused() {
    let d = Problem::new(known(&[0.3, 0.25, 0.2, 0.15, 0.1]))
        .epsilon(0.5)
        .solve()
        .unwrap();
    let good = stored(&d);
    // lambda lowered: its stated bound no longer adds up.
    let mut v = good.clone();
    let l0 = v["certificate"]["dual"]["lambda"][0].as_f64().unwrap();
    v["certificate"]["dual"]["lambda"][0] = json!(l0 - 0.01);
    refused(v.clone(), "certificate.dual.bound");
    // ... and its bound made consistent: re-pricing finds a larger reduced cost.
    let b = v["certificate"]["dual"]["bound"].as_f64().unwrap();
    v["certificate"]["dual"]["bound"] = json!(b - 0.01);
    refused(v, "certificate.dual.lambda");
    // A utility that the matrix does not have.
    let mut v = good.clone();
    let u = v["utility"]["value"].as_f64().unwrap();
    v["utility"]["value"] = json!(u * 0.999);
    refused(v, "utility.value");
    // An optimal status with a large gap.
    let mut v = good;
    let ub = v["certificate"]["upper_bound"].as_f64().unwrap();
    let u = v["certificate"]["utility_value"].as_f64().unwrap();
    v["certificate"]["upper_bound"] = json!(ub * 1.01);
    refused(v.clone(), "certificate.gap");
    // ... with the gap made consistent: the status no longer holds.
    v["certificate"]["gap"] = json!(ub * 1.01 - u);
    refused(v, "status");
}

/// A loss design whose direct LP multipliers were altered is refused.
#[test]
fn altered_loss_duals_are_refused() {
    let settings = Settings {
        loss_method: LossMethod::Direct,
        ..Settings::default()
    };
    let set = known(&[0.4, 0.3, 0.2, 0.1]);
    let d = Problem::new(set)
        .epsilon(0.5)
        .loss(Loss::Hamming)
        .settings(settings)
        .solve()
        .unwrap();
    let mut v = stored(&d);
    v["loss"]["dual"]["gamma"][0][1] = json!(50.0);
    refused(v, "loss.dual");
    let mut v = stored(&d);
    let e = v["loss"]["expected_loss"].as_f64().unwrap();
    v["loss"]["expected_loss"] = json!(e * 0.9);
    refused(v, "loss.expected_loss");
}

/// Every numeric leaf of a JSON value, with its path (`certificate.levels.pml`,
/// `pml_per_output[2]`).
fn claim_leaves(v: &Value, path: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) | Value::Bool(_) => out.push(path),
        // Names are the user's to choose; every other word is a claim.
        Value::String(_) if !path.starts_with("labels[") && !path.starts_with("outputs[") => {
            out.push(path)
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                claim_leaves(x, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, x) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                claim_leaves(x, p, out);
            }
        }
        _ => {}
    }
}

/// The leaf at `path` (as [`claim_leaves`] names it), mutably.
fn leaf<'a>(v: &'a mut Value, path: &str) -> &'a mut Value {
    let mut cur = v;
    for part in path.split('.') {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        cur = &mut cur[key];
        for idx in indices.split(['[', ']']).filter(|s| !s.is_empty()) {
            cur = &mut cur[idx.parse::<usize>().unwrap()];
        }
    }
    cur
}

/// Fields that are not claims (solver statistics), or that reading derives
/// afresh and never repeats (the estimation advice: a forged sentence is
/// replaced, tests/estimation_design.rs): a forgery there is not required to
/// fail.
const NOT_CLAIMS: [&str; 3] = ["solver.", "provenance.", "estimation.advice"];

/// A design file is a claim: for designs of every route (a sample
/// design with its guarantee and simpler route included, each with its envelope),
/// each numeric, boolean or word leaf the file states (not the names of inputs
/// and outputs) (enumerated from the JSON itself, so fields added later are
/// covered), changed on its own, makes reading the file or verifying it fail with
/// an error naming that field or the check it breaks; the untouched file passes.
#[test]
fn every_forged_figure_is_refused() {
    let p = [0.4, 0.3, 0.2, 0.1];
    let mi = builtin("mi").unwrap();
    let designs = [
        Problem::new(known(&p)).epsilon(1.0).utility(&*mi).solve(),
        Problem::new(ball(&p, 0.1))
            .epsilon(1.0)
            .utility(&*mi)
            .solve(),
        Problem::new(known(&p))
            .notion(Notion::Ldp { epsilon: 1.0 })
            .utility(&*mi)
            .solve(),
        Problem::new(known(&p))
            .notion(Notion::Pmc { epsilon: 1.0 })
            .utility(&*mi)
            .solve(),
        Problem::new(known(&p))
            .epsilon(1.0)
            .loss(Loss::Hamming)
            .solve(),
        // The full direct LP: its dual states alpha, gamma, sigma and rho.
        Problem::new(known(&p))
            .epsilon(1.0)
            .loss(Loss::Hamming)
            .settings(Settings {
                loss_method: LossMethod::Direct,
                ..Settings::default()
            })
            .solve(),
        Problem::from_sample(Sample::from_counts(&[400, 300, 200, 100], 1e-3).unwrap())
            .epsilon(1.0)
            .utility(&*mi)
            .solve(),
    ];
    let (mut forged_count, mut routes) = (0, 0);
    for (k, d) in designs.into_iter().enumerate() {
        let before = forged_count;
        let v = stored(&d.unwrap().with_envelope(0.05).unwrap());
        let proven = read(v.clone()).verify().unwrap().proven_bound;
        let mut leaves = Vec::new();
        claim_leaves(&v, String::new(), &mut leaves);
        for path in leaves
            .iter()
            .filter(|p| !NOT_CLAIMS.iter().any(|n| p.starts_with(n)))
        {
            let mut forged = v.clone();
            let x = leaf(&mut forged, path);
            let old = x.clone();
            *x = match &old {
                Value::Bool(b) => json!(!b),
                Value::String(s) => json!(format!("{s} (forged)")),
                _ => {
                    let old = old.as_f64().unwrap();
                    json!(if old == 0.0 { 0.01 } else { old * 1.01 + 0.001 })
                }
            };
            let outcome = serde_json::from_value::<Design>(forged)
                .map_err(|e| e.to_string())
                .and_then(|d| d.verify().map_err(|e| e.to_string()));
            // A direct LP's multipliers are a witness: one changed where it is
            // slack proves the same alpha and bound, and is no false claim.
            let witness = ["loss.dual.gamma", "loss.dual.sigma", "loss.dual.rho"]
                .iter()
                .any(|w| path.starts_with(w));
            let refused_or_harmless = match &outcome {
                Err(_) => true,
                Ok(check) => witness && check.proven_bound == proven,
            };
            assert!(
                refused_or_harmless,
                "design {k}: a forged {path} = {old} passed"
            );
            forged_count += 1;
            routes += usize::from(path.starts_with("guarantee.simpler_route."));
        }
        eprintln!("design {k}: {} forgeries refused", forged_count - before);
    }
    assert!(forged_count > 100, "{forged_count} forgeries");
    assert!(routes > 10, "{routes} forgeries of the simpler route");
}

/// The layout is strict: a key the library does not know (a typo, or a field of a
/// newer version) is refused by name, at the top and inside; a newer
/// `format_version` is refused naming it; a file of version 1 (no such key) and
/// one of version 2 (no provenance) read. The provenance is kept as written and
/// its layout is strict too.
#[test]
fn the_schema_is_strict_and_versioned() {
    let d = Problem::new(known(&[0.4, 0.3, 0.2, 0.1]))
        .epsilon(1.0)
        .solve()
        .unwrap();
    let good = stored(&d);
    assert_eq!(good["format_version"], json!(6));
    assert!(good["provenance"]["input_sha256"].as_str().unwrap().len() == 64);
    let error = |v: Value| serde_json::from_value::<Design>(v).unwrap_err().to_string();
    let mut v = good.clone();
    v["epsilonn"] = json!(1.0);
    assert!(error(v).contains("unknown field `epsilonn`"));
    let mut v = good.clone();
    v["certificate"]["worst_case_pmll"] = json!(1.0);
    assert!(error(v).contains("unknown field `worst_case_pmll`"));
    let mut v = good.clone();
    v["provenance"]["toool"] = json!("x");
    assert!(error(v).contains("unknown field `toool`"));
    let mut v = good.clone();
    v["format_version"] = json!(7);
    let e = error(v);
    assert!(e.contains("format_version") && e.contains('7'), "{e}");
    let mut v = good.clone();
    v["provenance"]["tool"] = json!("someone else's tool");
    assert_eq!(read(v).provenance().unwrap().tool, "someone else's tool");
    let mut v = good;
    v["format_version"] = json!(2);
    v.as_object_mut().unwrap().remove("provenance");
    read(v.clone()).verify().unwrap();
    v.as_object_mut().unwrap().remove("format_version");
    read(v).verify().unwrap();
}

/// A design whose dual proves a bound above its utility by 1e-7
/// relative (6e-11 absolute: below the old slack of 1e-9 (1 + |U|)), stated as
/// "optimal" with its bound lowered to its utility, is refused on reading: the
/// stated bound is held to the status's relative rule.
#[test]
fn a_small_gap_edited_to_optimal_is_refused() {
    let p: Vec<f64> = (1..=12).map(|k| k as f64).collect();
    let set = UncertaintySet::known(Prior::normalised(p).unwrap());
    let d = Problem::new(set).epsilon(0.01).solve().unwrap();
    let u = d.certificate().utility_value();
    let weaker = 1e-7 * u;
    assert!(weaker < 1e-9 * (1.0 + u), "{u:e}");
    // A valid but weaker dual: raising one lambda lowers every reduced cost.
    let mut v = stored(&d);
    let dual = &mut v["certificate"]["dual"];
    let l0 = dual["lambda"][0].as_f64().unwrap();
    dual["lambda"][0] = json!(l0 + weaker);
    let b = dual["bound"].as_f64().unwrap();
    dual["bound"] = json!(b + weaker);
    v["status"] = json!("optimal");
    v["note"] = Value::Null;
    v["certificate"]["upper_bound"] = json!(u);
    v["certificate"]["gap"] = json!(0.0);
    refused(v, "certificate.upper_bound");
}

/// Reading a design verifies it, so a zeroed dual is refused by
/// the reader itself (every route reads through it), not only by `verify()`.
#[test]
fn reading_a_design_verifies_its_dual() {
    let d = Problem::new(known(&[0.3, 0.25, 0.2, 0.15, 0.1]))
        .epsilon(0.5)
        .solve()
        .unwrap();
    let mut v = stored(&d);
    let n = v["certificate"]["dual"]["lambda"].as_array().unwrap().len();
    v["certificate"]["dual"]["lambda"] = json!(vec![0.0; n]);
    v["certificate"]["dual"]["max_reduced_cost"] = json!(0.0);
    v["certificate"]["dual"]["bound"] = json!(0.0);
    let e = serde_json::from_value::<Design>(v).unwrap_err().to_string();
    assert!(e.contains("certificate.dual"), "{e}");
    assert!(serde_json::from_value::<Design>(stored(&d)).is_ok());
}

/// A loss design whose matrix gained, lost or split an output is
/// refused naming the mechanism, never a panic.
#[test]
fn a_loss_design_of_the_wrong_shape_is_refused() {
    let d = Problem::new(known(&[0.4, 0.3, 0.2, 0.1]))
        .epsilon(0.5)
        .loss(Loss::Hamming)
        .solve()
        .unwrap();
    let good = stored(&d);
    for change in ["add", "drop", "split"] {
        let mut v = good.clone();
        let rows = v["mechanism"].as_array_mut().unwrap();
        for row in rows.iter_mut() {
            let r = row.as_array_mut().unwrap();
            match change {
                "add" => r.push(json!(0.0)),
                "drop" => {
                    let last = r.pop().unwrap().as_f64().unwrap();
                    let first = r[0].as_f64().unwrap();
                    r[0] = json!(first + last);
                }
                _ => {
                    let first = r[0].as_f64().unwrap();
                    r[0] = json!(first / 2.0);
                    r.push(json!(first / 2.0));
                }
            }
        }
        let outputs = v["outputs"].as_array_mut().unwrap();
        match change {
            "drop" => {
                outputs.pop();
            }
            _ => outputs.push(json!("extra")),
        }
        let e = serde_json::from_value::<Design>(v).unwrap_err().to_string();
        assert!(e.contains("mechanism"), "{change}: {e}");
        assert!(!e.contains('\n'), "{change}: {e}");
    }
}

/// An alphabet past the largest supported N is refused, naming the
/// limit, before anything of its size is built (it aborted allocating 80 GB).
#[test]
fn an_alphabet_past_the_limit_is_refused_before_allocating() {
    let n = 100_000;
    let set = UncertaintySet::known(Prior::normalised(vec![1.0; n]).unwrap());
    let e = Problem::new(set)
        .epsilon(1.0)
        .solve()
        .unwrap_err()
        .to_string();
    assert!(e.contains("4096") && e.contains("100000"), "{e}");
    let counts = vec![1u64; n];
    let sample = Sample::from_counts(&counts, 1e-6).unwrap();
    let e = Problem::from_sample(sample)
        .epsilon(1.0)
        .solve()
        .unwrap_err()
        .to_string();
    assert!(e.contains("4096"), "{e}");
}

/// Losses under the other notions carry their LP's dual (format 4): column
/// generation's lambda re-priced over the notion's slice, the direct LP's
/// multipliers re-checked on the cone's sparse form; both read back (reading
/// verifies) with the bound proven exactly, and a forged dual is refused. They
/// carried none, so `pml assess --design` refused every such design.
#[test]
fn notion_loss_designs_carry_a_dual_that_verifies() {
    let p = [0.4, 0.3, 0.2, 0.1];
    let line = pmldesign_model::Metric::Line;
    let cases = [
        (
            known(&p),
            Notion::Ldp { epsilon: 0.5 },
            Loss::Hamming,
            "column_generation",
        ),
        (
            known(&p),
            Notion::Metric {
                epsilon: 0.5,
                metric: line,
            },
            Loss::Absolute,
            "column_generation",
        ),
        (
            known(&p),
            Notion::Lip { epsilon: 0.5 },
            Loss::Squared,
            "column_generation",
        ),
        (
            ball(&p, 0.1),
            Notion::Pmc { epsilon: 0.5 },
            Loss::Hamming,
            "notion",
        ),
        (
            ball(&p, 0.05),
            Notion::Alip {
                epsilon_lower: 0.3,
                epsilon_upper: 0.5,
            },
            Loss::Hamming,
            "notion",
        ),
    ];
    for (set, notion, loss, lp) in cases {
        // With HiGHS the direct LP is the default route at every size.
        let lp = match pmldesign_solver::backend::LOSS_LP_BACKEND {
            "highs" => "notion",
            _ => lp,
        };
        let d = Problem::new(set)
            .notion(notion.clone())
            .loss(loss)
            .solve()
            .unwrap();
        let v = stored(&d);
        assert_eq!(v["loss"]["dual"]["lp"], json!(lp), "{notion:?}");
        let back = read(v.clone());
        let check = back.verify().unwrap();
        assert_eq!(check.repricing, Repricing::Exact, "{notion:?}");
        let mut forged = v;
        let dual = &mut forged["loss"]["dual"];
        if lp == "notion" {
            let rows = dual["g"].as_array().unwrap().len();
            let width = dual["g"][0].as_array().unwrap().len();
            dual["g"] = json!(vec![vec![0.0; width]; rows]);
        } else {
            // lambda raised: re-pricing finds a larger reduced cost than stated.
            let l0 = dual["lambda"][0].as_f64().unwrap();
            dual["lambda"][0] = json!(l0 - 0.05);
            let b = dual["bound"].as_f64().unwrap();
            dual["bound"] = json!(b - 0.05);
        }
        refused(forged, "loss.dual");
    }
}

/// A design stopped at a coarse gap over a large ball (18 symbols past
/// Proposition 2) reads back: its dual is re-priced at the reduced cost it
/// states, not to 1e-13, where the search stopped at its node budget with a
/// looser bound and refused the true claim.
#[test]
fn a_gap_limited_design_over_a_large_ball_reads_back() {
    let counts = [
        27, 24, 13, 19, 25, 13, 16, 16, 19, 25, 23, 19, 20, 20, 21, 22, 8, 14,
    ];
    let set = ball(&counts.map(f64::from), 0.39097487115631313);
    let d = Problem::new(set)
        .epsilon(2.0)
        .settings(Settings::default().gap(0.05))
        .solve()
        .unwrap();
    assert!(
        d.certificate().gap() > 1e-6,
        "stopped at the gap: {}",
        d.certificate().gap()
    );
    let back = read(stored(&d));
    assert_eq!(back.mechanism(), d.mechanism());
    // Claiming a smaller reduced cost than its dual proves is still refused.
    let mut forged = stored(&d);
    let lambda: f64 = d.certificate().dual().unwrap().lambda().iter().sum();
    forged["certificate"]["dual"]["max_reduced_cost"] = json!(1e-9);
    forged["certificate"]["dual"]["bound"] = json!(lambda + 1e-9);
    refused(forged, "certificate");
}

/// Randomized response's matrices are left out of a design file (N^2 numbers its
/// level determines): the file reads back with them re-derived; an older file
/// that carries them is read when they are right and refused when altered.
#[test]
fn randomized_response_matrices_are_left_out_and_rederived() {
    let d = Problem::new(known(&[0.4, 0.3, 0.2, 0.1]))
        .epsilon(0.8)
        .solve()
        .unwrap();
    let v = stored(&d);
    for which in ["same_ldp", "pml_calibrated"] {
        let rr = &v["baselines"]["randomized_response"][which];
        assert!(rr.get("mechanism").is_none(), "{rr}");
    }
    let back = read(v.clone());
    assert_eq!(
        back.baselines().same_ldp.mechanism,
        d.baselines().same_ldp.mechanism
    );
    // An older file with the matrix: compared with the re-derivation.
    let mut old = v.clone();
    let matrix = serde_json::to_value(&d.baselines().same_ldp.mechanism).unwrap();
    old["baselines"]["randomized_response"]["same_ldp"]["mechanism"] = matrix.clone();
    assert!(serde_json::from_value::<Design>(old.clone()).is_ok());
    // Row 0 still sums to 1, but the diagonal moved.
    let row = &mut old["baselines"]["randomized_response"]["same_ldp"]["mechanism"][0];
    let (a, b) = (row[0].clone(), row[1].clone());
    (row[0], row[1]) = (b, a);
    let e = serde_json::from_value::<Design>(old)
        .unwrap_err()
        .to_string();
    assert!(e.contains("same_ldp.mechanism"), "{e}");
}

/// A level whose `e^eps` overflows is written as null and reads back (under
/// LDP and LIP too, whose a-priori bounds stay finite there).
#[test]
fn a_huge_level_reads_back() {
    for notion in [
        Notion::Pml { epsilon: 800.0 },
        Notion::Ldp { epsilon: 800.0 },
        Notion::Lip { epsilon: 800.0 },
    ] {
        let d = Problem::new(known(&[0.5, 0.3, 0.2]))
            .notion(notion.clone())
            .solve()
            .unwrap();
        let v = stored(&d);
        assert!(v["exp_epsilon"].is_null(), "{notion:?}");
        let back = read(v);
        assert_eq!(back.mechanism(), d.mechanism(), "{notion:?}");
        assert_eq!(back.epsilon(), 800.0);
    }
}

/// A design that proved no upper bound (a pass the clock stopped before its
/// searches started proves none) writes its bound and gap as `null` and reads
/// back with them infinite: an infinite bound claims nothing.
#[test]
fn a_design_without_a_proven_bound_reads_back() {
    let d = Problem::new(known(&[0.4, 0.3, 0.2, 0.1]))
        .epsilon(0.5)
        .solve()
        .unwrap();
    let mut v = stored(&d);
    v["certificate"]["upper_bound"] = Value::Null;
    v["certificate"]["gap"] = Value::Null;
    v["status"] = json!("time_limit");
    v["note"] = json!(format!(
        "the time limit stopped the search after {} pricing passes: the mechanism is valid and certified private, and no upper bound on the optimal utility was proven yet",
        d.iterations()
    ));
    let back = read(v);
    assert_eq!(back.certificate().upper_bound(), f64::INFINITY);
    assert_eq!(back.certificate().gap(), f64::INFINITY);
    assert_eq!(back.mechanism(), d.mechanism());
    let json = serde_json::to_value(&back).unwrap();
    assert!(json["certificate"]["upper_bound"].is_null());
    // Optimal with no bound is a contradiction, refused naming the status.
    let mut v = stored(&d);
    v["certificate"]["upper_bound"] = Value::Null;
    v["certificate"]["gap"] = Value::Null;
    refused(v, "status");
}

/// A time limit the baselines use up returns the best structured
/// baseline at once (`pricing = "baseline"`, no dual, bounded a priori), and a
/// file leaves out every baseline matrix past 65,536 entries (the cyclic
/// k-subsets at N = 300 have N^2): it reads back and verifies, the readers
/// re-deriving the matrices.
#[test]
fn a_limit_spent_on_the_baselines_returns_the_best_and_reads_back() {
    let p: Vec<f64> = (1..=300).map(|k| 1.0 + (k % 7) as f64).collect();
    let set = UncertaintySet::known(Prior::normalised(p).unwrap());
    let settings = Settings::default().time_limit(std::time::Duration::from_millis(1));
    let d = Problem::new(set)
        .notion(Notion::Ldp { epsilon: 1.0 })
        .settings(settings)
        .solve()
        .unwrap();
    assert_eq!(d.route(), Route::Baseline);
    assert!(d.certificate().dual().is_none() && d.certificate().upper_bound().is_finite());
    let best = d.baselines().structured.iter().map(|b| b.utility);
    assert_eq!(best.fold(f64::NEG_INFINITY, f64::max), d.utility_value());
    let v = stored(&d);
    let stated = v["baselines"]["structured"].as_array().unwrap();
    let left_out = |b: &Value| b.get("mechanism").is_none();
    assert!(stated.iter().any(left_out) && !stated.iter().all(left_out));
    let back = read(v);
    back.verify().unwrap();
    assert!(back.baselines().structured.iter().all(|b| b.has_matrix()));
}

/// Designs by blocks stopped by the clock (N = 400, eps-PML): whichever route
/// the limit leaves (the best baseline at once, as at 30 ms here, or blocks
/// coupled at the limit and beaten by that baseline, as at 300 and 1200 ms,
/// which says `baseline` too: no dual, the a-priori bound), the design is at least every structured baseline, stays
/// within its bound, and its file reads back and verifies.
#[test]
fn blocks_stopped_by_the_clock_keep_the_best_baseline_and_read_back() {
    let p: Vec<f64> = (1..=400).map(|k| 1.0 + (k * k % 11) as f64).collect();
    let set = UncertaintySet::known(Prior::normalised(p).unwrap());
    for ms in [30, 300, 1200] {
        let settings = Settings::default().time_limit(std::time::Duration::from_millis(ms));
        let d = Problem::new(set.clone())
            .epsilon(0.9)
            .settings(settings)
            .solve()
            .unwrap();
        let best = d.baselines().structured.iter().map(|b| b.utility);
        let best = best.fold(f64::NEG_INFINITY, f64::max);
        let ctx = format!("{ms} ms, {}: I = {}", d.route(), d.utility_value());
        assert!(d.utility_value() >= best, "{ctx} < best baseline {best}");
        if d.utility_value() == best {
            assert_eq!(d.route(), Route::Baseline, "{ctx}");
        }
        assert!(d.utility_value() <= d.certificate().upper_bound(), "{ctx}");
        assert!(
            d.certificate().upper_bound() <= 0.9 * (1.0 + 1e-12),
            "{ctx}"
        );
        read(stored(&d)).verify().unwrap();
    }
}

/// A design file whose set of priors was edited into one no constructor builds
/// (a negative radius, a polytope vertex off the simplex) is refused on reading
/// with the constructors' one-line error, never solved or measured.
#[test]
fn an_edited_set_of_priors_is_refused() {
    let d = Problem::new(ball(&[0.4, 0.35, 0.25], 0.05))
        .epsilon(0.8)
        .solve()
        .unwrap();
    let mut v = stored(&d);
    v["uncertainty"]["beta"] = json!(-0.5);
    refused(v, "beta");
    let set = UncertaintySet::polytope(vec![vec![0.4, 0.35, 0.25], vec![0.3, 0.3, 0.4]]).unwrap();
    let d = Problem::new(set).epsilon(0.8).solve().unwrap();
    let mut v = stored(&d);
    v["uncertainty"]["vertices"][0] = json!([1.5, -0.3, -0.2]);
    refused(v.clone(), "vertices[0]");
    let set = serde_json::from_value::<UncertaintySet>(v["uncertainty"].clone());
    assert!(set.unwrap_err().to_string().contains("1.5,-0.3,-0.2"));
}

/// Every route is written as its word and read back; a word that names no
/// route is refused, naming `solver.pricing`.
#[test]
fn routes_read_back_and_unknown_ones_are_refused() {
    for r in Route::ALL {
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, format!("\"{r}\""));
        assert_eq!(serde_json::from_str::<Route>(&json).unwrap(), r);
    }
    let e = serde_json::from_str::<Route>("\"simplex\"").unwrap_err();
    assert!(e.to_string().contains("solver.pricing"), "{e}");
    assert!(e.to_string().contains("simplex"), "{e}");
}
