//! The one table of a mechanism, shared by `pml design` and `pml assess`: a row per
//! input with its prior mass beside it, a column per output, and rows of per-output
//! figures under it.

use ndarray::ArrayView1;
use pmldesign_model::Mechanism;
use std::fmt::Write;

/// A row under the matrix: its name and one cell per output, already formatted.
pub type Footer<'a> = (&'a str, Vec<String>);

/// The table of `mechanism`: a header row (`input`, `prior` and the names
/// `outputs`), one row per input (its label, its prior mass and its row of the
/// matrix), then the `footer` rows. The first column is as wide as the longest
/// label and at least `min_width`.
pub fn matrix_table(
    labels: &[String],
    prior: ArrayView1<f64>,
    outputs: &[String],
    mechanism: &Mechanism,
    min_width: usize,
    footer: &[Footer],
) -> String {
    let width = labels
        .iter()
        .map(|l| l.len())
        .max()
        .unwrap_or(1)
        .max(min_width);
    let mut s = format!("{:<width$} {:>8}", "input", "prior");
    for y in outputs {
        write!(s, " {y:>9}").expect("string write");
    }
    s.push('\n');
    for (x, label) in labels.iter().enumerate() {
        write!(s, "{label:<width$} {:>8.4}", prior[x]).expect("string write");
        for v in mechanism.matrix().row(x) {
            write!(s, " {v:>9.6}").expect("string write");
        }
        s.push('\n');
    }
    for (name, cells) in footer {
        write!(s, "{name:<width$} {:>8}", "").expect("string write");
        for c in cells {
            write!(s, " {c:>9}").expect("string write");
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_columns_and_footer_line_up() {
        let m = Mechanism::from_rows(vec![vec![0.75, 0.25], vec![0.5, 0.5]]).unwrap();
        let labels = ["a".to_string(), "b".to_string()];
        let outputs = ["y1".to_string(), "y2".to_string()];
        let footer = [("P(y)", vec!["0.625000".to_string(), "0.375000".to_string()])];
        let s = matrix_table(
            &labels,
            ndarray::aview1(&[0.5, 0.5]),
            &outputs,
            &m,
            8,
            &footer,
        );
        let want = "input       prior        y1        y2\n\
                    a          0.5000  0.750000  0.250000\n\
                    b          0.5000  0.500000  0.500000\n\
                    P(y)               0.625000  0.375000\n";
        assert_eq!(s, want);
    }
}
