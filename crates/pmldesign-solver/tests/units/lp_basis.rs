//! Tests of `lp::basis`.

use pmldesign_solver::internals::lp::basis::*;

fn columns() -> Vec<Vec<f64>> {
    vec![
        vec![2.0, 1.0, 0.0],
        vec![1.0, 3.0, 1.0],
        vec![0.0, 1.0, 4.0],
    ]
}

fn times(cols: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; cols[0].len()];
    for (c, &xj) in cols.iter().zip(x) {
        for (yi, ci) in y.iter_mut().zip(c) {
            *yi += ci * xj;
        }
    }
    y
}

/// FTRAN and BTRAN solve with the basis and its transpose, before and
/// after pivots recorded as etas.
#[test]
fn solves_through_lu_and_etas() {
    let mut cols = columns();
    let mut f = Factor::new(3, |j| Column::Dense(&cols[j])).unwrap();
    for (row, entering) in [(1, vec![1.0, 0.0, 2.0]), (0, vec![0.5, 0.5, 0.5])] {
        let mut d = entering.clone();
        f.ftran(&mut d);
        f.update(row, d);
        cols[row] = entering;
        let b = [1.0, -2.0, 0.5];
        let mut x = b.to_vec();
        f.ftran(&mut x);
        let bx = times(&cols, &x);
        assert!(bx.iter().zip(&b).all(|(u, v)| (u - v).abs() < 1e-12));
        let mut y = b.to_vec();
        f.btran(&mut y);
        for (c, &bj) in cols.iter().zip(&b) {
            assert!((dot(c, &y) - bj).abs() < 1e-12);
        }
    }
    assert_eq!(f.etas(), 2);
}

#[test]
fn refuses_a_singular_basis() {
    let cols = [vec![1.0, 2.0], vec![2.0, 4.0]];
    assert!(Factor::new(2, |j| Column::Dense(&cols[j])).is_none());
    let unit = Factor::new(2, Column::Unit).unwrap();
    let mut x = vec![3.0, 4.0];
    unit.ftran(&mut x);
    assert_eq!(x, vec![3.0, 4.0]);
}
