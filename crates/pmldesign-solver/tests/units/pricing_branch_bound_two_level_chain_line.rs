//! Tests of `pricing::branch_bound::two_level::chain_line`.

use pmldesign_solver::Separable;
use pmldesign_solver::internals::objective::utility::{FInformation, MapAccuracy};
use pmldesign_solver::internals::pricing::branch_bound::segment::Smooth;
use pmldesign_solver::internals::pricing::branch_bound::two_level::TwoLevelMember;
use pmldesign_solver::internals::pricing::branch_bound::two_level::chain_line::*;
use pmldesign_solver::internals::pricing::branch_bound::{Levels, TwoLevel};

/// The crude bound of a segment lies above the reduced cost at every point
/// of it, for both level families, an f-information and MAP's two terms.
#[test]
fn the_crude_bound_covers_the_segment() {
    let p = [0.4, 0.3, 0.2, 0.1];
    let levels = [
        Levels::Staircase { e: 3.0 },
        Levels::BallLevel { e: 2.0, b: 0.04 },
    ];
    let mi = FInformation::mutual_information();
    for levels in levels {
        for utility in [&mi as &dyn pmldesign_solver::Utility, &MapAccuracy] {
            let family = TwoLevel::new(&p, levels, utility).unwrap();
            let member = TwoLevelMember {
                family: &family,
                lambda_sum: 0.9,
                reach: family.reach(),
            };
            let terms = match family.kind {
                Separable::FInformation(f) => vec![Term::F(f)],
                Separable::MaxWeighted => vec![Term::Top(0.4), Term::Level(0.3)],
                _ => unreachable!("a utility these levels do not price"),
            };
            for term in terms {
                for (a, b, l0, r) in [(0.1, 0.3, 0.05, 0.8), (0.0, 0.5, 0.2, -0.3)] {
                    let line = ChainLine {
                        member: &member,
                        w0: a,
                        l0,
                        r,
                        term,
                    };
                    let crude = line.crude(&line.point(a), &line.point(b));
                    for k in 0..=100 {
                        let w = a + (b - a) * k as f64 / 100.0;
                        assert!(line.value(w) <= crude, "{w}: {} > {crude}", line.value(w));
                    }
                }
            }
        }
    }
}
