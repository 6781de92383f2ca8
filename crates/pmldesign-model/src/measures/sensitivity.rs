//! Leakage over a set of priors (\[E\] Defs 5-6, Thms 3-4, Cor 2; `docs/theory.md`
//! §6): the sensitivity of `eps_min` to the prior and the Theorem 4 bounds on it.

use super::pml::{eps_min, privacy_region};
use crate::mechanism::Mechanism;
use crate::prior::Prior;
use crate::sample;
use crate::uncertainty::UncertaintySet;

/// The local leakage sensitivity `S_p(W, S) = sup_{Q in S} eps_min(W, Q) - eps_min(W, p)`
/// (\[E\] Def 6), computed exactly: the supremum is the leakage capacity
/// [`UncertaintySet::worst_case_pml`] (\[E\] Def 5; exact for the ball by the greedy mass
/// transfer, over the vertices for a polytope).
///
/// \[E\] Def 6 takes p in S (then `S >= 0` and `C = eps_min(W, p) + S`, Remark 2); for a
/// p outside S the value may be negative. Infinite when some prior of the closed set
/// gives an output of W probability 0.
pub fn sensitivity(mechanism: &Mechanism, prior: &Prior, set: &UncertaintySet) -> f64 {
    set.worst_case_pml(mechanism) - eps_min(mechanism, prior)
}

/// \[E\] Corollary 2: a mechanism that is eps-PML for p satisfies, for every Q with
/// `||p - Q||_1 <= beta`, `eps_min(W, Q) <= eps - ln(1 - e^eps beta / 2)`; `None`
/// unless `beta e^eps < 2` (and `eps >= 0`, `beta >= 0` finite).
///
/// This is eps plus the `k > 1` case of Theorem 4 (eq. (6)), valid in every privacy
/// region, and the same relation as \[E\] eq. (8) ([`sample::epsilon_prime`]). The paper
/// states it for `beta < 2 e^-eps`; it holds for every prior of the simplex within that
/// distance (the first step of the proof, App. B, relaxes the ball to all signed
/// perturbations of l1 norm `beta`), so it is also a bound for `beta >= 2 min p`.
/// Pass `eps = eps_min(W, p)` for the sharpest bound.
pub fn theorem4_bound(eps_min_at_p: f64, beta: f64) -> Option<f64> {
    sample::epsilon_prime(eps_min_at_p, beta).ok()
}

/// \[E\] Theorem 4, eq. (6): for `beta < 2 p_min` and W eps-PML for p with eps in
/// privacy region k (\[E\] Def 4), the sensitivity over `B_beta(p)` is at most
///
/// - `-ln(1 - beta/2 (e^eps - 1) / p_min)` if k = 1,
/// - `-ln(1 - beta e^eps / 2)` if k > 1.
///
/// `None` when `beta >= 2 p_min` (outside the theorem), when eps or beta is not a
/// finite non-negative number, or when the argument of the logarithm is not positive
/// (only possible for eps > eps_max, footnote 4). The leakage capacity is then at most
/// `eps + bound` (Remark 2).
///
/// Equality holds (Theorem 4, App. B) for k = 1 when W is extremal (the closed form of
/// the first region, `docs/theory.md` §5), and for k > 1 when every column has a zero
/// entry (with `eps = eps_min(W, p)` it suffices that a column of PML `eps_min` has one).
pub fn theorem4_sensitivity_bound(eps: f64, beta: f64, prior: &Prior) -> Option<f64> {
    let p_min = prior.min_mass();
    if !eps.is_finite() || eps < 0.0 || !beta.is_finite() || beta < 0.0 || beta >= 2.0 * p_min {
        return None;
    }
    let x = if privacy_region(prior, eps) == 1 {
        beta / 2.0 * eps.exp_m1() / p_min
    } else {
        beta / 2.0 * eps.exp()
    };
    (x < 1.0).then(|| -(-x).ln_1p())
}
