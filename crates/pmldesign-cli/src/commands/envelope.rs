//! `pml envelope`: post-processing-safe `(eps, delta)` guarantees of a given mechanism
//! ([V] "Information leakage envelopes", `docs/theory.md` §8). Parsing, formatting
//! and plotting only: every number comes from `pmldesign_model::envelope`.

use crate::args::Format;
use crate::args::envelope::{EnvelopeArgs, parse_deltas};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::load_mechanism;
use crate::io::write::{emit, write_atomic};
use crate::render::envelope::envelope_json;
use crate::render::pretty;
use crate::render::words::{envelope_statement, statement_at};
use plotters::prelude::*;
use pmldesign_model::envelope::{self, Envelope, EnvelopeBounds};
use pmldesign_solver::envelope::{EnvelopeValue, envelope_curve, envelope_value};
use serde_json::json;
use std::fmt::Write as _;

/// Runs `pml envelope`.
pub fn run(a: EnvelopeArgs) -> Result<(), CliError> {
    let deltas = parse_deltas(&a.deltas)?;
    envelope::check_delta(a.delta).map_err(|e| CliError::Usage(format!("--delta: {e}")))?;
    let est = load_estimate(&a.input)?;
    let (mechanism, labels) = load_mechanism(&a.mechanism, &a.input, &est)?;
    let env = Envelope::new(&mechanism, &est.prior)?;
    let curve = env.curve(&deltas)?;
    let headline = env.bounds(a.delta)?;
    let (lp, headline_lp) = if a.lp {
        (
            Some(envelope_curve(&mechanism, &est.prior, &deltas)?),
            Some(envelope_value(&mechanism, &est.prior, a.delta)?),
        )
    } else {
        (None, None)
    };
    let r = Report {
        source: a.mechanism.display().to_string(),
        prior: est.prior,
        labels,
        statement: published(&headline, headline_lp.as_ref()),
        mechanism,
        env,
        curve,
        lp,
        headline,
        headline_lp,
    };
    if let Some(path) = &a.plot {
        write_atomic(
            "--plot",
            path,
            &plot(&r.curve, r.lp.as_deref(), &r.env, &r.source)?,
        )?;
    }
    let text = match a.output.format() {
        Format::Json => pretty(&r.json())?,
        Format::Csv => csv(&r.curve, r.lp.as_deref()),
        Format::Table => r.table(),
    };
    emit(a.output.output.as_deref(), &text)
}

/// Everything `pml envelope` reports on one mechanism.
struct Report {
    source: String,
    prior: pmldesign_model::Prior,
    labels: Vec<String>,
    mechanism: pmldesign_model::Mechanism,
    env: Envelope,
    /// The bounds at each delta of the grid, and the LP's envelope beside them.
    curve: Vec<EnvelopeBounds>,
    lp: Option<Vec<EnvelopeValue>>,
    /// The same at the headline delta, and the statement published there.
    headline: EnvelopeBounds,
    headline_lp: Option<EnvelopeValue>,
    statement: String,
}

/// The statement to publish at the delta of `b`: the LP's envelope where it is
/// below the Theorem 3 bound ([`EnvelopeValue::published`]), else the bounds'.
fn published(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> String {
    match lp {
        Some(v) => statement_at(b, v.published(b)),
        None => envelope_statement(b),
    }
}

/// Envelope bounds as JSON ([`envelope_json`]), with the LP's bracket and the
/// statement it publishes when there is one.
fn bounds_json(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> serde_json::Value {
    let mut v = envelope_json(b);
    if let Some(lp) = lp {
        v["lp"] = json!({
            "lower": lp.lower,
            "upper": lp.upper,
            "converged": lp.converged,
            "linear_programs": lp.linear_programs,
        });
        v["statement"] = json!(published(b, Some(lp)));
    }
    v
}

impl Report {
    /// The JSON object of `--format json`.
    fn json(&self) -> serde_json::Value {
        let env = &self.env;
        let tail = pmldesign_model::measures::tail_curve(&self.mechanism, &self.prior);
        let lp = |i: usize| self.lp.as_ref().map(|lp| &lp[i]);
        let mut headline = bounds_json(&self.headline, self.headline_lp.as_ref());
        if let Some(o) = headline.as_object_mut() {
            o.shift_remove("lp");
        }
        json!({
            "source": self.source,
            "prior": self.prior.masses().to_vec(),
            "labels": self.labels,
            "mechanism": self.mechanism.to_rows(),
            "maximal_leakage": env.maximal_leakage(),
            "max_pml": env.max_pml(),
            "leakage_distribution": env.distribution().atoms.iter().map(|t| json!({
                "pml": t.pml,
                "probability": t.probability,
                "outputs": t.outputs.iter().map(|y| format!("y{}", y + 1)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "tail_curve": tail.iter().map(|(e, d)| json!({"epsilon": e, "delta": d})).collect::<Vec<_>>(),
            "statement": {
                "text": self.statement,
                "bounds": headline,
                "lp": self.headline_lp,
            },
            "curve": self.curve.iter().enumerate().map(|(i, b)| bounds_json(b, lp(i))).collect::<Vec<_>>(),
            "notes": [
                "left_quantile is the raw eps_Y(delta): the smallest eps with P(l(Y) > eps) <= delta; post-processing can raise it",
                "upper ([V] Thm 3) is post-processing safe: for every post-processing Z, P(l(X -> Z) > upper) <= delta",
                "lower = max(right_quantile, binary) ([V] Alg. 1); where lower = upper the envelope is exact",
                "lp (with --lp): the envelope itself by linear program, [lower, upper] to 1e-9; lower is certified by statement.lp.witness, a post-processing P(Z|Y) (rows are outputs y)",
                "statement: what a data holder can publish at that delta: the Theorem 3 upper bound, or with --lp the LP's envelope where it is tighter",
                "tail_curve: P(l(Y) > eps) is constant from one point's epsilon to the next; it is 1 below the first point",
            ],
        })
    }
}

/// The numbers of a curve row, in the column order of both the CSV and the table:
/// delta, left and right quantile, binary, lower, upper, markov.
fn numbers(b: &EnvelopeBounds) -> [f64; 7] {
    [
        b.delta,
        b.left_quantile,
        b.right_quantile,
        b.binary,
        b.lower,
        b.upper,
        b.markov,
    ]
}

fn csv(curve: &[EnvelopeBounds], lp: Option<&[EnvelopeValue]>) -> String {
    let mut s =
        String::from("delta,left_quantile,right_quantile,binary,lower,upper,markov,exact,envelope");
    s.push_str(if lp.is_some() {
        ",lp_lower,lp_upper\n"
    } else {
        "\n"
    });
    for (i, b) in curve.iter().enumerate() {
        for x in numbers(b) {
            let _ = write!(s, "{x},");
        }
        let _ = write!(
            s,
            "{},{}",
            b.exact,
            b.envelope().map_or_else(String::new, |e| e.to_string())
        );
        if let Some(lp) = lp {
            let _ = write!(s, ",{},{}", lp[i].lower, lp[i].upper);
        }
        s.push('\n');
    }
    s
}

impl Report {
    /// The report of `--format table`: the summary, then the bounds over the grid.
    fn table(&self) -> String {
        let mut s = self.summary();
        s.push_str(&self.bounds_table());
        s
    }

    /// The mechanism's leakage distribution and the statement published.
    fn summary(&self) -> String {
        let (env, h) = (&self.env, &self.headline);
        let mut s = String::new();
        let atoms = &env.distribution().atoms;
        let _ = writeln!(
            s,
            "PML envelope of {}  ({} inputs x {} outputs; {} outcomes after merging similar outputs)\n",
            self.source,
            self.mechanism.inputs(),
            self.mechanism.outputs(),
            atoms.len()
        );
        let _ = writeln!(
            s,
            "  max PML {:.6}   maximal leakage L {:.6}\n",
            env.max_pml(),
            env.maximal_leakage()
        );
        s.push_str("Leakage distribution:\n");
        let _ = writeln!(s, "  {:>12} {:>12}  outputs", "PML", "P");
        for t in atoms {
            let names: Vec<String> = t.outputs.iter().map(|y| format!("y{}", y + 1)).collect();
            let _ = writeln!(
                s,
                "  {:>12.6} {:>12.6}  {}",
                t.pml,
                t.probability,
                names.join(",")
            );
        }
        let _ = writeln!(
            s,
            "\nPublishable at delta = {}: {}.",
            h.delta, self.statement
        );
        let by_lp = self.headline_lp.as_ref();
        let (lo, hi) = by_lp.map_or((h.lower, h.upper), |v| (v.lower, v.upper));
        let _ = writeln!(
            s,
            "  (the raw (eps, delta)-PML level {:.6} does not survive post-processing; the envelope lies in [{lo:.6}, {hi:.6}]{})\n",
            h.left_quantile,
            if by_lp.is_some() { ", by LP" } else { "" }
        );
        s
    }

    /// The bounds at each delta of the grid, with the LP's envelope beside them.
    fn bounds_table(&self) -> String {
        let lp = self.lp.as_deref();
        let mut s = String::from(
            "Envelope bounds ([V] Thm 3 upper, max(right quantile, Alg. 1) lower; raw = eps_Y(delta)):\n",
        );
        let _ = write!(
            s,
            "  {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  exact",
            "delta", "raw", "right q", "binary", "lower", "upper", "L+ln 1/d"
        );
        s.push_str(if lp.is_some() {
            "  envelope (LP)\n"
        } else {
            "\n"
        });
        for (i, b) in self.curve.iter().enumerate() {
            s.push(' ');
            for x in numbers(b) {
                let _ = write!(s, " {x:>10.6}");
            }
            let _ = write!(s, "  {:<5}", if b.exact { "yes" } else { "" });
            if let Some(lp) = lp {
                let _ = write!(s, "  {:.6}", lp[i].upper);
                if !lp[i].converged {
                    let _ = write!(s, " (>= {:.6})", lp[i].lower);
                }
            }
            s.push('\n');
        }
        s
    }
}

/// Which number of the bounds a plotted series shows.
type Value = fn(&EnvelopeBounds) -> f64;

fn plot_error(e: impl std::fmt::Display) -> CliError {
    CliError::Failure(format!("cannot draw --plot: {e}"))
}

/// The curves over delta (log axis) as an SVG document.
fn plot(
    curve: &[EnvelopeBounds],
    lp: Option<&[EnvelopeValue]>,
    env: &Envelope,
    source: &str,
) -> Result<String, CliError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let lo = curve.iter().map(|b| b.delta).fold(f64::INFINITY, f64::min);
        let hi = curve.iter().map(|b| b.delta).fold(0.0, f64::max);
        let (lo, hi) = if lo < hi {
            (lo, hi)
        } else {
            (lo * 0.9, (hi * 1.1).min(1.0))
        };
        let top = (env.max_pml() * 1.1).max(1e-3);
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("PML envelope bounds: {source}"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..top)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("delta")
            .y_desc("eps (nats)")
            .draw()
            .map_err(plot_error)?;
        let series: [(&str, RGBColor, Value); 5] = [
            ("upper bound (Thm 3)", RED, |b| b.upper),
            ("L + ln(1/delta)", MAGENTA, |b| b.markov),
            ("lower bound", BLUE, |b| b.lower),
            ("binary eps_b (Alg. 1)", CYAN, |b| b.binary),
            ("raw eps_Y (left quantile)", BLACK, |b| b.left_quantile),
        ];
        for (name, color, value) in series {
            let points: Vec<(f64, f64)> =
                curve.iter().map(|b| (b.delta, value(b).min(top))).collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(plot_error)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled())))
                .map_err(plot_error)?;
        }
        if let Some(lp) = lp {
            let points: Vec<(f64, f64)> = lp.iter().map(|v| (v.delta, v.upper.min(top))).collect();
            chart
                .draw_series(LineSeries::new(points, GREEN.stroke_width(3)))
                .map_err(plot_error)?
                .label("envelope (LP)")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
