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
        design.mechanism(),
        design.labels().to_vec(),
        design.outputs().to_vec(),
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
    assert_eq!(back.mechanism(), design.mechanism());

    let (out, privatised) = privatise(&csv, &back, 7);
    assert_eq!(privatised, 200);
    assert!(out.starts_with("id,colour,colour_private\n0,red,"));
    for line in out.lines().skip(1) {
        let y = line.rsplit(',').next().unwrap();
        assert!(back.outputs().iter().any(|o| o == y), "{line}");
    }
    // The same seed gives the same privatised column.
    assert_eq!(privatise(&csv, &design, 7).0, out);
}

/// In memory, a slice of values is privatised as the column is (the same draws
/// for the same key, column and rows), and the estimate back is labelled by the
/// design's inputs and counts every released row.
#[test]
fn values_in_memory_draw_as_the_column_and_estimate_back_by_label() {
    let csv = data();
    let counts = count_column(csv.as_bytes(), "colour", None).unwrap();
    let design = Problem::new(UncertaintySet::known(counts.prior().unwrap()))
        .epsilon(1.0)
        .labels(counts.labels.clone())
        .solve()
        .unwrap();
    let values: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().to_string())
        .collect();
    let key = StreamKey::parse("7").unwrap();
    let released = apply_values(&design, &values, (&key, "colour")).unwrap();
    let (column, _) = privatise(&csv, &design, 7);
    let drawn: Vec<&str> = column
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap())
        .collect();
    assert_eq!(released, drawn);
    let e = estimate_values(&design, &released, &FrequencySettings::default()).unwrap();
    let json = e.to_json();
    assert_eq!(json["rows"], 200);
    let labels: Vec<&str> = json["estimates"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            g["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
        })
        .collect();
    assert_eq!(labels.len(), design.labels().len());
    assert!(design.labels().iter().all(|l| labels.contains(&l.as_str())));
    let e = apply_values(&design, &["red", "violet"], (&key, "colour")).unwrap_err();
    assert!(
        e.to_string().starts_with("invalid values[1] = \"violet\""),
        "{e}"
    );
}
