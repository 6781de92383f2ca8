//! Documented caps: the `--deltas` grid of `pml envelope`, the distinct
//! categories counted from `--data`, and the size of a matrix file.

use crate::common::{EXAMPLE1, one_line_usage_error, output_file, s, write};

#[test]
fn envelope_grid_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let mech = output_file(dir.path(), "m.json", &EXAMPLE1);
    let run = |deltas: &str| {
        one_line_usage_error(&[
            "envelope",
            "--mechanism",
            s(&mech),
            "--prior",
            "0.4,0.2,0.2,0.2",
            "--format",
            "json",
            "--deltas",
            deltas,
        ])
    };
    let start = std::time::Instant::now();
    let err = run("0.001:0.5:1000000000000");
    assert!(err.contains("--deltas") && err.contains("100000"), "{err}");
    assert!(start.elapsed().as_secs() < 5, "the grid was built");
    // 100001 (empty) items: the count is checked before any is parsed; an argument
    // of 100 kB stays below the kernel's limit.
    let list = ",".repeat(100_000);
    let err = run(&list);
    assert!(err.contains("--deltas") && err.contains("100000"), "{err}");
}

#[test]
fn counting_stops_at_the_category_cap() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("id,x\n");
    for i in 0..300_000 {
        csv.push_str(&format!("u{i},1\n"));
    }
    let data = write(dir.path(), "ids.csv", &csv);
    let err = one_line_usage_error(&[
        "design",
        "--data",
        s(&data),
        "--column",
        "id",
        "--epsilon",
        "1",
    ]);
    assert!(err.contains("100000 distinct categories"), "{err}");
    assert!(err.contains("line 100002"), "{err}");
}

/// A matrix or design file larger than a matrix of the largest alphabet takes is
/// refused before it is read, in one line naming the flag (a sparse file: nothing
/// is written to disk).
#[test]
fn oversized_matrix_files_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(pmldesign_solver::sizes::MAX_MATRIX_FILE_BYTES + 1)
        .unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["assess", "--design", p],
        vec!["assess", "--mechanism", p, "--prior", "0.5,0.5"],
    ] {
        let err = one_line_usage_error(&args);
        assert!(err.contains("more than a matrix of N = 4096"), "{err}");
    }
}
