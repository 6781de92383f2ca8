//! Pricing by enumeration: rays held in memory with their utilities, and the
//! structured families of the known prior and the ball streamed without being
//! stored (the reference for branch and bound).

use crate::colgen::engine::{RayLpSolution, solve_with_oracle};
use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle, Tiebreak, TopK};
use crate::cones::rays::{LevelRay, RaySet, StructuredFamily};
use crate::error::Result;
use crate::objective::utility::Utility;
use crate::settings::ColumnGenerationSettings;
use ndarray::Array1;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Rays per check of the clock in a pass over materialised rays.
const CHECK_EVERY: usize = 4096;

/// The pass's bound: the largest reduced cost seen where every ray was priced,
/// none (`+inf`) where the pass stopped part-way.
fn bound_of(max_rc: f64, stopped: &AtomicBool) -> f64 {
    if stopped.load(Ordering::Relaxed) {
        f64::INFINITY
    } else {
        max_rc
    }
}

/// Rays held in memory with their cached utilities.
pub struct MaterialisedRays<'a> {
    rays: &'a RaySet,
    mu: Vec<f64>,
}

impl<'a> MaterialisedRays<'a> {
    /// Wraps rays with `mu[k] = mu(v_k)`.
    pub fn new(rays: &'a RaySet, mu: Vec<f64>) -> Self {
        assert_eq!(rays.len(), mu.len());
        MaterialisedRays { rays, mu }
    }
}

impl RayOracle for MaterialisedRays<'_> {
    fn dimension(&self) -> usize {
        self.rays.dimension()
    }

    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        self.price_with(lambda, tol, keep, &PassControl::default())
    }

    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        let l = lambda.as_slice().expect("contiguous");
        let stopped = AtomicBool::new(false);
        let (max_rc, top) = (0..self.rays.len())
            .into_par_iter()
            .with_min_len(CHECK_EVERY)
            .fold(
                || (f64::NEG_INFINITY, TopK::new(keep)),
                |(mx, mut top), k| {
                    if k % CHECK_EVERY == 0 && control.stop() {
                        stopped.store(true, Ordering::Relaxed);
                    }
                    if stopped.load(Ordering::Relaxed) {
                        return (mx, top);
                    }
                    let r = self.rays.ray(k);
                    let rc = self.mu[k] - r.iter().zip(l).map(|(a, b)| a * b).sum::<f64>();
                    if rc > tol && rc >= top.threshold() {
                        top.push(rc, k);
                    }
                    (mx.max(rc), top)
                },
            )
            .reduce(
                || (f64::NEG_INFINITY, TopK::new(keep)),
                |(m1, t1), (m2, t2)| (m1.max(m2), t1.merge(t2)),
            );
        Pricing {
            max_reduced_cost: bound_of(max_rc, &stopped),
            entering: top
                .into_sorted()
                .into_iter()
                .map(|(rc, k)| {
                    (
                        rc,
                        Column {
                            vector: self.rays.ray(k).to_owned(),
                            value: self.mu[k],
                        },
                    )
                })
                .collect(),
            priced: self.rays.len() as u64,
        }
    }
}

/// Streams the structured rays for pricing, in parallel over the groups A, with
/// the utility evaluated on blocks in O(1) per ray where the utility allows.
pub struct StructuredRays<'a> {
    family: &'a StructuredFamily,
    utility: &'a dyn Utility,
    reference: Array1<f64>,
}

impl<'a> StructuredRays<'a> {
    /// Pricing over `family` for `utility` under the reference prior.
    pub fn new(
        family: &'a StructuredFamily,
        utility: &'a dyn Utility,
        reference: Array1<f64>,
    ) -> Self {
        StructuredRays {
            family,
            utility,
            reference,
        }
    }

    fn value(&self, r: &LevelRay) -> f64 {
        self.utility
            .column_value_on_blocks(&self.family.blocks(r))
            .unwrap_or_else(|| {
                self.utility
                    .column_value(self.family.vector(r).view(), self.reference.view())
            })
    }

    /// Number of rays (one counting pass).
    pub fn count(&self) -> u64 {
        self.count_until(&PassControl::default())
            .expect("a pass without a deadline runs to its end")
    }

    /// [`Self::count`], or `None` where `control` stops the pass (it looks
    /// between groups of 256 sets, as pricing does): a count is as long as a
    /// pricing pass, 2^N groups.
    pub fn count_until(&self, control: &PassControl) -> Option<u64> {
        let stopped = AtomicBool::new(control.stop());
        let k = self
            .family
            .groups()
            .into_par_iter()
            .with_min_len(256)
            .map(|a| {
                if a % 256 == 0 && control.stop() {
                    stopped.store(true, Ordering::Relaxed);
                }
                let mut k = 0u64;
                if !stopped.load(Ordering::Relaxed) {
                    self.family.rays_with_top(a, &mut |_| k += 1);
                }
                k
            })
            .sum();
        (!stopped.load(Ordering::Relaxed)).then_some(k)
    }
}

impl RayOracle for StructuredRays<'_> {
    fn dimension(&self) -> usize {
        self.family.dimension()
    }

    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        self.price_with(lambda, tol, keep, &PassControl::default())
    }

    /// Stops between groups at the deadline or Ctrl-C, then bounds nothing.
    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        if control.stop() {
            // Not even the 2^N sums below: the pass bounds nothing.
            return Pricing {
                max_reduced_cost: f64::INFINITY,
                entering: Vec::new(),
                priced: 0,
            };
        }
        // lambda(S) for every subset, as for the masses.
        let n = self.family.dimension();
        let full: usize = (1 << n) - 1;
        let mut sums = vec![0.0f64; 1 << n];
        for s in 1..=full {
            let low = s.trailing_zeros() as usize;
            sums[s] = sums[s & (s - 1)] + lambda[low];
        }
        let stopped = AtomicBool::new(false);
        let (max_rc, top, priced) = self
            .family
            .groups()
            .into_par_iter()
            .with_min_len(256)
            .fold(
                || (f64::NEG_INFINITY, TopK::new(keep), 0u64),
                |(mut mx, mut top, mut priced), a| {
                    if a % 256 == 0 && control.stop() {
                        stopped.store(true, Ordering::Relaxed);
                    }
                    if stopped.load(Ordering::Relaxed) {
                        return (mx, top, priced);
                    }
                    self.family.rays_with_top(a, &mut |r| {
                        let mu = self.value(&r);
                        let rc = mu - (r.top * sums[r.a] + r.level * sums[r.l]);
                        priced += 1;
                        mx = mx.max(rc);
                        if rc > tol && rc >= top.threshold() {
                            top.push(rc, (r, mu));
                        }
                    });
                    (mx, top, priced)
                },
            )
            .reduce(
                || (f64::NEG_INFINITY, TopK::new(keep), 0u64),
                |(m1, t1, c1), (m2, t2, c2)| (m1.max(m2), t1.merge(t2), c1 + c2),
            );
        Pricing {
            max_reduced_cost: bound_of(max_rc, &stopped),
            entering: top
                .into_sorted()
                .into_iter()
                .map(|(rc, (r, mu))| {
                    (
                        rc,
                        Column {
                            vector: self.family.vector(&r),
                            value: mu,
                        },
                    )
                })
                .collect(),
            priced,
        }
    }
}

/// Solves the LP over materialised `rays` with `mu[k] = mu(v_k)`; see
/// [`solve_with_oracle`].
pub fn solve(
    rays: &RaySet,
    mu: &[f64],
    ones_value: f64,
    settings: &ColumnGenerationSettings,
) -> Result<RayLpSolution> {
    solve_with_oracle(
        &MaterialisedRays::new(rays, mu.to_vec()),
        Vec::new(),
        ones_value,
        crate::colgen::engine::APriori::none(),
        settings,
        &mut |_| {},
    )
}

/// Structured rays of equal reduced cost are kept in the order of their sets
/// (top set, then level set), then their levels and utility.
impl Tiebreak for (LevelRay, f64) {
    fn tiebreak(&self, other: &Self) -> std::cmp::Ordering {
        let (r, q) = (&self.0, &other.0);
        (r.a, r.l)
            .cmp(&(q.a, q.l))
            .then_with(|| r.top.total_cmp(&q.top))
            .then_with(|| r.level.total_cmp(&q.level))
            .then_with(|| self.1.total_cmp(&other.1))
    }
}
