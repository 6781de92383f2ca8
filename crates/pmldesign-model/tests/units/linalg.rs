//! Tests of `linalg`.

use ndarray::{Array1, Array2, array};
use pmldesign_model::linalg::*;

#[test]
fn column_extremes_are_each_columns_max_and_min() {
    let a = array![[0.5, 0.0, 2.0], [0.25, 3.0, 2.0]];
    assert_eq!(
        column_extremes(a.view()),
        vec![(0.5, 0.25), (3.0, 0.0), (2.0, 2.0)]
    );
    assert_eq!(column_extremes(a.t()), vec![(2.0, 0.0), (3.0, 0.25)]);
}

#[test]
fn column_dots_are_the_columns_dot_products_bit_for_bit() {
    let a = Array2::from_shape_fn((37, 5), |(x, y)| 1.0 / (1.0 + (x * 7 + y * 3) as f64));
    let p = Array1::from_shape_fn(37, |x| 0.3 / (1.0 + x as f64).sqrt());
    let dots = column_dots(p.view(), a.view()).unwrap();
    for (y, d) in dots.iter().enumerate() {
        assert_eq!(d.to_bits(), p.dot(&a.column(y)).to_bits());
    }
    let one = a.column(0).to_owned().insert_axis(ndarray::Axis(1));
    assert_eq!(column_dots(p.view(), one.view()), None);
    assert_eq!(column_dots(Array1::ones(5).view(), a.t()), None);
}

#[test]
fn solves_square_and_tall() {
    let a = array![[2.0, 1.0], [1.0, 3.0]];
    let x = least_squares(&a, &array![3.0, 4.0]).unwrap();
    assert!((x[0] - 1.0).abs() < 1e-14 && (x[1] - 1.0).abs() < 1e-14);
    let a = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let x = least_squares(&a, &array![1.0, 2.0, 3.0]).unwrap();
    assert!((x[0] - 1.0).abs() < 1e-14 && (x[1] - 2.0).abs() < 1e-14);
    assert!(least_squares(&array![[1.0, 2.0], [2.0, 4.0]], &array![1.0, 2.0]).is_none());
}

#[test]
fn the_left_inverse_solves_for_every_column_of_the_identity() {
    let a = Array2::from_shape_fn((9, 4), |(x, y)| 1.0 / (1.0 + (x * 5 + y * 3 % 7) as f64));
    let plus = left_inverse(&a).unwrap();
    let by_columns = least_squares_columns(&a, &Array2::eye(9)).unwrap();
    assert_eq!(plus.dim(), (4, 9));
    for (v, w) in plus.iter().zip(&by_columns) {
        assert!((v - w).abs() < 1e-9 * w.abs().max(1.0), "{v} {w}");
    }
    for ((i, j), v) in plus.dot(&a).indexed_iter() {
        assert!(
            (v - f64::from(u8::from(i == j))).abs() < 1e-9,
            "{i} {j} {v}"
        );
    }
    assert!(left_inverse(&array![[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]).is_none());
    assert!(left_inverse(&array![[1.0, 2.0]]).is_none());
}

#[test]
fn inverts_square_and_refuses_singular() {
    let a = array![[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
    let inv = inverse(&a).unwrap();
    let product = a.dot(&inv);
    for ((i, j), v) in product.indexed_iter() {
        assert!((v - f64::from(u8::from(i == j))).abs() < 1e-14, "{product}");
    }
    let singular = array![[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]];
    assert!(inverse(&singular).is_none());
    assert!(inverse(&array![[1.0, 2.0]]).is_none());
}

#[test]
fn nonnegative_least_squares_finds_the_constrained_optimum() {
    // Unconstrained x = (2, -1): the constrained optimum puts x2 = 0.
    let a = array![[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]];
    let x = nonnegative_least_squares(&a, &array![1.0, -1.0, 2.0]).unwrap();
    assert!(x.iter().all(|&v| v >= 0.0));
    assert!((x[0] - 1.5).abs() < 1e-12 && x[1] == 0.0, "{x}");
    // A nonnegative exact solution is found exactly.
    let a = array![[1.0, 2.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]];
    let x = nonnegative_least_squares(&a, &array![3.0, 2.0, 2.0]).unwrap();
    let r = &a.dot(&x) - &array![3.0, 2.0, 2.0];
    assert!(r.iter().all(|v| v.abs() < 1e-12) && x.iter().all(|&v| v >= 0.0));
}
