//! Conversions between the privacy notions (\[D\] Props 1, 3, Thm 4, Cor 3; \[T\]
//! Prop 5.30; `docs/theory.md` §3): the level of one notion that a level of another
//! guarantees, as a function of the smallest prior mass.

/// eps-LDP gives this PML (\[T\] Prop 5.30, \[D\] Prop 1 eps_2):
/// `-ln(p_min + e^-eps (1 - p_min))`; exact for randomized response (\[T\] Ex 5.31).
pub fn ldp_to_pml(epsilon: f64, p_min: f64) -> f64 {
    -(p_min + (-epsilon).exp() * (1.0 - p_min)).ln()
}

/// eps-LDP gives this PMC (\[D\] Prop 3): `ln(e^eps - p_min (e^eps - 1))`, which is
/// the LIP level eps_1 of \[D\] Prop 1, `ln(p_min + e^eps (1 - p_min))`.
pub fn ldp_to_pmc(epsilon: f64, p_min: f64) -> f64 {
    (p_min + epsilon.exp() * (1.0 - p_min)).ln()
}

/// eps-LDP gives (eps_1, eps_2)-ALIP (\[D\] Prop 1): `(ldp_to_pmc, ldp_to_pml)`.
pub fn ldp_to_alip(epsilon: f64, p_min: f64) -> (f64, f64) {
    (ldp_to_pmc(epsilon, p_min), ldp_to_pml(epsilon, p_min))
}

/// eps-LDP gives eps_1-LIP (\[D\] Prop 1).
pub fn ldp_to_lip(epsilon: f64, p_min: f64) -> f64 {
    let (l, u) = ldp_to_alip(epsilon, p_min);
    l.max(u)
}

/// eps_u-PML gives eps*_l(eps_u)-PMC in the high-privacy regime
/// `eps_u < -ln(1 - p_min)` (\[D\] Thm 4 (1)): `ln(p_min / (1 - e^eps_u (1 - p_min)))`;
/// infinite outside it (\[D\] Remark 5).
pub fn pml_to_pmc(epsilon_upper: f64, p_min: f64) -> f64 {
    let d = 1.0 - epsilon_upper.exp() * (1.0 - p_min);
    if d <= 0.0 {
        f64::INFINITY
    } else {
        (p_min / d).ln().max(0.0)
    }
}

/// eps_l-PMC gives eps*_u(eps_l)-PML (\[D\] Thm 4 (2)):
/// `ln((1 - e^-eps_l (1 - p_min)) / p_min)`.
pub fn pmc_to_pml(epsilon_lower: f64, p_min: f64) -> f64 {
    ((1.0 - (-epsilon_lower).exp() * (1.0 - p_min)) / p_min)
        .ln()
        .max(0.0)
}

/// (eps_l, eps_u)-ALIP gives (eps_l + eps_u)-LDP (\[D\] Sec. II-D, from its ref. \[19\]
/// Prop 1); eps-LIP gives 2 eps-LDP.
pub fn alip_to_ldp(epsilon_lower: f64, epsilon_upper: f64) -> f64 {
    epsilon_lower + epsilon_upper
}

/// The guarantees eps_u-PML implies (\[D\] Cor 3 (1)): (eps*_l, eps_u)-ALIP, so
/// `max(eps*_l, eps_u)`-LIP and `(eps*_l + eps_u)`-LDP. Infinite outside the
/// high-privacy regime.
pub fn pml_to_alip(epsilon_upper: f64, p_min: f64) -> (f64, f64) {
    (pml_to_pmc(epsilon_upper, p_min), epsilon_upper)
}

/// The guarantees eps_l-PMC implies (\[D\] Cor 3 (2)): (eps_l, eps*_u)-ALIP.
pub fn pmc_to_alip(epsilon_lower: f64, p_min: f64) -> (f64, f64) {
    (epsilon_lower, pmc_to_pml(epsilon_lower, p_min))
}

/// PMC of k-ary randomized response with LDP parameter `e_r` (\[D\] Example 3):
/// `ln(1 + max_x p_x (e^e_r - 1))`.
pub fn randomized_response_pmc(ldp_epsilon: f64, p_max: f64) -> f64 {
    (1.0 + p_max * ldp_epsilon.exp_m1()).ln()
}
