//! What `pml apply` says on stderr once the output is written.

use pmldesign_app::ApplySummary;
use pmldesign_data::{ExactNoise, PrivatiseSummary};
use std::path::Path;

pub use pmldesign_data::grid_release::NoiseStatement;

/// One line for stderr: the law, grid and range released, and the measured levels
/// beside \[E\]'s continuous figure.
pub fn noise_line(s: &NoiseStatement) -> String {
    let law = match s.noise {
        ExactNoise::Laplace(l) => {
            let (t, q) = l.ratio();
            format!(
                "discrete Laplace noise of scale {} ({t}/{q} grid steps)",
                s.value
            )
        }
        ExactNoise::Gaussian(g) => {
            let (a, c) = g.ratio();
            format!(
                "discrete Gaussian noise of sigma {} (variance {a}/{c} grid steps squared)",
                s.value
            )
        }
        // A law of another kind: its name and scale.
        other => format!("{} noise of scale {}", other.name(), s.value),
    };
    let range = s.m as f64 / s.n as f64;
    let points = 2 * s.m + 1;
    let mut line = format!(
        "pml apply: {law} on the grid of step 1/{}, clamped to [-{range}, {range}] ({points} values); measured on the released 2 x {points} matrix: {}",
        s.n,
        level("LDP", s.ldp)
    );
    if s.ldp.is_finite() {
        line.push_str(", so PML <= that for every prior");
    }
    if let Some(p) = s.pml {
        line.push_str(&format!("; {} for the --prior", level("PML", p)));
    }
    line.push_str(&match (s.noise, s.continuous) {
        (ExactNoise::Laplace(_), Some(c)) => format!(
            " (the continuous mechanism of [E] Sec. VI-A: {})",
            level(if s.pml.is_some() { "PML" } else { "LDP" }, c)
        ),
        _ => " (the continuous Gaussian of [E] Sec. VI-B leaks without bound; the clamp bounds it)"
            .to_owned(),
    });
    line
}

/// `eps = v` under a notion, or that no finite level holds.
fn level(notion: &str, v: f64) -> String {
    if v.is_finite() {
        format!("{notion} eps = {}", pmldesign_model::printed::level(v))
    } else {
        format!(
            "no finite {notion} level (a grid point's probability under one secret underflows; give a smaller --range)"
        )
    }
}

/// One line for stderr: what was read and written, and the rows outside the alphabet.
pub fn summary_line(answer: &ApplySummary, data: &Path, output: &Path) -> String {
    let s = answer.counts();
    let mut line = format!(
        "pml apply: read {} of {}, wrote {} with {} privatised",
        rows(s.rows),
        data.display(),
        output.display(),
        s.privatised
    );
    if s.skipped > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet skipped",
            rows(s.skipped)
        ));
    }
    if s.kept > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet kept with an empty privatised value",
            rows(s.kept)
        ));
    }
    if let Some((at, value)) = answer.first_unknown() {
        let place = answer.format().place();
        line.push_str(&format!(" (the first at {place} {at}: {value:?})"));
    }
    line
}

/// The warning of rows written missing (`--nulls drop`): whether a value is
/// missing is released as it is, outside the guarantee.
pub fn nulls_warning(s: &PrivatiseSummary) -> Option<String> {
    (s.nulls > 0).then(|| {
        format!(
            "warning: pml apply: {} with a missing value written missing (--nulls drop): whether a value is missing is released as is, outside the guarantee",
            rows(s.nulls)
        )
    })
}

fn rows(n: u64) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}
