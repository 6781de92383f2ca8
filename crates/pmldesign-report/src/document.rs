//! The page: one HTML document with its inline stylesheet (screen and print),
//! sections and figures. No script, no external resource.

use crate::text::escape;
use std::fmt::Write;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; background: #fff; max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid #ccc; padding-bottom: .2rem; }
.guarantee { font-size: 1.1rem; background: #eef6f5; border-left: 4px solid #21918c; padding: .6rem .9rem; }
.note { color: #555; font-size: .9rem; }
figure { margin: 1rem 0; overflow-x: auto; }
figcaption { font-size: .9rem; color: #333; margin-top: .3rem; }
svg text { font-family: system-ui, sans-serif; fill: #1a1a1a; }
img.raster { image-rendering: pixelated; max-width: 100%; height: auto; border: 1px solid #ccc; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .15rem .4rem; text-align: right; font-variant-numeric: tabular-nums; }
th[scope=row], td.text { text-align: left; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
code { background: #f3f3f3; padding: 0 .25rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; }
  figure, table, .guarantee { break-inside: avoid; }
  .guarantee { background: none; }
  img.raster { max-width: 16cm; }
}
"#;

/// A document under construction: the title, then sections in order.
pub struct Page {
    body: String,
}

impl Page {
    /// A page with `title` as its heading.
    pub fn new(title: &str) -> Page {
        Page {
            body: format!("<h1>{}</h1>\n", escape(title)),
        }
    }

    /// The guarantee in a sentence, set apart at the top.
    pub fn guarantee(&mut self, sentence: &str) {
        let _ = writeln!(
            self.body,
            r#"<p class="guarantee">{}</p>"#,
            escape(sentence)
        );
    }

    /// A section with a heading; `html` is already escaped markup.
    pub fn section(&mut self, id: &str, heading: &str, html: &str) {
        let _ = writeln!(
            self.body,
            "<section id=\"{}\">\n<h2>{}</h2>\n{html}\n</section>",
            escape(id),
            escape(heading)
        );
    }

    /// The whole document.
    pub fn finish(self, title: &str) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"pmldesign-report {}\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{}</main>\n</body>\n</html>\n",
            env!("CARGO_PKG_VERSION"),
            escape(title),
            self.body
        )
    }
}

/// A figure: the drawing (markup) and its caption (plain text, escaped here).
pub fn figure(drawing: &str, caption: &str) -> String {
    format!(
        "<figure>\n{drawing}\n<figcaption>{}</figcaption>\n</figure>",
        escape(caption)
    )
}

/// A paragraph of plain text.
pub fn para(text: &str) -> String {
    format!("<p>{}</p>", escape(text))
}

/// A note in smaller type.
pub fn note(text: &str) -> String {
    format!(r#"<p class="note">{}</p>"#, escape(text))
}

/// A definition list of (term, plain-text value) pairs.
pub fn facts(rows: &[(&str, String)]) -> String {
    let mut s = String::from(r#"<dl class="facts">"#);
    for (k, v) in rows {
        let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    s.push_str("</dl>");
    s
}

/// A table with a header row; every cell plain text, the first column text-aligned.
pub fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table><thead><tr>");
    for h in head {
        let _ = write!(s, r#"<th scope="col">{}</th>"#, escape(h));
    }
    s.push_str("</tr></thead><tbody>");
    for r in rows {
        s.push_str("<tr>");
        for (k, c) in r.iter().enumerate() {
            let class = if k == 0 { r#" class="text""# } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", escape(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}
