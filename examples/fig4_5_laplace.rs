//! \[E\] Figures 4 and 5: utility of the binary Laplace mechanism calibrated for PML from
//! an estimate (\[E\] eq. (16)) against the same mechanism calibrated for LDP (b = 2/eps,
//! \[E\] Remark 4), as a function of the number m of samples behind the estimate.
//!
//! Run with `cargo run --release --example fig4_5_laplace [OUTPUT_DIR]` (default
//! `docs/figures`). Writes `fig4_laplace.svg`, `fig5_laplace.svg` and the data behind
//! both, `fig4_5_laplace.csv`.
//!
//! **Data.** The paper uses two binary features of the Adult data set, income and sex.
//! The data set cannot be fetched here, so each feature is a synthetic column of
//! the Adult size (48,842 records) with exactly the Adult marginal: 11,687 records
//! (0.239) with income > 50K and 16,192 (0.332) female. Only the marginal matters: the
//! mechanism acts on each record alone, and the experiment uses nothing but the column.
//! The minority value is coded `x = +1`, the other `x = -1`.
//!
//! **Procedure** (\[E\] Sec. VI-C1). For each of 100 shuffles of the column and each m,
//! the first m records give the estimate `p^`; the PML scale b solves eq. (16) at the
//! target eps with `beta = beta*(delta)` of eq. (14) (`additive::laplace_scale_ball`;
//! for `beta >= 2 p^_min` this is the LDP scale). Those m records are perturbed,
//! `d' = d + Lap(b)`, and thresholded, `d'' = -1 if d' < 0 else +1`.
//!
//! **Mutual information.** The utility is the plug-in (empirical) mutual information
//! of the m pairs `(d_j, d''_j)`, in nats:
//! `I^ = sum_{x,y} (n_xy / m) ln(m n_xy / (n_x n_y))`, with `n_xy` the number of pairs
//! equal to `(x, y)` and `n_x`, `n_y` the marginal counts (terms with `n_xy = 0` are 0).
//! The plotted value is its mean over the 100 shuffles (the CSV also has the standard
//! deviation). The plug-in estimate is biased upwards by about `1/(2m)` nats for a
//! 2 x 2 table, which matters only at the smallest m and equally for both mechanisms.
//!
//! Figure 4: delta = 1e-9, eps in {0.25, 0.5, 1, 2}. Figure 5: eps = ln 2 and delta in
//! {1e-2, 1e-6, 1e-9, 1e-15, 1e-30}, with delta = 0 the LDP mechanism.
//!
//! **Drawing.** One chart per feature, side by side, from `pmldesign_report::chart` (the
//! charts of the reports), over a log m axis. Figure 4 spans decades, and the charts
//! have no log y axis: its y axis is the log10 of the mutual information. Figure 5 is a
//! narrow band on a linear axis.

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_figs.rs"]
mod plot_figs;

use files::{output_dir, write_csv};
use plot_figs::grid;
use pmldesign_model::{Prior, additive, sample};
use pmldesign_report::chart::{Axes, Series, line_chart};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::error::Error;

/// Records in the Adult data set (training and test parts).
const RECORDS: usize = 48_842;
/// Shuffles averaged per point (\[E\] Sec. VI-C1).
const SHUFFLES: usize = 100;
/// Sample sizes m behind the estimate.
const SIZES: [usize; 9] = [100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, RECORDS];

/// A binary feature: name and the number of records with `x = +1`.
struct Feature {
    name: &'static str,
    ones: usize,
}

const FEATURES: [Feature; 2] = [
    Feature {
        name: "income > 50K",
        ones: 11_687,
    },
    Feature {
        name: "sex = female",
        ones: 16_192,
    },
];

/// Line colours (the "tab10" palette) and the grey of the LDP curve of figure 5.
const COLOURS: [&str; 4] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"];
const COLOURS_5: [&str; 5] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"];
const GREY: &str = "#5a5a5a";

/// How the scale of one curve is chosen.
#[derive(Clone, Copy)]
enum Calibration {
    /// eq. (16) with beta*(delta) of eq. (14).
    Pml { delta: f64 },
    /// b = 2/eps.
    Ldp,
}

/// One curve: figure number, eps and calibration.
#[derive(Clone, Copy)]
struct Curve {
    figure: u8,
    eps: f64,
    calibration: Calibration,
}

impl Curve {
    fn scale(&self, m: usize, ones: usize) -> Result<f64, Box<dyn Error>> {
        match self.calibration {
            Calibration::Ldp => Ok(additive::laplace_ldp_scale(self.eps)?),
            Calibration::Pml { delta } => {
                let beta = sample::radius_free(m as u64, delta, 2)?.min(2.0);
                // An estimate without one of the values: the ball reaches the degenerate
                // priors, and the LDP scale is the only safe choice.
                if ones == 0 || ones == m {
                    return Ok(additive::laplace_ldp_scale(self.eps)?);
                }
                let p_hat = Prior::normalised(vec![(m - ones) as f64, ones as f64])?;
                Ok(additive::laplace_scale_ball(self.eps, &p_hat, beta)?)
            }
        }
    }

    fn label(&self) -> String {
        match self.calibration {
            Calibration::Ldp if self.figure == 5 => "LDP (delta = 0)".into(),
            Calibration::Ldp => format!("LDP, eps = {}", self.eps),
            Calibration::Pml { delta } if self.figure == 5 => format!("PML, delta = {delta:e}"),
            Calibration::Pml { .. } => format!("PML, eps = {}", self.eps),
        }
    }
}

/// Plug-in mutual information (nats) of the pairs `(x_j, y_j)`, values in `{-1, +1}`.
fn empirical_mi(x: &[i8], y: &[i8]) -> f64 {
    let mut n = [[0usize; 2]; 2];
    for (&a, &b) in x.iter().zip(y) {
        n[(a > 0) as usize][(b > 0) as usize] += 1;
    }
    let m = x.len() as f64;
    let nx = [n[0][0] + n[0][1], n[1][0] + n[1][1]];
    let ny = [n[0][0] + n[1][0], n[0][1] + n[1][1]];
    let mut mi = 0.0;
    for i in 0..2 {
        for k in 0..2 {
            if n[i][k] > 0 {
                let nik = n[i][k] as f64;
                mi += nik / m * (m * nik / (nx[i] as f64 * ny[k] as f64)).ln();
            }
        }
    }
    mi
}

/// `n` draws of Lap(1) = +-Exp(1); `b` times one is a draw of Lap(b).
fn unit_laplace(n: usize, rng: &mut Pcg64, out: &mut Vec<f64>) {
    out.clear();
    out.extend((0..n).map(|_| {
        // u in (0, 1].
        let magnitude = -(1.0 - rng.random::<f64>()).ln();
        if rng.random::<bool>() {
            magnitude
        } else {
            -magnitude
        }
    }));
}

/// `d'' = sign(d + b l)` (with `sign(0) = +1`) for each record d and unit noise l.
fn perturb(data: &[i8], b: f64, unit_noise: &[f64], out: &mut Vec<i8>) {
    out.clear();
    out.extend(
        data.iter()
            .zip(unit_noise)
            .map(|(&d, &l)| if f64::from(d) + b * l < 0.0 { -1 } else { 1 }),
    );
}

/// Mean and standard deviation.
fn mean_sd(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = output_dir()?;
    let mut curves = Vec::new();
    for &eps in &[0.25, 0.5, 1.0, 2.0] {
        let pml = Calibration::Pml { delta: 1e-9 };
        for calibration in [pml, Calibration::Ldp] {
            curves.push(Curve {
                figure: 4,
                eps,
                calibration,
            });
        }
    }
    for &delta in &[1e-2, 1e-6, 1e-9, 1e-15, 1e-30] {
        curves.push(Curve {
            figure: 5,
            eps: 2f64.ln(),
            calibration: Calibration::Pml { delta },
        });
    }
    curves.push(Curve {
        figure: 5,
        eps: 2f64.ln(),
        calibration: Calibration::Ldp,
    });

    let mut rows = Vec::new();
    // results[feature][curve][size] = (mean MI, sd MI, mean b)
    let mut results = vec![vec![vec![(0.0, 0.0, 0.0); SIZES.len()]; curves.len()]; FEATURES.len()];
    for (fi, feature) in FEATURES.iter().enumerate() {
        let mut rng = Pcg64::seed_from_u64(452_024 + fi as u64);
        let mut column: Vec<i8> = (0..RECORDS)
            .map(|i| if i < feature.ones { 1 } else { -1 })
            .collect();
        // mi[curve][size][shuffle], b likewise.
        let mut mi = vec![vec![Vec::with_capacity(SHUFFLES); SIZES.len()]; curves.len()];
        let mut scales = mi.clone();
        let mut noisy = Vec::with_capacity(RECORDS);
        let mut noise = Vec::with_capacity(RECORDS);
        for _ in 0..SHUFFLES {
            column.shuffle(&mut rng);
            for (si, &m) in SIZES.iter().enumerate() {
                let head = &column[..m];
                let ones = head.iter().filter(|&&d| d > 0).count();
                // Common random numbers: every curve sees the same unit noise, so the
                // curves differ only through their scales.
                unit_laplace(m, &mut rng, &mut noise);
                for (ci, curve) in curves.iter().enumerate() {
                    let b = curve.scale(m, ones)?;
                    perturb(head, b, &noise, &mut noisy);
                    mi[ci][si].push(empirical_mi(head, &noisy));
                    scales[ci][si].push(b);
                }
            }
        }
        for (ci, curve) in curves.iter().enumerate() {
            for (si, &m) in SIZES.iter().enumerate() {
                let (mean, sd) = mean_sd(&mi[ci][si]);
                let (b_mean, _) = mean_sd(&scales[ci][si]);
                results[fi][ci][si] = (mean, sd, b_mean);
                let (mechanism, delta) = match curve.calibration {
                    Calibration::Pml { delta } => ("pml", delta),
                    Calibration::Ldp => ("ldp", 0.0),
                };
                rows.push(format!(
                    "{},{},{:.6},{mechanism},{},{delta:e},{m},{b_mean:.6},{mean:.8},{sd:.8}",
                    curve.figure,
                    feature.name,
                    feature.ones as f64 / RECORDS as f64,
                    curve.eps,
                ));
            }
        }
    }
    write_csv(
        &dir.join("fig4_5_laplace.csv"),
        "figure,feature,p_true,mechanism,eps,delta,m,b_mean,mi_mean,mi_sd",
        &rows,
    )?;

    for figure in [4u8, 5] {
        let mut charts = Vec::new();
        for (fi, feature) in FEATURES.iter().enumerate() {
            let mut series = Vec::new();
            for (ci, curve) in curves.iter().enumerate() {
                if curve.figure != figure {
                    continue;
                }
                // Figure 4 spans decades: the log10 of the mean (the charts have no
                // log y axis); figure 5 a narrow band: the mean itself.
                let points = SIZES
                    .iter()
                    .zip(&results[fi][ci])
                    .map(|(&m, r)| (m as f64, if figure == 4 { r.0.log10() } else { r.0 }))
                    .collect();
                let (colour, dashed) = match (figure, curve.calibration) {
                    (4, c) => (
                        COLOURS[[0.25, 0.5, 1.0, 2.0]
                            .iter()
                            .position(|&e| e == curve.eps)
                            .unwrap()],
                        matches!(c, Calibration::Ldp),
                    ),
                    (_, Calibration::Ldp) => (GREY, true),
                    (_, Calibration::Pml { .. }) => (COLOURS_5[ci - 8], false),
                };
                series.push(Series {
                    name: curve.label(),
                    points,
                    colour,
                    dashed,
                    markers: false,
                });
            }
            let (title, y_label) = if figure == 4 {
                (
                    format!(
                        "{}: PML (delta = 1e-9, solid) vs LDP (dashed)",
                        feature.name
                    ),
                    "log10 empirical mutual information [nats]",
                )
            } else {
                (
                    format!("{}: eps = ln 2", feature.name),
                    "empirical mutual information [nats]",
                )
            };
            let axes = Axes {
                x_label: "samples m behind the estimate",
                y_label,
                log_x: true,
            };
            let alt = format!(
                "{title}: mean empirical mutual information over {SHUFFLES} shuffles against m"
            );
            charts.push((title, line_chart(&alt, &axes, &series, &[])));
        }
        let path = dir.join(format!("fig{figure}_laplace.svg"));
        std::fs::write(&path, grid(&charts, 2))?;
        println!("wrote {}", path.display());
    }
    println!("wrote {}", dir.join("fig4_5_laplace.csv").display());

    // Summary at the full data set.
    let last = SIZES.len() - 1;
    println!("\nAt m = {RECORDS} (mean over {SHUFFLES} shuffles):");
    println!(
        "{:<14} {:>6} {:>10} {:>9} {:>11}",
        "feature", "fig", "curve", "b", "MI [nats]"
    );
    for (fi, feature) in FEATURES.iter().enumerate() {
        for (ci, curve) in curves.iter().enumerate() {
            let (mean, _, b) = results[fi][ci][last];
            println!(
                "{:<14} {:>6} {:>22} {:>9.4} {:>11.5}",
                feature.name,
                curve.figure,
                curve.label(),
                b,
                mean
            );
        }
    }
    Ok(())
}
