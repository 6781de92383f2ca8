//! Blank lines of a one-column CSV file read as missing values.
//!
//! The `csv` reader skips an empty line. In a file of one column an empty line is
//! a record whose one field is empty (polars and pandas write a null that way),
//! so skipping it would lose the row and move every later row's stream place.
//! [`BlankRows`] writes such a line as the quoted empty field `""`, which the
//! readers then take as a null under their `Nulls` rule. The file's final
//! newline ends the last record and is no row; a blank line before the header,
//! or in a file of several columns (where a row of nulls is written `,,`), is
//! left to the `csv` reader. Line numbers are unchanged: no newline is added.

use std::io::Read;

/// Where the scan is in the CSV text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the start of a field (after a comma, or at the start of a line).
    FieldStart,
    /// Inside a field that is not quoted.
    Unquoted,
    /// Inside a quoted field (newlines there are part of the value).
    Quoted,
    /// A quote inside a quoted field: it closes the field or, doubled, escapes.
    QuoteInQuoted,
}

/// A reader that turns every empty line after the header of a one-column CSV
/// text into the line `""` (one empty field).
pub(crate) struct BlankRows<R> {
    inner: R,
    state: State,
    /// At the start of a line, outside quotes.
    line_start: bool,
    /// A `\r` held at the start of a line until the next byte says whether the
    /// line is empty (`\r\n`).
    held_cr: bool,
    /// Whether the header row has been read, and how many unquoted commas it had.
    header_done: bool,
    header_commas: usize,
    /// Whether the header line has begun (blank lines before it are skipped).
    header_begun: bool,
    /// Bytes read and rewritten, not yet handed out.
    pending: Vec<u8>,
    at: usize,
    scratch: Vec<u8>,
}

/// `reader` with the blank lines of a one-column file as missing values.
pub(crate) fn blank_rows<R: Read>(reader: R) -> BlankRows<R> {
    BlankRows {
        inner: reader,
        state: State::FieldStart,
        line_start: true,
        held_cr: false,
        header_done: false,
        header_commas: 0,
        header_begun: false,
        pending: Vec::new(),
        at: 0,
        scratch: vec![0; 1 << 16],
    }
}

impl<R> BlankRows<R> {
    /// Whether an empty line here is a row of one missing value.
    fn blank_is_row(&self) -> bool {
        self.header_done && self.header_commas == 0
    }

    /// The end of a line outside quotes.
    fn end_line(&mut self) {
        if self.line_start && self.blank_is_row() {
            self.pending.extend_from_slice(b"\"\"");
        }
        if self.header_begun {
            self.header_done = true;
        }
        self.state = State::FieldStart;
        self.line_start = true;
    }

    /// Takes one byte of the input, writing it (and anything it implies) out.
    fn take(&mut self, b: u8) {
        if self.held_cr {
            self.held_cr = false;
            if b == b'\n' {
                self.end_line();
                self.pending.extend_from_slice(b"\r\n");
                return;
            }
            self.pending.push(b'\r');
            self.line_start = false;
            self.header_begun = true;
            self.state = State::Unquoted;
        }
        if self.line_start && b == b'\r' {
            self.held_cr = true;
            return;
        }
        let quoted = matches!(self.state, State::Quoted);
        if b == b'\n' && !quoted {
            self.end_line();
            self.pending.push(b);
            return;
        }
        self.line_start = false;
        self.header_begun = true;
        if b == b',' && !quoted && !self.header_done {
            self.header_commas += 1;
        }
        self.state = next(self.state, b);
        self.pending.push(b);
    }
}

/// The state after byte `b` (a newline outside quotes is handled by the caller).
fn next(state: State, b: u8) -> State {
    match (state, b) {
        (State::FieldStart, b'"') => State::Quoted,
        (State::Quoted, b'"') => State::QuoteInQuoted,
        (State::Quoted, _) => State::Quoted,
        (State::QuoteInQuoted, b'"') => State::Quoted,
        (_, b',') => State::FieldStart,
        _ => State::Unquoted,
    }
}

impl<R: Read> Read for BlankRows<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            let n = self.inner.read(&mut self.scratch)?;
            if n == 0 {
                if self.held_cr {
                    // A lone `\r` at the very end: handed on as it came.
                    self.held_cr = false;
                    self.pending.push(b'\r');
                    continue;
                }
                return Ok(0);
            }
            let scratch = std::mem::take(&mut self.scratch);
            for &b in &scratch[..n] {
                self.take(b);
            }
            self.scratch = scratch;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::blank_rows;
    use std::io::Read;

    fn through(text: &str) -> String {
        let mut out = String::new();
        blank_rows(text.as_bytes())
            .read_to_string(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn a_blank_line_of_a_one_column_file_is_an_empty_field() {
        assert_eq!(through("c\na\n\nb\n"), "c\na\n\"\"\nb\n");
        assert_eq!(through("c\r\na\r\n\r\nb\r\n"), "c\r\na\r\n\"\"\r\nb\r\n");
        // The final newline is no row; a blank line after it is one.
        assert_eq!(through("c\na\n"), "c\na\n");
        assert_eq!(through("c\na\n\n"), "c\na\n\"\"\n");
        assert_eq!(through("c\n\n\n"), "c\n\"\"\n\"\"\n");
    }

    #[test]
    fn other_blank_lines_are_left_as_they_are() {
        // Before the header, in a file of several columns, inside quotes.
        assert_eq!(through("\nc\na\n"), "\nc\na\n");
        assert_eq!(through("c,d\na,b\n\nb,c\n"), "c,d\na,b\n\nb,c\n");
        assert_eq!(through("\"c,d\"\na\n\n"), "\"c,d\"\na\n\"\"\n");
        assert_eq!(through("c\n\"a\n\nb\"\n"), "c\n\"a\n\nb\"\n");
        assert_eq!(through("c\n\"a\"\"\n\"\n\n"), "c\n\"a\"\"\n\"\n\"\"\n");
    }

    #[test]
    fn read_in_small_pieces_the_same() {
        let text = "c\r\na\r\n\r\n\r\nb\n\n";
        let mut r = blank_rows(text.as_bytes());
        let (mut out, mut byte) = (Vec::new(), [0u8; 1]);
        while r.read(&mut byte).unwrap() == 1 {
            out.push(byte[0]);
        }
        assert_eq!(out, through(text).as_bytes());
        assert_eq!(through(text), "c\r\na\r\n\"\"\r\n\"\"\r\nb\n\"\"\n");
    }
}
