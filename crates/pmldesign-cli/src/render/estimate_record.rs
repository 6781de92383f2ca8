//! `pml estimate` of a record design rendered: each column's marginal, then the
//! joint distribution over the record's cells, as a table, JSON or CSV. A mass
//! the released data do not determine is shown without an interval.

use super::csv::csv_field;
use super::estimate::interval_row;
use super::number::num;
use super::own_version;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_app::RecordEstimateAnswer;
use pmldesign_model::frequency::FunctionalValue;
use std::fmt::Write as _;

/// What `pml estimate` found for a record design: the application layer's
/// answer, whose JSON is printed as it is.
pub struct RecordReport(pub RecordEstimateAnswer);

/// `lower upper se`, or a dash for each where not identifiable.
fn interval_cells(v: &FunctionalValue) -> [String; 3] {
    let shown = |x: Option<f64>| x.map_or("-".to_string(), num);
    [shown(v.lower), shown(v.upper), shown(v.standard_error)]
}

impl RecordReport {
    /// The report as a table, JSON or CSV.
    pub fn render(&self, format: Format) -> Result<String, CliError> {
        Ok(match format {
            Format::Json => own_version(&self.0.to_json())?,
            Format::Csv => self.csv(),
            Format::Table => self.table(),
        })
    }

    /// Every estimated mass as (kind, column, value, mass): marginals first.
    fn rows(&self) -> Vec<(&'static str, String, String, &FunctionalValue)> {
        let e = self.0.estimate();
        let marginals = e.marginals.iter().zip(&e.columns).flat_map(|(m, c)| {
            m.iter()
                .map(move |(v, f)| ("marginal", c.clone(), v.clone(), f))
        });
        let joint = e
            .joint
            .iter()
            .map(|(cell, f)| ("joint", e.columns.join("|"), cell.join("|"), f));
        marginals.chain(joint).collect()
    }

    fn csv(&self) -> String {
        let mut out = String::from("kind,column,value,estimate,lower,upper,standard_error\n");
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        for (kind, column, value, f) in self.rows() {
            let _ = writeln!(
                out,
                "{kind},{},{},{},{},{},{}",
                csv_field(&column),
                csv_field(&value),
                f.estimate,
                opt(f.lower),
                opt(f.upper),
                opt(f.standard_error)
            );
        }
        out
    }

    fn table(&self) -> String {
        let e = self.0.estimate();
        let mut out = format!(
            "estimate of the record ({}) from {} released rows (em, {:.0} % intervals)\n",
            e.columns.join(", "),
            e.rows,
            100.0 * e.confidence
        );
        if !e.converged {
            let _ = writeln!(
                out,
                "note: EM stopped at its cap of {} iterations before certifying the maximum likelihood",
                e.iterations
            );
        } else if let Some(gap) = e.likelihood_gap {
            let _ = writeln!(
                out,
                "maximum likelihood certified: within {} nats of the maximum",
                num(gap)
            );
        }
        let rows = self.rows();
        let hidden = rows.iter().filter(|r| !r.3.identifiable).count();
        if hidden > 0 {
            let _ = writeln!(
                out,
                "note: {hidden} masses are not determined by the released data: shown at the maximum-likelihood estimate, without an interval"
            );
        }
        let width = rows
            .iter()
            .map(|r| r.1.len() + r.2.len() + 3)
            .max()
            .unwrap_or(5)
            .max(5);
        let head = ["estimate", "lower", "upper", "std. error"].map(String::from);
        interval_row(&mut out, ("mass", width), &head);
        out.push('\n');
        for (_, column, value, f) in &rows {
            let [lo, hi, se] = interval_cells(f);
            let name = format!("{column} = {value}");
            interval_row(&mut out, (&name, width), &[num(f.estimate), lo, hi, se]);
            out.push('\n');
        }
        out
    }
}
