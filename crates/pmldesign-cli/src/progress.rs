//! A progress bar for long designs: on stderr, only on a terminal, and only once a
//! design has run for more than a second.

use indicatif::{ProgressBar, ProgressStyle};
use pmldesign_solver::Progress;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Shows column-generation progress (pass, bounds, rays priced).
pub struct DesignProgress {
    start: Instant,
    enabled: bool,
    bar: Option<ProgressBar>,
    /// Also one line per pass on stderr (`--verbose`), terminal or not.
    verbose: bool,
    /// `--time-limit`, for the countdown.
    limit: Option<Duration>,
}

impl DesignProgress {
    /// A bar that appears after one second if stderr is a terminal, counting
    /// down to `limit` (seconds) when there is one; with `verbose`, a line per
    /// pass as well.
    pub fn new(verbose: bool, limit: Option<f64>) -> Self {
        DesignProgress {
            start: Instant::now(),
            enabled: std::io::stderr().is_terminal() && !crate::say::quiet(),
            bar: None,
            verbose,
            limit: limit
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64),
        }
    }

    /// Reports one pricing pass.
    pub fn update(&mut self, p: Progress) {
        if self.verbose {
            self.line(&p);
        }
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let message = self.message(&p);
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b
        });
        bar.set_message(message);
        bar.tick();
    }

    /// The bar's text, at most about 70 columns (80 with the spinner and the
    /// elapsed time): pass, best mechanism, bound, relative gap, time left.
    fn message(&self, p: &Progress) -> String {
        let gap = p.upper_bound - p.lower_bound;
        let relative = gap / p.upper_bound.abs().max(f64::MIN_POSITIVE);
        let mut text = format!(
            "pass {}, best {:.6}, bound {:.6}, gap {:.1e}",
            p.iterations, p.lower_bound, p.upper_bound, relative
        );
        if let Some(limit) = self.limit {
            let left = limit.saturating_sub(self.start.elapsed()).as_secs_f64();
            text.push_str(&format!(", {left:.0} s left"));
        }
        text
    }

    /// One line for `--verbose`: seconds, pass, incumbent, bound, gaps.
    fn line(&self, p: &Progress) {
        let gap = p.upper_bound - p.lower_bound;
        let relative = gap / p.upper_bound.abs().max(f64::MIN_POSITIVE);
        let text = format!(
            "pml: {:8.3} s  pass {:>5}  incumbent {:.9}  bound {:.9}  gap {:.2e} ({:.2e} relative)",
            self.start.elapsed().as_secs_f64(),
            p.iterations,
            p.lower_bound,
            p.upper_bound,
            gap,
            relative
        );
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bar fits 80 columns with its spinner and elapsed time, and counts
    /// down to the limit (it wrapped at about 180 characters).
    #[test]
    fn the_line_fits_eighty_columns_and_counts_down() {
        let bar = DesignProgress::new(false, Some(600.0));
        let p = Progress {
            // The widest a design reaches: 10^5 passes, an expected loss of 12
            // (minus), a bound of ln 2048.
            iterations: 99_999,
            lower_bound: -12.345678,
            upper_bound: 7.6246189,
            rays_priced: u64::MAX,
        };
        let text = bar.message(&p);
        // The spinner, a space, the elapsed time and a space: 11 columns.
        let columns = text.chars().count() + 11;
        assert!(columns <= 80, "{columns} columns: {text}");
        assert!(text.ends_with("s left"), "{text}");
        assert!(
            !DesignProgress::new(false, None)
                .message(&p)
                .contains("left")
        );
    }
}
