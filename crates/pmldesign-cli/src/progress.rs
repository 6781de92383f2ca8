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
}

impl DesignProgress {
    /// A bar that appears after one second if stderr is a terminal; with
    /// `verbose`, a line per pass as well.
    pub fn new(verbose: bool) -> Self {
        DesignProgress {
            start: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
            bar: None,
            verbose,
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
