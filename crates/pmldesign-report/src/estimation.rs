//! What an analyst can estimate from the released rows of a design and of its
//! baselines (docs/theory.md §13): the inputs released alike and the expected
//! squared error of the estimated distribution, times m, in the m -> infinity
//! limit, beside the error at the data's m simulated when the design was made.

use crate::document::{note, para, table};
use pmldesign_solver::{Design, Estimation};

/// The estimation section of `d`: its own figures, or derived here for a design
/// without them; `None` past 1,024 inputs.
pub fn section(d: &Design) -> Option<String> {
    let e = match d.estimation() {
        Some(e) => e.clone(),
        None => Estimation::of(d).ok().flatten()?,
    };
    let sim = e.simulated.as_ref();
    let rows: Vec<Vec<String>> = e
        .rows
        .iter()
        .zip(e.labels(d))
        .enumerate()
        .map(|(k, (r, label))| {
            let error = r
                .error_per_row
                .map_or("not estimable".into(), |v| format!("{v:.6}"));
            let mut row = vec![label, r.groups.to_string(), error];
            if let Some(s) = sim {
                let at_m = s.error_per_row.get(k).copied().flatten();
                row.push(at_m.map_or("-".into(), |v| format!("{v:.6}")));
            }
            row
        })
        .collect();
    let mut s = para(
        "An analyst who receives m released rows estimates the distribution of the secret from them (pml estimate). The expected squared error of that estimate, under the reference prior, is the figure below divided by m in the limit of many rows (m -> infinity: inverse Fisher information); at a finite m the error of EM can be far smaller. Inputs that a mechanism releases alike are estimated only as a group.",
    );
    let at_m = sim.map(|s| format!("EM at m = {}", s.rows));
    let mut header = vec!["mechanism", "groups", "m E|p^ - p|^2, m -> infinity"];
    header.extend(at_m.as_deref());
    s.push_str(&table(&header, &rows));
    if let Some(sim) = sim {
        s.push_str(&note(&format!(
            "EM at m = {}: m E|p^ - p|^2 of the EM estimate from the data's {} rows ({}; - where not compared). The advice compares these.",
            sim.rows,
            sim.rows,
            sim.basis()
        )));
    }
    if let Some(g) = e.rows.first().and_then(|r| r.merged.first()) {
        s.push_str(&note(&format!(
            "The design releases inputs {{{}}} alike: only their total is estimable.",
            g.join(", ")
        )));
    }
    if let Some(advice) = e.advice(d) {
        let mut first = advice[..1].to_uppercase();
        first.push_str(&advice[1..]);
        s.push_str(&note(&format!("{first}.")));
    }
    Some(s)
}
