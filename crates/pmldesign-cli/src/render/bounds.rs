//! `pml bounds` as text: the answer to a planning question with what it was
//! computed from, as a table, JSON or `key,value` CSV.

use super::csv::csv_field;
use super::number::significant;
use super::pretty;
use crate::args::Format;
use crate::error::CliError;
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// One named value.
pub struct Item {
    pub key: &'static str,
    pub label: &'static str,
    pub value: Value,
}

pub fn item(key: &'static str, label: &'static str, value: Value) -> Item {
    Item { key, label, value }
}

/// The answer to one question, with what it was computed from.
pub struct Report {
    /// The subcommand, e.g. `radius`.
    pub question: &'static str,
    pub title: &'static str,
    /// Where in the papers the answer comes from.
    pub formula: &'static str,
    pub inputs: Vec<Item>,
    pub answer: Item,
    pub related: Vec<Item>,
    /// What the answer means, in words.
    pub statement: String,
    pub notes: Vec<String>,
}

fn object(items: &[Item]) -> Value {
    Value::Object(
        items
            .iter()
            .map(|i| (i.key.to_string(), i.value.clone()))
            .collect::<Map<_, _>>(),
    )
}

impl Report {
    /// The report in the format asked for.
    pub fn render(&self, format: Format) -> Result<String, CliError> {
        Ok(match format {
            Format::Json => self.json()?,
            Format::Csv => self.csv(),
            Format::Table => self.table(),
        })
    }

    fn json(&self) -> Result<String, CliError> {
        let v = json!({
            "question": self.question,
            "formula": self.formula,
            "inputs": object(&self.inputs),
            "answer": { "name": self.answer.key, "value": self.answer.value },
            "related": object(&self.related),
            "statement": self.statement,
            "notes": self.notes,
        });
        pretty(&v)
    }

    /// `key,value` pairs: the question, the formula, the inputs, the answer,
    /// the related values, the statement and the notes.
    fn csv(&self) -> String {
        let mut s = String::from("key,value\n");
        let mut row = |k: &str, v: &str| {
            writeln!(s, "{},{}", csv_field(k), csv_field(v)).expect("string write");
        };
        row("question", self.question);
        row("formula", self.formula);
        for i in self.inputs.iter() {
            row(i.key, &plain(&i.value));
        }
        row(self.answer.key, &plain(&self.answer.value));
        for i in self.related.iter() {
            row(i.key, &plain(&i.value));
        }
        row("statement", &self.statement);
        for n in &self.notes {
            row("note", n);
        }
        s
    }

    fn table(&self) -> String {
        let mut s = String::new();
        let w = self
            .inputs
            .iter()
            .chain(&self.related)
            .chain(std::iter::once(&self.answer))
            .map(|i| i.label.len())
            .max()
            .unwrap_or(0);
        let line = |s: &mut String, i: &Item| {
            writeln!(s, "  {:<w$}  {}", i.label, human(&i.value)).expect("string write");
        };
        writeln!(
            s,
            "pml bounds {}: {}  ({})\n",
            self.question, self.title, self.formula
        )
        .expect("string write");
        for i in &self.inputs {
            line(&mut s, i);
        }
        s.push('\n');
        line(&mut s, &self.answer);
        if !self.related.is_empty() {
            s.push('\n');
            for i in &self.related {
                line(&mut s, i);
            }
        }
        writeln!(s, "\nMeaning: {}.", self.statement).expect("string write");
        for n in &self.notes {
            writeln!(s, "note: {n}").expect("string write");
        }
        s
    }
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
