//! The flow from data to privatised data through the facade's prelude: count a
//! CSV column, design over the l1 ball around its estimate, keep the design as
//! JSON, read it back and privatise the column with it (this panicked
//! with "standard layout" when the design's matrix was column-major).

use pmldesign::prelude::*;

/// A column of 200 rows over three colours.
fn data() -> String {
    let mut csv = String::from("id,colour\n");
    for i in 0..200 {
        let c = match i % 10 {
            0..=4 => "red",
            5..=7 => "green",
            _ => "blue",
        };
        csv.push_str(&format!("{i},{c}\n"));
    }
    csv
}

/// Privatises the colour column of `csv` with `design`, drawing from `seed`.
fn privatise(csv: &str, design: &Design, seed: u64) -> (String, u64) {
    let mut privatiser = CategoricalPrivatiser::new(
        &design.mechanism,
        design.labels.clone(),
        design.outputs.clone(),
        (&StreamKey::parse(&seed.to_string()).unwrap(), "colour"),
    )
    .unwrap();
    let mut out = Vec::new();
    let summary = privatise_column(
        csv.as_bytes(),
        &mut out,
        "colour",
        Placement::Append("colour_private"),
        OnUnknown::Error,
        &mut privatiser,
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), summary.privatised)
}

#[test]
fn a_design_kept_as_json_privatises_its_column() {
    let csv = data();
    let counts = count_column(csv.as_bytes(), "colour", None).unwrap();
    let set = UncertaintySet::l1_ball(counts.prior().unwrap(), 0.05).unwrap();
    let design = Problem::new(set)
        .epsilon(1.0)
        .labels(counts.labels.clone())
        .solve()
        .unwrap();
    let json = serde_json::to_string(&design).unwrap();
    let back: Design = serde_json::from_str(&json).unwrap();
    assert_eq!(back.mechanism, design.mechanism);

    let (out, privatised) = privatise(&csv, &back, 7);
    assert_eq!(privatised, 200);
    assert!(out.starts_with("id,colour,colour_private\n0,red,"));
    for line in out.lines().skip(1) {
        let y = line.rsplit(',').next().unwrap();
        assert!(back.outputs.iter().any(|o| o == y), "{line}");
    }
    // The same seed gives the same privatised column.
    assert_eq!(privatise(&csv, &design, 7).0, out);
}
