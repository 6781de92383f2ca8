//! Command line and files of the figure examples (`fig2_theorem4`,
//! `fig3_sample_bounds`, `utility_vs_eps`, `fig4_5_laplace`, `fig6_7_gaussian`): the
//! output directory, flags and CSV tables. Included with
//! `#[path = "support/files.rs"] mod files;`. No mathematics here.
#![allow(dead_code)]

use std::error::Error;
use std::path::{Path, PathBuf};

/// The output directory: the value of `--out DIR` on the command line, else
/// `docs/figures` (created if missing).
pub fn output_dir() -> Result<PathBuf, Box<dyn Error>> {
    let dir = match flag_value_checked("--out")? {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from("docs/figures"),
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The value of `--name VALUE` on the command line, if given.
pub fn flag_value(name: &str) -> Option<String> {
    flag_value_checked(name).ok().flatten()
}

/// The value of `--name VALUE`; an error if the flag is given without a value.
fn flag_value_checked(name: &str) -> Result<Option<String>, Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => Ok(Some(
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))?,
        )),
    }
}

/// Writes a CSV table (a header line, then one line per row) through a temporary
/// file and a rename, so nothing partial is left.
pub fn write_csv(
    path: &Path,
    header: &str,
    lines: impl IntoIterator<Item = impl AsRef<str>>,
) -> Result<(), Box<dyn Error>> {
    let mut text = String::from(header);
    text.push('\n');
    for line in lines {
        text.push_str(line.as_ref());
        text.push('\n');
    }
    let tmp = path.with_extension("csv.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}
