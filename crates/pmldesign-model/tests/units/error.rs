//! Tests of `error`.

use pmldesign_model::error::*;

#[test]
fn long_values_are_elided_in_the_middle() {
    assert_eq!(elide("short"), "short");
    let long = format!("{}{}", "a".repeat(1000), "z".repeat(30));
    let shown = elide(&long);
    assert_eq!(
        shown,
        format!("{}…(970 chars)…{}", "a".repeat(40), "z".repeat(20))
    );
    let e = ModelError::invalid("column", &long, "bad", "fix it");
    assert!(e.to_string().len() < 200, "{e}");
}
