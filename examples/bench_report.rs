//! Regenerates the README's benchmark table: runs the release `pml` binary on
//! Dirichlet(2) priors with fixed seeds, eps = ln 2, for the known prior and the l1
//! ball with beta = 0.5 min p, and prints N, rays, rays scanned, time and peak memory.
//!
//! Run through `scripts/bench-report.sh [N ...]` (it builds the binary first).

use std::process::Command;
use std::time::Instant;

#[path = "support/dirichlet.rs"]
mod dirichlet;
use dirichlet::dirichlet2;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![8, 12, 16, 18, 20, 22]
    } else {
        sizes
    };
    let bin = std::env::var("PML_BIN").unwrap_or_else(|_| "target/release/pml".into());
    let time = std::path::Path::new("/usr/bin/time").exists();
    println!(
        "| N | set | eps | extreme rays | rays scanned | passes | time (s) | peak memory (MB) |"
    );
    println!(
        "|---|-----|-----|--------------|--------------|--------|----------|------------------|"
    );
    for &n in &sizes {
        let prior = dirichlet2(n, 1000 + n as u64);
        // Print with full precision, then make the last mass close the sum exactly.
        let mut masses: Vec<String> = prior[..n - 1].iter().map(|x| format!("{x:.15}")).collect();
        let head: f64 = masses.iter().map(|s| s.parse::<f64>().unwrap()).sum();
        masses.push(format!("{}", 1.0 - head));
        let p_min = prior.iter().copied().fold(f64::INFINITY, f64::min);
        for (set, beta) in [("known", None), ("ball", Some(0.5 * p_min))] {
            let mut args: Vec<String> = vec![
                "design".into(),
                "--prior".into(),
                masses.join(","),
                "--epsilon".into(),
                format!("{}", std::f64::consts::LN_2),
                "--format".into(),
                "json".into(),
            ];
            if let Some(b) = beta {
                args.push("--beta".into());
                args.push(format!("{b}"));
            }
            let mut cmd = if time {
                let mut c = Command::new("/usr/bin/time");
                c.args(["-f", "PEAK_KB %M"]).arg(&bin);
                c
            } else {
                Command::new(&bin)
            };
            let start = Instant::now();
            let out = cmd.args(&args).output().expect("run pml");
            let secs = start.elapsed().as_secs_f64();
            if !out.status.success() {
                println!(
                    "| {n} | {set} | ln 2 | failed: {} |",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                continue;
            }
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
            let peak = String::from_utf8_lossy(&out.stderr)
                .lines()
                .find_map(|l| {
                    l.strip_prefix("PEAK_KB ")
                        .map(|k| k.trim().parse::<f64>().unwrap_or(0.0) / 1024.0)
                })
                .map_or("-".to_string(), |mb| format!("{mb:.0}"));
            println!(
                "| {n} | {set} | ln 2 | {} | {} | {} | {secs:.2} | {peak} |",
                v["solver"]["extreme_rays"],
                v["solver"]["rays_priced"],
                v["solver"]["pricing_passes"]
            );
        }
    }
}
