//! End-to-end tests of `--nulls` (docs/theory.md §6): a missing value is refused
//! by default, left out (`drop`) or one more category (`category`), and `pml
//! apply` privatises the rows as the design recorded.

use crate::common::{apply_design, output_file, s, usage_error, write};
use std::path::Path;

/// 40 rows cycling a, b, c, every fifth value missing (an empty field).
fn data(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("id,v\n");
    for i in 0..40 {
        let v = if i % 5 == 4 {
            ""
        } else {
            ["a", "b", "c"][i % 3]
        };
        text.push_str(&format!("{i},{v}\n"));
    }
    write(dir, "in.csv", &text)
}

/// A design for estimation (its rows stay linearly independent, so that the
/// analyst's estimate below has every input's mass to give).
fn design(dir: &Path, data: &Path, nulls: &str) -> std::path::PathBuf {
    let args = [
        "design",
        "--utility",
        "estimation",
        "--data",
        s(data),
        "--column",
        "v",
        "--exp-epsilon",
        "2",
        "--nulls",
        nulls,
        "--format",
        "json",
    ];
    output_file(dir, &format!("{nulls}.json"), &args)
}

/// The `v_private` values of an output CSV (the last field of each row).
fn private(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let rows = text.lines().skip(1);
    // A lone empty field is written `""` (a blank line would be a missing row).
    rows.map(|l| l.rsplit(',').next().unwrap().trim_matches('"').to_string())
        .collect()
}

#[test]
fn a_missing_value_is_refused_by_default_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let args = [
        "design",
        "--data",
        s(&data),
        "--column",
        "v",
        "--exp-epsilon",
        "2",
    ];
    usage_error(&args, "line 6");
    usage_error(&args, "--nulls drop");
}

/// The design `d` (its JSON read back), and `pml apply` of it to `data` with
/// `extra` flags: the output file and stderr.
fn design_and_apply(
    dir: &Path,
    nulls: &str,
    extra: &[&str],
) -> (serde_json::Value, std::path::PathBuf, String) {
    let data = data(dir);
    let d = design(dir, &data, nulls);
    let json = serde_json::from_slice(&std::fs::read(&d).unwrap()).unwrap();
    let out = dir.join("out.csv");
    let done = apply_design((&d, &data, "v"), &out, extra);
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(done.status.success(), extra.is_empty(), "{err}");
    (json, out, err)
}

#[test]
fn category_counts_and_privatises_missing_values_as_null() {
    let dir = tempfile::tempdir().unwrap();
    let (json, out, _) = design_and_apply(dir.path(), "category", &[]);
    assert_eq!(json["labels"], serde_json::json!(["a", "b", "c", "<null>"]));
    assert_eq!(json["provenance"]["settings"]["nulls"], "category");
    assert!(private(&out).iter().all(|v| !v.is_empty()));
    // Overridden at apply time, a missing value is again refused.
    let (_, _, err) = design_and_apply(dir.path(), "category", &["--nulls", "error"]);
    assert!(err.contains("missing") && err.lines().count() == 1, "{err}");
}

#[test]
fn drop_leaves_missing_values_out_and_writes_them_missing() {
    let dir = tempfile::tempdir().unwrap();
    let (json, out, err) = design_and_apply(dir.path(), "drop", &[]);
    assert_eq!(json["labels"], serde_json::json!(["a", "b", "c"]));
    assert_eq!(json["provenance"]["settings"]["nulls"], "drop");
    assert!(
        err.contains("8 rows with a missing value written missing"),
        "{err}"
    );
    let values = private(&out);
    let empty: Vec<usize> = (0..40).filter(|&i| values[i].is_empty()).collect();
    assert_eq!(empty, (0..40).filter(|i| i % 5 == 4).collect::<Vec<_>>());
    let d = dir.path().join("drop.json");
    let estimate = [
        "estimate",
        "--mechanism",
        s(&d),
        "--data",
        s(&out),
        "--column",
        "v_private",
    ];
    // The analyst leaves them out as the design recorded (as for a record)...
    let est = crate::common::json(&estimate);
    assert_eq!(est["rows"], 32, "{est}");
    // ...unless told that a missing released value is an error.
    usage_error(&[&estimate[..], &["--nulls", "error"]].concat(), "missing");
}

/// A record of two columns, A and B, 60 rows, with a missing A in every seventh
/// row and a missing B in every eleventh.
fn record_data(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("A,B\n");
    for i in 0..60 {
        let a = if i % 7 == 6 { "" } else { ["a1", "a2"][i % 2] };
        let b = if i % 11 == 10 {
            ""
        } else {
            ["b1", "b2", "b3"][i % 3]
        };
        text.push_str(&format!("{a},{b}\n"));
    }
    write(dir, "rec.csv", &text)
}

/// `pml design` of the record over A and B with `--nulls nulls` and `--record mode`
/// (with `--delta`: joint's sample misses combinations): the file and its `record`.
fn record_design(
    dir: &Path,
    data: &Path,
    nulls: &str,
    mode: &str,
) -> (std::path::PathBuf, serde_json::Value) {
    let args = [
        "design",
        "--data",
        s(data),
        "--column",
        "A",
        "--column",
        "B",
        "--epsilon",
        "2",
        "--record",
        mode,
        "--nulls",
        nulls,
        "--delta",
        "1e-3",
        "--format",
        "json",
    ];
    let file = output_file(dir, &format!("rec-{nulls}-{mode}.json"), &args);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    (file, json["record"].clone())
}

/// The rows a record design's sample counted.
fn counted(record: &serde_json::Value) -> u64 {
    record["sample"]["tuples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t[1].as_u64().unwrap())
        .sum()
}

#[test]
fn records_count_missing_values_as_a_category_or_leave_their_rows_out() {
    let dir = tempfile::tempdir().unwrap();
    let data = record_data(dir.path());
    let refused = [
        "design",
        "--data",
        s(&data),
        "--column",
        "A",
        "--column",
        "B",
        "--epsilon",
        "2",
    ];
    usage_error(&refused, "--nulls");
    for mode in ["compose", "joint"] {
        let (category, record) = record_design(dir.path(), &data, "category", mode);
        let labels = &record["sample"]["labels"];
        assert!(
            labels[0].as_array().unwrap().contains(&"<null>".into()),
            "{labels}"
        );
        assert!(
            labels[1].as_array().unwrap().contains(&"<null>".into()),
            "{labels}"
        );
        assert_eq!(counted(&record), 60, "every row counted");
        assert_eq!(
            record["designs"][0]["provenance"]["settings"]["nulls"],
            "category"
        );
        // Applied as recorded: every row privatised, none missing.
        let out = dir.path().join(format!("out-category-{mode}.csv"));
        let text = crate::common::apply_record((&category, &data), "7", &out, &[]);
        let rows: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(rows.len(), 60);
        let private = |r: &&str| r.split(',').skip(2).all(|v| !v.is_empty());
        assert!(rows.iter().all(private), "{text}");

        let (drop, record) = record_design(dir.path(), &data, "drop", mode);
        let kept = (0..60).filter(|i| i % 7 != 6 && i % 11 != 10).count() as u64;
        assert_eq!(counted(&record), kept);
        let out = dir.path().join(format!("out-drop-{mode}.csv"));
        let text = crate::common::apply_record((&drop, &data), "7", &out, &[]);
        for (i, row) in text.lines().skip(1).enumerate() {
            let fields: Vec<&str> = row.split(',').collect();
            let missing = i % 7 == 6 || i % 11 == 10;
            let n = fields.len();
            assert_eq!(
                fields[n - 2].is_empty() && fields[n - 1].is_empty(),
                missing,
                "row {i}: {row}"
            );
        }
        // The analyst leaves the released rows with missing values out as well.
        let est = crate::common::json(&["estimate", "--mechanism", s(&drop), "--data", s(&out)]);
        assert_eq!(est["rows"], kept, "{est}");
    }
}

/// A one-column file with blank lines (polars writes a null that way): each
/// blank line is a missing value, refused naming its line by default, never
/// skipped; `pml apply` and `pml estimate` read all eight rows.
#[test]
fn a_blank_line_of_a_one_column_file_is_a_missing_value() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "blank.csv", "v\na\nb\n\na\nb\na\n\nb\n");
    let refused = [
        "design",
        "--data",
        s(&data),
        "--column",
        "v",
        "--epsilon",
        "1",
    ];
    usage_error(&refused, "line 4");
    let d = design(dir.path(), &data, "drop");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&d).unwrap()).unwrap();
    assert_eq!(json["labels"], serde_json::json!(["a", "b"]));
    let out = dir.path().join("out.csv");
    let refused = apply_design((&d, &data, "v"), &out, &["--nulls", "error"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(err.contains("line 4") && err.lines().count() == 1, "{err}");
    assert!(!out.exists());
    let done = apply_design((&d, &data, "v"), &out, &[]);
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        done.status.success() && err.contains("read 8 rows"),
        "{err}"
    );
    let values = private(&out);
    let empty: Vec<usize> = (0..8).filter(|&i| values[i].is_empty()).collect();
    assert_eq!(empty, [2, 6]);
    // The released column alone, its missing values blank lines: refused, or
    // left out.
    let released = write(
        dir.path(),
        "released.csv",
        &format!("v_private\n{}\n", values.join("\n")),
    );
    let estimate = |nulls: &'static str| {
        crate::common::pml()
            .args(["estimate", "--mechanism", s(&d), "--data", s(&released)])
            .args([
                "--column",
                "v_private",
                "--nulls",
                nulls,
                "--format",
                "json",
            ])
            .output()
            .unwrap()
    };
    let refused = estimate("error");
    assert_eq!(refused.status.code(), Some(2));
    let kept = estimate("drop");
    let err = String::from_utf8_lossy(&kept.stderr);
    assert!(
        kept.status.success() && err.contains("2 released rows"),
        "{err}"
    );
}
