//! A mechanism's outputs merged by their Bayes guess (docs/theory.md §4c): the
//! release of a structured baseline under a loss. Kept as its merged columns
//! and their labels, N x K', so that scoring a candidate costs `N K'` where the
//! released N x N matrix (mostly zero columns) cost `N^2` a candidate: 134 MB
//! each at N = 4096.

use crate::objective::loss::{LabelledLoss, Shape};
use ndarray::{Array2, ArrayView1, ArrayView2};
use pmldesign_model::Mechanism;

/// Outputs merged by their best guess: column i of `merged` is the sum of the
/// outputs whose guess is `labels[i]` (ascending, distinct).
#[derive(Debug, Clone, PartialEq)]
pub struct Guessed {
    merged: Mechanism,
    /// The guesses, ascending and distinct: column i of `merged` guesses `labels[i]`.
    pub labels: Vec<usize>,
}

/// A loss's release of a candidate and its expected loss ([`LossScore::guessed`]).
pub(crate) type Guesser<'a> = dyn Fn(&Mechanism) -> Option<(Guessed, f64)> + Sync + 'a;

impl LossScore<'_> {
    /// The candidate `m` released as its guesses, with that release's
    /// expected loss.
    pub(crate) fn guessed(&self, m: &Mechanism) -> Option<(Guessed, f64)> {
        let g = Guessed::of(m, &LabelledLoss::with_shape(self.c, self.shape))?;
        let loss = g.expected_loss(self.r, self.d);
        Some((g, loss))
    }
}

impl Guessed {
    /// `m`'s outputs merged by their guess `argmin_g c[:, g] . W[:, y]` (ties
    /// to the lowest g), each entry summed in the order of the outputs; `None`
    /// only if the rows drift.
    pub fn of(m: &Mechanism, c: &LabelledLoss<'_>) -> Option<Guessed> {
        let w = m.matrix();
        let guess: Vec<usize> = w.columns().into_iter().map(|v| c.best_label(v).0).collect();
        let mut labels = guess.clone();
        labels.sort_unstable();
        labels.dedup();
        let at: Vec<usize> = guess
            .iter()
            .map(|g| labels.binary_search(g).unwrap_or_default())
            .collect();
        let mut merged = Array2::zeros((w.nrows(), labels.len()));
        for (mut to, row) in merged.outer_iter_mut().zip(w.outer_iter()) {
            for (&i, &v) in at.iter().zip(row) {
                to[i] += v;
            }
        }
        Some(Guessed {
            merged: Mechanism::new(merged).ok()?,
            labels,
        })
    }

    /// The merged columns, N x K' (the released matrix without its zero
    /// columns: the same leakage under every notion).
    pub fn merged(&self) -> &Mechanism {
        &self.merged
    }

    /// `sum_x r_x sum_i merged[x][i] d[x][labels_i]`: the expected loss of the
    /// release under the prior `r`.
    pub fn expected_loss(&self, r: ArrayView1<f64>, d: ArrayView2<f64>) -> f64 {
        let w = self.merged.matrix();
        r.iter()
            .zip(w.outer_iter().zip(d.outer_iter()))
            .map(|(r, (wr, dr))| {
                let row: f64 = wr.iter().zip(&self.labels).map(|(v, &g)| v * dr[g]).sum();
                r * row
            })
            .sum()
    }

    /// The released N x N mechanism: output g is the guess "X = g".
    pub fn released(&self) -> Option<Mechanism> {
        let w = self.merged.matrix();
        let mut out = Array2::zeros((w.nrows(), w.nrows()));
        for (mut to, row) in out.outer_iter_mut().zip(w.outer_iter()) {
            for (&g, &v) in self.labels.iter().zip(row) {
                to[g] = v;
            }
        }
        Mechanism::new(out).ok()
    }
}

/// How a loss scores a structured candidate: by the guesses of the weighted
/// loss `c`, and the expected loss of that release under `r` by `d`.
pub(crate) struct LossScore<'a> {
    /// The weighted loss `c[x][g] = r_x d[x][g]`.
    pub(crate) c: &'a Array2<f64>,
    /// Its shape, found once.
    pub(crate) shape: &'a Shape,
    /// The reference prior.
    pub(crate) r: ArrayView1<'a, f64>,
    /// The loss matrix.
    pub(crate) d: ArrayView2<'a, f64>,
}

/// `c[x][g] = r_x d[x][g]`: the risk of guess g is `c[:, g] . W[:, y]`.
pub fn weighted_loss(r: ArrayView1<f64>, d: ArrayView2<f64>) -> Array2<f64> {
    &d * &r.insert_axis(ndarray::Axis(1))
}

/// A mechanism with its outputs merged by their Bayes guess under the
/// reference prior (`argmin_g sum_x r_x W[x][y] d[x][g]`, ties to the lowest
/// g): an N x N mechanism whose output is the guess, a post-processing, so
/// every notion it met it still meets (`None` only if the rows drift).
pub fn guesses(m: &Mechanism, r: ArrayView1<f64>, d: ArrayView2<f64>) -> Option<Mechanism> {
    Guessed::of(m, &LabelledLoss::new(&weighted_loss(r, d)))?.released()
}
