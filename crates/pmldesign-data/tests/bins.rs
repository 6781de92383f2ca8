//! Numeric columns cut at public edges (`--bins`): counted in numeric order, the
//! same from CSV and from a Parquet column of integers, and privatised as the
//! labels of their bins.

use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    Binned, Bins, CategoricalPrivatiser, Counting, NULL_LABEL, Nulls, OnUnknown, Placement,
    count_column_until, privatise_column,
};
use pmldesign_model::Mechanism;

/// 600 masses in grams (every 97th missing) as CSV, and the values.
fn masses() -> (String, Vec<Option<i64>>) {
    let values: Vec<Option<i64>> = (0..600)
        .map(|i| (i % 97 != 3).then_some(2700 + (i * 7919) % 3600))
        .collect();
    let mut csv = String::from("id,mass\n");
    for (i, v) in values.iter().enumerate() {
        let shown = v.map_or(String::new(), |v| v.to_string());
        csv.push_str(&format!("{i},{shown}\n"));
    }
    (csv, values)
}

#[test]
fn bins_count_in_numeric_order_and_match_a_hand_count() {
    let (csv, values) = masses();
    let bins = Bins::parse("bins", "-inf,3500,4500,5500,inf").unwrap();
    let how = Counting {
        bins: Some(&bins),
        nulls: Nulls::Category,
        ..Counting::default()
    };
    let c = count_column_until(csv.as_bytes(), "mass", how, &|| false).unwrap();
    assert_eq!(
        c.labels,
        [
            "(-inf, 3500)",
            "[3500, 4500)",
            "[4500, 5500)",
            "[5500, inf)",
            NULL_LABEL
        ]
    );
    let mut hand = [0u64; 5];
    for v in &values {
        let i = match v {
            None => 4,
            Some(v) => [3500, 4500, 5500].iter().filter(|&&e| *v >= e).count(),
        };
        hand[i] += 1;
    }
    assert_eq!(c.counts, hand);
    // A number outside the edges is refused naming its line; labels and bins conflict.
    let narrow = Bins::parse("bins", "3000,6000").unwrap();
    let how = Counting {
        bins: Some(&narrow),
        nulls: Nulls::Drop,
        ..Counting::default()
    };
    let e = count_column_until(csv.as_bytes(), "mass", how, &|| false).unwrap_err();
    assert!(e.to_string().contains("3000 to 6000"), "{e}");
    let labels = vec!["a".to_string()];
    let how = Counting {
        bins: Some(&narrow),
        labels: Some(&labels),
        ..Counting::default()
    };
    assert!(count_column_until(csv.as_bytes(), "mass", how, &|| false).is_err());
}

#[test]
fn a_binned_column_draws_as_its_bin_labels_do() {
    let bins = Bins::parse("bins", "0,10,20").unwrap();
    let w = Mechanism::from_rows(vec![vec![0.7, 0.3], vec![0.2, 0.8]]).unwrap();
    let key = StreamKey::parse("0x5be0cd19137e2179").unwrap();
    let outputs = vec!["lo".to_string(), "hi".to_string()];
    let privatiser = || {
        let labels = bins.labels().to_vec();
        CategoricalPrivatiser::new(&w, labels, outputs.clone(), (&key, "v")).unwrap()
    };
    let numbers = "v\n3\n12.5\n20\n0\n19.99\n";
    let labelled = "v\n\"[0, 10)\"\n\"[10, 20]\"\n\"[10, 20]\"\n\"[0, 10)\"\n\"[10, 20]\"\n";
    let run = |text: &str, p: &mut dyn pmldesign_data::ColumnPrivatiser| {
        let mut out = Vec::new();
        let place = Placement::Append("v_private");
        privatise_column(text.as_bytes(), &mut out, "v", place, OnUnknown::Error, p).unwrap();
        let text = String::from_utf8(out).unwrap();
        text.lines()
            .map(|l| l.rsplit(',').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let mut binned = Binned::new(bins.clone(), privatiser());
    assert_eq!(run(numbers, &mut binned), run(labelled, &mut privatiser()));
    let mut out = Vec::new();
    let place = Placement::Append("v_private");
    let mut binned = Binned::new(bins.clone(), privatiser());
    let e = privatise_column(
        "v\n25\n".as_bytes(),
        &mut out,
        "v",
        place,
        OnUnknown::Error,
        &mut binned,
    );
    assert!(e.unwrap_err().to_string().contains("\"25\""));
}
