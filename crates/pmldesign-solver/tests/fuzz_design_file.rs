//! The design-file reader under random damage. Genuine designs (a
//! utility under a known prior and a ball, a PML loss, a loss under LDP and
//! under PMC over a ball) are mutated at the JSON level (a value replaced, a key
//! dropped, an array grown or shrunk) and at the byte level (truncated, a byte
//! changed); reading must never panic, and whatever it accepts keeps every
//! claim: the mechanism meets its notion over its whole set (re-measured here)
//! and the design verifies.
//!
//! The suite runs 256 cases; a longer run (the closing note's count) is
//! `PROPTEST_CASES=20000 cargo test --release -p pmldesign-solver --test fuzz_design_file`.

use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::{Design, Loss, Problem};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The genuine designs, as JSON.
fn genuine() -> &'static [Value] {
    static DESIGNS: OnceLock<Vec<Value>> = OnceLock::new();
    DESIGNS.get_or_init(|| {
        let p = Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap();
        let known = UncertaintySet::known(p.clone());
        let ball = UncertaintySet::l1_ball(p, 0.1).unwrap();
        let designs = [
            Problem::new(known.clone()).epsilon(0.5).solve(),
            Problem::new(ball.clone()).epsilon(0.7).solve(),
            Problem::new(known.clone())
                .epsilon(0.5)
                .loss(Loss::Hamming)
                .solve(),
            Problem::new(known)
                .notion(Notion::Ldp { epsilon: 0.8 })
                .loss(Loss::Absolute)
                .solve(),
            Problem::new(ball)
                .notion(Notion::Pmc { epsilon: 0.5 })
                .loss(Loss::Hamming)
                .solve(),
        ];
        designs
            .into_iter()
            .map(|d| serde_json::to_value(d.unwrap()).unwrap())
            .collect()
    })
}

/// Every path to a leaf or a container of `v`.
fn paths(v: &Value, at: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            let mut p = at.clone();
            p.push(k.clone());
            paths(x, p, out)
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            let mut p = at.clone();
            p.push(i.to_string());
            paths(x, p, out)
        }),
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
        other => &mut other[k.as_str()],
    })
}

/// Replacement values: numbers near and far, wrong types.
fn replacement(pick: u32, old: &Value) -> Value {
    let x = old.as_f64().unwrap_or(0.5);
    match pick % 10 {
        0 => json!(x * 1.000001),
        1 => json!(x + 1e-12),
        2 => json!(-x),
        3 => json!(0.0),
        4 => json!(1e308),
        5 => Value::Null,
        6 => json!("x"),
        7 => json!([]),
        8 => json!(x * 2.0),
        _ => json!({}),
    }
}

/// One JSON-level mutation of `v`, chosen by (`kind`, `target`, `pick`).
fn mutate(mut v: Value, kind: u32, target: usize, pick: u32) -> Value {
    let mut all = Vec::new();
    paths(&v, vec![], &mut all);
    let path = all[target % all.len()].clone();
    let (parent, last) = path.split_at(path.len().saturating_sub(1));
    match kind % 4 {
        0 => {
            let leaf = at(&mut v, &path);
            *leaf = replacement(pick, leaf);
        }
        1 => match (at(&mut v, parent), last.first()) {
            (Value::Object(o), Some(k)) => {
                o.remove(k.as_str());
            }
            (Value::Array(a), Some(k)) => {
                a.remove(k.parse::<usize>().unwrap());
            }
            _ => {}
        },
        2 => {
            if let Value::Array(a) = at(&mut v, &path)
                && let Some(first) = a.first().cloned()
            {
                a.push(first);
            }
        }
        _ => {
            let leaf = at(&mut v, &path);
            if let Some(x) = leaf.as_f64() {
                *leaf = json!(x * (1.0 + f64::from(pick % 7) * 1e-3));
            }
        }
    }
    v
}

/// Reading `text` panics never; an accepted design keeps its claims.
fn read_is_sound(text: &str) {
    let Ok(d) = serde_json::from_str::<Design>(text) else {
        return;
    };
    let excess =
        NotionLevels::measure_notion(d.mechanism(), d.uncertainty(), d.notion()).excess(d.notion());
    assert!(
        excess <= 1e-12,
        "accepted a design exceeding its notion by {excess}"
    );
    d.verify().expect("an accepted design verifies");
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn damaged_design_files_never_panic_nor_pass_unsound(
        which in 0usize..5,
        kind in 0u32..4,
        target in 0usize..100_000,
        pick in 0u32..1000,
        twice in any::<bool>(),
        cut in 0usize..100_000,
        byte in any::<u8>(),
    ) {
        let mut v = mutate(genuine()[which].clone(), kind, target, pick);
        if twice {
            v = mutate(v, kind + 1, target / 7, pick / 3);
        }
        let text = serde_json::to_string(&v).unwrap();
        read_is_sound(&text);
        // Byte-level damage of the genuine file: a byte changed, then truncated.
        let mut bytes = serde_json::to_string(&genuine()[which]).unwrap().into_bytes();
        let i = cut % bytes.len();
        bytes[i] = byte;
        if let Ok(t) = std::str::from_utf8(&bytes) {
            read_is_sound(t);
            read_is_sound(&t[..t.char_indices().nth(i / 2).map_or(0, |(k, _)| k)]);
        }
    }
}
