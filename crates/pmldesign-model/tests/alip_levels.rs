//! ALIP levels from optional lower and upper levels (\[D\] Def 5, `docs/theory.md` §3).

use pmldesign_model::Notion;

#[test]
fn levels_default_to_the_common_level() {
    assert_eq!(Notion::alip_levels(None, None, 0.5).unwrap(), None);
    assert_eq!(
        Notion::alip_levels(Some(1.0), None, 0.5).unwrap(),
        Some((1.0, 0.5))
    );
    assert_eq!(
        Notion::alip_levels(None, Some(0.2), 0.5).unwrap(),
        Some((0.5, 0.2))
    );
}

#[test]
fn bad_levels_are_named_without_flags() {
    for (lower, upper, field) in [
        (Some(-1.0), None, "epsilon_lower"),
        (None, Some(f64::INFINITY), "epsilon_upper"),
        (Some(f64::NAN), Some(0.1), "epsilon_lower"),
    ] {
        let e = Notion::alip_levels(lower, upper, 0.5)
            .unwrap_err()
            .to_string();
        assert!(e.contains(field) && e.contains("ALIP level"), "{e}");
        assert!(!e.contains("--"), "{e}");
    }
}
