//! The direct loss LP (the `loss` module's docs) solved by Clarabel's interior-point
//! method (pure Rust): the sparse LP is handed over as one CSC matrix, and the dual
//! comes back with the primal, so no second LP is solved.
//!
//! Clarabel solves `min q.x` subject to `A x + s = b`, `s` in a product of cones
//! (here the zero cone for the rows of W, the nonnegative orthant for the rest),
//! with the multipliers `z` of `A x + s = b` as its dual. The outputs are the
//! columns of the cost matrix handed over (all N labels, or the labels of a
//! restricted LP, the `loss_labels` module): with L of them the variables are
//! `W[x][y]` (index `x L + y`), `m_y` and, under Proposition 2, `t_y`; `m` and
//! `t` are left free, as the rows force `m >= 0` and a negative `t` only
//! tightens. The rows, in order:
//!
//! ```text
//! sum_y W[x][y] = 1                         (N rows; z = -alpha_x)
//! W[x][y] - E m_y <= 0                      (N L; z = gamma_xy)
//! m_y - l_k . W[:, y] - h t_y <= 0          (K L; z = sigma_ky)
//! t_y - W[x][y] <= 0                        (N L under Prop 2; z = rho_xy)
//! -W[x][y] <= 0                             (N L)
//! ```
//!
//! so `gamma`, `sigma` and `rho` are read off `z` and repaired to exact dual
//! feasibility like the dual LP's solution (`loss_direct::repaired`). The solve is
//! single-threaded (QDLDL), so its bytes do not depend on the thread count.

use crate::cones::sparse::Constraints;
use crate::settings::Interrupt;
use crate::verify::loss::DualPoint;
use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, SolverStatus, SupportedConeT};
use ndarray::Array2;
use std::time::Instant;

/// Clarabel's stopping tolerances (gap and feasibility): far tighter than its
/// 1e-8 default, which left gaps of 1e-7 relative (squared loss, N = 64); LPs
/// of this form reach 1e-12 in a few more iterations.
const TOLERANCE: f64 = 1e-12;

/// Relative tightening of `E` in the primal rows: the interior point is feasible
/// to about 1e-12, so the simplex's [`crate::design::loss_direct::PRIMAL_MARGIN`]
/// (1e-9) would give up more loss than it protects (measured: gaps of 1e-7 at
/// 1e-9, 2e-9 at 1e-11, squared loss, N = 64).
pub(crate) const MARGIN: f64 = 1e-11;

/// Interior-point iterations allowed (Clarabel's default is 200; LPs of this
/// form take 20 to 40).
const MAX_ITERATIONS: u32 = 400;

/// Iterative refinement of each KKT solve is off: Clarabel's default (up to 10
/// steps to 1e-13) costs up to a third of the solve for these LPs and changes
/// neither the optimum, the certified bound nor the number of iterations. The
/// bound is re-derived from the repaired dual whatever the solve's accuracy.
const ITERATIVE_REFINEMENT: bool = false;

/// The primal W and the dual multipliers of the direct LP with `E` replaced by
/// `e_lp` in the primal rows, one column per column of the costs.
pub struct IpmSolution {
    /// The LP's W (N x L), to be cleaned.
    pub w: Array2<f64>,
    /// The multipliers, to be repaired against the exact `E`.
    pub dual: DualPoint,
}

/// Why the interior-point solve gave no answer.
pub enum IpmFailure {
    /// The deadline or the interrupt came first: the last iterate, neither
    /// feasible nor optimal, but still worth cleaning and repairing.
    Stopped(Box<IpmSolution>),
    /// Clarabel rejected the problem or stopped with a status other than
    /// (almost) solved: the caller falls back to the simplex LPs.
    Failed,
}

/// Solves the direct LP (module docs) over the outputs of the N x L costs `c` by
/// Clarabel with `E` tightened to `e_lp` in the primal rows, stopping at
/// `deadline` or when `interrupt` is set (checked once per iteration).
pub fn solve(
    cons: &Constraints,
    c: &Array2<f64>,
    e_lp: f64,
    deadline: Option<Instant>,
    interrupt: &Interrupt,
) -> std::result::Result<IpmSolution, IpmFailure> {
    let layout = Layout::new(cons, c.nrows(), c.ncols());
    let a = layout.matrix(cons, e_lp);
    let mut q = vec![0.0; layout.variables()];
    for ((x, y), &v) in c.indexed_iter() {
        q[x * layout.l + y] = v;
    }
    let mut b = vec![0.0; layout.rows()];
    b[..layout.n].fill(1.0);
    let cones = [
        SupportedConeT::ZeroConeT(layout.n),
        SupportedConeT::NonnegativeConeT(layout.rows() - layout.n),
    ];
    let p = CscMatrix::zeros((layout.variables(), layout.variables()));
    let mut solver = DefaultSolver::new(&p, &q, &a, &b, &cones, settings(deadline))
        .map_err(|_| IpmFailure::Failed)?;
    let interrupt = interrupt.clone();
    solver.set_termination_callback(move |_| interrupt.is_set());
    solver.solve();
    let sol = &solver.solution;
    let last = IpmSolution {
        w: Array2::from_shape_fn((layout.n, layout.l), |(x, y)| sol.x[x * layout.l + y]),
        dual: layout.dual(&sol.z),
    };
    match sol.status {
        SolverStatus::Solved | SolverStatus::AlmostSolved => Ok(last),
        SolverStatus::MaxTime | SolverStatus::CallbackTerminated => {
            Err(IpmFailure::Stopped(Box::new(last)))
        }
        _ => Err(IpmFailure::Failed),
    }
}

/// Quiet, single-threaded settings with the tolerances above and the time left.
fn settings(deadline: Option<Instant>) -> DefaultSettings<f64> {
    let left = deadline.map_or(f64::INFINITY, |d| {
        d.saturating_duration_since(Instant::now()).as_secs_f64()
    });
    DefaultSettings {
        verbose: false,
        time_limit: left,
        max_iter: MAX_ITERATIONS,
        max_threads: 1,
        tol_gap_abs: TOLERANCE,
        tol_gap_rel: TOLERANCE,
        tol_feas: TOLERANCE,
        iterative_refinement_enable: ITERATIVE_REFINEMENT,
        ..DefaultSettings::default()
    }
}

/// Where the variables and the row blocks of the module docs sit.
struct Layout {
    /// Inputs.
    n: usize,
    /// Outputs (columns of the costs).
    l: usize,
    /// Functionals `l_k`.
    k: usize,
    /// Whether the `t` variables and the `rho` rows exist.
    uses_t: bool,
}

impl Layout {
    pub fn new(cons: &Constraints, n: usize, l: usize) -> Self {
        Layout {
            n,
            l,
            k: cons.functionals.len(),
            uses_t: cons.uses_t(),
        }
    }

    fn variables(&self) -> usize {
        self.n * self.l + self.l * (1 + usize::from(self.uses_t))
    }

    /// First row of the `gamma`, `sigma`, `rho` and `W >= 0` blocks.
    fn gamma(&self) -> usize {
        self.n
    }
    fn sigma(&self) -> usize {
        self.gamma() + self.n * self.l
    }
    fn rho(&self) -> usize {
        self.sigma() + self.k * self.l
    }
    fn sign(&self) -> usize {
        self.rho() + if self.uses_t { self.n * self.l } else { 0 }
    }
    fn rows(&self) -> usize {
        self.sign() + self.n * self.l
    }

    /// `A` column by column (the variables in order, rows increasing in each).
    fn matrix(&self, cons: &Constraints, e_lp: f64) -> CscMatrix<f64> {
        let (n, ls) = (self.n, self.l);
        let mut col = Columns::default();
        for x in 0..n {
            for y in 0..ls {
                let at = x * ls + y;
                col.push(x, 1.0);
                col.push(self.gamma() + at, 1.0);
                for (k, l) in cons.functionals.iter().enumerate() {
                    if l[x] != 0.0 {
                        col.push(self.sigma() + k * ls + y, -l[x]);
                    }
                }
                if self.uses_t {
                    col.push(self.rho() + at, -1.0);
                }
                col.push(self.sign() + at, -1.0);
                col.end();
            }
        }
        for y in 0..ls {
            (0..n).for_each(|x| col.push(self.gamma() + x * ls + y, -e_lp));
            (0..self.k).for_each(|k| col.push(self.sigma() + k * ls + y, 1.0));
            col.end();
        }
        if self.uses_t {
            for y in 0..ls {
                (0..self.k).for_each(|k| col.push(self.sigma() + k * ls + y, -cons.h));
                (0..n).for_each(|x| col.push(self.rho() + x * ls + y, 1.0));
                col.end();
            }
        }
        CscMatrix::new(self.rows(), self.variables(), col.ptr, col.row, col.val)
    }

    /// The multipliers of the `gamma`, `sigma` and `rho` blocks (zeros without `t`).
    fn dual(&self, z: &[f64]) -> DualPoint {
        let (n, l) = (self.n, self.l);
        let block = |start: usize, rows: usize| {
            Array2::from_shape_fn((rows, l), |(i, y)| z[start + i * l + y])
        };
        DualPoint {
            gamma: block(self.gamma(), n),
            sigma: block(self.sigma(), self.k),
            rho: if self.uses_t {
                block(self.rho(), n)
            } else {
                Array2::zeros((n, l))
            },
        }
    }
}

/// A CSC matrix under construction, one column at a time.
struct Columns {
    ptr: Vec<usize>,
    row: Vec<usize>,
    val: Vec<f64>,
}

impl Default for Columns {
    fn default() -> Self {
        Columns {
            ptr: vec![0],
            row: Vec::new(),
            val: Vec::new(),
        }
    }
}

impl Columns {
    fn push(&mut self, row: usize, val: f64) {
        self.row.push(row);
        self.val.push(val);
    }

    fn end(&mut self) {
        self.ptr.push(self.row.len());
    }
}
