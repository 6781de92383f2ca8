//! Parsing of flag values: numbers and counts, whole numbers, `--radius`, and
//! labels; errors name the flag (and the entry), with the fix.

use crate::error::CliError;
use pmldesign_model::sample::{self, MAX_SAMPLES, RadiusMethod};

/// `--labels` checked by the library ([`pmldesign_solver::labels::check_labels`]), or
/// `x1..xN`; errors name the flag.
pub fn check_labels(labels: Option<&[String]>, n: usize) -> Result<Vec<String>, CliError> {
    pmldesign_solver::labels::check_labels(labels, n).map_err(|e| flag_error("--", e))
}

/// Names of symbols as `--labels` or `--labels-file` gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels(pub Vec<String>);

impl std::ops::Deref for Labels {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.0
    }
}

/// Parses `--labels`: one line of CSV, so that a label holding a comma is
/// quoted (`--labels '"a,b",c'`).
pub fn parse_labels(s: &str) -> Result<Labels, String> {
    pmldesign_data::csv_record(s)
        .map(Labels)
        .map_err(|e| e.to_string())
}

/// The labels most files given to `--labels-file` hold (the alphabets `pml`
/// designs for are far smaller).
const MAX_LABEL_FILE_BYTES: u64 = 64 << 20;

/// Reads `--labels-file FILE`: one label per line, as written (a final newline
/// ends the last label; `\r\n` line ends are taken); an empty line is refused
/// naming it.
pub fn labels_file(s: &str) -> Result<Labels, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(s)
        .and_then(|f| f.take(MAX_LABEL_FILE_BYTES).read_to_string(&mut text))
        .map_err(|e| {
            format!("cannot read it: {e}; give a readable UTF-8 file, one label a line")
        })?;
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let body = body.strip_suffix('\n').unwrap_or(body);
    let labels: Vec<String> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
        .collect();
    if let Some(i) = labels.iter().position(String::is_empty) {
        return Err(format!(
            "line {} is empty; give one non-empty label a line, with no blank lines",
            i + 1
        ));
    }
    Ok(Labels(labels))
}

/// Parses `--radius`: `free` ([`RadiusMethod::DistributionFree`]) or `kappa`, each
/// value documented in `--help`; `kappa_help` says what the kappa method takes.
pub fn radius_method(
    kappa_help: &'static str,
) -> impl clap::builder::TypedValueParser<Value = RadiusMethod> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("free").help("Distribution-free beta*(delta), [E] eq. (7)"),
        PossibleValue::new("kappa").help(kappa_help),
    ])
    .map(|s| pmldesign_app::names::parse(&s).expect("the names offered are the library's"))
}

/// Parses `--counts`: whole numbers (`40` or `4e1`), each at most
/// [`MAX_SAMPLES`]; returns them and the total m ([`sample::sample_size`]).
pub fn parse_counts(items: &[String]) -> Result<(Vec<u64>, u64), CliError> {
    let numbers = parse_numbers("--counts", items)?;
    let mut counts = Vec::with_capacity(numbers.len());
    for (i, &c) in numbers.iter().enumerate() {
        let s = items[i].trim();
        if !(c >= 0.0 && c.fract() == 0.0) {
            return Err(CliError::Usage(format!(
                "invalid --counts[{i}] = {s:?}: counts are whole numbers of samples (>= 0); give e.g. --counts 40,20,20,20"
            )));
        }
        if c > MAX_SAMPLES as f64 {
            return Err(CliError::Usage(format!(
                "invalid --counts[{i}] = {s:?}: above 2^53 = {MAX_SAMPLES}, counts are not exact; give counts (and a total) of at most 2^53"
            )));
        }
        counts.push(c as u64);
    }
    let total = sample::sample_size(&counts).map_err(|e| flag_error("--", e))?;
    Ok((counts, total))
}

/// A model error as a usage error whose field is named as a flag: `prefix` (such
/// as `--`) before the library's field name (`counts[1]` becomes `--counts[1]`).
pub fn flag_error(prefix: &str, e: pmldesign_model::ModelError) -> CliError {
    match e {
        pmldesign_model::ModelError::Invalid {
            field,
            value,
            problem,
            fix,
        } => CliError::Usage(format!(
            "invalid {prefix}{field} = {value}: {problem}; {fix}"
        )),
        // An error without a field keeps the library's words.
        other => other.into(),
    }
}

/// Parses comma-separated numbers, naming the flag and position on error.
pub fn parse_numbers(flag: &str, items: &[String]) -> Result<Vec<f64>, CliError> {
    items
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.trim().parse::<f64>().map_err(|_| {
                CliError::Usage(format!(
                    "invalid {flag}[{i}] = {s:?}: not a number; give comma-separated numbers like 0.4,0.2,0.2,0.2"
                ))
            })
        })
        .collect()
}

/// Parses a whole number >= 0 (`--samples`, `--seed`): the flags take hyphen values
/// so that a negative one is refused with this reason (clap names the flag), not
/// taken for an unknown flag.
pub fn whole_number(s: &str) -> Result<u64, String> {
    let t = s.trim();
    t.parse::<u64>().map_err(|_| {
        let what = if t.starts_with('-') {
            "a negative number"
        } else {
            "not a whole number"
        };
        format!("{what}; give a whole number >= 0 such as 1000")
    })
}

/// [`whole_number`] as a `usize` (`--alphabet`).
pub fn whole_count(s: &str) -> Result<usize, String> {
    let n = whole_number(s)?;
    usize::try_from(n).map_err(|_| format!("{n} is too large for this machine"))
}

/// The library's value of a clap enum, parsed from the name clap gives it
/// through the one table of names (`pmldesign_app::names`), so that a flag's
/// value means what the same name means in Python.
pub fn named<T: pmldesign_app::names::Named>(v: impl clap::ValueEnum) -> T {
    let name = v
        .to_possible_value()
        .expect("every variant of a flag's enum has a name");
    pmldesign_app::names::parse(name.get_name())
        .expect("a flag's names are the library's (tested in args::values)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;
    use pmldesign_app::names::{Named, names};

    /// The names a flag offers are the library's, in its order.
    fn offered<V: ValueEnum, T: Named>() {
        let flag: Vec<String> = V::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        assert_eq!(flag, names::<T>(), "{}", T::FIELD);
        for v in V::value_variants() {
            let _: T = named(v.clone());
        }
    }

    #[test]
    fn every_flag_takes_the_librarys_names() {
        use crate::args::design::{LossMethodName, LossName, PricingName, RecordModeName};
        use crate::args::estimate::MethodArg;
        offered::<LossName, pmldesign_solver::Loss>();
        offered::<LossMethodName, pmldesign_solver::LossMethod>();
        offered::<PricingName, pmldesign_solver::PricingMethod>();
        offered::<RecordModeName, pmldesign_solver::RecordMode>();
        offered::<MethodArg, pmldesign_model::frequency::FrequencyMethod>();
        offered::<crate::args::design::NotionName, pmldesign_app::names::NotionKind>();
        offered::<crate::args::metric::MetricName, pmldesign_model::Metric>();
        for n in crate::args::NullsArg::value_variants() {
            let _: pmldesign_data::Nulls = (*n).into();
        }
    }
}
