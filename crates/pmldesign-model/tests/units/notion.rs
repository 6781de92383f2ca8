//! Tests of `notion`.

use ndarray::array;
use pmldesign_model::notion::*;

#[test]
fn lip_is_alip_with_equal_levels() {
    let r = array![0.5, 0.3, 0.2];
    let lip = Notion::Lip { epsilon: 0.4 }.column_inequalities(r.view());
    let alip = Notion::Alip {
        epsilon_lower: 0.4,
        epsilon_upper: 0.4,
    }
    .column_inequalities(r.view());
    assert_eq!(lip, alip);
    assert_eq!(lip.len(), 6);
}

#[test]
fn bad_level_names_the_field() {
    let e = Notion::Alip {
        epsilon_lower: -1.0,
        epsilon_upper: 0.5,
    }
    .check()
    .unwrap_err();
    assert!(e.to_string().contains("epsilon_lower"), "{e}");
}
