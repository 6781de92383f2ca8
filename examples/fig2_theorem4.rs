//! \[E\] Figure 2: the Theorem 4 bound (eq. (6)) on the leakage sensitivity against
//! random priors Q in the l1 ball around the design prior P.
//!
//! (a) \[E\] Example 1: the first-region extremal mechanism for P = (2/5, 1/5, 1/5, 1/5)
//!     at eps = ln(9/8) (`closed_form::high_privacy`).
//! (b) \[E\] Example 2: the 2-singular mechanism on N = 10 symbols, optimal for the
//!     uniform prior at eps = ln 5 (`closed_form::k_singular`).
//!
//! For each panel, 10 000 priors Q are drawn with `||P - Q||_1` uniform in
//! `(0, 2 min P)` (the range of Theorem 4) and direction towards a uniformly random
//! point of the simplex; each gives the point `(||P - Q||_1, D_inf(P_Y || Q_Y))`
//! ("true" in the paper). The curves are the bound (6), Corollary 2's general bound,
//! and the exact sensitivity `S_P(W, B_beta(P)) = max_{Q in B_beta} D_inf(P_Y || Q_Y)`
//! computed by `measures::sensitivity`.
//!
//! Run with `cargo run --release --example fig2_theorem4 [-- --out DIR]`; writes
//! `fig2_theorem4.svg` and `fig2_theorem4.csv` into `docs/figures/` (or DIR).

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_figs.rs"]
mod plot_figs;

use plot_figs::{Panel, Series, Style};
use pmldesign::model::measures::{sensitivity, theorem4_bound, theorem4_sensitivity_bound};
use pmldesign::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::error::Error;

/// Random priors per panel (as in the paper).
const SAMPLES: usize = 10_000;
/// Of which this many are drawn in the SVG (all are in the CSV): few enough that the
/// dots, drawn as large as the markers of the reports' charts, leave the curves visible.
const SHOWN: usize = 500;
/// Points of the curves.
const GRID: usize = 80;

/// `D_inf(P_Y || Q_Y) = max_y ln(P_Y(y) / Q_Y(y))` for the output laws of W.
fn d_inf(w: &Mechanism, p: &Prior, q: &Prior) -> f64 {
    let (py, qy) = (w.output_marginal(p), w.output_marginal(q));
    py.iter()
        .zip(qy.iter())
        .filter(|(a, _)| **a > 0.0)
        .map(|(a, b)| (a / b).ln())
        .fold(0.0, f64::max)
}

/// A prior at l1 distance `beta` from `p`, towards a uniform point of the simplex;
/// `None` if that point is too close for the step to stay in the simplex.
fn prior_at_distance(rng: &mut Pcg64Mcg, p: &Prior, beta: f64) -> Option<Prior> {
    let e: Vec<f64> = (0..p.len())
        .map(|_| -(1.0 - rng.random::<f64>()).ln())
        .collect();
    let s: f64 = e.iter().sum();
    let d: Vec<f64> = e.iter().zip(p.masses()).map(|(v, px)| v / s - px).collect();
    let norm: f64 = d.iter().map(|v| v.abs()).sum();
    let t = beta / norm;
    if t > 1.0 {
        return None;
    }
    Prior::normalised(
        p.masses()
            .iter()
            .zip(&d)
            .map(|(px, dx)| (px + t * dx).max(0.0))
            .collect::<Vec<_>>(),
    )
    .ok()
}

struct Case {
    key: &'static str,
    title: &'static str,
    mechanism: Mechanism,
    prior: Prior,
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = files::output_dir()?;
    let p1 = Prior::new(vec![0.4, 0.2, 0.2, 0.2])?;
    let cases = [
        Case {
            key: "a",
            title: "(a) Example 1: region-1 extremal, N = 4, eps = ln(9/8)",
            mechanism: closed_form::high_privacy(&p1, (9.0f64 / 8.0).ln())?,
            prior: p1,
        },
        Case {
            key: "b",
            title: "(b) Example 2: 2-singular, N = 10, eps = ln 5",
            mechanism: closed_form::k_singular(10, 2)?,
            prior: Prior::uniform(10)?,
        },
    ];
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let mut rows = Vec::new();
    let mut panels = Vec::new();
    for case in &cases {
        let (w, p) = (&case.mechanism, &case.prior);
        let eps = measures::eps_min(w, p);
        let limit = 2.0 * p.min_mass();
        let mut samples = Vec::with_capacity(SAMPLES);
        while samples.len() < SAMPLES {
            let beta = limit * rng.random::<f64>();
            if let Some(q) = prior_at_distance(&mut rng, p, beta) {
                let actual: f64 = p
                    .masses()
                    .iter()
                    .zip(q.masses())
                    .map(|(a, b)| (a - b).abs())
                    .sum();
                samples.push((actual, d_inf(w, p, &q)));
            }
        }
        let betas: Vec<f64> = (1..GRID).map(|i| limit * i as f64 / GRID as f64).collect();
        let curve = |f: &dyn Fn(f64) -> Option<f64>| -> Vec<(f64, f64)> {
            betas.iter().filter_map(|&b| Some((b, f(b)?))).collect()
        };
        let bound = curve(&|b| theorem4_sensitivity_bound(eps, b, p));
        let corollary = curve(&|b| Some(theorem4_bound(eps, b)? - eps));
        let exact = curve(&|b| {
            let ball = UncertaintySet::l1_ball(p.clone(), b).ok()?;
            Some(sensitivity(w, p, &ball))
        });

        // The bound holds for every sample (up to rounding).
        let worst = samples
            .iter()
            .map(|&(b, v)| v - theorem4_sensitivity_bound(eps, b, p).unwrap_or(f64::INFINITY))
            .fold(f64::NEG_INFINITY, f64::max);
        let gap = bound
            .iter()
            .zip(&exact)
            .map(|(a, b)| a.1 - b.1)
            .fold(0.0, f64::max);
        println!(
            "({}) eps_min = {eps:.6}, region {}: max over {SAMPLES} samples of D_inf - bound(6) = {worst:.3e}; \
             max of bound(6) - exact sensitivity on the grid = {gap:.3e}",
            case.key,
            measures::privacy_region(p, eps)
        );
        assert!(worst <= 1e-9, "Theorem 4 violated by a sample: {worst}");

        for &(b, v) in &samples {
            rows.push(vec![
                case.key.into(),
                "sample".into(),
                b.to_string(),
                v.to_string(),
            ]);
        }
        for (kind, pts) in [
            ("theorem4_bound", &bound),
            ("corollary2_bound", &corollary),
            ("exact_sensitivity", &exact),
        ] {
            for &(b, v) in pts {
                rows.push(vec![
                    case.key.into(),
                    kind.into(),
                    b.to_string(),
                    v.to_string(),
                ]);
            }
        }
        let mut panel = Panel::new(case.title, "beta = ||P - Q||_1", "D_inf(P_Y || Q_Y)");
        panel.series = vec![
            Series::new(
                format!("true, {SHOWN} random Q (dots)"),
                samples[..SHOWN].to_vec(),
                Style::Dots,
                0,
            ),
            Series::new("exact sensitivity S_P(W, B_beta)", exact, Style::Line, 2),
            Series::new("Theorem 4 bound (6)", bound, Style::Dashed, 1),
            Series::new("Corollary 2 bound", corollary, Style::Dashed, 3),
        ];
        panels.push(panel);
    }
    plot_figs::write_figure(
        &dir,
        "fig2_theorem4",
        "panel,kind,beta,value",
        &rows,
        &panels,
    )
}
