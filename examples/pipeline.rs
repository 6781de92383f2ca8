//! The whole pipeline through the public API: read a CSV column, design the
//! mutual-information-optimal mechanism under the sample guarantee (\[E\] Sec. III;
//! `docs/theory.md` §6), print it with its certificate and the randomized-response
//! comparison, privatise the column and keep the design as JSON.
//!
//! ```text
//! cargo run --release --example pipeline -- --data FILE --column NAME \
//!     --epsilon E --delta D [--seed S] --out DIR
//! ```
//!
//! Writes `DIR/private.csv` (the input with the column `NAME_private` appended) and
//! `DIR/design.json` (which reads back into a `Design`).

use pmldesign::prelude::*;
use std::error::Error;
use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::PathBuf;

/// The command-line options.
struct Options {
    data: PathBuf,
    column: String,
    epsilon: f64,
    delta: f64,
    /// The secret key of the draws (a fresh one from the OS when not given).
    seed: Option<String>,
    out: PathBuf,
}

const USAGE: &str =
    "usage: pipeline --data FILE --column NAME --epsilon E --delta D [--seed S] --out DIR";

/// Reads `--flag value` pairs; every flag but `--seed` is required.
fn options() -> Result<Options, Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |flag: &str| -> Option<&str> {
        let i = args.iter().position(|a| a == flag)?;
        args.get(i + 1).map(String::as_str)
    };
    let need = |flag: &str| get(flag).ok_or_else(|| format!("missing {flag}; {USAGE}"));
    Ok(Options {
        data: need("--data")?.into(),
        column: need("--column")?.to_owned(),
        epsilon: need("--epsilon")?.parse()?,
        delta: need("--delta")?.parse()?,
        seed: get("--seed").map(str::to_string),
        out: need("--out")?.into(),
    })
}

/// Prints the mechanism, its certificate and the randomized-response comparison.
fn report(d: &Design) {
    print!("{:<12}", "input");
    for y in d.outputs() {
        print!(" {y:>9}");
    }
    println!();
    for (label, row) in d.labels().iter().zip(d.mechanism().matrix().rows()) {
        print!("{label:<12}");
        for w in row {
            print!(" {w:>9.6}");
        }
        println!();
    }
    let c = &d.certificate();
    println!(
        "certificate: worst-case PML {:.6} <= eps {:.6}; {} {:.6}, at most {:.1e} below the optimum",
        c.worst_case_pml(),
        d.epsilon(),
        d.utility_name(),
        d.utility_value(),
        c.gap()
    );
    if let Some(s) = d.guarantee().and_then(|g| g.statement()) {
        println!("guarantee: {s}");
    }
    for (name, rr) in [
        ("same LDP level", &d.baselines().same_ldp),
        ("calibrated to the same PML", &d.baselines().pml_calibrated),
    ] {
        println!(
            "randomized response, {name}: {} {:.6} (worst-case PML {:.6})",
            d.utility_name(),
            rr.utility,
            rr.worst_case_pml
        );
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let o = options()?;
    let counts = count_column(BufReader::new(File::open(&o.data)?), &o.column, None)?;
    let sample = Sample::from_counts(&counts.counts, o.delta)?;
    let design = Problem::from_sample(sample)
        .epsilon(o.epsilon)
        .utility(FInformation::mutual_information())
        .labels(counts.labels.clone())
        .solve()?;
    report(&design);

    std::fs::create_dir_all(&o.out)?;
    let key = match &o.seed {
        Some(s) => StreamKey::parse(s)?,
        None => StreamKey::from_os(),
    };
    let mut privatiser = CategoricalPrivatiser::new(
        design.mechanism(),
        design.labels().to_vec(),
        design.outputs().to_vec(),
        (&key, o.column.as_str()),
    )?;
    let name = format!("{}_private", o.column);
    let summary = privatise_column(
        BufReader::new(File::open(&o.data)?),
        BufWriter::new(File::create(o.out.join("private.csv"))?),
        &o.column,
        Placement::Append(&name),
        OnUnknown::Error,
        &mut privatiser,
    )?;
    let json = serde_json::to_string_pretty(&design)?;
    std::fs::write(o.out.join("design.json"), &json)?;
    let back: Design = serde_json::from_str(&json)?;
    if back.mechanism() != design.mechanism() {
        return Err("design.json does not read back into the same mechanism".into());
    }
    println!(
        "wrote {} privatised rows to {} and the design to {}",
        summary.privatised,
        o.out.join("private.csv").display(),
        o.out.join("design.json").display()
    );
    Ok(())
}
