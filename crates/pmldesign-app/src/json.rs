//! The pieces every answer's JSON shares: `format_version` first, and
//! infinite numbers written as `null`.

use serde_json::{Map, Value, json};

/// `v` with `format_version` first, unless it has one of its own (a design).
pub fn versioned(v: Value) -> Value {
    match v {
        Value::Object(m) if !m.contains_key("format_version") => {
            let mut out = Map::with_capacity(m.len() + 1);
            let version = pmldesign_solver::OUTPUT_FORMAT_VERSION;
            out.insert("format_version".into(), version.into());
            out.extend(m);
            Value::Object(out)
        }
        other => other,
    }
}

/// `x`, or `null` where it is infinite or undefined (JSON has no such number).
pub fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_first_and_nulls_for_infinities() {
        assert_eq!(finite_or_null(f64::NAN), Value::Null);
        assert_eq!(finite_or_null(f64::INFINITY), Value::Null);
        assert_eq!(finite_or_null(0.5), json!(0.5));
        let v = versioned(json!({"a": 1}));
        assert_eq!(
            v.as_object().unwrap().keys().next().unwrap(),
            "format_version"
        );
        let own = versioned(json!({"a": 1, "format_version": 7}));
        assert_eq!(own["format_version"], 7);
    }
}
