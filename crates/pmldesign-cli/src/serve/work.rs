//! The work of a job, run on a blocking thread: a design with its JSON, table
//! and report (as `pml design --format json --report` writes them), and the
//! privatised file (as `pml apply` writes it). No mathematics: the commands do it.

use super::error::ApiError;
use super::form::apply_args;
use super::store::{Kept, Store, Upload, fresh_id};
use crate::args::design::DesignArgs;
use crate::args::{DataFormat, Format};
use crate::commands;
use crate::commands::design::Run;
use crate::render::design::render_design;
use crate::render::report::design_page;
use pmldesign_data::stream::StreamKey;
use pmldesign_solver::Interrupt;
use std::time::Duration;

/// The file the report names in its re-check command.
pub const DESIGN_FILE: &str = "design.json";

/// A design as the page shows and downloads it.
pub struct Designed {
    /// `pml design --format json`.
    pub json: String,
    /// `pml design --format table`.
    pub table: String,
    /// The HTML report.
    pub report: String,
}

/// The largest alphabet the server designs for: a design of it peaks at about
/// 0.85 GB, and `--jobs` of them run at once (`pml design` takes up to
/// `pmldesign_solver::sizes::MAX_ALPHABET`).
pub const SERVE_MAX_ALPHABET: usize = 2048;

/// Solves `a` (stopped by `interrupt`; an alphabet past [`SERVE_MAX_ALPHABET`]
/// refused) and renders it; the report's trade-off
/// curve shares `tradeoff` if given. An upload's stored path is named by the
/// name the browser gave it, in messages and in the provenance.
pub fn design(
    a: &DesignArgs,
    interrupt: Interrupt,
    tradeoff: Option<Duration>,
    upload: Option<&Upload>,
) -> Result<Designed, ApiError> {
    let named = |e: ApiError| match upload {
        Some(u) => e.naming(u),
        None => e,
    };
    let run = Run {
        interrupt,
        progress: false,
        max_alphabet: Some(SERVE_MAX_ALPHABET),
        deadline: a.time_limit.and_then(|s| {
            std::time::Instant::now().checked_add(Duration::try_from_secs_f64(s).ok()?)
        }),
    };
    let (mut d, settings) = commands::design::solve(a, &run).map_err(|e| named(e.into()))?;
    if let (Some(u), Some(p)) = (upload, d.provenance_mut()) {
        p.input = p.input.replace(&u.path.display().to_string(), &u.name);
    }
    Ok(Designed {
        json: render_design(&d, Format::Json)?,
        table: render_design(&d, Format::Table)?,
        report: design_page(&d, &settings, tradeoff, Some(DESIGN_FILE.into())),
    })
}

/// A privatised file as the page downloads it.
pub struct Privatised {
    /// The open output, already unlinked from the work directory.
    pub file: std::fs::File,
    /// Its download name.
    pub name: String,
    /// The warning about the seed (one under 64 bits), shown beside the file.
    pub warning: Option<String>,
}

/// Privatises the column a kept design was counted from, as `pml apply
/// --mechanism design.json --seed S` does (the design verified first).
pub fn privatise(
    store: &Store,
    kept: &Kept,
    seed: Option<&str>,
    (interrupt, time_limit): (Interrupt, f64),
) -> Result<Privatised, ApiError> {
    let Some((upload, column)) = &kept.source else {
        return Err(ApiError::bad(
            "this design came from pasted counts, so there is no file to privatise; upload the file and design from its column",
        ));
    };
    let id = fresh_id();
    let extension = match upload.format {
        DataFormat::Csv => "csv",
        DataFormat::Parquet => "parquet",
    };
    let mechanism = store.path(&id, "json");
    let output = store.path(&format!("{id}-private"), extension);
    let stored = |e: std::io::Error| ApiError::internal(format!("cannot store the design: {e}"));
    std::io::Write::write_all(
        &mut Store::create(&mechanism).map_err(stored)?,
        kept.json.as_bytes(),
    )
    .map_err(stored)?;
    // The privatised file keeps the mode of the file it replaces: 0600.
    Store::create(&output).map_err(stored)?;
    // Stopped by the job's cancel or the server's time limit, as a design is.
    let deadline = Duration::try_from_secs_f64(time_limit)
        .ok()
        .and_then(|d| std::time::Instant::now().checked_add(d));
    let stop = move || {
        if interrupt.is_set() {
            Some("cancelled".to_owned())
        } else if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            Some(format!("the time limit of {time_limit} s passed"))
        } else {
            None
        }
    };
    let done = apply_args(&mechanism, upload, column, &output, seed)
        .and_then(|a| commands::apply::run_until(a, &stop).map_err(ApiError::from));
    let _ = std::fs::remove_file(&mechanism);
    let file = done.map(|()| {
        std::fs::File::open(&output)
            .map_err(|e| ApiError::internal(format!("cannot read the privatised file: {e}")))
    });
    let _ = std::fs::remove_file(&output);
    let file = file.map_err(|e| e.naming(upload))?;
    let stem = std::path::Path::new(&upload.name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("data");
    let warning = seed
        .and_then(|s| StreamKey::parse(s).ok())
        .and_then(|k| crate::io::key::short_seed(&k));
    Ok(Privatised {
        file: file?,
        name: format!("{stem}_private.{extension}"),
        warning,
    })
}
