//! A record design as a table for people or as its JSON file.

use crate::args::Format;
use crate::error::CliError;
use crate::render::number::{certified, level, num, short};
use pmldesign_solver::{RecordDesign, RecordMode};

/// The design in `format`: JSON is the design file (`{"record": ...}`), which
/// `pml apply --mechanism` and `pml assess --design` read back; a table otherwise.
pub fn render_record(r: &RecordDesign, format: Format) -> Result<String, CliError> {
    match format {
        Format::Json => Ok(format!("{}\n", r.to_json())),
        Format::Table => Ok(record_table(r)),
        Format::Csv => Err(CliError::Usage(
            "invalid --format csv for a record: its designs are several matrices; use --format json or table".into(),
        )),
    }
}

fn record_table(r: &RecordDesign) -> String {
    let mut s = format!(
        "Record ({}) released by {}: eps = {} about the whole record\n",
        r.columns().join(", "),
        r.mode().name(),
        short(r.epsilon())
    );
    match r.mode() {
        RecordMode::Joint => {
            let d = &r.designs()[0];
            s.push_str(&format!(
                "  one design over {} combinations, {} outputs, utility {} ({}, certified gap {:.2e})\n",
                r.cells().len(),
                d.mechanism().outputs(),
                num(d.utility_value()),
                serde_json::to_value(d.status()).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default(),
                d.certificate().gap()
            ));
        }
        _ => {
            for (j, (d, c)) in r.designs().iter().zip(r.columns()).enumerate() {
                let set = match r.radii().get(j) {
                    Some(&b) if b > 0.0 => {
                        format!("l1 ball of radius {} around its marginal", num(b))
                    }
                    _ => "its marginal".to_string(),
                };
                s.push_str(&format!(
                    "  {c}: {} = {} over {set}, {} outputs, certified worst-case PML {}\n",
                    d.notion().name(),
                    short(r.epsilons()[j]),
                    d.mechanism().outputs(),
                    certified(
                        d.certificate().worst_case_pml(),
                        d.certificate().target_epsilon(),
                        d.certificate().tolerance()
                    )
                ));
            }
        }
    }
    let measured = r
        .printed_leakage()
        .unwrap_or_else(|| "not measured (over 4096 cells)".into());
    s.push_str(&format!(
        "Leakage about the record at the estimate: {measured}\n"
    ));
    s.push_str(&format!(
        "Utility ({}): {}\n",
        r.utility().measure.replace('_', " "),
        num(r.utility().value)
    ));
    let naive = r
        .naive()
        .leakage_about_record
        .map_or("not measured".into(), level);
    s.push_str(&format!(
        "Naive release, not offered: each column at eps/k = {} for its own marginal leaks {naive} about the record (not a guarantee)\n",
        short(r.naive().epsilon_per_column)
    ));
    s.push_str(&format!(
        "\nGuarantee: {}.\nCheck: {}.\n",
        r.guarantee().statement,
        r.guarantee().check
    ));
    s
}
