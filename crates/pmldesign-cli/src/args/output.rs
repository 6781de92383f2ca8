//! `--format` and `--output`: the format asked for, or the default from the terminal
//! and the extension. Writing is [`crate::io::write`]'s.

use clap::{Args, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people (the default on a terminal).
    Table,
    /// One JSON object (the default otherwise).
    Json,
    /// CSV: the mechanism matrix, one row per input (`pml envelope`: the curve, one
    /// row per delta).
    Csv,
}

/// Where and how to write.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format; defaults to table on a terminal, otherwise JSON (or by the
    /// extension of --output).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write to this file (a regular file is replaced atomically: a temporary file
    /// renamed into place; `-` is stdout; devices and pipes are written in place).
    #[arg(long)]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// The file of `--output`, if one was given (`-` is stdout).
    pub fn path(&self) -> Option<&Path> {
        self.output.as_deref()
    }

    /// The format asked for, or the default.
    pub fn format(&self) -> Format {
        if let Some(f) = self.format {
            return f;
        }
        match &self.output {
            Some(p) => match extension(p).as_deref() {
                Some("csv") => Format::Csv,
                Some("txt") => Format::Table,
                _ => Format::Json,
            },
            None if std::io::stdout().is_terminal() => Format::Table,
            None => Format::Json,
        }
    }
}

/// The extension of `path` in lower case (`a.CSV` is CSV).
pub fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}
