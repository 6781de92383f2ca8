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
//! `delta* = delta_1 + delta_2 - delta_1 delta_2`. The grey dashed curve is the known
//! prior (`beta = 0`, `delta_2 = 0`), the cyan dashed one the pLDP mechanism,
//! `delta = erfc((sigma^2 eps - 2) / (2 sqrt(2) sigma))`.
//!
//! **Drawing.** One chart per panel, two by two, from `pmldesign_report::chart` (the
//! charts of the reports). The charts have no log y axis: the y axis is the log10 of
//! delta*, and every curve is cut to the window `eps* <= 6`, `delta* >= 1e-8`.

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_figs.rs"]
mod plot_figs;

use files::{output_dir, write_csv};
use plot_figs::grid;
use pmldesign_model::{Prior, additive, sample};
use pmldesign_report::chart::{Axes, Series, line_chart};
use std::error::Error;

/// Estimation failure probability (\[E\] Fig. 6).
const DELTA2: f64 = 1e-6;
/// Sample sizes behind the estimate.
const SIZES: [u64; 5] = [100, 1_000, 10_000, 100_000, 1_000_000];
/// Points per curve.
const POINTS: usize = 200;
/// Range of the eps axis.
const EPS_AXIS: f64 = 6.0;
/// Bottom of the delta axis.
const DELTA_AXIS: f64 = 1e-8;
/// Line colours (the "tab10" palette): one per m, then the pLDP curve's.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#17becf",
];
/// Colour of the known-prior curve.
const GREY: &str = "#5a5a5a";

/// One curve: its legend text, its points `(eps*, delta*)`, colour and dash.
struct Curve {
    label: String,
    points: Vec<(f64, f64)>,
    colour: &'static str,
    dashed: bool,
}

/// One panel: its title and curves.
struct Panel {
    title: String,
    series: Vec<Curve>,
}

/// `points` `(eps*, delta*)` as the chart draws them: `(eps*, log10 delta*)` cut to the
/// window `[0, EPS_AXIS] x [DELTA_AXIS, 1]`. A segment that leaves the window ends on
/// its edge, and a NaN breaks the line until it comes back.
fn windowed(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    // log10 of 0 is -inf: the smallest positive double's instead, so the segment
    // down to it crosses the bottom edge.
    let log = |(x, y): (f64, f64)| (x, y.max(f64::MIN_POSITIVE).log10());
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .map(log)
        .collect();
    plot_figs::windowed(&pts, (0.0, EPS_AXIS, DELTA_AXIS.log10(), 0.0))
}

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
            series.push(Curve {
                label: format!("PML, m = {m}"),
                points,
                colour: COLOURS[k],
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
        series.push(Curve {
            label: "PML, known prior".into(),
            points: known,
            colour: GREY,
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
        series.push(Curve {
            label: "pLDP".into(),
            points: pldp,
            colour: COLOURS[5],
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
            series,
        });
    }
    let csv = dir.join("fig6_7_gaussian.csv");
    write_csv(
        &csv,
        "sigma,p_plus,curve,m,beta,eps,eps_star,delta1,delta1_error_bound,delta2,delta_star",
        &rows,
    )?;
    let axes = Axes {
        x_label: "eps*",
        y_label: "log10 delta*",
        log_x: false,
    };
    let charts: Vec<(String, String)> = panels
        .iter()
        .map(|panel| {
            let series: Vec<Series> = panel
                .series
                .iter()
                .map(|c| Series {
                    name: c.label.clone(),
                    points: windowed(&c.points),
                    colour: c.colour,
                    dashed: c.dashed,
                    markers: false,
                })
                .collect();
            let alt = format!("{}: log10 delta* against eps*", panel.title);
            (panel.title.clone(), line_chart(&alt, &axes, &series, &[]))
        })
        .collect();
    let svg = dir.join("fig6_7_gaussian.svg");
    std::fs::write(&svg, grid(&charts, 2))?;
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
