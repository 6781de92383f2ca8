//! End-to-end tests of `pml apply`.

use crate::common::{EXAMPLE1, output_file, pml, s, write};

use std::path::{Path, PathBuf};

/// \[E\] Example 1 designed by `pml design` with labels a..d, in the given format.
fn example1_design(dir: &Path, format: &str) -> PathBuf {
    let args = [&EXAMPLE1[..], &["--labels", "a,b,c,d", "--format", format]].concat();
    output_file(dir, &format!("design.{format}"), &args)
}

/// A CSV of `rows` records `id,secret,note` cycling through `values`.
fn data(dir: &Path, values: &[&str], rows: usize) -> PathBuf {
    let mut s = String::from("id,secret,note\n");
    for i in 0..rows {
        s.push_str(&format!("{i},{},\"n, {i}\"\n", values[i % values.len()]));
    }
    write(dir, "in.csv", &s)
}

/// Arguments of `pml apply`: the mechanism (a flag and its value), then
/// `--data DATA --column COLUMN --output OUT` and `extra`.
fn argv<'a>(
    mechanism: [&'a str; 2],
    data: &'a str,
    column: &'a str,
    out: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    [
        &mechanism[..],
        &["--data", data, "--column", column, "--output", out],
        extra,
    ]
    .concat()
}

/// Runs `pml apply` with `args`; returns (exit code, stderr).
fn apply(args: &[&str]) -> (Option<i32>, String) {
    let out = pml().arg("apply").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Runs `pml apply` with `args`, asserts success; returns stderr.
fn apply_ok(args: &[&str]) -> String {
    let (code, err) = apply(args);
    assert_eq!(code, Some(0), "{err}");
    err
}

/// A 256-bit key: a short seed would add a warning to stderr.
const KEY: &str = "0x510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179";

#[test]
fn same_seed_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b", "c", "d"], 2000);
    // Runs with `--seed SEED` (no seed: draws from the OS) to the file `out`.
    let run = |seed: Option<&str>, out: &str| {
        let out = dir.path().join(out);
        let seed = seed.map_or(vec![], |seed| vec!["--seed", seed]);
        let mechanism = ["--mechanism", s(&mech)];
        let err = apply_ok(&argv(mechanism, s(&input), "secret", s(&out), &seed));
        (err, std::fs::read_to_string(out).unwrap())
    };
    let seeded = |seed: &str, out: &str| {
        let (err, text) = run(Some(seed), out);
        assert!(err.contains("2000 privatised"), "{err}");
        text
    };
    let a = seeded(KEY, "a.csv");
    assert_eq!(a, seeded(KEY, "b.csv"));
    // A seed under 64 bits is used with a warning that it is found by trying.
    let (err, short) = run(Some("17"), "short.csv");
    assert!(err.contains("warning: the seed is a 5-bit number"), "{err}");
    assert_ne!(short, a);
    assert_ne!(a, seeded("18", "c.csv"));
    // Without --seed the draws come from the OS and differ between runs.
    assert_ne!(run(None, "d.csv").1, run(None, "e.csv").1);
    // The other columns are kept, quoted as needed, the raw column is left out, and
    // a column of output names (the "outputs" of the design) is added.
    let mut lines = a.lines();
    assert_eq!(lines.next(), Some("id,note,secret_private"));
    for (i, line) in lines.enumerate() {
        let prefix = format!("{i},\"n, {i}\",");
        let y = line.strip_prefix(&prefix).expect(line);
        assert!(["y1", "y2", "y3", "y4"].contains(&y), "{line}");
    }
}

#[test]
fn mechanism_as_csv_and_replace() {
    let dir = tempfile::tempdir().unwrap();
    // `pml design --format csv` writes `input,y1,..` with the labels in the first column.
    let mech = example1_design(dir.path(), "csv");
    let input = data(dir.path(), &["d", "c", "b", "a"], 100);
    let out = dir.path().join("out.csv");
    apply_ok(&argv(
        ["--mechanism", s(&mech)],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY, "--replace"],
    ));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,secret,note"));
    for line in lines {
        let y = line.split(',').nth(1).unwrap();
        assert!(y.starts_with('y'), "the raw secret must be gone: {line}");
    }
    // A JSON array of rows carries no labels: the rows are x1..xN unless --labels.
    let rows = write(dir.path(), "rows.json", "[[0.9,0.1],[0.2,0.8]]");
    let bin = data(dir.path(), &["no", "yes"], 10);
    let base = argv(
        ["--mechanism", s(&rows)],
        s(&bin),
        "secret",
        s(&out),
        &["--seed", KEY],
    );
    let (code, err) = apply(&base);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("\"x1\", \"x2\""), "{err}");
    let mut named = base.to_vec();
    named.extend([
        "--labels",
        "no,yes",
        "--output-labels",
        "NO,YES",
        "--output-column",
        "answer",
    ]);
    apply_ok(&named);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("id,note,answer\n"), "{text}");
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.ends_with(",NO") || l.ends_with(",YES"))
    );
}

#[test]
fn unknown_value_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = write(dir.path(), "in.csv", "secret,k\na,1\nb,2\nzz,3\nc,4\n,5\n");
    let out = dir.path().join("out.csv");
    let base = argv(
        ["--mechanism", s(&mech)],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY],
    );
    let (code, err) = apply(&base);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 4")
            && err.contains("\"zz\"")
            && err.contains("\"a\", \"b\", \"c\", \"d\""),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!out.exists(), "nothing is written on error");

    let mut skip = base.to_vec();
    skip.extend(["--on-unknown", "skip"]);
    let err = apply_ok(&skip);
    assert!(
        err.contains("read 5 rows")
            && err.contains("3 privatised")
            && err.contains("2 rows")
            && err.contains("skipped")
            && err.contains("line 4"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let ks: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(ks, ["1", "2", "4"]);

    let mut keep = base.to_vec();
    keep.extend(["--on-unknown", "keep"]);
    let err = apply_ok(&keep);
    assert!(err.contains("2 rows") && err.contains("kept"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[3], "3,");
    assert_eq!(lines[5], "5,");
}

#[test]
fn laplace_and_gaussian_columns() {
    let dir = tempfile::tempdir().unwrap();
    let input = data(dir.path(), &["1", "-1"], 1000);
    // Default grids: the largest 1/n <= scale / 8.
    for (flag, value, n) in [
        ("--laplace-scale", "2.5", 4),
        ("--gaussian-sigma", "0.9", 9),
    ] {
        let run = |out: &str| {
            let out = dir.path().join(out);
            let err = apply_ok(&argv(
                [flag, value],
                s(&input),
                "secret",
                s(&out),
                &["--seed", KEY],
            ));
            (std::fs::read_to_string(out).unwrap(), err)
        };
        let (a, err) = run("a.csv");
        assert_eq!(a, run("b.csv").0);
        assert!(err.contains(&format!("grid of step 1/{n}")), "{err}");
        // Every value is a grid point k/n, written from k alone.
        for line in a.lines().skip(1) {
            let text = line.rsplit(',').next().unwrap();
            let y: f64 = text.parse().expect(line);
            let k = (y * n as f64).round();
            assert_eq!(text, (k / n as f64).to_string(), "{line}");
        }
    }
    // A value other than -1 or 1 is outside the alphabet.
    let bad = write(dir.path(), "bad.csv", "x\n1\n0.5\n");
    let o = dir.path().join("o.csv");
    let (code, err) = apply(&argv(["--laplace-scale", "1"], s(&bad), "x", s(&o), &[]));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 3") && err.contains("\"-1\", \"1\""),
        "{err}"
    );
}

/// The levels stated on stderr are those measured on the released 2 x M matrix
/// of the grid and range asked for, and every value lies in that range.
#[test]
fn stated_level_is_measured_on_the_released_matrix() {
    use pmldesign_model::lattice::{GridNoise, released_mechanism};
    use pmldesign_model::{Prior, measures};
    let dir = tempfile::tempdir().unwrap();
    let input = data(dir.path(), &["1", "-1"], 500);
    let out = dir.path().join("o.csv");
    let extra = [
        "--seed", KEY, "--grid", "0.25", "--range", "3", "--prior", "0.3,0.7",
    ];
    let err = apply_ok(&argv(
        ["--gaussian-sigma", "0.5"],
        s(&input),
        "secret",
        s(&out),
        &extra,
    ));
    // sigma = 2 steps of 1/4: variance 4 exactly; range 12 steps.
    let w = released_mechanism(GridNoise::Gaussian { variance: 4.0 }, 4, 12).unwrap();
    let stated = |notion: &str| -> f64 {
        let at = err.find(&format!("{notion} eps = ")).expect(&err) + notion.len() + 7;
        let end = err[at..].find([',', ' ', ';']).unwrap() + at;
        err[at..end].parse().expect(&err)
    };
    assert!(
        (stated("LDP") - measures::ldp_parameter(&w)).abs() < 1e-6,
        "{err}"
    );
    let prior = Prior::new(vec![0.3, 0.7]).unwrap();
    assert!(
        (stated("PML") - measures::eps_min(&w, &prior)).abs() < 1e-6,
        "{err}"
    );
    assert!(err.contains("[-3, 3] (25 values)"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    for line in text.lines().skip(1) {
        let y: f64 = line.rsplit(',').next().unwrap().parse().expect(line);
        assert!(y.abs() <= 3.0 && (y * 4.0).fract() == 0.0, "{line}");
    }
    // A step that is not 1/n, and a range off the grid, are usage errors.
    for (flag, bad) in [("--grid", "0.3"), ("--range", "2.1"), ("--prior", "0.5")] {
        let mut args = argv(["--laplace-scale", "1"], s(&input), "secret", s(&out), &[]);
        args.extend([flag, bad]);
        std::fs::remove_file(&out).ok();
        let (code, err) = apply(&args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(flag) && err.contains(bad), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!out.exists());
    }
}

/// `--laplace-epsilon` picks a scale whose release, as measured, meets the target:
/// LDP (b = 2/eps), or PML for a prior, just below the target.
#[test]
fn laplace_epsilon_is_met_as_measured() {
    let dir = tempfile::tempdir().unwrap();
    let input = data(dir.path(), &["1", "-1"], 100);
    let out = dir.path().join("o.csv");
    let stated = |err: &str, notion: &str| -> f64 {
        let at = err.find(&format!("{notion} eps = ")).expect(err) + notion.len() + 7;
        let end = err[at..].find([',', ' ', ';']).unwrap() + at;
        err[at..end].parse().expect(err)
    };
    let err = apply_ok(&argv(
        ["--laplace-epsilon", "1"],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY],
    ));
    // b = 2/eps, widened by 1e-9 where f64 rounding measures the level above eps.
    assert!(err.contains("noise of scale 2"), "{err}");
    assert!(stated(&err, "LDP") <= 1.0, "{err}");
    std::fs::remove_file(&out).unwrap();
    let extra = ["--seed", KEY, "--prior", "0.3,0.7"];
    let err = apply_ok(&argv(
        ["--laplace-epsilon", "0.5"],
        s(&input),
        "secret",
        s(&out),
        &extra,
    ));
    let pml = stated(&err, "PML");
    assert!(pml <= 0.5 && pml > 0.499, "{err}");
    std::fs::remove_file(&out).unwrap();
    for bad in ["0", "-1", "inf"] {
        let (code, err) = apply(&argv(
            ["--laplace-epsilon", bad],
            s(&input),
            "secret",
            s(&out),
            &[],
        ));
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--laplace-epsilon"), "{err}");
        assert!(!out.exists());
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b"], 4);
    let out = dir.path().join("out.csv");
    let (m, i, o) = (s(&mech), s(&input), s(&out));
    let with_mechanism = |extra: &[&'static str]| argv(["--mechanism", m], i, "secret", o, extra);
    let with = |first: &[&'static str]| {
        [first, &["--data", i, "--column", "secret", "--output", o]].concat()
    };
    let no_column = argv(["--mechanism", m], i, "nope", o, &[]);
    for args in [
        // No mechanism, or two.
        with(&[]),
        with_mechanism(&["--laplace-scale", "1"]),
        // Bad values of flags.
        with(&["--laplace-scale", "-1"]),
        with(&["--gaussian-sigma", "0"]),
        with_mechanism(&["--on-unknown", "ignore"]),
        with_mechanism(&["--seed", "x"]),
        with_mechanism(&["--replace", "--output-column", "z"]),
        // Clashing output column, wrong label count.
        with_mechanism(&["--output-column", "note"]),
        with_mechanism(&["--labels", "a,b"]),
        // Missing column, missing file.
        no_column.clone(),
        argv(["--mechanism", m], "/nonexistent.csv", "x", o, &[]),
    ] {
        let (code, err) = apply(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}");
    }
    let (_, err) = apply(&no_column);
    assert!(err.contains("\"id\", \"secret\", \"note\""), "{err}");
}

#[test]
fn noise_scales_are_checked_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let input = data(dir.path(), &["-1", "1"], 4);
    let out = dir.path().join("out.csv");
    for flag in ["--laplace-scale", "--gaussian-sigma"] {
        for bad in [
            "5e-324", "1e-310", "1e-20", "1e-7", "-1", "0", "inf", "NaN", "1e13", "1e305",
            // Noise finer than the grid allows, or too wide for the default range.
            "1e-5", "1e9",
        ] {
            let args = argv([flag, bad], s(&input), "secret", s(&out), &[]);
            let (code, err) = apply(&args);
            assert_eq!(code, Some(2), "{flag} {bad}: {err}");
            assert!(err.contains(flag), "{flag} {bad}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(!out.exists());
        }
        for (good, extra) in [
            ("0.5", &[][..]),
            ("1e-3", &["--grid", "0.0001", "--range", "2"][..]),
            ("1e4", &["--grid", "1", "--range", "3"][..]),
        ] {
            let args = argv([flag, good], s(&input), "secret", s(&out), extra);
            apply_ok(&args);
            std::fs::remove_file(&out).unwrap();
        }
    }
}

/// `--output` never lands on `--data`: the same path, a relative path, a symbolic
/// link and a hard link to it are refused (exit 2, one line naming both flags),
/// with or without `--replace`, and the input is untouched.
#[test]
fn output_onto_its_own_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b", "c", "d"], 50);
    let before = std::fs::read(&input).unwrap();
    let symlink = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&input, &symlink).unwrap();
    let hard = dir.path().join("hard.csv");
    std::fs::hard_link(&input, &hard).unwrap();
    let relative = dir.path().join(".").join("in.csv");
    for out in [&input, &relative, &symlink, &hard] {
        for extra in [&[][..], &["--replace"][..]] {
            let args = argv(
                ["--mechanism", s(&mech)],
                s(&input),
                "secret",
                s(out),
                &[&["--seed", KEY], extra].concat(),
            );
            let (code, err) = apply(&args);
            assert_eq!(code, Some(2), "{out:?} {extra:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("--output") && err.contains("--data"), "{err}");
            assert_eq!(std::fs::read(&input).unwrap(), before, "{out:?}");
        }
    }
}

/// A design file is verified before it is applied: one whose stated utility was
/// altered is refused naming the field, and
/// `--unverified` applies it with a warning; a bare matrix gets a warning that no
/// guarantee was checked.
#[test]
fn a_design_file_is_checked_before_it_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b", "c", "d"], 20);
    let out = dir.path().join("out.csv");
    let ok = apply_ok(&argv(
        ["--mechanism", s(&mech)],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY],
    ));
    assert!(!ok.contains("warning") && !ok.contains("note"), "{ok}");
    // Example 1's mutual information is 0.026822; the file states another value.
    let text = std::fs::read_to_string(&mech).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["utility"]["value"] = serde_json::json!(0.02);
    let forged = write(dir.path(), "forged.json", &v.to_string());
    std::fs::remove_file(&out).unwrap();
    let args = argv(
        ["--mechanism", s(&forged)],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY],
    );
    let (code, err) = apply(&args);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("utility.value"), "{err}");
    assert!(!out.exists(), "nothing written");
    let warned = apply_ok(&[&args[..], &["--unverified"]].concat());
    assert!(warned.contains("warning: --unverified"), "{warned}");
    assert!(out.exists());
    let bare = write(
        dir.path(),
        "bare.csv",
        "0.5,0.5\n0.5,0.5\n0.5,0.5\n0.5,0.5\n",
    );
    let noted = apply_ok(&argv(
        ["--mechanism", s(&bare)],
        s(&input),
        "secret",
        s(&out),
        &["--seed", KEY, "--labels", "a,b,c,d"],
    ));
    assert!(
        noted.contains("no privacy guarantee was checked"),
        "{noted}"
    );
}

/// `--replace` with a record design writes the private values in place of the
/// raw ones (the raw columns could not be dropped), in CSV and Parquet,
/// the same values as the appended `{column}_private`.
#[test]
fn a_record_design_replaces_its_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = String::from("id,A,B\n");
    for i in 0..600 {
        rows.push_str(&format!("{i},a{},b{}\n", i % 3, (i / 2) % 2));
    }
    let (data, design) = crate::common::compose_record(dir.path(), &rows);
    let key = "0x510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179";
    let run =
        |out: &Path, extra: &[&str]| crate::common::apply_record((&design, &data), key, out, extra);
    let appended = run(&dir.path().join("appended.csv"), &["--keep-raw"]);
    let replaced = run(&dir.path().join("replaced.csv"), &["--replace"]);
    assert!(replaced.starts_with("id,A,B\n"), "{}", &replaced[..40]);
    for (a, r) in appended.lines().skip(1).zip(replaced.lines().skip(1)) {
        let (a, r): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), r.split(',').collect());
        assert_eq!((r[0], r[1], r[2]), (a[0], a[3], a[4]));
    }
}

/// A column of `rows` values, `counts[i]` of every `rows` taken from `values[i]`
/// in turn.
fn column(dir: &Path, name: &str, values: &[(&str, usize)]) -> PathBuf {
    let mut s = String::from("id,secret\n");
    let mut i = 0;
    for (value, count) in values {
        for _ in 0..*count {
            s.push_str(&format!("{i},{value}\n"));
            i += 1;
        }
    }
    write(dir, name, &s)
}

/// A design made on one table (an l1 ball around its frequencies) warns when
/// it privatises a table of very different frequencies, and not on its own.
#[test]
fn data_from_another_population_are_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let own = column(dir.path(), "own.csv", &[("a", 700), ("b", 200), ("c", 100)]);
    let other = column(
        dir.path(),
        "other.csv",
        &[("a", 100), ("b", 200), ("c", 700)],
    );
    let design = output_file(
        dir.path(),
        "design.json",
        &[
            "design",
            "--data",
            s(&own),
            "--column",
            "secret",
            "--delta",
            "0.001",
            "--epsilon",
            "1",
        ],
    );
    let out = dir.path().join("out.csv");
    let run = |data: &Path| {
        let m = ["--mechanism", s(&design)];
        apply_ok(&argv(m, s(data), "secret", s(&out), &["--seed", KEY, "-q"]))
    };
    let err = run(&own);
    assert!(!err.contains("population"), "{err}");
    let err = run(&other);
    assert!(
        err.contains("warning:") && err.contains("another population") && err.contains("1000 rows"),
        "{err}"
    );
}
