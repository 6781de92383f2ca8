//! The arguments of `pml envelope`, and the grid of `--deltas`.

use super::{Input, OutputArgs, ReportFileArgs};
use crate::error::CliError;
use clap::Args;
use pmldesign_model::envelope;
use std::path::PathBuf;

/// Arguments of `pml envelope`.
#[derive(Debug, Args)]
pub struct EnvelopeArgs {
    /// The mechanism: the JSON written by `pml design --format json`, a JSON array of
    /// rows, or CSV rows (as for `pml assess`). `-`: standard input.
    #[arg(long, value_name = "FILE")]
    pub mechanism: PathBuf,
    /// The prior (or its estimate) the mechanism is released under.
    #[command(flatten)]
    pub input: Input,
    /// The grid of failure probabilities: `A:B:N` gives N values log-spaced from A to B
    /// (inclusive); or a comma-separated list. Every value in (0, 1); at most 100000
    /// values.
    #[arg(long, default_value = "0.001:0.5:50", value_name = "A:B:N")]
    pub deltas: String,
    /// The delta of the headline statement a data holder publishes.
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true)]
    pub delta: f64,
    /// Also compute the envelope itself by linear program ([V] Thm 2; bisection to
    /// 1e-9 between the bounds, the lower end certified by the post-processing that
    /// attains it). Every statement then publishes its upper end where it is below
    /// the Theorem 3 bound.
    #[arg(long)]
    pub lp: bool,
    /// With --lp: stop the linear programs after about this many seconds; a delta
    /// whose bisection the limit stopped reports its certified bracket so far (its
    /// upper end is what is published there).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
    /// Also draw the curves as an SVG file (written atomically).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Output options: table, JSON, or the curve as CSV.
    #[command(flatten)]
    pub output: OutputArgs,
    /// The HTML report.
    #[command(flatten)]
    pub report: ReportFileArgs,
}

impl EnvelopeArgs {
    /// The settings of the LP envelope: `--time-limit`, checked.
    pub fn settings(&self) -> Result<pmldesign_solver::Settings, CliError> {
        super::design::limited_settings(self.time_limit)
    }
}

/// The most points of the `--deltas` grid: each costs a row of output (and, with
/// `--lp`, linear programs), and a larger N only grows memory.
pub const MAX_DELTAS: usize = 100_000;

/// Parses `--deltas`: `A:B:N` or `D1,D2,..`, at most [`MAX_DELTAS`] values.
pub fn parse_deltas(s: &str) -> Result<Vec<f64>, CliError> {
    let bad = |what: &str| {
        CliError::Usage(format!(
            "invalid --deltas = {s:?}: {what}; give A:B:N (N log-spaced values from A to B, e.g. 0.001:0.5:50) or a list such as 0.01,0.05,0.1"
        ))
    };
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| bad(&format!("{t:?} is not a number")))
    };
    let grid = if s.contains(':') {
        let parts: Vec<&str> = s.split(':').collect();
        let [a, b, n] = parts[..] else {
            return Err(bad("expected three fields A:B:N"));
        };
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| bad(&format!("N = {n:?} is not a whole number")))?;
        if n > MAX_DELTAS {
            return Err(bad(&format!(
                "N = {n} is above the cap of {MAX_DELTAS} grid points"
            )));
        }
        envelope::log_grid(num(a)?, num(b)?, n).map_err(|e| bad(&e.to_string()))?
    } else {
        let items = s.split(',').count();
        if items > MAX_DELTAS {
            return Err(bad(&format!(
                "{items} values are above the cap of {MAX_DELTAS} grid points"
            )));
        }
        let v = s.split(',').map(num).collect::<Result<Vec<f64>, _>>()?;
        for &d in &v {
            envelope::check_delta(d).map_err(|e| bad(&e.to_string()))?;
        }
        v
    };
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_grids() {
        let g = parse_deltas("0.001:0.1:3").unwrap();
        assert_eq!(g.len(), 3);
        assert!((g[1] - 0.01).abs() < 1e-15 && g[2] == 0.1 && g[0] == 0.001);
        assert_eq!(parse_deltas("0.1, 0.2").unwrap(), vec![0.1, 0.2]);
        for bad in [
            "0.1:0.2",
            "0:0.5:3",
            "0.5:0.1:3",
            "0.1:0.5:x",
            "0.1,1.5",
            "a",
        ] {
            let e = parse_deltas(bad).unwrap_err();
            assert!(e.to_string().contains("--deltas"), "{e}");
            assert_eq!(e.exit_code(), 2);
        }
    }
}
