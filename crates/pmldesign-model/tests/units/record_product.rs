//! Tests of `record::product`.

use pmldesign_model::mechanism::Mechanism;
use pmldesign_model::record::RecordSample;
use pmldesign_model::record::product::*;

#[test]
fn the_product_of_identities_reveals_the_record() {
    let s = RecordSample::new(
        vec!["a".into(), "b".into()],
        vec![vec!["0".into(), "1".into()], vec!["0".into(), "1".into()]],
        vec![
            (vec![0, 0], 1),
            (vec![0, 1], 1),
            (vec![1, 0], 1),
            (vec![1, 1], 1),
        ],
    )
    .unwrap();
    let id = Mechanism::identity(2);
    let l = product_leakage(&s, &[&id, &id]).unwrap();
    assert!((l.pml - 4f64.ln()).abs() < 1e-12 && (l.mutual_information - 4f64.ln()).abs() < 1e-12);
    let j = joint_leakage(&s, &Mechanism::identity(4)).unwrap();
    assert_eq!(j, l);
    let mut row = Vec::new();
    product_row(&[&id, &id], &[1, 0], &mut row);
    assert_eq!(row, vec![0.0, 0.0, 1.0, 0.0]);
}
