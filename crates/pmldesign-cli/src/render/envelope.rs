//! The post-processing-safe guarantee ([V] envelope) as text: the bounds at one
//! delta as JSON or as lines of a report.

use super::words::envelope_statement;
use pmldesign_model::envelope::EnvelopeBounds;
use serde_json::{Value, json};

/// The envelope bounds at one delta as JSON ([V] Thm 3, Alg. 1), with the statement a
/// data holder can publish and `envelope` (null unless the bounds meet).
pub fn envelope_json(b: &EnvelopeBounds) -> Value {
    let mut v = serde_json::to_value(b).unwrap_or(Value::Null);
    v["envelope"] = json!(b.envelope());
    v["statement"] = json!(envelope_statement(b));
    v
}

/// The envelope bounds at one delta as lines of a report.
pub fn envelope_table(b: &EnvelopeBounds) -> String {
    format!(
        "\nPost-processing-safe guarantee at delta = {} ([V] envelope):\n  raw (eps, delta)-PML level {:.6} (not closed under post-processing)\n  envelope in [{:.6}, {:.6}]{}\n  publishable: {}\n",
        b.delta,
        b.left_quantile,
        b.lower,
        b.upper,
        if b.exact { ": exact" } else { "" },
        envelope_statement(b)
    )
}
