//! Tests of `objective::estimation_mixture`.

use super::objective_estimation_floor::zipf;
use ndarray::Array1;
use pmldesign_solver::internals::objective::estimation_mixture::*;

/// At 8 labels with a Zipf prior the mixture floor is below the optimum
/// that enumeration certifies (22.209944 per row, eps 1) and within 1 % of
/// it, the wider families' within 0.8 % and never below the narrower's,
/// the narrowest's within 1.2 %; relabelling the inputs leaves it unchanged.
#[test]
fn the_mixture_floor_is_below_the_enumerated_optimum_and_near_it() {
    let p = zipf(8);
    let norm = p.dot(&p);
    let error = |p: &Array1<f64>, f| mixture_floor(p.view(), 1.0, f).unwrap().floor - norm;
    let heads = error(&p, Family::Heads);
    let pairs = error(&p, Family::HeadPairs);
    let few = error(&p, Family::FewHeads);
    let two = error(&p, Family::TwoTails);
    assert!(
        few <= heads && heads <= pairs && pairs <= two && two <= 22.209944,
        "{few} {heads} {pairs} {two}"
    );
    assert!(few >= 0.996 * 22.209944, "{few}");
    assert!(heads >= 0.996 * 22.209944, "{heads}");
    assert!(pairs >= 0.997 * 22.209944, "{pairs}");
    let reversed: Array1<f64> = p.iter().rev().copied().collect();
    let again = error(&reversed, Family::HeadPairs);
    assert_eq!(pairs.to_bits(), again.to_bits());
}

/// A member's floor holds at every prior it majorises, though it does not
/// fit under that prior input by input.
#[test]
fn a_prior_more_even_than_a_member_has_its_floor() {
    // p = (1.5, 1, ..., 1) / 20.5 is majorised by q = (2, 1, ..., 1) / 21,
    // which does not fit under it input by input (p_1 < q_1).
    let q = vec![vec![(1, 2.0), (19, 1.0)]];
    let mut p = Array1::from_elem(20, 1.0 / 20.5);
    p[0] = 1.5 / 20.5;
    let at_q = Array1::from_iter(std::iter::once(2.0 / 21.0).chain([1.0 / 21.0; 19]));
    let own = witnessed_floor(at_q.view(), 1.0, &q).unwrap();
    let floor = witnessed_floor(p.view(), 1.0, &q).unwrap();
    assert!(floor >= own * (1.0 - 1e-9), "{floor} {own}");
    // Every prior's floor is at least 1 + (k - 1) / (e^eps - 1).
    assert!(own >= 1.0 + 19.0 / 1f64.exp_m1(), "{own}");
}

/// The priors a design stores give its floor again (a reader recomputes
/// only those), and stored priors that are not priors over p's inputs
/// give none.
#[test]
fn the_stored_priors_give_the_floor_again() {
    let p = zipf(20);
    let whole = mixture_floor(p.view(), 1.0, Family::Heads).unwrap();
    assert!(whole.priors.len() < 40, "{}", whole.priors.len());
    let again = witnessed_floor(p.view(), 1.0, &whole.priors).unwrap();
    assert!(
        again >= whole.floor * (1.0 - 1e-9),
        "{again} {}",
        whole.floor
    );
    let short = vec![vec![(3, 1.0), (16, 0.1)]];
    assert!(witnessed_floor(p.view(), 1.0, &short).is_none());
    let negative = vec![vec![(3, 1.0), (17, -0.1)]];
    assert!(witnessed_floor(p.view(), 1.0, &negative).is_none());
    let many = vec![vec![(1, 5.0), (1, 4.0), (1, 3.0), (1, 2.0), (16, 1.0)]];
    assert!(witnessed_floor(p.view(), 1.0, &many).is_none());
    let spread = vec![vec![(3, 1.0), (17, 1e-9)]];
    assert!(witnessed_floor(p.view(), 1.0, &spread).is_none());
    let huge = vec![vec![(3, f64::MAX), (17, f64::MAX)]];
    assert!(witnessed_floor(p.view(), 1.0, &huge).is_none());
}

/// Two tail levels raise the floor at 32 labels and eps 2 with a Zipf prior
/// (19.998 to 20.153 in `tr J^-1`), every prior they add has at most the
/// orbits a stored prior may, and the priors the LP weighs give the floor
/// again.
#[test]
fn two_tail_levels_raise_the_floor_and_read_back() {
    let p = zipf(32);
    let pairs = mixture_floor(p.view(), 2.0, Family::HeadPairs).unwrap();
    let two = mixture_floor(p.view(), 2.0, Family::TwoTails).unwrap();
    assert!(
        two.floor >= pairs.floor + 0.14,
        "{} {}",
        two.floor,
        pairs.floor
    );
    let far = TWO_TAILS.0 * TWO_TAILS.1;
    let weighs_two_tails = two.priors.iter().flatten().any(|&(_, w)| w == far);
    assert!(weighs_two_tails, "{:?}", two.priors);
    let again = witnessed_floor(p.view(), 2.0, &two.priors).unwrap();
    assert!(again >= two.floor * (1.0 - 1e-9), "{again} {}", two.floor);
}
