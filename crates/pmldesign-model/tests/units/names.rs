//! Tests of `names`.

use pmldesign_model::names::{check_names, check_names_for};

#[test]
fn names_for_values_are_as_many_as_the_values() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check_names_for("o", &names(&["a", "b"]), 2).is_ok());
    assert!(check_names_for("o", &names(&["a"]), 2).is_err());
    assert!(check_names_for("o", &names(&["a", "a"]), 2).is_err());
    assert!(check_names_for("o", &names(&["a", " "]), 2).is_err());
}

#[test]
fn blank_and_repeated_names_are_refused_by_position() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(check_names("labels", &names(&["a", "b"])).is_ok());
    let e = check_names("labels", &names(&["a", " "])).unwrap_err();
    assert!(e.to_string().contains("labels[1]") && e.to_string().contains("blank"));
    let e = check_names("outputs", &names(&["a", "b", "a"])).unwrap_err();
    assert!(
        e.to_string().contains("outputs[2] = a: duplicate label"),
        "{e}"
    );
}
