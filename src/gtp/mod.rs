//! The Go Text Protocol (version 2) server: line preprocessing and response
//! framing here, the command table in [`table`], typed commands in
//! [`command`], the engine state and what each command does in [`handler`]
//! (no I/O), and the stdin/stdout loop in [`server`].

pub mod analysis;
pub mod clock;
pub mod command;
pub mod handler;
pub mod lag;
pub mod server;
pub mod table;

pub use handler::{Engine, EngineConfig, Response};

/// GTP preprocessing of one raw line (without its newline): control
/// characters other than tab go, a `#` starts a comment, tabs become spaces.
/// Invalid UTF-8 is replaced, not rejected, so such a line still gets its
/// one answer. An empty result means the line gets no response.
pub fn preprocess(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            c if c.is_ascii_control() => {}
            c => out.push(c),
        }
    }
    if out.trim().is_empty() {
        String::new()
    } else {
        out.trim().to_string()
    }
}

/// GoGui's interrupt request: a comment line that must be noticed before
/// comments are stripped.
pub fn is_interrupt(raw: &[u8]) -> bool {
    raw.trim_ascii() == b"# interrupt"
}

/// One framed response: `=id text` or `?id text`, ending in an empty line.
/// Empty lines inside the text are dropped, since a client would take the
/// first one for the end of the response.
pub fn format_response(id: Option<&str>, response: &Response) -> String {
    let (mark, text) = match response {
        Ok(t) => ('=', t.as_str()),
        Err(t) => ('?', t.as_str()),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim_end_matches('\r');
    if !text.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in lines {
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            out.push('\n');
            out.push_str(line);
        }
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_the_standard() {
        assert_eq!(preprocess(b"  play\tb\tD4  \r"), "play b D4");
        assert_eq!(preprocess(b"# just a comment"), "");
        assert_eq!(preprocess(b"name # trailing"), "name");
        assert_eq!(preprocess(b"na\x01me\x7f"), "name");
        assert_eq!(preprocess(b"\t \r"), "");
        assert_eq!(preprocess(b"\xff\xfe name"), "\u{fffd}\u{fffd} name");
    }

    #[test]
    fn interrupt_is_seen_before_comment_stripping() {
        assert!(is_interrupt(b"# interrupt\r"));
        assert!(!is_interrupt(b"# interrupted"));
        assert_eq!(preprocess(b"# interrupt"), "");
    }

    #[test]
    fn responses_never_contain_an_empty_line() {
        assert_eq!(format_response(None, &Ok(String::new())), "=\n\n");
        assert_eq!(format_response(Some("3"), &Ok("2".into())), "=3 2\n\n");
        assert_eq!(
            format_response(Some("1"), &Err("illegal move".into())),
            "?1 illegal move\n\n"
        );
        assert_eq!(
            format_response(None, &Ok("\nA\n\n\nB\n".into())),
            "= \nA\nB\n\n"
        );
    }
}
