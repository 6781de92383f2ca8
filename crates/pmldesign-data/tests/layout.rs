//! Memory layout: a mechanism built from a column-major matrix (as the solver builds
//! its designs, with `select(Axis(1), ..)`) can be sampled and privatised.

use ndarray::{Array2, Axis};
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    CategoricalPrivatiser, MechanismSampler, OnUnknown, Placement, privatise_column, seeded_rng,
};
use pmldesign_model::Mechanism;

/// A 3 x 3 mechanism whose matrix is not in standard layout.
fn column_selected() -> Mechanism {
    let a = Array2::from_shape_vec(
        (3, 4),
        vec![
            0.6, 0.0, 0.2, 0.2, //
            0.1, 0.0, 0.8, 0.1, //
            0.3, 0.0, 0.3, 0.4,
        ],
    )
    .unwrap();
    let m = a.select(Axis(1), &[0, 2, 3]);
    assert!(!m.is_standard_layout());
    Mechanism::new(m).unwrap()
}

/// The stream key of a small test seed.
fn key(seed: u64) -> StreamKey {
    StreamKey::parse(&seed.to_string()).unwrap()
}

#[test]
fn column_selected_mechanism_can_be_sampled() {
    let w = column_selected();
    let sampler = MechanismSampler::new(&w).unwrap();
    let mut rng = seeded_rng(3);
    let mut counts = [0u64; 3];
    for _ in 0..30_000 {
        counts[sampler.sample(1, &mut rng)] += 1;
    }
    // Row 1 is (0.1, 0.8, 0.1): the layout must not mix rows and columns.
    assert!(
        (counts[1] as f64 / 30_000.0 - 0.8).abs() < 0.02,
        "{counts:?}"
    );
}

#[test]
fn column_selected_mechanism_can_be_privatised() {
    let w = column_selected();
    let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let mut p = CategoricalPrivatiser::new(&w, names.clone(), names, (&key(5), "v")).unwrap();
    let input = "v\na\nb\nc\n";
    let mut out = Vec::new();
    let summary = privatise_column(
        input.as_bytes(),
        &mut out,
        "v",
        Placement::Append("v_private"),
        OnUnknown::Error,
        &mut p,
    )
    .unwrap();
    assert_eq!(summary.privatised, 3);
    assert!(
        String::from_utf8(out)
            .unwrap()
            .starts_with("v,v_private\na,")
    );
}
