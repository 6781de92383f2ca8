//! How a design's data were read (`pml design --nulls`, `--bins`), kept in its
//! settings so that `apply` and `estimate` read the released rows alike.
//!
//! One rule for every front end: where each file keeps its settings (a design's
//! provenance, a public file's settings, each column's design of a record, or
//! `bins.COLUMN` in the one design of a joint record), and how they are read
//! back. A stored design is untrusted: a recorded setting is parsed, the bins
//! must name the labels they were counted into, and a record's parts must agree
//! on missing values.
//!
//! ```
//! use pmldesign_app::recorded::{Layout, Reading};
//! use std::collections::BTreeMap;
//!
//! let settings = BTreeMap::from([("nulls".to_string(), "drop".to_string())]);
//! let labels = vec!["a".to_string(), "b".to_string()];
//! let reading = Reading::read(Layout::Design, &[&settings], &[&labels])?;
//! assert_eq!(reading.nulls().name(), "drop");
//! assert!(reading.bins()[0].is_none());
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use pmldesign_data::{Bins, Nulls};
use pmldesign_model::ModelError;
use pmldesign_solver::{Design, PublicDesign, PublicRecord, RecordDesign, RecordMode};
use std::collections::BTreeMap;

type Result<T> = std::result::Result<T, ModelError>;

/// One part's reading settings by name: a design's provenance, a public part's
/// settings, or a map of them.
pub trait Settings {
    /// The setting `name` (`nulls`, `bins`, `bins.COLUMN`), as `pml design` wrote it.
    fn setting(&self, name: &str) -> Option<&str>;
}

impl Settings for BTreeMap<String, String> {
    fn setting(&self, name: &str) -> Option<&str> {
        self.get(name).map(String::as_str)
    }
}

impl Settings for Design {
    fn setting(&self, name: &str) -> Option<&str> {
        self.provenance()?.settings.setting(name)
    }
}

impl Settings for PublicDesign {
    fn setting(&self, name: &str) -> Option<&str> {
        PublicDesign::setting(self, name)
    }
}

/// Where a file keeps its settings, and the field an error names.
#[derive(Debug, Clone, Copy)]
pub enum Layout<'a> {
    /// A design file: `provenance.settings`.
    Design,
    /// A public file (`pml publish`): `settings`.
    Public,
    /// A record design: each column's design, or the one design of `joint`,
    /// which keeps `bins.COLUMN` for each column.
    Record(RecordMode, &'a [String]),
    /// A public record file: one part per column.
    PublicRecord(&'a [String]),
}

impl Layout<'_> {
    /// Where column `j`'s edges are kept: the part and the setting's name.
    pub fn bins_setting(&self, j: usize) -> (usize, String) {
        match self {
            Layout::Record(RecordMode::Joint, columns) => (0, format!("bins.{}", columns[j])),
            Layout::Record(..) | Layout::PublicRecord(_) => (j, "bins".into()),
            Layout::Design | Layout::Public => (0, "bins".into()),
        }
    }

    /// The field of setting `name` in part `part` (`None`: in every part).
    fn field(&self, part: Option<usize>, name: &str) -> String {
        let at = part.map_or_else(|| "[]".to_string(), |i| format!("[{i}]"));
        match self {
            Layout::Design => format!("provenance.settings.{name}"),
            Layout::Public => format!("settings.{name}"),
            Layout::Record(..) => format!("designs{at}.provenance.settings.{name}"),
            Layout::PublicRecord(_) => format!("parts{at}.settings.{name}"),
        }
    }

    /// Whose labels column `j`'s bins must name, in an error.
    fn whose(&self, j: usize) -> String {
        match self {
            Layout::Record(_, columns) | Layout::PublicRecord(columns) => {
                format!("the labels of column {:?}", columns[j])
            }
            Layout::Design | Layout::Public => "the design's labels".into(),
        }
    }
}

/// How the data were read: what was done with missing values, and the edges
/// each column was cut at (`None`: not binned).
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    nulls: Nulls,
    bins: Vec<Option<Bins>>,
}

impl Reading {
    /// The rule `nulls`, and each column's edges (one entry per column).
    pub fn new(nulls: Nulls, bins: Vec<Option<Bins>>) -> Self {
        Reading { nulls, bins }
    }

    /// What was done with missing values (default: an error).
    pub fn nulls(&self) -> Nulls {
        self.nulls
    }

    /// Each column's edges, in the file's column order.
    pub fn bins(&self) -> &[Option<Bins>] {
        &self.bins
    }

    /// The reading a file recorded: `parts` in the file's order, `labels` one
    /// per column. The parts must agree on missing values, and recorded edges
    /// must cut exactly their column's labels (perhaps with the category of
    /// nulls); else the file was altered.
    pub fn read<S: Settings + ?Sized>(
        layout: Layout<'_>,
        parts: &[&S],
        labels: &[&[String]],
    ) -> Result<Self> {
        let nulls = agreed_nulls(layout, parts)?;
        let bins = (0..labels.len())
            .map(|j| column_bins(layout, parts, labels[j], j))
            .collect::<Result<_>>()?;
        Ok(Reading { nulls, bins })
    }

    /// What a design file recorded.
    pub fn of_design(d: &Design) -> Result<Self> {
        Reading::read(Layout::Design, &[d], &[d.labels()])
    }

    /// What a public file recorded.
    pub fn of_public(p: &PublicDesign) -> Result<Self> {
        Reading::read(Layout::Public, &[p], &[p.labels()])
    }

    /// What a record design recorded, one column at a time.
    pub fn of_record(r: &RecordDesign) -> Result<Self> {
        let parts: Vec<&Design> = r.designs().iter().collect();
        let labels: Vec<&[String]> = (0..r.columns().len())
            .map(|j| r.sample().labels(j))
            .collect();
        Reading::read(Layout::Record(r.mode(), r.columns()), &parts, &labels)
    }

    /// What a public record file recorded.
    pub fn of_public_record(p: &PublicRecord) -> Result<Self> {
        let parts: Vec<&PublicDesign> = p.parts().iter().collect();
        let labels: Vec<&[String]> = p.parts().iter().map(|d| d.labels()).collect();
        Reading::read(Layout::PublicRecord(p.columns()), &parts, &labels)
    }

    /// The settings part `part` of a file of `layout` keeps, as `pml design`
    /// writes them (nothing for the default of each).
    pub fn settings(&self, layout: Layout<'_>, part: usize) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.nulls != Nulls::Error {
            out.push(("nulls".to_string(), self.nulls.name().to_string()));
        }
        for (j, bins) in self.bins.iter().enumerate() {
            let (i, name) = layout.bins_setting(j);
            if let (true, Some(b)) = (i == part, bins) {
                out.push((name, b.text()));
            }
        }
        out
    }

    /// Kept in a design's provenance, as `pml design --nulls --bins` keeps it.
    pub fn keep_in_design(&self, d: &mut Design) {
        let kept = self.settings(Layout::Design, 0);
        if let Some(p) = d.provenance_mut() {
            p.settings.extend(kept);
        }
    }

    /// Kept in each design of a record, as `pml design --column ... --nulls
    /// --bins COLUMN=EDGES` keeps it.
    pub fn keep_in_record(&self, r: &mut RecordDesign) {
        let columns = r.columns().to_vec();
        let layout = Layout::Record(r.mode(), &columns);
        for i in 0..r.designs().len() {
            let kept = self.settings(layout, i);
            if let Some(p) = r.provenance_mut(i) {
                p.settings.extend(kept);
            }
        }
    }
}

/// The one `nulls` setting of a file's parts [default: error].
fn agreed_nulls<S: Settings + ?Sized>(layout: Layout<'_>, parts: &[&S]) -> Result<Nulls> {
    let mut first: Option<(usize, Nulls)> = None;
    for (i, part) in parts.iter().enumerate() {
        let named = match part.setting("nulls") {
            Some(v) => Nulls::parse(&layout.field(Some(i), "nulls"), v)?,
            None => Nulls::Error,
        };
        match first {
            None => first = Some((i, named)),
            Some((f, n)) if n != named => {
                return Err(ModelError::invalid(
                    layout.field(None, "nulls"),
                    format!("{} in part {f}, {} in part {i}", n.name(), named.name()),
                    "the parts of one file disagree on missing values, so the file was altered",
                    "design the data again, with the missing values' rule wanted",
                ));
            }
            Some(_) => {}
        }
    }
    Ok(first.map_or(Nulls::Error, |(_, n)| n))
}

/// Column `j`'s recorded edges, which must cut exactly its labels.
fn column_bins<S: Settings + ?Sized>(
    layout: Layout<'_>,
    parts: &[&S],
    labels: &[String],
    j: usize,
) -> Result<Option<Bins>> {
    let (i, name) = layout.bins_setting(j);
    let Some(edges) = parts.get(i).and_then(|p| p.setting(&name)) else {
        return Ok(None);
    };
    let field = layout.field(Some(i), &name);
    let bins = Bins::parse(&field, edges)?;
    if !bins.names(labels) {
        return Err(ModelError::invalid(
            field,
            format!("{edges:?}"),
            format!(
                "its bins are not {}, so the file was altered",
                layout.whose(j)
            ),
            "design the data again, cut at the edges wanted",
        ));
    }
    Ok(Some(bins))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_joint_record_keeps_each_columns_edges_in_its_one_design() {
        let columns = labels(&["age", "city"]);
        let layout = Layout::Record(RecordMode::Joint, &columns);
        let bins = Bins::parse("bins", "0,10,inf").unwrap();
        let reading = Reading::new(Nulls::Drop, vec![Some(bins.clone()), None]);
        let kept: BTreeMap<String, String> = reading.settings(layout, 0).into_iter().collect();
        assert_eq!(kept, map(&[("nulls", "drop"), ("bins.age", "0,10,inf")]));
        let read = Reading::read(layout, &[&kept], &[bins.labels(), &labels(&["x", "y"])]);
        assert_eq!(read.unwrap(), reading);
    }

    #[test]
    fn a_compose_record_keeps_each_columns_edges_in_its_own_design() {
        let columns = labels(&["age", "city"]);
        let layout = Layout::Record(RecordMode::Compose, &columns);
        let bins = Bins::parse("bins", "0,10,inf").unwrap();
        let reading = Reading::new(Nulls::Category, vec![None, Some(bins.clone())]);
        let parts: Vec<BTreeMap<String, String>> = (0..2)
            .map(|i| reading.settings(layout, i).into_iter().collect())
            .collect();
        assert_eq!(parts[0], map(&[("nulls", "category")]));
        let own = labels(&["a"]);
        let read = Reading::read(layout, &[&parts[0], &parts[1]], &[&own, bins.labels()]);
        assert_eq!(read.unwrap(), reading);
    }

    #[test]
    fn parts_that_disagree_on_nulls_or_edges_off_the_labels_are_refused() {
        let columns = labels(&["a", "b"]);
        let layout = Layout::Record(RecordMode::Ldp, &columns);
        let (drop, none) = (map(&[("nulls", "drop")]), map(&[]));
        let own = labels(&["x"]);
        let e = Reading::read(layout, &[&drop, &none], &[&own, &own]).unwrap_err();
        assert!(e.to_string().starts_with(
            "invalid designs[].provenance.settings.nulls = drop in part 0, error in part 1"
        ));
        let cut = map(&[("bins", "0,10,inf")]);
        let e = Reading::read(Layout::Design, &[&cut], &[&own]).unwrap_err();
        assert!(
            e.to_string()
                .contains("its bins are not the design's labels"),
            "{e}"
        );
        let bad = map(&[("nulls", "keep")]);
        let e = Reading::read(Layout::Public, &[&bad], &[&own]).unwrap_err();
        assert!(
            e.to_string().starts_with("invalid settings.nulls = "),
            "{e}"
        );
    }
}
