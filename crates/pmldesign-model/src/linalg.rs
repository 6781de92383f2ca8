//! Small dense linear algebra: least squares by Householder QR.
//!
//! Used to polish LP solutions so that designed mechanisms have exact row sums.

use ndarray::{Array1, Array2};

/// Solves `min ||A x - b||_2` for a tall or square `A` (rows >= cols) with full
/// column rank by Householder QR. Returns `None` when `A` is rank deficient
/// (a diagonal of R below `1e-13` times the largest column norm).
pub fn least_squares(a: &Array2<f64>, b: &Array1<f64>) -> Option<Array1<f64>> {
    let (m, n) = a.dim();
    if m < n || b.len() != m {
        return None;
    }
    let mut r = a.clone();
    let mut y = b.clone();
    let scale = (0..n)
        .map(|j| r.column(j).dot(&r.column(j)).sqrt())
        .fold(0.0, f64::max);
    for k in 0..n {
        let norm = (k..m).map(|i| r[[i, k]] * r[[i, k]]).sum::<f64>().sqrt();
        if norm <= 1e-13 * scale.max(f64::MIN_POSITIVE) {
            return None;
        }
        let alpha = if r[[k, k]] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (k..m).map(|i| r[[i, k]]).collect();
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        if vnorm2 > 0.0 {
            for j in k..n {
                let d: f64 = (k..m).map(|i| v[i - k] * r[[i, j]]).sum::<f64>() * 2.0 / vnorm2;
                for i in k..m {
                    r[[i, j]] -= d * v[i - k];
                }
            }
            let d: f64 = (k..m).map(|i| v[i - k] * y[i]).sum::<f64>() * 2.0 / vnorm2;
            for i in k..m {
                y[i] -= d * v[i - k];
            }
        }
    }
    let mut x = Array1::zeros(n);
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| r[[k, j]] * x[j]).sum();
        x[k] = (y[k] - s) / r[[k, k]];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

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
}
