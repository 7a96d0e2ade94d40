//! JSON-lines files (a tournament's journal and crash log, a ladder's journal and events) read a
//! line at a time, each line bounded: memory grows with the lines kept, never with one line's
//! size, and a file may have any length.

use agon_engine::{Input, InputError};
use serde::de::DeserializeOwned;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The longest line a tournament's journal, its crash log or a ladder's files may have, newline not
/// counted. An entry is about a kilobyte: ids, names, hashes and a few numbers per seat, its
/// reason cut to 1000 characters. Only its faults are not bounded in number: under the skip and
/// random-move policies a seat may fault on every turn, each fault detail cut to 500 characters,
/// and a Reversixt game of 8 seats on a large map lasts up to thousands of plies, so a real entry
/// can reach a few megabytes (5000 faults with full details are about 3 MB). 16 MiB leaves room
/// above that, while a reader holds at most one line of it at a time.
pub const MAX_LINE: u64 = 16 << 20;

/// A journal grows with its games and is read line by line, so the file as a whole is not
/// refused for its size (a size limit refused long tournaments, or cut them).
const ANY_SIZE: u64 = u64::MAX;

/// A JSON-lines file that cannot be opened or read on.
#[derive(Debug, thiserror::Error)]
pub enum LinesError {
    #[error(transparent)]
    Open(#[from] InputError),
    #[error("{}: cannot read line {line}: {source}", path.display())]
    Read {
        path: PathBuf,
        /// 1-based.
        line: usize,
        #[source]
        source: std::io::Error,
    },
}

/// Why a line is not an entry: too long to hold, not UTF-8, not JSON of the type, or refused
/// by its reader. Data, kept with the damaged line.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LineProblem {
    #[error("{size} bytes long, more than the {max_line} bytes a line may have")]
    TooLong { size: u64, max_line: u64 },
    #[error("not UTF-8 text")]
    NotText,
    /// serde_json's account of what it expected, where.
    #[error("{0}")]
    NotJson(String),
    /// Well-formed, but not what its reader accepts (a tournament's plan, a ladder's sense):
    /// the reader's own error.
    #[error("{0}")]
    Refused(std::sync::Arc<dyn std::error::Error + Send + Sync>),
}

/// The lines of the JSON-lines file at `path` (`what` names it in messages), or `None` when
/// there is no such file. It must be a regular file, not a link; it may have any size.
pub fn open(
    what: &'static str,
    path: &Path,
    max_line: u64,
) -> Result<Option<BoundedLines<File>>, LinesError> {
    match Input::new(what, ANY_SIZE).no_follow().open(path) {
        Ok((file, _)) => Ok(Some(BoundedLines::new(file, path, max_line))),
        Err(InputError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Reads a JSON-lines file a line at a time, holding at most `max_line` bytes of a line: the
/// rest of a longer line is skipped to its newline, so memory never grows with a line's size.
pub struct BoundedLines<R> {
    reader: BufReader<R>,
    path: PathBuf,
    max_line: u64,
    /// The line being returned (newline not included), or the first bytes of an over-long one.
    line: Vec<u8>,
    /// Where an over-long line's rest passes through, a buffer at a time.
    skipped: Vec<u8>,
    lines_read: usize,
    next_offset: u64,
}

/// One line of a [`BoundedLines`] file.
pub struct Line<'a> {
    /// 1-based.
    pub number: usize,
    /// Where it starts in the file.
    pub offset: u64,
    /// Its length in bytes, newline not counted.
    pub size: u64,
    /// False for the last bytes of a file that does not end in a newline: its writer may have
    /// died, or still be writing.
    pub terminated: bool,
    pub content: Content<'a>,
    max_line: u64,
}

impl Line<'_> {
    /// Whether the line holds nothing but whitespace.
    pub fn is_blank(&self) -> bool {
        matches!(self.content, Content::Whole(text) if text.iter().all(u8::is_ascii_whitespace))
    }

    /// The whole line, or why it is not there: it was longer than the bound.
    pub fn text(&self) -> Result<&[u8], LineProblem> {
        match self.content {
            Content::Whole(text) => Ok(text),
            Content::TooLong { .. } => Err(LineProblem::TooLong {
                size: self.size,
                max_line: self.max_line,
            }),
        }
    }

    /// The line read as JSON of a `T`, or why it cannot be: it was longer than the bound, or
    /// is not such JSON.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, LineProblem> {
        self.text().and_then(|text| {
            serde_json::from_slice(text).map_err(|e| LineProblem::NotJson(e.to_string()))
        })
    }
}

pub enum Content<'a> {
    /// The whole line, newline not included.
    Whole(&'a [u8]),
    /// The first bytes of a line longer than the bound, which was skipped to its end.
    TooLong { start: &'a [u8] },
}

/// The buffer a file is read through, and the chunk in which an over-long line is skipped.
const SKIP_CHUNK: u64 = 64 << 10;

impl<R: Read> BoundedLines<R> {
    pub fn new(source: R, path: &Path, max_line: u64) -> BoundedLines<R> {
        BoundedLines {
            reader: BufReader::with_capacity(SKIP_CHUNK as usize, source),
            path: path.to_path_buf(),
            max_line,
            line: Vec::new(),
            skipped: Vec::new(),
            lines_read: 0,
            next_offset: 0,
        }
    }

    /// The next line, or `None` at the end of the file.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, LinesError> {
        self.line.clear();
        let read = (&mut self.reader)
            .take(self.max_line.saturating_add(1))
            .read_until(b'\n', &mut self.line)
            .map_err(|e| self.read_error(e))? as u64;
        if read == 0 {
            return Ok(None);
        }
        let (size, terminated, too_long) = if self.line.ends_with(b"\n") {
            self.line.pop();
            (read - 1, true, false)
        } else if read <= self.max_line {
            (read, false, false)
        } else {
            let (rest, terminated) = self.skip_rest_of_line()?;
            (read + rest, terminated, true)
        };
        let offset = self.next_offset;
        self.next_offset += size + u64::from(terminated);
        self.lines_read += 1;
        Ok(Some(Line {
            number: self.lines_read,
            offset,
            size,
            terminated,
            content: if too_long {
                Content::TooLong { start: &self.line }
            } else {
                Content::Whole(&self.line)
            },
            max_line: self.max_line,
        }))
    }

    /// Skips to the end of the current line: the bytes skipped (newline not counted), and
    /// whether a newline ended them.
    fn skip_rest_of_line(&mut self) -> Result<(u64, bool), LinesError> {
        let mut skipped = 0;
        loop {
            self.skipped.clear();
            let read = (&mut self.reader)
                .take(SKIP_CHUNK)
                .read_until(b'\n', &mut self.skipped)
                .map_err(|e| self.read_error(e))? as u64;
            if read == 0 {
                return Ok((skipped, false));
            }
            if self.skipped.ends_with(b"\n") {
                return Ok((skipped + read - 1, true));
            }
            skipped += read;
        }
    }

    fn read_error(&self, source: std::io::Error) -> LinesError {
        LinesError::Read {
            path: self.path.clone(),
            line: self.lines_read + 1,
            source,
        }
    }
}
