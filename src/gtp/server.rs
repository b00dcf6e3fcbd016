//! The stdin/stdout loop. A reader thread turns stdin into lines and sends
//! them through a channel, so that the main thread can answer commands in
//! order while a long one (genmove) still learns at once that more input is
//! waiting and should finish: any next command or a GoGui `# interrupt`
//! line (a genmove still takes a short look first; see
//! `search::STOP_GRACE_PLAYOUTS`). The end of input ends analysis and
//! pondering, but lets a genmove finish: a piped script that ends with
//! `genmove` wants that move searched in full.

use super::analysis::AnalyzeArgs;
use super::command::{parse_line, Command};
use super::{format_response, is_interrupt, preprocess, Engine, Response};
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc};

/// Bytes of one line kept; the rest of a longer line is read and dropped,
/// and the line is answered with an error.
pub const MAX_LINE: usize = 4 << 20;

#[derive(Debug, PartialEq)]
enum Input {
    /// A preprocessed, non-empty line.
    Line {
        text: String,
        overlong: bool,
    },
    Interrupt,
    End,
}

/// Reads one line of at most `MAX_LINE` kept bytes. Returns `None` at the
/// end of input, else the kept bytes and whether a part was dropped that
/// holds more than white space, control characters or a comment.
fn read_line(reader: &mut impl BufRead) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut kept = Vec::new();
    let mut dropped_content = false;
    // Whether the line has reached a `#`: whatever follows is comment.
    let mut in_comment = false;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some((kept, dropped_content)));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        let (keep, drop) = part.split_at(part.len().min(room));
        in_comment |= keep.contains(&b'#');
        kept.extend_from_slice(keep);
        for &b in drop {
            if b == b'#' {
                in_comment = true;
            }
            if !in_comment && !b.is_ascii_whitespace() && !b.is_ascii_control() {
                dropped_content = true;
            }
        }
        let ended = done > part.len();
        reader.consume(done);
        if ended {
            return Ok(Some((kept, dropped_content)));
        }
    }
}

/// What the reader thread and the main thread share about input not yet
/// answered.
#[derive(Default)]
struct Signals {
    /// Lines (and interrupts) sent but not yet taken by the main thread.
    pending: AtomicUsize,
    /// The flag the running command watches.
    stop: AtomicBool,
    /// Input has ended.
    ended: AtomicBool,
    /// The running work is analysis or pondering, which the end of input
    /// stops too.
    streaming: AtomicBool,
}

impl Signals {
    /// Clears the stop flag for the next command, unless lines are already
    /// waiting: then a long command stops at once. Streaming work also
    /// stops at once when input has ended.
    fn arm(&self, streaming: bool) {
        self.streaming.store(streaming, SeqCst);
        self.stop.store(false, SeqCst);
        if self.pending.load(SeqCst) > 0 || (streaming && self.ended.load(SeqCst)) {
            self.stop.store(true, SeqCst);
        }
    }
}

fn reader_loop(mut input: impl BufRead, tx: mpsc::Sender<Input>, signals: &Signals) {
    loop {
        let item = match read_line(&mut input) {
            Ok(Some((raw, dropped_content))) => {
                if is_interrupt(&raw) {
                    Input::Interrupt
                } else {
                    let text = preprocess(&raw);
                    if text.is_empty() && !dropped_content {
                        continue;
                    }
                    Input::Line {
                        text,
                        overlong: dropped_content,
                    }
                }
            }
            Ok(None) => Input::End,
            Err(e) => {
                log::warn!("reading stdin: {e}");
                Input::End
            }
        };
        let end = item == Input::End;
        if end {
            // Stores and loads in the opposite order to `Signals::arm`, so
            // one of the two threads sees both the end and the streaming.
            signals.ended.store(true, SeqCst);
            if signals.streaming.load(SeqCst) {
                signals.stop.store(true, SeqCst);
            }
        } else {
            // Counted and flagged before it is sent, so the main thread
            // never sees the queue empty while this line is on its way, and
            // a late flag can never stop the command this very line starts.
            signals.pending.fetch_add(1, SeqCst);
            signals.stop.store(true, SeqCst);
        }
        if tx.send(item).is_err() || end {
            return;
        }
    }
}

/// Serves GTP on `input`/`output` until `quit` or the end of input.
pub fn serve(
    mut engine: Engine,
    input: impl BufRead + Send + 'static,
    output: &mut impl Write,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let signals = Arc::new(Signals::default());
    {
        let signals = Arc::clone(&signals);
        std::thread::Builder::new()
            .name("gtp-reader".into())
            .spawn(move || reader_loop(input, tx, &signals))?;
    }
    let stop = &signals.stop;
    while let Ok(item) = rx.recv() {
        if item == Input::End {
            break;
        }
        // Lines and interrupts were counted by the reader; the end was not.
        signals.pending.fetch_sub(1, SeqCst);
        let (text, overlong) = match item {
            Input::Line { text, overlong } => (text, overlong),
            _ => continue,
        };
        let request = parse_line(&text);
        let mut quit = false;
        let response: Response = match request.command {
            _ if overlong => Err("syntax error (line too long)".into()),
            Err(e) => Err(e.to_string()),
            Ok(Command::Analyze(args)) => {
                signals.arm(true);
                stream_analysis(&mut engine, &args, request.id.as_deref(), stop, output)?;
                continue;
            }
            Ok(command) => {
                quit = command == Command::Quit;
                signals.arm(false);
                log::debug!("command: {command:?}");
                catch_unwind(AssertUnwindSafe(|| engine.execute(&command, stop))).unwrap_or_else(
                    |_| {
                        log::error!("internal error on '{text}'");
                        Err("internal error".into())
                    },
                )
            }
        };
        output.write_all(format_response(request.id.as_deref(), &response).as_bytes())?;
        output.flush()?;
        if quit {
            break;
        }
        // Idle until the next line: ponder, if asked to (the reader raises
        // `stop` as soon as a line arrives).
        signals.arm(true);
        if !stop.load(SeqCst) {
            let _ = catch_unwind(AssertUnwindSafe(|| engine.ponder(stop)));
        }
    }
    Ok(())
}

/// An analysis response written as it is made: `=` at once, every `info`
/// line flushed as it comes, the final line if any, then the empty line.
/// Ends when `stop` is raised (the reader thread does so for the next line).
fn stream_analysis(
    engine: &mut Engine,
    args: &AnalyzeArgs,
    id: Option<&str>,
    stop: &AtomicBool,
    output: &mut impl Write,
) -> io::Result<()> {
    output.write_all(format!("={}\n", id.unwrap_or("")).as_bytes())?;
    output.flush()?;
    let mut broken: Option<io::Error> = None;
    let write_line = |output: &mut dyn Write, line: &str| -> io::Result<()> {
        // A response must never hold an empty line, nor a line break
        // inside what is meant as one line.
        let line = line.replace(['\n', '\r'], " ");
        if line.trim().is_empty() {
            return Ok(());
        }
        output.write_all(line.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()
    };
    let tail = {
        let mut sink = |line: &str| {
            if broken.is_none() {
                if let Err(e) = write_line(output, line) {
                    // Nobody reads any more: end the search.
                    broken = Some(e);
                    stop.store(true, SeqCst);
                }
            }
        };
        catch_unwind(AssertUnwindSafe(|| {
            engine.analyze(args, stop, &mut sink, true)
        }))
        .unwrap_or_else(|_| {
            log::error!("internal error in analysis");
            None
        })
    };
    if let Some(e) = broken {
        return Err(e);
    }
    if let Some(tail) = tail {
        for line in tail.lines() {
            write_line(output, line)?;
        }
    }
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<(Vec<u8>, bool)> {
        let mut r = io::BufReader::with_capacity(7, bytes);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_split_on_newline_and_the_last_may_lack_one() {
        assert_eq!(
            lines(b"name\n\nversion\r\nquit"),
            vec![
                (b"name".to_vec(), false),
                (b"".to_vec(), false),
                (b"version\r".to_vec(), false),
                (b"quit".to_vec(), false)
            ]
        );
    }

    #[test]
    fn overlong_lines_are_cut_and_marked_only_when_the_rest_matters() {
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.push(b'\n');
        let got = lines(&long);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0.len(), MAX_LINE);
        assert!(got[0].1);
        let mut comment = b"name #".to_vec();
        comment.extend(vec![b'y'; MAX_LINE]);
        assert!(!lines(&comment)[0].1);
        let mut spaces = b"name".to_vec();
        spaces.extend(vec![b' '; MAX_LINE]);
        assert!(!lines(&spaces)[0].1);
    }

    fn session(input: &str) -> String {
        let engine = Engine::new(super::super::EngineConfig::default()).unwrap();
        let mut out = Vec::new();
        serve(
            engine,
            io::Cursor::new(input.to_string().into_bytes()),
            &mut out,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_in_order_and_stops_at_quit() {
        let out = session("1 name\n# comment\n\n2 boardsize 30\nfoo\n3 quit\nname\n");
        assert_eq!(
            out,
            "=1 ishi\n\n?2 unacceptable size\n\n? unknown command\n\n=3\n\n"
        );
    }

    #[test]
    fn end_of_input_ends_the_session() {
        assert_eq!(session("protocol_version"), "= 2\n\n");
        assert_eq!(session(""), "");
    }
}
