//! Regenerates the README's benchmark tables: runs the release `pml` binary on
//! Dirichlet(2) priors with fixed seeds, eps = ln 2, for the known prior and the l1
//! ball with beta = 0.5 min p, and prints N, status, certified relative gap, time
//! and peak memory.
//!
//! Run through `scripts/bench-report.sh [options] [N ...]` (it builds the binary
//! first). Options: `--notion NAME` (pml, pmc, alip, lip, ldp; ALIP uses
//! eps_l = eps_u = ln 2), `--gap G` (the relative gap to stop at), `--known-only`,
//! `--compare-enumeration` (also times `--pricing enumerate`, the reference),
//! `--utility NAME`, `--loss NAME` (a label loss: hamming, absolute, squared),
//! `--time-limit SECONDS`, `--zipf ROWS` (instead: a CSV column of
//! ROWS rows over N categories with Zipf(1.1) frequencies, designed from the sample
//! with delta = 1e-6 at eps = 1, for the chosen utility and for the Hamming loss).
//! `PML_EXTRA="--threads 1"` passes flags to every run of `pml`; `PML_DRY_RUN=1`
//! prints each command line instead of running it.

use std::process::Command;
use std::time::Instant;

#[path = "support/dirichlet.rs"]
mod dirichlet;
use dirichlet::dirichlet2;

/// The options of one report.
struct Options {
    sizes: Vec<usize>,
    notion: String,
    utility: String,
    loss: Option<String>,
    gap: Option<String>,
    time_limit: Option<String>,
    known_only: bool,
    compare_enumeration: bool,
    zipf_rows: Option<u64>,
}

fn options() -> Options {
    let mut o = Options {
        sizes: Vec::new(),
        notion: "pml".into(),
        utility: "mi".into(),
        loss: None,
        gap: None,
        time_limit: None,
        known_only: false,
        compare_enumeration: false,
        zipf_rows: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--notion" => o.notion = args.next().expect("--notion NAME"),
            "--utility" => o.utility = args.next().expect("--utility NAME"),
            "--loss" => {
                o.loss = args.next();
                o.utility = "loss".into();
            }
            "--gap" => o.gap = args.next(),
            "--time-limit" => o.time_limit = args.next(),
            "--known-only" => o.known_only = true,
            "--compare-enumeration" => o.compare_enumeration = true,
            "--zipf" => o.zipf_rows = args.next().and_then(|r| r.parse().ok()),
            n => o.sizes.push(n.parse().expect("an alphabet size")),
        }
    }
    if o.sizes.is_empty() {
        o.sizes = vec![8, 12, 16, 20, 22, 32];
    }
    o
}

/// The prior of size n, printed with full precision and the last mass closing
/// the sum exactly.
fn prior(n: usize) -> (String, f64) {
    let prior = dirichlet2(n, 1000 + n as u64);
    let mut masses: Vec<String> = prior[..n - 1].iter().map(|x| format!("{x:.15}")).collect();
    let head: f64 = masses.iter().map(|s| s.parse::<f64>().unwrap()).sum();
    masses.push(format!("{}", 1.0 - head));
    let p_min = prior.iter().copied().fold(f64::INFINITY, f64::min);
    (masses.join(","), p_min)
}

/// One run of `pml design`: a table row.
fn run(bin: &str, args: &[String]) -> String {
    let time = std::path::Path::new("/usr/bin/time").exists();
    let mut cmd = if time {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "PEAK_KB %M"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let start = Instant::now();
    // Flags for every run, before the subcommand (PML_EXTRA="--threads 1").
    let extra: Vec<String> = std::env::var("PML_EXTRA")
        .map(|e| e.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    if std::env::var_os("PML_DRY_RUN").is_some() {
        return format!("{bin} {} {}", extra.join(" "), args.join(" "));
    }
    let out = cmd.args(&extra).args(args).output().expect("run pml");
    let secs = start.elapsed().as_secs_f64();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err
            .lines()
            .find(|l| !l.starts_with("PEAK_KB"))
            .unwrap_or("");
        return format!("failed: {} | | {secs:.2} | |", line.trim());
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let peak = String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| {
            l.strip_prefix("PEAK_KB ")
                .map(|k| k.trim().parse::<f64>().unwrap_or(0.0) / 1024.0)
        })
        .map_or("-".to_string(), |mb| format!("{mb:.0}"));
    let gap = v["certificate"]["gap"].as_f64().unwrap_or(f64::NAN);
    // A loss design reports its expected loss and its LP method.
    let value = v["loss"]["expected_loss"]
        .as_f64()
        .or(v["utility"]["value"].as_f64())
        .unwrap_or(f64::NAN);
    let method = v["loss"]["method"]
        .as_str()
        .or(v["solver"]["pricing"].as_str());
    format!(
        "{} | {} | {value:.9} | {:.1e} | {secs:.2} | {peak}",
        method.unwrap_or("?").replace('_', " "),
        v["status"].as_str().unwrap_or("?"),
        gap / value.abs().max(f64::MIN_POSITIVE),
    )
}

/// A CSV column `city` of `rows` rows over `n` categories with Zipf(1.1)
/// frequencies (every category at least once), written to a temporary file.
fn zipf_csv(n: usize, rows: u64) -> std::path::PathBuf {
    let w: Vec<f64> = (1..=n).map(|k| (k as f64).powf(-1.1)).collect();
    let total: f64 = w.iter().sum();
    let mut text = String::from("city\n");
    for (k, wk) in w.iter().enumerate() {
        let count = ((rows as f64 * wk / total).round() as u64).max(1);
        for _ in 0..count {
            text.push_str(&format!("c{:03}\n", k + 1));
        }
    }
    let path = std::env::temp_dir().join(format!("pml-zipf-{n}-{rows}.csv"));
    std::fs::write(&path, text).expect("write the Zipf column");
    path
}

/// The Zipf rows: the utility and the Hamming loss from the sample.
fn zipf_report(o: &Options, bin: &str, rows: u64) {
    for &n in &o.sizes {
        let path = zipf_csv(n, rows);
        let mut args: Vec<String> = ["design", "--data"].map(String::from).to_vec();
        args.push(path.display().to_string());
        args.extend(
            [
                "--column",
                "city",
                "--delta",
                "1e-6",
                "--epsilon",
                "1",
                "--format",
                "json",
            ]
            .map(String::from),
        );
        if let Some(t) = &o.time_limit {
            args.extend(["--time-limit".into(), t.clone()]);
        }
        if let Some(g) = &o.gap {
            args.extend(["--gap".into(), g.clone()]);
        }
        for (utility, extra) in [
            (o.utility.as_str(), &[][..]),
            ("hamming", &["--loss", "hamming"][..]),
        ] {
            let mut a = args.clone();
            let name = if extra.is_empty() { utility } else { "loss" };
            a.extend(["--utility".to_string(), name.to_string()]);
            a.extend(extra.iter().map(|s| s.to_string()));
            println!(
                "| {n} | zipf, {rows} rows, delta 1e-6 | pml | {utility} | {} |",
                run(bin, &a)
            );
        }
        let _ = std::fs::remove_file(path);
    }
}

fn main() {
    let o = options();
    let bin = std::env::var("PML_BIN").unwrap_or_else(|_| "target/release/pml".into());
    println!(
        "| N | set | notion | utility | pricing | status | utility | relative gap | time (s) | peak memory (MB) |"
    );
    println!(
        "|---|-----|--------|---------|---------|--------|---------|--------------|----------|------------------|"
    );
    if let Some(rows) = o.zipf_rows {
        return zipf_report(&o, &bin, rows);
    }
    for &n in &o.sizes {
        let (masses, p_min) = prior(n);
        let sets: &[(&str, Option<f64>)] = if o.known_only || o.notion != "pml" {
            &[("known", None)]
        } else {
            &[("known", None), ("ball", Some(0.5 * p_min))]
        };
        for &(set, beta) in sets {
            let mut args: Vec<String> = ["design", "--prior", &masses, "--epsilon"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            args.push(format!("{}", std::f64::consts::LN_2));
            args.extend(
                [
                    "--format",
                    "json",
                    "--notion",
                    &o.notion,
                    "--utility",
                    &o.utility,
                ]
                .map(String::from),
            );
            if o.notion == "alip" {
                args.push("--epsilon-lower".into());
                args.push(format!("{}", std::f64::consts::LN_2));
            }
            if let Some(l) = &o.loss {
                args.extend(["--loss".into(), l.clone()]);
            }
            if let Some(b) = beta {
                args.extend(["--beta".into(), format!("{b}")]);
            }
            if let Some(g) = &o.gap {
                args.extend(["--gap".into(), g.clone()]);
            }
            if let Some(t) = &o.time_limit {
                args.extend(["--time-limit".into(), t.clone()]);
            }
            let mut methods = vec!["auto"];
            if o.compare_enumeration {
                methods.push("enumerate");
            }
            for m in methods {
                let mut a = args.clone();
                a.extend(["--pricing".into(), m.to_string()]);
                println!(
                    "| {n} | {set} | {} | {} | {} |",
                    o.notion,
                    o.loss.as_deref().unwrap_or(&o.utility),
                    run(&bin, &a)
                );
            }
        }
    }
}
