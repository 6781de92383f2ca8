//! `pml bounds` as text: the answer to a planning question with what it was
//! computed from, as a table, JSON (the application layer's,
//! `pmldesign_app::BoundsAnswer`) or `key,value` CSV.

use super::csv::csv_field;
use super::number::significant;
use super::own_version;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_app::BoundsAnswer;
use pmldesign_app::bounds::Item;
use serde_json::Value;
use std::fmt::Write;

/// The answer in the format asked for.
pub fn render(r: &BoundsAnswer, format: Format) -> Result<String, CliError> {
    Ok(match format {
        Format::Json => own_version(&r.to_json())?,
        Format::Csv => csv(r),
        Format::Table => table(r),
    })
}

/// `key,value` pairs: the question, the formula, the inputs, the answer, the
/// related values, the statement and the notes.
fn csv(r: &BoundsAnswer) -> String {
    let mut s = String::from("key,value\n");
    let mut row = |k: &str, v: &str| {
        writeln!(s, "{},{}", csv_field(k), csv_field(v)).expect("string write");
    };
    row("question", r.question());
    row("formula", r.formula());
    for i in r.inputs() {
        row(i.key, &plain(&i.value));
    }
    row(r.answer().key, &plain(&r.answer().value));
    for i in r.related() {
        row(i.key, &plain(&i.value));
    }
    row("statement", r.statement());
    for n in r.notes() {
        row("note", n);
    }
    s
}

fn table(r: &BoundsAnswer) -> String {
    let mut s = String::new();
    let w = r
        .inputs()
        .iter()
        .chain(r.related())
        .chain(std::iter::once(r.answer()))
        .map(|i| i.label.len())
        .max()
        .unwrap_or(0);
    let line = |s: &mut String, i: &Item| {
        writeln!(s, "  {:<w$}  {}", i.label, human(&i.value)).expect("string write");
    };
    writeln!(
        s,
        "pml bounds {}: {}  ({})\n",
        r.question(),
        r.title(),
        r.formula()
    )
    .expect("string write");
    for i in r.inputs() {
        line(&mut s, i);
    }
    s.push('\n');
    line(&mut s, r.answer());
    if !r.related().is_empty() {
        s.push('\n');
        for i in r.related() {
            line(&mut s, i);
        }
    }
    writeln!(s, "\nMeaning: {}.", r.statement()).expect("string write");
    for n in r.notes() {
        writeln!(s, "note: {n}").expect("string write");
    }
    s
}

/// A value for CSV: full precision, lists joined with `;`.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(plain).collect::<Vec<_>>().join(";"),
        other => other.to_string(),
    }
}

/// A value for people: floats to about nine significant digits.
fn human(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_f64() => n.as_f64().map_or_else(|| n.to_string(), significant),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(human).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}
