//! Several families priced as one pass, sharing its node budget.

use super::*;
use crate::colgen::oracle::{PassControl, Pricing, RayOracle, TopK};

/// Several families priced as one pass (a cone whose rays come in several
/// families, as \[E\] Prop 2's Z and L): they share the node budget, so a family
/// with no entering ray stops once another has found some.
pub struct Union {
    parts: Vec<Box<dyn Searched>>,
    n: usize,
    deadline: Option<Instant>,
}

impl Union {
    /// \[E\] Prop 2's families Z and L.
    pub fn ball(family_z: BoxCut, family_l: TwoLevel, deadline: Option<Instant>) -> Self {
        Union {
            n: family_z.p.len(),
            parts: vec![Box::new(family_z), Box::new(family_l)],
            deadline,
        }
    }

    /// The exact l1 ball past \[E\] Prop 2 (docs/theory.md §4b): Prop 2's
    /// families Z and L, the staircase rays with a top set lighter than
    /// `beta/2`, and the three-level rays.
    pub fn exact_ball(
        prop2: (BoxCut, TwoLevel),
        staircase: TwoLevel,
        three: ThreeLevel,
        deadline: Option<Instant>,
    ) -> Self {
        let (family_z, family_l) = prop2;
        Union {
            n: family_z.p.len(),
            parts: vec![
                Box::new(family_z),
                Box::new(family_l),
                Box::new(staircase),
                Box::new(three),
            ],
            deadline,
        }
    }
}

impl RayOracle for Union {
    fn dimension(&self) -> usize {
        self.n
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
        let seed_budget = self.parts.iter().map(|o| o.seed_budget()).min();
        let pass = Pass::new(self.deadline, seed_budget.unwrap_or(PASS_BUDGET), control);
        let mut out = Pricing {
            max_reduced_cost: f64::NEG_INFINITY,
            entering: Vec::new(),
            priced: 0,
        };
        let mut top = TopK::new(keep);
        let fine = fine_proof(tol, lambda.sum());
        for o in &self.parts {
            if fine && pass.spent() && !top.is_empty() && control.effort == 1 {
                // Toward an exact design, a pass's bound serves only once it
                // proves: the families left can give their entering rays in a
                // later pass, which is cheaper than searching them all now.
                // Approximate designs stop on a pass's bound, so they search
                // them all (stopping early costs them more passes); so
                // does a pass whose searches found rays that did not enter
                // once re-priced exactly, and a pass asked for more effort
                // (without them an exact design could stop on its a-priori
                // bound: N = 64 over the ball, one run in six, gap 1.7e-3).
                out.max_reduced_cost = f64::INFINITY;
                continue;
            }
            let p = o.price_in(lambda, tol, keep, &pass);
            out.max_reduced_cost = out.max_reduced_cost.max(p.max_reduced_cost);
            out.priced += p.priced;
            for (rc, c) in p.entering {
                top.push(rc, c);
            }
        }
        out.entering = top.into_sorted();
        out
    }
}
