//! Structured extreme rays of the notion cones (docs/theory.md §3-4), normalised by
//! `r . v = 1` with r the cone's normaliser.
//!
//! - eps-LDP, `c_x <= E c_x'` with `E = e^eps`: the staircase patterns, vectors with
//!   entries in `{1, E}` taking both values (Kairouz, Oh and Viswanath's staircase
//!   mechanisms); `2^N - 2` rays, or the constant vector when `E = 1`.
//! - PMC, ALIP, LIP for a known prior p: normalised by `p . c = 1`, the cone's
//!   section is the box `e^-eps_l <= c_x <= e^eps_u` (upper end infinite for PMC)
//!   cut by the hyperplane `p . c = 1`. Its vertices have every coordinate at an
//!   end of the box except at most one, fixed by `p . c = 1` (N - 1 active bounds
//!   and the hyperplane). For PML alone (lower end 0) this is family Z of docs/theory.md §4.
//!
//! Every other notion cone (sets of priors, intersections) goes to the generic
//! double-description enumerator.

use crate::cones::rays::RaySet;
use crate::error::{Result, SolverError};
use crate::limits::MAX_NOTION_N;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::{ColumnCone, Notion};

/// Tolerance, in units of probability mass, deciding whether the free coordinate of
/// a box-cut vertex is at an end of the box.
const MASS_TOL: f64 = 1e-13;

fn check_size(n: usize, method: &'static str) -> Result<()> {
    if n > MAX_NOTION_N {
        return Err(SolverError::AlphabetTooLarge {
            n,
            limit: MAX_NOTION_N,
            method,
        });
    }
    Ok(())
}

/// The structured rays of a notion cone, or `None` when no structured family
/// applies (a set of priors for PMC, ALIP or LIP; an intersection; the PML cones,
/// which have their own families in the `rays` module).
pub fn structured(cone: &ColumnCone) -> Option<Result<RaySet>> {
    let ColumnCone::Notion {
        notion, normaliser, ..
    } = cone
    else {
        return None;
    };
    if let Notion::Ldp { epsilon } = *notion {
        return Some(ldp_staircase(normaliser.view(), epsilon));
    }
    let p = cone.known_prior()?;
    if p.iter().zip(normaliser.iter()).any(|(a, b)| a != b) {
        return None;
    }
    let lo = notion.lower().map_or(0.0, |l| (-l).exp());
    let hi = notion.upper().map_or(f64::INFINITY, f64::exp);
    Some(box_cut(p, lo, hi))
}

/// The extreme rays of the eps-LDP cone `{c >= 0 : c_x <= e^eps c_x'}`: the
/// patterns with entries in `{1, e^eps}` using both values, each normalised by
/// `r . v = 1`; for eps = 0 the single constant ray.
pub fn ldp_staircase(r: ArrayView1<f64>, epsilon: f64) -> Result<RaySet> {
    let n = r.len();
    check_size(n, "LDP staircase rays")?;
    let e = epsilon.exp();
    let mut out = RaySet::new(n);
    if e <= 1.0 || n < 2 {
        let ones = Array1::<f64>::ones(n);
        out.push((&ones / r.sum()).view());
        return Ok(out);
    }
    let full: usize = (1 << n) - 1;
    for mask in 1..full {
        let v = Array1::from_iter((0..n).map(|x| if mask >> x & 1 == 1 { e } else { 1.0 }));
        let s = r.dot(&v);
        out.push((v / s).view());
    }
    Ok(out)
}

/// The vertices of `{c : lo <= c_x <= hi, p . c = 1}` (`hi` may be infinite), with
/// `0 <= lo <= 1 <= hi` and p a probability vector: every coordinate at `lo` or
/// `hi` but at most one free coordinate strictly between. Each vertex once.
pub fn box_cut(p: ArrayView1<f64>, lo: f64, hi: f64) -> Result<RaySet> {
    let n = p.len();
    // With no upper end (PMC) there are N vertices: no limit.
    if hi.is_finite() {
        check_size(n, "box-cut vertices")?;
    }
    let mut out = RaySet::new(n);
    if hi.is_finite() && hi - lo <= 1e-15 * hi.max(1.0) {
        // A single point: the constant column.
        out.push(Array1::<f64>::ones(n).view());
        return Ok(out);
    }
    let full: usize = (1 << n) - 1;
    let mass = |s: usize| -> f64 { (0..n).filter(|x| s >> x & 1 == 1).map(|x| p[x]).sum() };
    // The sets U at the upper end: every subset when hi is finite, none otherwise.
    let uppers: Vec<usize> = if hi.is_finite() {
        (0..=full).collect()
    } else {
        vec![0]
    };
    let value = |u: usize, x: usize| if u >> x & 1 == 1 { hi } else { lo };
    for &u in &uppers {
        let pu = mass(u);
        // Every coordinate at an end.
        let rest = 1.0 - lo * (1.0 - pu) - if u == 0 { 0.0 } else { hi * pu };
        if rest.abs() <= MASS_TOL {
            out.push(Array1::from_iter((0..n).map(|x| value(u, x))).view());
        }
        // One free coordinate f outside U; the rest of the complement at lo.
        for f in (0..n).filter(|f| u >> f & 1 == 0) {
            let pf = p[f];
            let r = rest + lo * pf; // = p_f c_f
            if r > lo * pf + MASS_TOL && r < hi * pf - MASS_TOL {
                let mut v = Array1::from_iter((0..n).map(|x| value(u, x)));
                v[f] = r / pf;
                out.push(v.view());
            }
        }
    }
    Ok(out)
}
