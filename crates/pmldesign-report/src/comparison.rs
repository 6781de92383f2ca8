//! The report of `pml compare`: the optimal mechanism under every notion at one
//! level, side by side with randomized response. Every figure comes from the
//! solver's [`Comparison`], whose levels are re-measured on each matrix.

use crate::chart::bar_chart;
use crate::design::status_word;
use crate::document::{Page, figure, para, table};
use crate::matrix::{Matrix, mechanism_figure};
use crate::text::{level, num, short};
use pmldesign_model::statement::describe_set;
use pmldesign_solver::Comparison;
use pmldesign_solver::labels::numbered;

/// The whole page of a comparison; `labels` names the inputs.
pub fn page(c: &Comparison, labels: &[String]) -> String {
    let title = format!(
        "Every notion at eps = {}, {} utility",
        short(c.epsilon),
        c.utility_name
    );
    let mut p = Page::new(&title);
    p.guarantee(&format!(
        "Each design is optimal for {} under its notion at level eps = {} over {}; every level in the table is re-measured on the matrix.",
        c.utility_name,
        num(c.epsilon),
        describe_set(&c.uncertainty)
    ));
    p.section("table", "Side by side", &side_by_side(c));
    let prior = c.uncertainty.reference().to_vec();
    for (i, row) in c.rows.iter().enumerate() {
        let rows = row.mechanism.to_rows();
        let outputs = numbered("y", row.mechanism.outputs());
        let m = Matrix {
            rows: &rows,
            inputs: labels,
            outputs: &outputs,
            prior: &prior,
        };
        p.section(
            &format!("mechanism-{}", i + 1),
            &row.label,
            &mechanism_figure(&m, "pml compare --format json"),
        );
    }
    p.finish(&title)
}

/// A row's name under its bar: the notion's label, or `RR LDP` / `RR PML` for
/// the randomized-response baselines.
fn short_label(r: &pmldesign_solver::ComparisonRow) -> String {
    match (&r.notion, r.label.contains("LDP")) {
        (Some(_), _) => r.label.clone(),
        (None, true) => "RR LDP".into(),
        (None, false) => "RR PML".into(),
    }
}

fn side_by_side(c: &Comparison) -> String {
    let rows: Vec<Vec<String>> = c
        .rows
        .iter()
        .map(|r| {
            vec![
                r.label.clone(),
                r.status
                    .map_or("baseline".into(), |s| status_word(s).into()),
                num(r.utility),
                r.upper_bound.map_or("-".into(), num),
                level(r.levels.pml),
                level(r.levels.pmc),
                level(r.levels.ldp),
                level(r.levels.maximal_leakage),
            ]
        })
        .collect();
    let head = [
        "mechanism",
        "status",
        &c.utility_name as &str,
        "upper bound",
        "worst PML",
        "worst PMC",
        "LDP",
        "maximal leakage",
    ];
    let mut s = table(&head, &rows);
    let names: Vec<String> = c.rows.iter().map(short_label).collect();
    let values: Vec<f64> = c.rows.iter().map(|r| r.utility).collect();
    let alt = format!(
        "Bar chart of the {} utility of each of {} mechanisms: {}",
        c.utility_name,
        names.len(),
        c.rows
            .iter()
            .zip(&values)
            .map(|(r, v)| format!("{} {}", r.label, num(*v)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    s.push_str(&figure(
        &bar_chart(&alt, &c.utility_name, &names, &values, None),
        "The utility of each design and of the randomized-response baselines.",
    ));
    s.push_str(&para(
        "Levels in nats; infinite where a column mixes zeros and nonzeros.",
    ));
    s
}
