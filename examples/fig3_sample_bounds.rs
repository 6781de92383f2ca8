//! \[E\] Figure 3: what a sample of size m buys, for N = 20 categories.
//!
//! (a) Corollary 3: `delta_min(eps')`, the failure probability of an eps'-PML
//!     guarantee for a mechanism designed eps-PML for the estimate, eps = ln 5,
//!     against eps' for several sample sizes m (`sample::delta_min`; capped at 1,
//!     where the bound is vacuous).
//! (b) eq. (8): the guaranteed level `eps'(delta)` at delta = 1e-5 against m for
//!     several design levels eps, with the radius of eq. (7) (`sample::radius_free`,
//!     `sample::epsilon_prime`); dashed lines mark eps. Sample sizes for which
//!     `beta* e^eps >= 2` (no bound) are left out.
//!
//! Run with `cargo run --release --example fig3_sample_bounds [-- --out DIR]`; writes
//! `fig3_sample_bounds.svg` and `fig3_sample_bounds.csv` into `docs/figures/` (or DIR).

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_figs.rs"]
mod plot_figs;

use plot_figs::{Panel, Series, Style};
use pmldesign::model::sample::{delta_min, epsilon_prime, radius_free};
use std::error::Error;

/// The alphabet size of both panels.
const N: usize = 20;
/// Points per curve.
const GRID: usize = 400;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = files::output_dir()?;
    let mut rows: Vec<Vec<String>> = Vec::new();

    // (a) delta_min against eps' at eps = ln 5.
    let eps = 5f64.ln();
    let (lo, hi) = (eps, eps + 1.4);
    let mut a = Panel::new(
        "(a) Corollary 3: N = 20, eps = ln 5",
        "eps' (guaranteed PML level)",
        "delta_min(eps')",
    );
    a.log_y = true;
    a.y_range = Some((1e-12, 2.0));
    a.x_range = Some((lo, hi));
    for (i, m) in [1_000u64, 3_000, 10_000, 100_000].into_iter().enumerate() {
        let mut pts = Vec::new();
        for k in 1..=GRID {
            let eps_prime = lo + (hi - lo) * k as f64 / GRID as f64;
            let d = delta_min(eps, eps_prime, m, N)?;
            rows.push(vec![
                "a".into(),
                eps.to_string(),
                m.to_string(),
                eps_prime.to_string(),
                d.to_string(),
            ]);
            pts.push((eps_prime, d));
        }
        a.series
            .push(Series::new(format!("m = {m}"), pts, Style::Line, i));
    }

    // (b) eps'(delta) against m at delta = 1e-5.
    let delta = 1e-5;
    let mut b = Panel::new(
        "(b) eq. (8): N = 20, delta = 1e-5 (dashed: eps)",
        "m (samples)",
        "eps'(delta)",
    );
    b.log_x = true;
    let (m_lo, m_hi) = (1e3f64, 1e8f64);
    b.x_range = Some((m_lo, m_hi));
    b.y_range = Some((0.0, 4.0));
    for (i, (name, eps)) in [
        ("ln 2", 2f64.ln()),
        ("ln 3", 3f64.ln()),
        ("ln 5", 5f64.ln()),
        ("ln 10", 10f64.ln()),
    ]
    .into_iter()
    .enumerate()
    {
        let mut pts = Vec::new();
        for k in 0..=GRID {
            let m = (m_lo.ln() + (m_hi / m_lo).ln() * k as f64 / GRID as f64)
                .exp()
                .round() as u64;
            let beta = radius_free(m, delta, N)?;
            // None where beta* e^eps >= 2: the guarantee needs more samples.
            if let Ok(e) = epsilon_prime(eps, beta) {
                rows.push(vec![
                    "b".into(),
                    eps.to_string(),
                    m.to_string(),
                    e.to_string(),
                    delta.to_string(),
                ]);
                pts.push((m as f64, e));
            }
        }
        b.series
            .push(Series::new(format!("eps = {name}"), pts, Style::Line, i));
        b.series.push(Series::new(
            format!("eps = {name} (the design level)"),
            vec![(m_lo, eps), (m_hi, eps)],
            Style::Dashed,
            i,
        ));
    }

    plot_figs::write_figure(
        &dir,
        "fig3_sample_bounds",
        "panel,eps,m,eps_prime,delta",
        &rows,
        &[a, b],
    )
}
