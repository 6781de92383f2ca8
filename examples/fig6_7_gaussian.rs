//! \[E\] Figures 6 and 7: `(eps*, delta*)` curves of the binary Gaussian mechanism
//! `Y = X + N(0, sigma^2)` on `X in {-1, +1}` designed from an estimate `p^` of m samples
//! (\[E\] Sec. VI-B), against the Gaussian pLDP mechanism at the same sigma (\[E\] Sec.
//! VI-C2, [34, Thm 8] with sensitivity 2).
//!
//! Run with `cargo run --release --example fig6_7_gaussian [OUTPUT_DIR]` (default
//! `docs/figures`). Writes `fig6_7_gaussian.svg` and its data `fig6_7_gaussian.csv`.
//!
//! Panels: sigma = 1.5 and 2 with `p^ = (0.5, 0.5)` (Fig. 6a, 6b), sigma = 1.5 with
//! `p^ = (0.3, 0.7)` (Fig. 7), and sigma = 2 with `p^ = (0.3, 0.7)`. For each m the
//! radius is `beta = beta*(delta_2)` of eq. (14) with `delta_2 = 1e-6`; for each eps in
//! `[0, ln(2/beta))`, `delta_1(eps)` is the supremum of eq. (17) over `B_beta(p^)`
//! (`additive::gaussian_delta1`: closed-form violating set, branch and bound over the
//! ball with a certified error bound, instead of the paper's grid search), and the
//! point `(eps*, delta*)` uses `eps* = eps - ln(1 - beta e^eps / 2)` and
//! `delta* = delta_1 + delta_2 - delta_1 delta_2`. The grey dotted curve is the known
//! prior (`beta = 0`, `delta_2 = 0`), the black dashed one the pLDP mechanism,
//! `delta = erfc((sigma^2 eps - 2) / (2 sqrt(2) sigma))`.

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_additive.rs"]
mod plot_additive;

use files::{output_dir, write_csv};
use plot_additive::{Panel, Series, draw};
use plotters::chart::SeriesLabelPosition;
use pmldesign_model::{Prior, additive, sample};
use std::error::Error;

/// Estimation failure probability (\[E\] Fig. 6).
const DELTA2: f64 = 1e-6;
/// Sample sizes behind the estimate.
const SIZES: [u64; 5] = [100, 1_000, 10_000, 100_000, 1_000_000];
/// Points per curve.
const POINTS: usize = 200;
/// Range of the eps axis.
const EPS_AXIS: f64 = 6.0;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = output_dir()?;
    let settings = [
        (1.5, 0.5, "Fig. 6a"),
        (2.0, 0.5, "Fig. 6b"),
        (1.5, 0.7, "Fig. 7"),
        (2.0, 0.7, ""),
    ];
    let mut rows = Vec::new();
    let mut panels = Vec::new();
    let mut worst_error: f64 = 0.0;
    for &(sigma, p_plus, figure) in &settings {
        let estimate = Prior::new(vec![1.0 - p_plus, p_plus])?;
        let mut series = Vec::new();
        for (k, &m) in SIZES.iter().enumerate() {
            let beta = sample::radius_free(m, DELTA2, 2)?;
            // eq. (8) bounds eps* only for beta e^eps < 2.
            let eps_limit = (2.0 / beta).ln().min(EPS_AXIS);
            let mut points = Vec::with_capacity(POINTS);
            for i in 0..POINTS {
                let eps = eps_limit * i as f64 / POINTS as f64;
                let g = additive::gaussian_guarantee(sigma, &estimate, m, DELTA2, eps)?;
                worst_error = worst_error.max(g.delta1.error_bound);
                rows.push(format!(
                    "{sigma},{p_plus},pml,{m},{beta:.6},{eps:.5},{:.6},{:.5e},{:.2e},{DELTA2:e},{:.5e}",
                    g.eps_star, g.delta1.delta1, g.delta1.error_bound, g.delta_star
                ));
                points.push((g.eps_star, g.delta_star));
            }
            series.push(Series {
                label: format!("PML, m = {m}"),
                points,
                color: k as i32,
                dashed: false,
            });
        }
        // The known prior: delta_1 at p^ alone.
        let known: Vec<(f64, f64)> = (0..POINTS)
            .map(|i| {
                let eps = EPS_AXIS * i as f64 / POINTS as f64;
                let d = additive::gaussian_delta1(sigma, &estimate, 0.0, eps)?;
                rows.push(format!(
                    "{sigma},{p_plus},known,,0,{eps:.5},{eps:.5},{:.5e},0,0,{:.5e}",
                    d.delta1, d.delta1
                ));
                Ok((eps, d.delta1))
            })
            .collect::<Result<_, Box<dyn Error>>>()?;
        series.push(Series {
            label: "PML, known prior".into(),
            points: known,
            color: -1,
            dashed: true,
        });
        let pldp: Vec<(f64, f64)> = (1..=POINTS)
            .map(|i| {
                let eps = EPS_AXIS * i as f64 / POINTS as f64;
                let delta = additive::pldp_delta(sigma, eps)?;
                rows.push(format!(
                    "{sigma},{p_plus},pldp,,,{eps:.5},{eps:.5},,,,{delta:.5e}"
                ));
                Ok((eps, delta))
            })
            .collect::<Result<_, Box<dyn Error>>>()?;
        series.push(Series {
            label: "pLDP".into(),
            points: pldp,
            color: 7,
            dashed: true,
        });
        let suffix = if figure.is_empty() {
            String::new()
        } else {
            format!(" ({figure})")
        };
        panels.push(Panel {
            title: format!(
                "sigma = {sigma}, p^ = ({:.1}, {:.1}){suffix}",
                1.0 - p_plus,
                p_plus
            ),
            x_label: "eps*".into(),
            y_label: "delta*".into(),
            x: (0.0, EPS_AXIS),
            y: (1e-8, 1.0),
            x_log: false,
            y_log: true,
            legend: SeriesLabelPosition::LowerLeft,
            series,
        });
    }
    let csv = dir.join("fig6_7_gaussian.csv");
    write_csv(
        &csv,
        "sigma,p_plus,curve,m,beta,eps,eps_star,delta1,delta1_error_bound,delta2,delta_star",
        &rows,
    )?;
    let svg = dir.join("fig6_7_gaussian.svg");
    draw(&svg, (1200, 1000), 2, 2, &panels)?;
    println!("wrote {}\nwrote {}", svg.display(), csv.display());
    println!("largest delta_1 error bound over all points: {worst_error:.3e}");

    // A few numbers for the record: where each curve first reaches delta* <= 2 delta_2.
    println!("\nsmallest eps* on the curve with delta* <= 2e-6 (none: never):");
    for (panel, &(sigma, p_plus, _)) in panels.iter().zip(&settings) {
        let mut line = format!("sigma = {sigma}, p^(+1) = {p_plus}:");
        for s in &panel.series {
            let hit = s.points.iter().find(|p| p.1 <= 2.0 * DELTA2);
            let value = hit.map_or("none".to_string(), |p| format!("{:.3}", p.0));
            line.push_str(&format!("  [{}] {value}", s.label));
        }
        println!("{line}");
    }
    Ok(())
}
