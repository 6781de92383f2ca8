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
}

impl DesignProgress {
    /// A bar that appears after one second if stderr is a terminal.
    pub fn new() -> Self {
        DesignProgress {
            start: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
            bar: None,
        }
    }

    /// Reports one pricing pass.
    pub fn update(&mut self, p: Progress) {
        if !self.enabled || self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b
        });
        let gap = p.upper_bound - p.lower_bound;
        let relative = gap / p.upper_bound.abs().max(f64::MIN_POSITIVE);
        bar.set_message(format!(
            "pass {}: incumbent {:.9}, bound {:.9}, gap {:.2e} ({:.2e} relative), {} rays or nodes priced",
            p.iterations, p.lower_bound, p.upper_bound, gap, relative, p.rays_priced
        ));
        bar.tick();
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
