//! What an analyst can estimate from the released rows of a design and of its
//! baselines (docs/theory.md §13): the inputs released alike and the expected
//! squared error of the estimated distribution, times m.

use crate::document::{note, para, table};
use pmldesign_solver::{Design, Estimation};

/// The estimation section of `d`: its own figures, or derived here for a design
/// without them; `None` past 256 inputs.
pub fn section(d: &Design) -> Option<String> {
    let e = match &d.estimation {
        Some(e) => e.clone(),
        None => Estimation::of(d).ok().flatten()?,
    };
    let rows: Vec<Vec<String>> = e
        .rows
        .iter()
        .zip(e.labels(d))
        .map(|(r, label)| {
            let error = r
                .error_per_row
                .map_or("not estimable".into(), |v| format!("{v:.6}"));
            vec![label, r.groups.to_string(), error]
        })
        .collect();
    let mut s = para(
        "An analyst who receives m released rows estimates the distribution of the secret from them (pml estimate). The expected squared error of that estimate (inversion, under the reference prior) is the figure below divided by m; inputs that a mechanism releases alike are estimated only as a group.",
    );
    s.push_str(&table(&["mechanism", "groups", "m E|p^ - p|^2"], &rows));
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
