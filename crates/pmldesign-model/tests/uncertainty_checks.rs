//! A set of priors (a metric, a notion) read from JSON is checked as its
//! constructors check it: the same one-line errors, and the same layout as it
//! is written.

use pmldesign_model::{Prior, UncertaintySet};

fn read(json: &str) -> Result<UncertaintySet, String> {
    serde_json::from_str::<UncertaintySet>(json).map_err(|e| e.to_string())
}

#[test]
fn a_ball_of_negative_radius_is_refused_as_by_the_constructor() {
    let e = read(r#"{"kind":"l1_ball","center":[0.5,0.5],"beta":-0.5}"#).unwrap_err();
    let center = Prior::new(vec![0.5, 0.5]).unwrap();
    let want = UncertaintySet::l1_ball(center, -0.5)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with(&want), "{e}");
    assert!(e.contains("beta") && e.contains("-0.5"), "{e}");
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn a_polytope_vertex_off_the_simplex_is_refused_as_by_the_constructor() {
    let e = read(r#"{"kind":"polytope","vertices":[[1.5,-0.3,-0.2]]}"#).unwrap_err();
    let want = UncertaintySet::polytope(vec![vec![1.5, -0.3, -0.2]])
        .unwrap_err()
        .to_string();
    assert!(e.starts_with(&want), "{e}");
    assert!(
        e.contains("vertices[0]") && e.contains("1.5,-0.3,-0.2"),
        "{e}"
    );
}

#[test]
fn polytope_vertices_of_two_lengths_are_refused() {
    let e = read(r#"{"kind":"polytope","vertices":[[0.5,0.5],[0.2,0.3,0.5]]}"#).unwrap_err();
    assert!(
        e.contains("vertices[1]") && e.contains("on 2 symbols"),
        "{e}"
    );
    let e = read(r#"{"kind":"polytope","vertices":[]}"#).unwrap_err();
    assert!(
        e.contains("vertices") && e.contains("at least one vertex"),
        "{e}"
    );
}

#[test]
fn valid_sets_read_back_as_written() {
    let center = Prior::center(vec![0.0, 0.25, 0.75]).unwrap();
    let sets = [
        UncertaintySet::known(Prior::new(vec![0.4, 0.6]).unwrap()),
        UncertaintySet::l1_ball(center, 0.1).unwrap(),
        UncertaintySet::polytope(vec![vec![1.0, 0.0], vec![0.3, 0.7]]).unwrap(),
    ];
    for set in sets {
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(read(&json).unwrap(), set, "{json}");
        assert!(set.validate().is_ok());
    }
    let json = r#"{"kind":"l1_ball","center":[0.0,0.25,0.75],"beta":0.1}"#;
    assert_eq!(serde_json::to_string(&read(json).unwrap()).unwrap(), json);
}

#[test]
fn unknown_fields_and_kinds_are_still_refused() {
    let e = read(r#"{"kind":"known","prior":[0.5,0.5],"beta":1}"#).unwrap_err();
    assert!(e.contains("beta"), "{e}");
    assert!(read(r#"{"kind":"ball","center":[0.5,0.5],"beta":0.1}"#).is_err());
}

/// A distance matrix read from JSON is checked as `Metric::from_rows` checks
/// it; the built-in distances and a valid matrix read back as written.
#[test]
fn a_metric_matrix_is_refused_as_by_its_constructor() {
    let read = |json: &str| serde_json::from_str::<pmldesign_model::Metric>(json);
    let rows = vec![vec![0.0, -1.0], vec![-1.0, 0.0]];
    let want = pmldesign_model::Metric::from_rows(rows)
        .unwrap_err()
        .to_string();
    let e = read(r#"{"kind":"matrix","distances":[[0,-1],[-1,0]]}"#).unwrap_err();
    assert!(e.to_string().starts_with(&want), "{e} / {want}");
    assert!(want.contains("metric[0][1]"), "{want}");
    for json in [
        r#"{"kind":"discrete"}"#,
        r#"{"kind":"line"}"#,
        r#"{"kind":"matrix","distances":[[0.0,2.0],[2.0,0.0]]}"#,
    ] {
        let m = read(json).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), json);
    }
}

/// A notion read from JSON is checked as `Notion::check` checks it: a
/// negative level is refused naming the field and the value, and valid
/// notions read back as written.
#[test]
fn a_notion_of_negative_level_is_refused_as_by_its_check() {
    use pmldesign_model::Notion;
    let read = |json: &str| serde_json::from_str::<Notion>(json);
    let want = Notion::Pml { epsilon: -0.5 }
        .check()
        .unwrap_err()
        .to_string();
    let e = read(r#"{"notion":"pml","epsilon":-0.5}"#).unwrap_err();
    assert!(e.to_string().starts_with(&want), "{e} / {want}");
    assert!(want.contains("epsilon") && want.contains("-0.5"), "{want}");
    let alip = read(r#"{"notion":"alip","epsilon_lower":-1.0,"epsilon_upper":0.5}"#);
    assert!(alip.unwrap_err().to_string().contains("epsilon_lower"));
    for json in [
        r#"{"notion":"pml","epsilon":1.0}"#,
        r#"{"notion":"alip","epsilon_lower":0.3,"epsilon_upper":0.5}"#,
        r#"{"notion":"metric","epsilon":0.5,"metric":{"kind":"line"}}"#,
    ] {
        let n = read(json).unwrap();
        assert_eq!(serde_json::to_string(&n).unwrap(), json);
    }
}
