//! Almost local information privacy (ALIP) and local information privacy (LIP)
//! of a mechanism under a prior (\[D\] Defs 4-5; `docs/theory.md` §3): W is
//! (eps_l, eps_u)-ALIP iff its PMC is at most eps_l and its PML at most eps_u, and
//! eps-LIP iff both are at most eps.

use super::pmc::pmc;
use crate::mechanism::Mechanism;
use crate::prior::Prior;

/// The smallest `(eps_l, eps_u)` for which W is ALIP (\[D\] Def 5): (PMC, PML).
pub fn alip_parameters(mechanism: &Mechanism, prior: &Prior) -> (f64, f64) {
    (pmc(mechanism, prior), super::pml::eps_min(mechanism, prior))
}

/// The smallest eps for which W is eps-LIP (\[D\] Def 4): `max(PMC, PML)`.
pub fn lip_parameter(mechanism: &Mechanism, prior: &Prior) -> f64 {
    let (l, u) = alip_parameters(mechanism, prior);
    l.max(u)
}
