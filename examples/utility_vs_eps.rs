//! Utility against privacy: mutual information I(X;Y) of the optimal eps-PML design
//! for a known prior, against eps, beside the two randomized-response comparators the
//! design reports (`Design::baselines`): randomized response calibrated to the same
//! PML eps, and randomized response at the same LDP parameter eps (which is eps-PML
//! for every prior, \[T\] Thm 5.29, but wastes part of the budget). The dashed line is
//! H(X) = I(X;X), the utility of releasing X (reached at eps_max = -ln min p).
//!
//! Run with `cargo run --release --example utility_vs_eps [-- --prior 0.35,0.25,0.2,0.12,0.08] [--out DIR]`;
//! writes `utility_vs_eps.svg` and `utility_vs_eps.csv` into `docs/figures/` (or DIR).

#[path = "support/files.rs"]
mod files;
#[path = "support/plot_figs.rs"]
mod plot_figs;

use plot_figs::{Panel, Series, Style};
use pmldesign::prelude::*;
use std::error::Error;

/// Points on the eps axis.
const GRID: usize = 40;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = files::output_dir()?;
    let masses: Vec<f64> = match files::flag_value("--prior") {
        Some(s) => s
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("--prior: {e}; give masses like 0.4,0.3,0.2,0.1"))?,
        None => vec![0.35, 0.25, 0.2, 0.12, 0.08],
    };
    let prior = Prior::new(masses.clone())?;
    let eps_max = measures::eps_max(&prior);
    let mi = FInformation::mutual_information();
    let entropy = mi.value(&Mechanism::identity(prior.len()), prior.masses());

    let mut rows: Vec<Vec<String>> = Vec::new();
    let (mut opt, mut cal, mut ldp) = (Vec::new(), Vec::new(), Vec::new());
    let top = 1.1 * eps_max;
    println!(
        "{:>9} {:>12} {:>12} {:>12} {:>9}",
        "eps", "design", "RR same PML", "RR same LDP", "gain/cal."
    );
    for k in 1..=GRID {
        let eps = top * k as f64 / GRID as f64;
        let d = Problem::new(UncertaintySet::known(prior.clone()))
            .epsilon(eps)
            .utility(mi)
            .solve()?;
        let (u, c, l) = (
            d.utility_value(),
            d.baselines().pml_calibrated.utility,
            d.baselines().same_ldp.utility,
        );
        assert!(u >= c - 1e-9 && u >= l - 1e-9, "the design is optimal");
        if k % 5 == 0 {
            let gain = if c > 0.0 { 100.0 * (u / c - 1.0) } else { 0.0 };
            println!("{eps:>9.4} {u:>12.6} {c:>12.6} {l:>12.6} {gain:>8.1}%");
        }
        rows.push([eps, u, c, l, entropy].iter().map(f64::to_string).collect());
        opt.push((eps, u));
        cal.push((eps, c));
        ldp.push((eps, l));
    }
    let shown: Vec<String> = masses.iter().map(|m| m.to_string()).collect();
    let mut panel = Panel::new(
        format!("I(X;Y) against eps, p = ({})", shown.join(", ")),
        "eps (PML level, nats)",
        "mutual information I(X;Y) (nats)",
    );
    panel.x_range = Some((0.0, top));
    panel.y_range = Some((0.0, 1.05 * entropy));
    panel.series = vec![
        Series::new("optimal eps-PML design", opt, Style::Line, 0),
        Series::new("randomized response, same PML", cal, Style::Line, 1),
        Series::new("randomized response, same LDP eps", ldp, Style::Line, 2),
        Series::new(
            "H(X) (no privacy)",
            vec![(0.0, entropy), (top, entropy)],
            Style::Dashed,
            6,
        ),
    ];
    println!("eps_max = {eps_max:.6}, H(X) = {entropy:.6}");
    plot_figs::write_figure(
        &dir,
        "utility_vs_eps",
        "eps,design_mi,rr_same_pml_mi,rr_same_ldp_mi,entropy",
        &rows,
        &[panel],
    )
}
