//! The two documents the ledger reads (bundled byte for byte from
//! `data/documents/`), their sections, and where a quote sits in them: the
//! ledger is printed in the documents' order, grouped by section.

use crate::error::Error;

/// One source document.
pub struct Document {
    pub id: &'static str,
    pub title: &'static str,
    pub text: &'static str,
    /// The section headings, each a whole line of the text, in order. The
    /// first is the document's title line: the text before the first section.
    pub headings: &'static [&'static str],
}

pub const DOCUMENTS: [Document; 2] = [
    Document {
        id: crate::vocab::Document::Chapter.id(),
        title: "Chapter 14: Probabilistic Data Structures (textbook chapter)",
        text: include_str!("../../data/documents/000.txt"),
        headings: &[
            "Chapter 14: Probabilistic Data Structures",
            "14.1 The Probabilistic Approach",
            "14.2 Bloom Filters",
            "14.3 Counting Bloom Filters",
            "14.4 Cuckoo Filters",
            "14.5 HyperLogLog",
            "14.6 Count-Min Sketch",
            "14.7 Two More Worth Knowing",
            "14.8 Applications",
            "14.9 Historical Context",
            "Where this connects",
        ],
    },
    Document {
        id: crate::vocab::Document::Essay.id(),
        title: "Probabilistic data structures: Wrong on purpose (essay)",
        text: include_str!("../../data/documents/002.txt"),
        headings: &[
            "Probabilistic data structures: Wrong on purpose",
            "The trade: a Bloom filter and what it actually costs",
            "The economics, which is where these get misapplied",
            "The failure mode you will actually hit",
            "The proof: exact is not merely expensive",
            "The arithmetic: the birthday bound sizes all of it",
            "The fine print: every bound above is a claim about your hash",
            "The five questions",
        ],
    },
];

/// The document with this id.
pub fn document(id: &str) -> Option<&'static Document> {
    DOCUMENTS.iter().find(|d| d.id == id)
}

/// Runs of whitespace collapsed to one space (the documents break prose and
/// code across lines; quotes are compared after collapsing both).
pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The fragments of a quote: split at "..." or "…", trimmed, empty ones dropped.
pub fn fragments(quote: &str) -> Vec<String> {
    quote
        .split('…')
        .flat_map(|p| p.split("..."))
        .map(|f| collapse(f.trim()))
        .filter(|f| !f.is_empty())
        .collect()
}

/// Where `quote` starts in the collapsed `text`: its fragments must occur in
/// order. The error names the first fragment that does not.
pub fn find(quote: &str, text: &str) -> crate::error::Result<usize> {
    let (mut at, mut start) = (0, None);
    for frag in fragments(quote) {
        match text[at..].find(&frag) {
            Some(i) => {
                start.get_or_insert(at + i);
                at += i + frag.len();
            }
            None => {
                return Err(Error::input(format!(
                    "{frag:?} is not in the text, in order"
                )));
            }
        }
    }
    start.ok_or_else(|| Error::input("an empty quote"))
}

impl Document {
    /// The document cut at its headings: `(heading, collapsed text of the
    /// section, heading included)`.
    pub fn sections(&self) -> Vec<(&'static str, String)> {
        let mut out: Vec<(&'static str, Vec<&str>)> = Vec::new();
        let mut next = 0;
        for line in self.text.lines() {
            if next < self.headings.len() && line.trim() == self.headings[next] {
                out.push((self.headings[next], Vec::new()));
                next += 1;
            }
            if let Some(last) = out.last_mut() {
                last.1.push(line);
            }
        }
        out.into_iter()
            .map(|(h, lines)| (h, collapse(&lines.join("\n"))))
            .collect()
    }

    /// Where a quote sits: `(section index, heading, offset in the section)`,
    /// or the first fragment not found in order within one section.
    pub fn locate(&self, quote: &str) -> crate::error::Result<(usize, &'static str, usize)> {
        let mut first = None;
        for (i, (heading, text)) in self.sections().into_iter().enumerate() {
            match find(quote, &text) {
                Ok(at) => return Ok((i, heading, at)),
                Err(f) => {
                    first.get_or_insert(f);
                }
            }
        }
        Err(first.unwrap_or_else(|| Error::input("the document has no sections")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_heading_is_found_in_order() {
        for d in &DOCUMENTS {
            let s = d.sections();
            assert_eq!(s.len(), d.headings.len(), "{}", d.id);
            assert!(s[0].1.starts_with(d.headings[0]));
            // the sections hold the whole text
            let total: usize = s.iter().map(|x| x.1.len() + 1).sum();
            assert_eq!(total - 1, collapse(d.text).len(), "{}", d.id);
        }
    }

    #[test]
    fn quotes_are_placed_in_their_section() {
        let d = document("002").unwrap();
        let (i, h, _) = d
            .locate("Traffic to the database: 298 instead of 10,000.")
            .unwrap();
        assert_eq!(
            (i, h),
            (2, "The economics, which is where these get misapplied")
        );
        let (i, _, _) = d
            .locate("You have 100 million URLs ... Keeping the keys in memory costs 1.6 GB")
            .unwrap();
        assert_eq!(i, 0);
        // fragments out of order, or a word that is not there
        assert!(
            d.locate("Keeping the keys ... You have 100 million")
                .is_err()
        );
        assert_eq!(
            d.locate("Traffic to the database: 299")
                .unwrap_err()
                .to_string(),
            "\"Traffic to the database: 299\" is not in the text, in order"
        );
        let c = document("000").unwrap();
        assert_eq!(
            c.locate("Four bits caps a counter at 15").unwrap().1,
            "14.3 Counting Bloom Filters"
        );
    }
}
