//! What the page asks for, as the `pml design` and `pml apply` command lines it
//! stands for: each field becomes a `--flag=value` (so no value is read as a
//! flag) parsed by clap, and checked by the commands as in the shell. An error
//! therefore names the flag, the value and the fix in the CLI's words.

use super::error::ApiError;
use super::store::Upload;
use crate::args::apply::ApplyArgs;
use crate::args::design::DesignArgs;
use crate::args::{Cli, Command, DataFormat, one_line};
use clap::Parser;
use serde::Deserialize;
use std::path::Path;

/// A design asked for by the page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DesignForm {
    /// Pasted counts, separated by commas, spaces or new lines (`--counts`).
    pub counts: Option<String>,
    /// An upload's id (`--data`), with `column`.
    pub upload: Option<String>,
    /// The column of the upload (`--column`).
    pub column: Option<String>,
    /// `--epsilon`.
    pub epsilon: f64,
    /// `--delta` (with counts or a file).
    pub delta: Option<f64>,
    /// `--notion` [default: pml].
    pub notion: Option<String>,
    /// `--utility` [default: mi].
    pub utility: Option<String>,
    /// Whether the report has its trade-off curve.
    #[serde(default)]
    pub tradeoff: bool,
    /// A name to cancel the design by.
    pub job: Option<String>,
}

/// The privatised file asked for by the page.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivatiseForm {
    /// The design's id, as the design's answer gave it.
    pub design: String,
    /// `--seed` (empty or absent: a fresh key from the operating system).
    pub seed: Option<String>,
    /// A name to cancel it by.
    pub job: Option<String>,
}

/// A job to cancel.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CancelForm {
    /// The name the design was started with.
    pub job: String,
}

/// The `--data` flags of an upload and its column.
fn data_flags(upload: &Upload, column: &str) -> Vec<String> {
    let format = match upload.format {
        DataFormat::Csv => "csv",
        DataFormat::Parquet => "parquet",
    };
    vec![
        format!("--data={}", upload.path.display()),
        format!("--data-format={format}"),
        format!("--column={column}"),
    ]
}

/// The `pml design` arguments of a form, under the server's time limit.
pub fn design_args(
    form: &DesignForm,
    upload: Option<(&Upload, &str)>,
    time_limit: f64,
) -> Result<DesignArgs, ApiError> {
    let mut argv = vec!["pml".to_owned(), "design".to_owned()];
    match (&form.counts, upload) {
        (Some(counts), None) => {
            let items: Vec<&str> = counts
                .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .collect();
            argv.push(format!("--counts={}", items.join(",")));
        }
        (None, Some((upload, column))) => argv.extend(data_flags(upload, column)),
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "give the prior once: pasted counts or an uploaded file, not both",
            ));
        }
        (None, None) => {
            return Err(ApiError::bad(
                "give the prior: paste counts, or upload a CSV or Parquet file and pick its column",
            ));
        }
    }
    argv.push(format!("--epsilon={}", form.epsilon));
    if let Some(delta) = form.delta {
        argv.push(format!("--delta={delta}"));
    }
    argv.push(format!(
        "--notion={}",
        form.notion.as_deref().unwrap_or("pml")
    ));
    argv.push(format!(
        "--utility={}",
        form.utility.as_deref().unwrap_or("mi")
    ));
    argv.push(format!("--time-limit={time_limit}"));
    match parse(argv)? {
        Command::Design(a) => Ok(a),
        _ => Err(ApiError::internal(
            "the design form parsed as another command",
        )),
    }
}

/// The `pml apply` arguments that privatise `column` of `upload` with the design
/// file `mechanism` into `output`.
pub fn apply_args(
    mechanism: &Path,
    upload: &Upload,
    column: &str,
    output: &Path,
    seed: Option<&str>,
) -> Result<ApplyArgs, ApiError> {
    let mut argv = vec![
        "pml".to_owned(),
        "apply".to_owned(),
        format!("--mechanism={}", mechanism.display()),
        format!("--output={}", output.display()),
    ];
    argv.extend(data_flags(upload, column));
    if let Some(seed) = seed.map(str::trim).filter(|s| !s.is_empty()) {
        argv.push(format!("--seed={seed}"));
    }
    match parse(argv)? {
        Command::Apply(a) => Ok(a),
        _ => Err(ApiError::internal(
            "the privatise form parsed as another command",
        )),
    }
}

/// clap's parse; a refused value is a 400 in clap's one line.
fn parse(argv: Vec<String>) -> Result<Command, ApiError> {
    Cli::try_parse_from(argv)
        .map(|cli| cli.command)
        .map_err(|e| {
            let line = one_line(&e);
            ApiError::bad(line.strip_prefix("error: ").unwrap_or(&line).to_owned())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(counts: &str, epsilon: f64, notion: &str) -> DesignForm {
        DesignForm {
            counts: Some(counts.into()),
            upload: None,
            column: None,
            epsilon,
            delta: None,
            notion: Some(notion.into()),
            utility: None,
            tradeoff: false,
            job: None,
        }
    }

    #[test]
    fn a_form_is_the_command_line_it_stands_for() {
        let a = design_args(&form("30, 20\n10", 0.5, "ldp"), None, 30.0).unwrap();
        assert_eq!(
            a.input.counts.as_deref(),
            Some(&["30".into(), "20".into(), "10".into()][..])
        );
        assert_eq!(a.level.epsilon, Some(0.5));
        assert_eq!(a.time_limit, Some(30.0));
        let e = design_args(&form("1,2", 0.5, "--help"), None, 30.0).unwrap_err();
        assert!(e.message.contains("--notion"), "{}", e.message);
        assert!(e.message.starts_with("invalid value"), "{}", e.message);
    }
}
