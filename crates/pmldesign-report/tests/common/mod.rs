//! Checks of a page as a document, shared by the report tests.
#![allow(dead_code)]

/// Plain text as the report escapes it.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

const VOID: [&str; 4] = ["meta", "img", "br", "hr"];

/// Checks that every element is closed in order (HTML void elements and SVG's
/// `/>` aside) and returns the element names seen.
pub fn balanced(html: &str) -> Vec<String> {
    let (mut stack, mut seen) = (Vec::<String>::new(), Vec::new());
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("a tag is closed by >");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "closing </{name}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        seen.push(name.clone());
        if name == "style" {
            let close = rest.find("</style>").expect("style closed");
            rest = &rest[close + "</style>".len()..];
            continue;
        }
        if !tag.ends_with('/') && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    seen
}

/// Every `<svg>...</svg>` parses as XML.
pub fn svgs_parse(html: &str) -> usize {
    let mut count = 0;
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        let end = rest[i..].find("</svg>").expect("svg closed") + i + "</svg>".len();
        let mut reader = quick_xml::Reader::from_str(&rest[i..end]);
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("svg {count} does not parse: {e}"),
            }
        }
        count += 1;
        rest = &rest[end..];
    }
    count
}

pub fn self_contained(html: &str) {
    for attr in ["src=\"", "href=\"", "url("] {
        for (i, _) in html.match_indices(attr) {
            let v = &html[i + attr.len()..];
            assert!(
                !v.starts_with("http:") && !v.starts_with("https:") && !v.starts_with("//"),
                "external {attr} at {i}"
            );
        }
    }
    assert!(
        !html.contains("<script") && !html.contains("<link"),
        "no script or link"
    );
    assert!(!html.contains("@import"));
}
