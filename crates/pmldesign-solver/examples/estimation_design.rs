//! Experiment (issue 37, "design for estimation"): the eps-PML mechanism whose
//! estimate of the input distribution has the least expected squared error
//! (A-optimal), by Frank-Wolfe over the weights of the cone's rays. Each step
//! solves the design LP for the linearised objective
//! `u(c) = c^T J^-2 c / (p . c)` (sub-convex: quadratic over linear, with
//! `J = sum_y c_y c_y^T / q_y` the Fisher information), then mixes. Compared with
//! randomized response calibrated to the same PML and with the MI design.
//!
//! Run with `cargo run --release -p pmldesign-solver --example estimation_design`.

use faer::linalg::solvers::Solve;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::frequency::estimability;
use pmldesign_model::{Mechanism, Prior, UncertaintySet};
use pmldesign_solver::{Problem, Utility};
use std::error::Error;

/// `u(c) = c^T C c / (p . c)` for a fixed positive semi-definite C.
struct Weighted(Array2<f64>);

impl Utility for Weighted {
    fn name(&self) -> String {
        "fisher".into()
    }
    fn column_value(&self, c: ArrayView1<f64>, p: ArrayView1<f64>) -> f64 {
        let q = p.dot(&c);
        if q <= 0.0 {
            0.0
        } else {
            c.dot(&self.0.dot(&c)) / q
        }
    }
}

/// The error per row of `w` under `p` (infinite when not every input is estimable).
fn error(w: &Mechanism, p: &[f64]) -> f64 {
    let e = estimability(w, p).unwrap();
    if e.groups.len() < p.len() {
        f64::INFINITY
    } else {
        e.error_per_row.unwrap_or(f64::INFINITY)
    }
}

/// `J^-2` of `w` under `p` (J = W diag(1/q) W^T), by faer.
fn weight(w: &Mechanism, p: &[f64]) -> Array2<f64> {
    let m = w.matrix();
    let n = m.nrows();
    let q: Vec<f64> = (0..m.ncols())
        .map(|y| (0..n).map(|x| p[x] * m[[x, y]]).sum())
        .collect();
    let j = faer::Mat::<f64>::from_fn(n, n, |a, b| {
        (0..m.ncols())
            .filter(|&y| q[y] > 0.0)
            .map(|y| m[[a, y]] * m[[b, y]] / q[y])
            .sum()
    });
    let inv = j.partial_piv_lu().solve(faer::Mat::<f64>::identity(n, n));
    let sq = &inv * &inv;
    Array2::from_shape_fn((n, n), |(a, b)| sq[(a, b)])
}

/// `(1 - t) a + t b` as one mechanism (the columns of both, scaled).
fn mix(a: &Mechanism, b: &Mechanism, t: f64) -> Mechanism {
    let (ma, mb) = (a.matrix(), b.matrix());
    let rows = (0..ma.nrows())
        .map(|x| {
            let left: Vec<f64> = ma.row(x).iter().map(|v| (1.0 - t) * v).collect();
            left.into_iter()
                .chain(mb.row(x).iter().map(|v| t * v))
                .collect()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

fn main() -> Result<(), Box<dyn Error>> {
    for (n, eps, seed) in [(4, 0.8, 1u64), (6, 1.0, 2), (8, 1.5, 3), (10, 2.0, 4)] {
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) + 0.05
        };
        let raw: Vec<f64> = (0..n).map(|_| next()).collect();
        let total: f64 = raw.iter().sum();
        let p: Vec<f64> = raw.iter().map(|v| v / total).collect();
        let set = UncertaintySet::known(Prior::new(p.clone())?);
        let mi = Problem::new(set.clone()).epsilon(eps).solve()?;
        let rr = mi.baselines.pml_calibrated.mechanism.clone();
        let mut w = rr.clone();
        let mut f = error(&w, &p);
        for _ in 0..40 {
            let c = weight(&w, &p);
            let s = Problem::new(set.clone())
                .epsilon(eps)
                .utility(Weighted(c))
                .solve()?
                .mechanism;
            // Golden-section search of the error on the segment.
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..40 {
                let (a, b) = (lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo));
                if error(&mix(&w, &s, a), &p) < error(&mix(&w, &s, b), &p) {
                    hi = b
                } else {
                    lo = a
                }
            }
            let t = 0.5 * (lo + hi);
            let g = error(&mix(&w, &s, t), &p);
            if g < f - 1e-12 {
                w = mix(&w, &s, t);
                f = g;
            } else {
                break;
            }
        }
        let check = set.worst_case_pml(&w);
        println!(
            "N = {n}, eps = {eps}: m E|p^-p|^2  MI design {:.4}  RR same PML {:.4}  A-optimal (Frank-Wolfe) {:.4}  ({:.1} % below RR; worst PML {:.6}, {} outputs)",
            error(&mi.mechanism, &p),
            error(&rr, &p),
            f,
            100.0 * (1.0 - f / error(&rr, &p)),
            check,
            w.outputs()
        );
    }
    Ok(())
}
