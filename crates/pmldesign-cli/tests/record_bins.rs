//! End-to-end tests of `--bins COLUMN=EDGES` for records (docs/concepts/records.md):
//! a numeric column of a record is counted in its bins in numeric order, the edges
//! are recorded in the record's designs, `pml apply` cuts the column the same way,
//! and bad `--bins` or altered edges are refused.

use crate::common::{apply_record, one_line_usage_error, output_file, s, usage_error, write};
use std::path::{Path, PathBuf};

const SEED: &str = "0x510e527fade682d19b05688c2b3e6c1f6a09e667f3bcc908b2fb1366ea957d3e";
const EDGES: &str = "-inf,3500,4500,inf";
const LABELS: [&str; 3] = ["(-inf, 3500)", "[3500, 4500)", "[4500, inf)"];

/// 120 rows: a mass in grams (heavier in Oslo) and a city.
fn data(dir: &Path) -> PathBuf {
    let mut text = String::from("id,mass,city\n");
    for i in 0..120 {
        let city = ["Oslo", "Lund", "Bergen"][i % 3];
        let heavier = if city == "Oslo" { 600 } else { 0 };
        text.push_str(&format!(
            "{i},{},{city}\n",
            3000 + 100 * (i * 7 % 23) + heavier
        ));
    }
    write(dir, "rec.csv", &text)
}

/// `pml design` of the record (mass, city) of `data` with `extra` flags.
fn design_args<'a>(data: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let head = ["design", "--data", s(data), "--column", "mass"];
    let tail = ["--column", "city", "--epsilon", "2", "--delta", "1e-3"];
    [&head[..], &tail, extra].concat()
}

/// The record design of `mode` with mass binned at [`EDGES`]: its file and `record`.
fn binned(dir: &Path, data: &Path, mode: &str) -> (PathBuf, serde_json::Value) {
    let bins = format!("mass={EDGES}");
    let extra = ["--bins", &bins, "--record", mode, "--format", "json"];
    let file = output_file(dir, &format!("{mode}.json"), &design_args(data, &extra));
    let text = std::fs::read_to_string(&file).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    (file, json["record"].clone())
}

/// Column `j` of each data row of a CSV text (quoted fields hold no quotes here).
fn column(text: &str, j: usize) -> Vec<String> {
    let field = |line: &str| {
        let (mut fields, mut quoted, mut at) = (Vec::new(), false, String::new());
        for ch in line.chars() {
            match ch {
                '"' => quoted = !quoted,
                ',' if !quoted => fields.push(std::mem::take(&mut at)),
                _ => at.push(ch),
            }
        }
        fields.push(at);
        fields.swap_remove(j)
    };
    text.lines().skip(1).map(field).collect()
}

#[test]
fn a_binned_column_is_counted_in_its_bins_and_apply_cuts_it_alike() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    for (mode, setting, design) in [("compose", "bins", 0), ("joint", "bins.mass", 0)] {
        let (file, record) = binned(dir.path(), &data, mode);
        assert_eq!(record["mode"], mode);
        assert_eq!(record["sample"]["labels"][0], serde_json::json!(LABELS));
        assert_eq!(
            record["sample"]["labels"][1],
            serde_json::json!(["Oslo", "Lund", "Bergen"])
        );
        let settings = &record["designs"][design]["provenance"]["settings"];
        assert_eq!(settings[setting], EDGES, "{mode}: {settings}");
        let out = dir.path().join(format!("{mode}.csv"));
        let written = apply_record((&file, &data), SEED, &out, &["--keep-raw"]);
        let private = column(&written, 3);
        assert_eq!(private.len(), 120);
        let released: Vec<String> = match mode {
            // Joint writes the decoded combination: the binned column's values are bins.
            "joint" => LABELS.map(String::from).to_vec(),
            _ => record["designs"][0]["outputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_str().unwrap().to_string())
                .collect(),
        };
        assert!(private.iter().all(|v| released.contains(v)), "{private:?}");
    }
}

#[test]
fn apply_recuts_by_the_recorded_edges_and_refuses_altered_ones() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let (file, _) = binned(dir.path(), &data, "compose");
    // The bins' labels in place of the numbers release the same values.
    let raw = std::fs::read_to_string(&data).unwrap();
    let mut labelled = String::from("id,mass,city\n");
    for line in raw.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let m: f64 = f[1].parse().unwrap();
        let bin = [3500.0, 4500.0].iter().filter(|&&e| e <= m).count();
        labelled.push_str(&format!("{},\"{}\",{}\n", f[0], LABELS[bin], f[2]));
    }
    let labels = write(dir.path(), "labels.csv", &labelled);
    let keep = ["--keep-raw"];
    let by_number = apply_record((&file, &data), SEED, &dir.path().join("a.csv"), &keep);
    let by_label = apply_record((&file, &labels), SEED, &dir.path().join("b.csv"), &keep);
    assert_eq!(column(&by_number, 3), column(&by_label, 3));
    assert_eq!(column(&by_number, 4), column(&by_label, 4));
    let text = std::fs::read_to_string(&file).unwrap();
    let altered = text.replace(EDGES, "-inf,3500,4600,inf");
    assert_ne!(altered, text);
    let bad = write(dir.path(), "altered.json", &altered);
    let out = dir.path().join("out.csv");
    let args = ["apply", "--mechanism", s(&bad), "--data", s(&data)];
    let err = one_line_usage_error(&[&args[..], &["--output", s(&out), "--seed", SEED]].concat());
    assert!(
        err.contains("provenance.settings.bins") && err.contains("altered"),
        "{err}"
    );
}

#[test]
fn bad_bins_of_a_record_are_one_line_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let cases: [(&[&str], &str); 5] = [
        (&["--bins", EDGES], "write --bins COLUMN=-inf,3500,4500,inf"),
        (&["--bins", "weight=0,inf"], "\"weight\" is not a --column"),
        (
            &["--bins", "mass=0,inf", "--bins", "mass=0,9e9"],
            "binned twice",
        ),
        (&["--bins", "city=0,inf"], "\"Oslo\""),
        (&["--bins", "mass=0,4000"], "0 to 4000"),
    ];
    for (extra, needle) in cases {
        let err = one_line_usage_error(&design_args(&data, extra));
        assert!(
            err.contains(needle) && err.contains("--"),
            "{extra:?}: {err}"
        );
    }
    usage_error(&design_args(&data, &["--bins", "mass=0,x"]), "--bins mass");
}
