//! The report of a record design: the guarantee about the whole record, each
//! column's split of eps, the record's measured leakage, then each column's
//! design (or the joint one) in the sections of a single design.

use crate::ReportOptions;
use crate::chart::bar_chart;
use crate::design::{sections, status_word};
use crate::document::{Page, facts, figure, note, table};
use crate::text::{certified, level, num, short};
use pmldesign_solver::{RecordDesign, RecordMode};

/// The whole page of a record design (the trade-off of `o` is not drawn: it is
/// for single designs).
pub fn page(r: &RecordDesign, o: &ReportOptions) -> String {
    let title = o.title.clone().unwrap_or_else(|| {
        format!(
            "Record ({}) released by {}: eps = {} about the whole record",
            r.columns().join(", "),
            r.mode().name(),
            short(r.epsilon())
        )
    });
    let mut p = Page::new(&title);
    p.guarantee(&format!("Guarantee: {}.", r.guarantee().statement));
    p.section("split", "How eps is split", &split(r));
    p.section(
        "record-leakage",
        "Leakage about the whole record",
        &measured(r, o),
    );
    let inner = ReportOptions {
        tradeoff: None,
        ..o.clone()
    };
    for (j, d) in r.designs().iter().enumerate() {
        let name = match r.mode() {
            RecordMode::Joint => "joint".to_string(),
            _ => r.columns().get(j).cloned().unwrap_or_default(),
        };
        p.section(
            &format!("design-{j}"),
            &format!("Design: {name}"),
            &facts(&[
                ("title", d.title()),
                ("privacy", d.privacy_clause()),
                ("status", status_word(d.status()).into()),
            ]),
        );
        sections(&mut p, d, &inner, &format!("d{j}-"));
    }
    p.finish(&title)
}

fn split(r: &RecordDesign) -> String {
    let mut rows = Vec::new();
    match r.mode() {
        RecordMode::Joint => {
            let d = &r.designs()[0];
            rows.push(vec![
                format!("joint ({} combinations)", r.cells().len()),
                short(r.epsilon()),
                "-".into(),
                d.mechanism().outputs().to_string(),
                certified(
                    d.certificate().worst_case_pml(),
                    d.certificate().target_epsilon(),
                    d.certificate().tolerance(),
                ),
            ]);
        }
        _ => {
            for (j, (d, c)) in r.designs().iter().zip(r.columns()).enumerate() {
                let radius = r.radii().get(j).map_or("-".into(), |b| num(*b));
                rows.push(vec![
                    c.clone(),
                    format!("{} = {}", d.notion().name(), short(r.epsilons()[j])),
                    radius,
                    d.mechanism().outputs().to_string(),
                    certified(
                        d.certificate().worst_case_pml(),
                        d.certificate().target_epsilon(),
                        d.certificate().tolerance(),
                    ),
                ]);
            }
        }
    }
    let mut s = table(
        &[
            "column",
            "level",
            "l1 radius",
            "outputs",
            "certified worst-case PML",
        ],
        &rows,
    );
    if r.mode() != RecordMode::Joint {
        let alt = format!(
            "Bar chart of each column's level: {}",
            r.columns()
                .iter()
                .zip(r.epsilons())
                .map(|(c, e)| format!("{c} {}", short(*e)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        s.push_str(&figure(
            &bar_chart(
                &alt,
                "eps of the column",
                r.columns(),
                r.epsilons(),
                Some((r.epsilon(), format!("total eps = {}", short(r.epsilon())))),
            ),
            "Each column's share of eps; the line is the total about the record.",
        ));
    }
    s
}

fn measured(r: &RecordDesign, _o: &ReportOptions) -> String {
    let at = r
        .printed_leakage()
        .unwrap_or_else(|| "not measured (over 4096 cells)".into());
    let naive = r
        .naive()
        .leakage_about_record
        .map_or("not measured".into(), level);
    let mut s = facts(&[
        ("leakage about the record at the estimate", at),
        ("total eps", short(r.epsilon())),
        (
            &format!("utility ({})", r.utility().measure.replace('_', " ")),
            num(r.utility().value),
        ),
        (
            "naive release, not offered",
            format!(
                "each column at eps/k = {} leaks {naive} about the record (not a guarantee)",
                short(r.naive().epsilon_per_column)
            ),
        ),
    ]);
    s.push_str(&note(&format!("Check: {}.", r.guarantee().check)));
    s
}
