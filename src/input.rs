//! Files in: folders walked recursively (each file once, symlink loops cut), standard input as
//! `-`, gzip recognised by its magic bytes, zip archives read member by member, other archive
//! and compression formats named as unsupported, the log family detected from content (never
//! from the file name). Lines longer than `MAX_LINE` are dropped while reading, so memory stays
//! bounded whatever the input decompresses to.

use crate::error::{Error, Result};
use crate::model::BAD_LINES_KEPT;
use crate::parse::family::{perf_families, GcFormat, PerfFormat, Recognised, Recogniser};
use crate::parse::lines::lines;
use std::collections::HashSet;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The longest line kept while reading. A longer one (a decompressed bomb, megabytes of binary
/// without a line end) is replaced by an empty line, so that line numbers stay right and memory
/// holds at most this much of it; the loader counts it as a skipped line.
pub const MAX_LINE: usize = 64 << 20;

/// How much is read from the source at a time.
const CHUNK: usize = 1 << 16;

/// What `expand` says of a folder without a file in it.
pub const NO_LOG_FILES: &str = "no log files found";

/// `-` on the command line: standard input (`./-` is a file of that name).
pub fn is_stdin(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// The inputs that command-line paths name.
#[derive(Debug, Default)]
pub struct Expanded {
    /// What to read, in order: files as given, folders walked (sorted, hidden entries
    /// skipped), zip archives as their members (`archive.zip:member`), `-` for stdin.
    pub files: Vec<PathBuf>,
    /// What was left out, one message each (`x: a FIFO, not a regular file: skipped`).
    pub skipped: Vec<String>,
}

/// Expand the paths given on the command line. A folder is walked following symlinks, but
/// every folder and file is visited once, by (device, inode): a symlink to `.` neither loops
/// nor repeats the folder's logs. FIFOs, sockets and devices are never opened (reading a FIFO
/// waits for a writer forever). A path that does not exist is kept so that reading it reports
/// the error for that file.
pub fn expand(paths: &[PathBuf]) -> Expanded {
    let mut w = Walk::default();
    for p in paths {
        match is_stdin(p) {
            true => w.out.files.push(p.clone()),
            false => w.visit(p, true),
        }
    }
    w.out
}

fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// What a file that is neither a regular file nor a folder is.
fn special_kind(m: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_char_device() {
        "a character device"
    } else {
        "a special file"
    }
}

fn hidden(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
}

#[derive(Default)]
struct Walk {
    /// Folders and files already reached.
    seen: HashSet<(u64, u64)>,
    out: Expanded,
}

impl Walk {
    fn walk(&mut self, dir: &Path) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            self.out.files.push(dir.to_path_buf());
            return;
        };
        // Sorted, the entries themselves before symlinks: a file reached both ways is
        // named by its own path.
        let mut entries: Vec<(bool, PathBuf)> = rd
            .filter_map(|e| e.ok())
            .map(|e| (e.file_type().is_ok_and(|t| t.is_symlink()), e.path()))
            .collect();
        entries.sort();
        for (_, p) in entries {
            if !hidden(&p) {
                self.visit(&p, false);
            }
        }
    }

    /// A path named on the command line (`given`) or found in a folder. Follows symlinks: a
    /// link to a log is read; one to a folder already seen is not. A path given is read even
    /// if a folder given before holds it.
    fn visit(&mut self, p: &Path, given: bool) {
        let Ok(m) = std::fs::metadata(p) else {
            // A dangling symlink, or an entry gone since: reading it names the error.
            self.out.files.push(p.to_path_buf());
            return;
        };
        if !m.is_dir() && !m.is_file() {
            let kind = special_kind(&m);
            (self.out.skipped).push(format!(
                "{}: {kind}, not a regular file: skipped",
                p.display()
            ));
        } else if !self.seen.insert(file_id(&m)) && !given {
            // Reached before, and not named on the command line: not read again.
        } else if m.is_file() {
            self.file(p);
        } else {
            let before = (self.out.files.len(), self.out.skipped.len());
            self.walk(p);
            // An empty folder given is said, not passed over in silence.
            if given && (self.out.files.len(), self.out.skipped.len()) == before {
                (self.out.skipped).push(format!("{}: {NO_LOG_FILES}", p.display()));
            }
        }
    }

    fn file(&mut self, p: &Path) {
        match zip_members(p) {
            Some(Ok(z)) if !z.members.is_empty() => {
                self.out.files.extend(z.members);
                self.out.skipped.extend(z.skipped);
            }
            // Not a zip archive, or one that cannot be listed or holds no file: reading it
            // reports what it is.
            _ => self.out.files.push(p.to_path_buf()),
        }
    }
}

/// A zip archive's members, as paths `archive.zip:member`.
#[derive(Default)]
struct ZipListing {
    members: Vec<PathBuf>,
    skipped: Vec<String>,
}

fn is_zip_magic(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

fn starts_with_zip(p: &Path) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(p)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && is_zip_magic(&head)
}

/// The members of `p` when it is a zip archive (by content, not name): folders and hidden
/// entries left out, a repeated name read once.
fn zip_members(p: &Path) -> Option<std::result::Result<ZipListing, String>> {
    if !starts_with_zip(p) {
        return None;
    }
    let f = std::fs::File::open(p).ok()?;
    let z = match zip::ZipArchive::new(std::io::BufReader::new(f)) {
        Ok(z) => z,
        Err(e) => return Some(Err(e.to_string())),
    };
    let mut out = ZipListing::default();
    let mut names = HashSet::new();
    for i in 0..z.len() {
        let Some(Ok(name)) = z.name_for_index(i) else {
            continue;
        };
        let name: &str = &name;
        // Hidden files and macOS resource forks; `..` and `.` are steps, not hidden names
        // (a member's name is only ever looked up in its archive, never used as a path).
        let junk = name
            .split('/')
            .any(|c| (c.starts_with('.') && c != "." && c != "..") || c == "__MACOSX");
        if name.ends_with('/') || name.is_empty() || junk {
            continue;
        }
        if !names.insert(name.to_string()) {
            out.skipped.push(format!(
                "{}:{name}: a second member of this name: skipped",
                p.display()
            ));
            continue;
        }
        let mut s = p.as_os_str().to_os_string();
        s.push(":");
        s.push(name);
        out.members.push(PathBuf::from(s));
    }
    Some(Ok(out))
}

/// `archive.zip:logs/gc.log` → (`archive.zip`, `logs/gc.log`) when no file has that whole name
/// and the part before a `:` is a zip archive.
fn zip_member(path: &Path) -> Option<(PathBuf, String)> {
    let s = path.to_str()?;
    for (i, _) in s.match_indices(':') {
        let (a, m) = (&s[..i], &s[i + 1..]);
        if a.is_empty() || m.is_empty() {
            continue;
        }
        let ap = Path::new(a);
        if std::fs::metadata(ap).is_ok_and(|md| md.is_file()) && starts_with_zip(ap) {
            return Some((ap.to_path_buf(), m.to_string()));
        }
    }
    None
}

/// What reading found besides the content.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ReadNotes {
    /// Lines longer than `MAX_LINE`, each replaced by an empty line: (line number, length in
    /// bytes), the first `BAD_LINES_KEPT`.
    pub long_lines: Vec<(u64, u64)>,
    /// How many lines were longer than `MAX_LINE`.
    pub long_count: u64,
    /// Compressed data found damaged or cut short: what came before it was read, the rest
    /// is lost. Says where.
    pub damage: Option<String>,
}

impl ReadNotes {
    /// The notes of lines `first..=last` (a part of a file): the over-long lines kept among
    /// them, and those past the kept ones (only counted) where the last kept one is; the
    /// damage as it is.
    pub fn lines_within(&self, first: u64, last: u64) -> ReadNotes {
        let inside = |l: u64| l >= first && l <= last;
        let long_lines: Vec<(u64, u64)> = self
            .long_lines
            .iter()
            .copied()
            .filter(|&(l, _)| inside(l))
            .collect();
        let unlisted = self.long_count - self.long_lines.len() as u64;
        let here = self.long_lines.last().is_some_and(|&(l, _)| inside(l));
        ReadNotes {
            long_count: long_lines.len() as u64 + if here { unlisted } else { 0 },
            long_lines,
            damage: self.damage.clone(),
        }
    }

    /// The stand-in text for an over-long line among a log's bad lines.
    pub fn long_line_text(bytes: u64) -> String {
        format!(
            "{bytes} bytes without a line end (longer than {} MiB): skipped",
            MAX_LINE >> 20
        )
    }
}

/// A whole input, read.
#[derive(Debug, Default)]
pub struct Content {
    pub bytes: Vec<u8>,
    pub notes: ReadNotes,
}

/// Read a whole input (a file, `-`, or a zip member), decompressed when its content starts
/// with the gzip magic bytes, whatever it is called. Damaged gzip keeps what came before the
/// damage; over-long lines are replaced by empty ones (`read_noted` says where and which).
pub fn read(path: &Path) -> Result<Vec<u8>> {
    read_noted(path).map(|c| c.bytes)
}

/// `read`, with what reading noted besides the bytes (what the loader needs).
pub fn read_noted(path: &Path) -> Result<Content> {
    let mut r = open(path)?;
    let mut bytes = Vec::with_capacity(r.capacity_hint());
    r.read_to_end(&mut bytes).map_err(Error::io(path))?;
    Ok(Content {
        bytes,
        notes: r.into_notes(),
    })
}

/// Open an input for streaming: a file, `-` (standard input), or a zip member
/// (`archive.zip:member`), decompressed and line-capped as `read` does. A FIFO, socket or
/// device is an error (it is never opened), and so are archive and compression formats gcperf
/// does not read (named: `x.log.xz: xz-compressed: not supported; decompress it first`).
pub fn open(path: &Path) -> Result<Reader> {
    let io = Error::io(path);
    if is_stdin(path) {
        return decode(
            path,
            Box::new(std::io::stdin()),
            Layer::Plain,
            "standard input",
            None,
        );
    }
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(Error::NotRegular {
            path: path.to_path_buf(),
            kind: special_kind(&m),
        }),
        Ok(m) => {
            let f = std::fs::File::open(path).map_err(io)?;
            decode(path, Box::new(f), Layer::Plain, "the file", Some(m.len()))
        }
        Err(e) => match zip_member(path) {
            Some((archive, member)) => open_member(path, &archive, &member),
            None => Err(io(e)),
        },
    }
}

/// The archive whose member was opened last, its directory read once (keyed by its path,
/// size and time of change): read again for each member, it makes 20,000 one-line members
/// take 68 s.
type ZipKey = (PathBuf, u64, Option<std::time::SystemTime>);
static LAST_ZIP: std::sync::Mutex<
    Option<(ZipKey, zip::ZipArchive<std::io::BufReader<std::fs::File>>)>,
> = std::sync::Mutex::new(None);

/// A zip member: its bytes located through the archive's central directory and read straight
/// from the archive (stored, or deflate through flate2), so the reader owns what it reads.
fn open_member(path: &Path, archive: &Path, member: &str) -> Result<Reader> {
    use std::io::{Seek, SeekFrom};
    let io = Error::io(path);
    let bad = |message: String| Error::Archive {
        path: path.to_path_buf(),
        message,
    };
    let mut last = LAST_ZIP.lock().unwrap_or_else(|e| e.into_inner());
    let key = std::fs::metadata(archive)
        .map(|m| (archive.to_path_buf(), m.len(), m.modified().ok()))
        .map_err(io)?;
    let z = match &mut *last {
        Some((k, z)) if *k == key => z,
        _ => {
            let f = std::fs::File::open(archive).map_err(io)?;
            let z = zip::ZipArchive::new(std::io::BufReader::new(f))
                .map_err(|e| bad(format!("damaged zip archive: {e}")))?;
            &mut last.insert((key, z)).1
        }
    };
    let Some(i) = z.index_for_name(member) else {
        return Err(bad("no such member in the archive".into()));
    };
    let m = z
        .by_index_raw(i)
        .map_err(|e| bad(format!("damaged zip archive: {e}")))?;
    if m.encrypted() {
        return Err(bad("an encrypted member: not supported".into()));
    }
    let layer = match m.compression() {
        zip::CompressionMethod::Stored => Layer::Plain,
        zip::CompressionMethod::Deflated => Layer::Deflate,
        other => {
            return Err(bad(format!(
                "compressed with {other}: not supported; extract it first"
            )))
        }
    };
    let start = (m.data_start())
        .ok_or_else(|| bad("damaged zip archive: the member's data cannot be found".into()))?;
    let (csize, size) = (m.compressed_size(), m.size());
    drop(m);
    drop(last);
    let mut f = std::fs::File::open(archive).map_err(io)?;
    f.seek(SeekFrom::Start(start)).map_err(io)?;
    let mut r = decode(
        path,
        Box::new(f.take(csize)),
        layer,
        "the member",
        Some(size),
    )?;
    r.expected = Some(size);
    Ok(r)
}

/// How a source is encoded before gzip sniffing.
#[derive(Clone, Copy, PartialEq)]
enum Layer {
    Plain,
    /// A zip member's raw deflate.
    Deflate,
}

/// What the first bytes say.
enum Sniff {
    Plain,
    Gzip,
    Zip,
    Unsupported(&'static str, &'static str),
}

fn sniff(head: &[u8]) -> Sniff {
    const UNPACK: &str = "decompress it first";
    const EXTRACT: &str = "extract it first";
    const UNSUPPORTED: [(&[u8], &str, &str); 7] = [
        (b"\xFD7zXZ\x00", "xz-compressed", UNPACK),
        (b"\x28\xB5\x2F\xFD", "zstd-compressed", UNPACK),
        (b"\x04\x22\x4D\x18", "lz4-compressed", UNPACK),
        (b"\x1F\x9D", "compress (.Z)-compressed", UNPACK),
        (b"7z\xBC\xAF\x27\x1C", "a 7z archive", EXTRACT),
        (b"Rar!\x1A\x07", "a RAR archive", EXTRACT),
        (
            b"PK\x07\x08",
            "a split zip archive",
            "join and extract it first",
        ),
    ];
    if head.starts_with(&[0x1f, 0x8b]) {
        return Sniff::Gzip;
    }
    if is_zip_magic(head) {
        return Sniff::Zip;
    }
    // `BZh` and a block size digit.
    if let [b'B', b'Z', b'h', b'1'..=b'9', ..] = head {
        return Sniff::Unsupported("bzip2-compressed", UNPACK);
    }
    for (magic, what, hint) in UNSUPPORTED {
        if head.starts_with(magic) {
            return Sniff::Unsupported(what, hint);
        }
    }
    // Gatling 3.12+'s binary simulation.log: a run record (kind 0), then its version as a
    // string of 4-byte length (`\0\0\0\0\x06` `3.12.1`).
    if let [0, 0, 0, 0, n @ 1..=16, rest @ ..] = head {
        if rest.get(..usize::from(*n)).is_some_and(|v| {
            v.starts_with(b"3.") && v.iter().all(|b| b.is_ascii_digit() || *b == b'.')
        }) {
            return Sniff::Unsupported(
                "a binary Gatling simulation.log (Gatling 3.12 or later)",
                "its layout is Gatling's own; read the report Gatling writes from it",
            );
        }
    }
    // POSIX tar: `ustar` at offset 257.
    if head.get(257..262) == Some(b"ustar") {
        return Sniff::Unsupported("a tar archive", EXTRACT);
    }
    Sniff::Plain
}

/// Build the reader for `src`: a zip member's deflate undone, then gzip when its magic bytes
/// come first, the formats gcperf does not read refused by name.
fn decode(
    path: &Path,
    mut src: Box<dyn Read + Send>,
    layer: Layer,
    place: &'static str,
    size_hint: Option<u64>,
) -> Result<Reader> {
    let unsupported = |what: &'static str, hint: &'static str| Error::Unsupported {
        path: path.to_path_buf(),
        what,
        hint,
    };
    let mut codecs = Vec::new();
    if layer == Layer::Deflate {
        let c = Counted::new(src);
        codecs.push(("deflate", c.consumed.clone()));
        src = Box::new(flate2::bufread::DeflateDecoder::new(c));
    }
    let p = Peeked::new(src);
    let (src, gzip) = match sniff(&p.head) {
        Sniff::Plain => (p, false),
        Sniff::Gzip => {
            let c = Counted::new(Box::new(p));
            codecs.push(("gzip", c.consumed.clone()));
            let inner = Peeked::new(Box::new(flate2::bufread::MultiGzDecoder::new(c)));
            match sniff(&inner.head) {
                Sniff::Unsupported("a tar archive", hint) => {
                    return Err(unsupported("a tar archive (gzip-compressed)", hint))
                }
                Sniff::Zip => {
                    return Err(unsupported(
                        "a zip archive (gzip-compressed)",
                        "extract it first",
                    ))
                }
                _ => (inner, true),
            }
        }
        Sniff::Zip => {
            return Err(Error::Archive {
                path: path.to_path_buf(),
                message: if layer == Layer::Plain && place == "the file" {
                    zip_summary(path)
                } else {
                    "a zip archive inside an archive or on standard input: not supported; \
                     extract it first"
                        .into()
                },
            })
        }
        Sniff::Unsupported(what, hint) => return Err(unsupported(what, hint)),
    };
    let mut r = Reader::new(src, codecs, place, MAX_LINE);
    r.size = size_hint;
    r.gzip = gzip;
    Ok(r)
}

/// Why a zip archive reached `open` whole: it holds no file, or cannot be listed.
fn zip_summary(path: &Path) -> String {
    match zip_members(path) {
        Some(Ok(z)) if z.members.is_empty() => "a zip archive with no files in it".into(),
        Some(Ok(_)) => {
            "a zip archive: name it on the command line to read its members (archive.zip:member)"
                .into()
        }
        Some(Err(e)) => format!("damaged zip archive: {e}"),
        None => "a zip archive".into(),
    }
}

/// A buffered source that counts the bytes its consumer (a decompressor) has used: where the
/// compressed data was when it went wrong.
struct Counted {
    inner: std::io::BufReader<Box<dyn Read + Send>>,
    consumed: Arc<AtomicU64>,
}

impl Counted {
    fn new(src: Box<dyn Read + Send>) -> Self {
        Counted {
            inner: std::io::BufReader::with_capacity(CHUNK, src),
            consumed: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, n: usize) {
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        self.inner.consume(n);
    }
}

/// A source whose first bytes were read ahead (for the magic bytes); an error met while
/// reading them comes out after them, where it happened.
struct Peeked {
    head: Vec<u8>,
    at: usize,
    err: Option<std::io::Error>,
    rest: Box<dyn Read + Send>,
}

impl Peeked {
    const LEN: usize = 512;

    fn new(mut rest: Box<dyn Read + Send>) -> Self {
        let mut head = Vec::with_capacity(Self::LEN);
        // What came before an error is kept in `head`.
        let err = (&mut rest)
            .take(Self::LEN as u64)
            .read_to_end(&mut head)
            .err();
        Peeked {
            head,
            at: 0,
            err,
            rest,
        }
    }

    /// Up to `n` bytes onto the end of `buf`: the head's, then the source's read straight
    /// into `buf`'s spare room by the source's own `read_buf` (a file's leaves that room
    /// unzeroed; `Peeked`'s `read` would zero it first, 1.5 % of a JRockit log's CPU).
    fn read_onto(&mut self, buf: &mut Vec<u8>, n: usize) -> std::io::Result<usize> {
        if self.at < self.head.len() {
            let end = self.head.len().min(self.at.saturating_add(n));
            buf.extend_from_slice(&self.head[self.at..end]);
            let got = end - self.at;
            self.at = end;
            return Ok(got);
        }
        if let Some(e) = self.err.take() {
            return Err(e);
        }
        (&mut self.rest).take(n as u64).read_to_end(buf)
    }
}

impl Read for Peeked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at < self.head.len() {
            let n = (&self.head[self.at..]).read(buf)?;
            self.at += n;
            return Ok(n);
        }
        if let Some(e) = self.err.take() {
            return Err(e);
        }
        self.rest.read(buf)
    }
}

/// An open input. Reads the decompressed content with every line longer than the cap
/// replaced by an empty line (same line count), holding at most the cap's worth of a line;
/// a decompressor's error ends the content there and is noted, keeping what came before.
pub struct Reader {
    src: Peeked,
    /// Compressed layers, outermost first: name, and how much of its input was used.
    codecs: Vec<(&'static str, Arc<AtomicU64>)>,
    place: &'static str,
    /// The source's size (a file's, a zip member's), when known; and whether it is gzip.
    size: Option<u64>,
    gzip: bool,
    /// A zip member's declared size, checked at the end.
    expected: Option<u64>,
    /// Bytes the source gave (before over-long lines were dropped).
    decoded: u64,
    /// Bytes read and not yet handed on: `pos..ready` are whole lines, `ready..` the start of
    /// a line whose end has not been read.
    buf: Vec<u8>,
    pos: usize,
    ready: usize,
    /// Inside an over-long line: its bytes are counted and dropped until its end.
    discarding: bool,
    dropped: u64,
    /// The byte before the over-long line was a `\r`: its replacement must not make a `\r\n`
    /// with the `\n` ending it (that would lose a line).
    cr_before: bool,
    /// Line ends handed on or ready (as `parse::lines` counts them), and whether the last
    /// byte seen was a `\r` (a `\n` after it ends no further line).
    line_ends: u64,
    prev_cr: bool,
    eof: bool,
    /// The decompressor failed (noted): nothing more is read from it.
    broken: bool,
    max_line: usize,
    notes: ReadNotes,
    /// Reading a part of the content (`set_part`): the bytes of it not yet handed on, and the
    /// bytes read past its end, the next part's first.
    part_left: Option<u64>,
    spill: Vec<u8>,
}

impl Reader {
    fn new(
        src: Peeked,
        codecs: Vec<(&'static str, Arc<AtomicU64>)>,
        place: &'static str,
        max_line: usize,
    ) -> Self {
        Reader {
            src,
            codecs,
            place,
            size: None,
            gzip: false,
            expected: None,
            decoded: 0,
            buf: Vec::new(),
            pos: 0,
            ready: 0,
            discarding: false,
            dropped: 0,
            cr_before: false,
            line_ends: 0,
            prev_cr: false,
            eof: false,
            broken: false,
            max_line: max_line.max(1),
            notes: ReadNotes::default(),
            part_left: None,
            spill: Vec::new(),
        }
    }

    /// A reader of content already read and decoded (over-long lines already made empty),
    /// to read its parts again (`load::read_parts`).
    pub fn of_content(bytes: Vec<u8>) -> Self {
        let src: Box<dyn Read + Send> = Box::new(std::io::Cursor::new(bytes));
        Reader::new(Peeked::new(src), Vec::new(), "the content", MAX_LINE)
    }

    /// A reader over `src` as it is (no sniffing), with its own line cap: for tests.
    #[cfg(test)]
    fn capped(src: Box<dyn Read + Send>, max_line: usize) -> Self {
        Reader::new(Peeked::new(src), Vec::new(), "the file", max_line)
    }

    /// How many bytes the content holds, where that is known before it is read (a plain
    /// file, a zip member; not gzip, not standard input); a part's length while one is read.
    pub fn content_len(&self) -> Option<u64> {
        self.part_left.or(self.size.filter(|_| !self.gzip))
    }

    /// Read the next `len` bytes of the content as if they were all of it (the end of the
    /// input comes after them), then the next part's; `None`: the rest of the content.
    pub fn set_part(&mut self, len: Option<u64>) {
        self.part_left = len;
    }

    /// A good first size for a buffer that will hold the whole content (gzip: eight times
    /// the compressed size, at most 1 GiB up front).
    pub fn capacity_hint(&self) -> usize {
        self.size.map_or(0, |n| {
            let n = if self.gzip { n.saturating_mul(8) } else { n };
            n.min(1 << 30) as usize + 1
        })
    }

    pub fn into_notes(self) -> ReadNotes {
        self.notes
    }

    /// Read from the source onto the end of `buf`, up to `n` bytes, into its spare room (see
    /// `Peeked::read_onto`). Stops at the end of the source; a decompressor's error ends the
    /// input there (noted), after what it gave.
    fn read_src_into(&mut self, buf: &mut Vec<u8>, n: usize) -> std::io::Result<()> {
        if self.broken {
            return Ok(());
        }
        let before = buf.len();
        let got = self.src.read_onto(buf, n);
        self.decoded += (buf.len() - before) as u64;
        match got {
            Ok(_) => Ok(()),
            Err(e) => {
                let Some((codec, used)) = self.codecs.first() else {
                    return Err(e);
                };
                self.notes.damage = Some(format!(
                    "{codec} data damaged or cut short at byte {} of {} ({e}): the {} \
                     bytes of log before it are read, the rest is lost",
                    used.load(Ordering::Relaxed),
                    self.place,
                    self.decoded
                ));
                self.broken = true;
                Ok(())
            }
        }
    }

    /// Note an over-long line: `line` its number, `bytes` its length.
    fn long_line_at(&mut self, line: u64, bytes: u64) {
        self.notes.long_count += 1;
        if self.notes.long_lines.len() < BAD_LINES_KEPT {
            self.notes.long_lines.push((line, bytes));
        }
    }

    /// Count the line ends in `buf[from..]`, drop the bytes of lines over the cap (their line
    /// ends stay), and mark the whole lines ready. The bytes before `from` hold no line end
    /// (they are the start of the current line).
    fn scan(&mut self, from: usize) {
        let max = self.max_line;
        // Most chunks: no `\r` among the new bytes and none just before them, and the whole
        // buffer within the cap (so no line in it is over it): the line ends are the `\n`s,
        // counted in one vectorised pass (the loop below, a step per line, is 5 % of a G1
        // log's time).
        if !self.prev_cr
            && self.buf.len() <= max
            && memchr::memchr(b'\r', &self.buf[from..]).is_none()
        {
            let new = &self.buf[from..];
            if let Some(last) = memchr::memrchr(b'\n', new) {
                self.line_ends += memchr::memchr_iter(b'\n', new).count() as u64;
                self.ready = from + last + 1;
            }
            return;
        }
        if self.buf.len() <= max {
            // No line can be over the cap: the line ends are the `\r`s and the `\n`s not after
            // a `\r`, counted in vectorised passes (a step per line end makes a gzip of `\r\n`s
            // take 4 s a GiB).
            let before = match from {
                0 if self.prev_cr => b'\r',
                0 => 0,
                _ => self.buf[from - 1],
            };
            let new = &self.buf[from..];
            let Some(last) = memchr::memrchr2(b'\n', b'\r', new).map(|i| from + i) else {
                return;
            };
            let crs = new.iter().filter(|&&b| b == b'\r').count();
            let lone_lf = new[1..]
                .iter()
                .zip(new)
                .filter(|&(&b, &a)| b == b'\n' && a != b'\r')
                .count()
                + usize::from(new[0] == b'\n' && before != b'\r');
            self.line_ends += (crs + lone_lf) as u64;
            self.prev_cr = last + 1 == self.buf.len() && self.buf[last] == b'\r';
            self.ready = last + 1;
            return;
        }
        let mut line_start = 0;
        let mut last_end = None;
        let mut ends = 0u64;
        // Over-long lines' bytes to drop: (start, end, keep a NUL for an empty line that is
        // between a `\r` and a `\n`; `parse::lines` drops NULs at line ends).
        let mut cuts: Vec<(usize, usize, bool)> = Vec::new();
        let mut found: Vec<(u64, u64)> = Vec::new();
        // A `\r` just before byte `i` (before the buffer's first: the last byte read before it).
        let cr_before =
            |i: usize| (i.checked_sub(1)).map_or(self.prev_cr, |j| self.buf[j] == b'\r');
        for i in memchr::memchr2_iter(b'\n', b'\r', &self.buf[from..]).map(|i| from + i) {
            if self.buf[i] != b'\n' || !cr_before(i) {
                if i - line_start > max {
                    found.push((self.line_ends + ends + 1, (i - line_start) as u64));
                    cuts.push((line_start, i, cr_before(line_start) && self.buf[i] == b'\n'));
                }
                ends += 1;
            }
            line_start = i + 1;
            last_end = Some(i);
        }
        for (line, bytes) in found {
            self.long_line_at(line, bytes);
        }
        self.line_ends += ends;
        let Some(mut last) = last_end else {
            if self.buf.len() > max {
                self.discarding = true;
                self.cr_before = self.prev_cr;
                self.dropped = self.buf.len() as u64;
                // Let the line's bytes go: only a chunk at a time is needed while dropping.
                self.buf = Vec::new();
                self.prev_cr = false;
            }
            return;
        };
        if self.buf.len() - (last + 1) > max {
            // The line after the last line end is already too long: drop it as it goes on.
            self.discarding = true;
            self.cr_before = self.buf[last] == b'\r';
            self.dropped = (self.buf.len() - (last + 1)) as u64;
            self.buf.truncate(last + 1);
        }
        if !cuts.is_empty() {
            let mut kept = Vec::with_capacity(self.buf.len());
            let mut at = 0;
            for (s, e, nul) in cuts {
                kept.extend_from_slice(&self.buf[at..s]);
                last -= e - s;
                if nul {
                    kept.push(0);
                    last += 1;
                }
                at = e;
            }
            kept.extend_from_slice(&self.buf[at..]);
            self.buf = kept;
        }
        self.prev_cr =
            !self.discarding && last + 1 == self.buf.len() && self.buf.get(last) == Some(&b'\r');
        self.ready = last + 1;
    }

    /// Read the next chunk of the source into `buf` (all of it handed on before).
    fn refill(&mut self) -> std::io::Result<()> {
        self.buf.drain(..self.pos);
        self.pos = 0;
        self.ready = 0;
        let old = self.buf.len();
        let want = old + CHUNK;
        if self.buf.capacity() < want {
            // Double while small; past 1 MiB (a line that long is rare) take all that one
            // line can need at once, so that no copy of a half-cap buffer adds to the peak
            // (pages are only resident as they are written).
            let cap = if want > 1 << 20 {
                self.max_line + CHUNK
            } else {
                self.buf.capacity() * 2
            };
            let cap = cap.max(want);
            self.buf.reserve_exact(cap - self.buf.len());
        }
        let mut buf = std::mem::take(&mut self.buf);
        let got = self.read_src_into(&mut buf, CHUNK);
        let n = buf.len() - old;
        self.buf = buf;
        got?;
        self.after_read(old, n);
        Ok(())
    }

    /// `n` bytes were read onto the end of `buf`, after its first `old`: the end of the
    /// input when none were, else their lines found (and over-long ones dropped).
    fn after_read(&mut self, old: usize, n: usize) {
        if n == 0 {
            self.eof = true;
            if self.notes.damage.is_none() {
                self.check_size();
            }
            if self.discarding {
                // The over-long last line becomes an empty line.
                self.discarding = false;
                self.long_line_at(self.line_ends + 1, self.dropped);
                self.buf.clear();
                if self.cr_before {
                    self.buf.push(0);
                }
                self.buf.push(b'\n');
                self.line_ends += 1;
            }
            // The last line, without a line end.
            self.ready = self.buf.len();
            return;
        }
        if self.discarding {
            match memchr::memchr2(b'\n', b'\r', &self.buf) {
                None => {
                    self.dropped += n as u64;
                    self.buf.clear();
                }
                Some(i) => {
                    self.dropped += i as u64;
                    self.discarding = false;
                    self.long_line_at(self.line_ends + 1, self.dropped);
                    self.buf.drain(..i);
                    if self.cr_before && self.buf.first() == Some(&b'\n') {
                        self.buf.insert(0, 0);
                    }
                    self.scan(0);
                }
            }
        } else {
            self.scan(old);
        }
    }

    /// Whether the next chunk may be read straight onto the end of a block (`read_direct`):
    /// nothing left to hand on but the start of one line, not over a chunk long; no line
    /// being dropped; no `\r` just before, which a `\n` could pair with.
    fn direct_ok(&self) -> bool {
        self.pos == self.ready
            && !self.discarding
            && !self.broken
            && !self.prev_cr
            && self.buf.len() - self.pos <= CHUNK
    }

    /// Read `n` bytes (fewer at the end) straight onto the end of `out` (after the start of
    /// the line left here), without the copy through the reader's buffer (2-5 % of a GC log's
    /// CPU), in one `read_to_end` call (its reads start at 8 KiB and double: a 512 KiB block
    /// takes 7, where 64 KiB calls take 32). When the new bytes hold a line end, no `\r`, and
    /// the lines from the one left here on are within the cap, the whole lines stay in `out`
    /// and the start of the last goes back here. Anything else (the end, a `\r`, no line end,
    /// a line near the cap) goes back here whole and is read as `refill` reads it.
    fn read_direct(&mut self, out: &mut Vec<u8>, n: usize) -> std::io::Result<()> {
        let line_start = out.len();
        out.extend_from_slice(&self.buf[self.pos..]);
        self.buf.clear();
        self.pos = 0;
        self.ready = 0;
        let before = out.len();
        let got = self.read_src_into(out, n);
        let n = out.len() - before;
        if got.is_ok() && n > 0 && out.len() - line_start <= self.max_line {
            let new = &out[before..];
            if memchr::memchr(b'\r', new).is_none() {
                if let Some(last) = memchr::memrchr(b'\n', new) {
                    self.line_ends += memchr::memchr_iter(b'\n', new).count() as u64;
                    let end = before + last + 1;
                    self.buf.extend_from_slice(&out[end..]);
                    out.truncate(end);
                    return Ok(());
                }
            }
        }
        self.buf.extend_from_slice(&out[line_start..]);
        out.truncate(line_start);
        got?;
        self.after_read(before - line_start, n);
        Ok(())
    }

    /// A zip member's declared size against the bytes it gave: those its gzip layer read
    /// where it is a gzip file (the archive sizes the member, not what it decompresses to).
    fn check_size(&mut self) {
        if let Some(want) = self.expected {
            let gave = match self.codecs.iter().find(|(name, _)| *name == "gzip") {
                Some((_, used)) => used.load(Ordering::Relaxed),
                None => self.decoded,
            };
            if gave != want {
                self.notes.damage = Some(format!(
                    "the archive says {want} bytes, {} gives {gave}: damaged archive",
                    self.place
                ));
            }
        }
    }
}

impl Reader {
    /// Append to `out` until it holds `want` bytes or the input (or the part being read)
    /// ends (true then).
    pub fn append(&mut self, out: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
        let Some(left) = self.part_left else {
            // What a part before read past its end comes first (none where none was read).
            out.append(&mut self.spill);
            return self.append_all(out, want);
        };
        let start = out.len();
        let left_here = usize::try_from(left).unwrap_or(usize::MAX);
        let want = want.min(start.saturating_add(left_here));
        let n = self.spill.len().min(want.saturating_sub(start));
        out.extend(self.spill.drain(..n));
        let end = if self.spill.is_empty() && out.len() < want {
            self.append_all(out, want)?
        } else {
            false
        };
        if out.len() - start > left_here {
            // Read past the part's end: those bytes are the next part's.
            let mut past = out.split_off(start + left_here);
            past.append(&mut self.spill);
            self.spill = past;
        }
        let left = left - (out.len() - start) as u64;
        self.part_left = Some(left);
        Ok(left == 0 || end && self.spill.is_empty())
    }

    /// `append` over the whole content. Copied from the reader's buffer onto the end of
    /// `out`, never zeroed first: `read` into a zeroed slice is 2 % of a GC log's time.
    fn append_all(&mut self, out: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
        if out.len() < want {
            out.reserve_exact(want - out.len());
        }
        while out.len() < want {
            if self.pos < self.ready {
                let n = (want - out.len()).min(self.ready - self.pos);
                out.extend_from_slice(&self.buf[self.pos..self.pos + n]);
                self.pos += n;
                continue;
            }
            if self.eof {
                return Ok(true);
            }
            if want - out.len() >= CHUNK && self.direct_ok() {
                // Within the cap, so that only a `\r`, no line end or the end send the
                // bytes back to be read as `refill` reads them.
                let n = (want - out.len()).min(self.max_line.saturating_sub(self.buf.len()));
                self.read_direct(out, n.max(CHUNK))?;
            } else {
                self.refill()?;
            }
        }
        Ok(false)
    }
}

impl Read for Reader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.part_left.is_some() || !self.spill.is_empty() {
            // A part, or what the last one read past its end: through `append`.
            let mut v = Vec::new();
            self.append(&mut v, out.len())?;
            let n = v.len().min(out.len());
            out[..n].copy_from_slice(&v[..n]);
            if v.len() > n {
                // More than asked for (whole lines): handed on next time.
                let mut more = v.split_off(n);
                if let Some(left) = &mut self.part_left {
                    *left += more.len() as u64;
                }
                more.append(&mut self.spill);
                self.spill = more;
            }
            return Ok(n);
        }
        loop {
            if self.pos < self.ready {
                let n = out.len().min(self.ready - self.pos);
                out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if out.is_empty() || self.eof {
                return Ok(0);
            }
            self.refill()?;
        }
    }
}

/// What a file holds, as far as detection can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    Gc(GcFormat),
    Perf(PerfFormat),
}

/// How much of a file detection weighs at least (when it holds that much).
pub const DETECT_PROBE: usize = 1 << 20;

/// Lines of one family that settle detection, and that a part of a file needs to count as a
/// log of its own (fewer are stray lines: an error message quoting a GC line).
const SETTLE: u32 = 3;

/// The family of each of a log's lines in turn: a performance record or header first (its
/// shape is strict: a date and four numbers after a `;`, a JTL or Grinder row), so a request
/// whose error message quotes a GC line stays a request; then the GC families. Families
/// whose lines are told by the lines before them (`PerfFamily::recogniser`: a JTL's header,
/// its quoted fields over several lines) read every line.
pub struct Classifier {
    /// Every performance family in order, with its recogniser where it reads the lines
    /// before a line.
    perf: Vec<(PerfFormat, Option<Box<dyn Recogniser>>)>,
    /// The others, each with its place in the order.
    alone: Vec<(usize, PerfFormat)>,
}

impl Default for Classifier {
    fn default() -> Self {
        let perf: Vec<_> = perf_families().map(|f| (f, f.recogniser())).collect();
        let alone = (perf.iter().enumerate())
            .filter(|(_, (_, r))| r.is_none())
            .map(|(i, (f, _))| (i, *f))
            .collect();
        Classifier { perf, alone }
    }
}

/// What the performance families that read the lines before a line make of it: no family's
/// line (blank, or inside one's record), or one the others weigh alone, knowing which of these
/// took it first (its place among the families, and the family), if one did.
enum Seen {
    Nothing,
    Weigh(Option<(usize, PerfFormat)>),
}

/// A line trimmed as the performance families weigh it.
fn trimmed(line: &[u8]) -> &[u8] {
    crate::parse::num::trim(line.strip_prefix(crate::parse::perf::BOM).unwrap_or(line))
}

impl Classifier {
    /// The family of `line`, the next line of the log.
    pub fn line(&mut self, line: &[u8]) -> Option<Detected> {
        match self.ordered(line) {
            Seen::Nothing => None,
            Seen::Weigh(first) => alone(&self.alone, line, first),
        }
    }

    /// `line` weighed by the performance families that read the lines before it (a JTL's
    /// header, a quoted field over lines): every one sees every line.
    fn ordered(&mut self, line: &[u8]) -> Seen {
        let t = trimmed(line);
        if t.is_empty() {
            return Seen::Nothing;
        }
        let (mut own, mut inside) = (None, false);
        for (i, (f, r)) in self.perf.iter_mut().enumerate() {
            let Some(r) = r else { continue };
            match r.line(t) {
                Recognised::Inside => inside = true,
                Recognised::Own if own.is_none() => own = Some((i, *f)),
                _ => {}
            }
        }
        match inside {
            true => Seen::Nothing,
            false => Seen::Weigh(own),
        }
    }
}

/// The family of a line no ordered recogniser found inside a record: the first performance
/// family in the order that takes it (those that weigh a line alone, `alone`, and the
/// ordered one that took it, `first`), else a GC family's.
fn alone(
    alone: &[(usize, PerfFormat)],
    line: &[u8],
    first: Option<(usize, PerfFormat)>,
) -> Option<Detected> {
    let t = trimmed(line);
    let before = first.map_or(usize::MAX, |(i, _)| i);
    let earlier = alone.iter().take_while(|(i, _)| *i < before);
    earlier
        .map(|&(_, f)| f)
        .find(|f| f.recognises(t))
        .or(first.map(|(_, f)| f))
        .map(Detected::Perf)
        .or_else(|| crate::parse::family::family_of_line(line).map(Detected::Gc))
}

/// Detect the log family from content: every line of the first `DETECT_PROBE` bytes is
/// weighed and the family with the most lines wins, so headers, application output, a log
/// cut in the middle and a performance log that quotes GC lines do not defeat detection. A
/// file whose probe has fewer than three lines of any family is read on until one has three.
pub fn detect(buf: &[u8]) -> Option<Detected> {
    use rayon::prelude::*;
    let mut counts: Vec<(Detected, u32)> = Vec::new();
    let count = |counts: &mut Vec<(Detected, u32)>, d: Detected| match counts
        .iter_mut()
        .find(|(f, _)| *f == d)
    {
        Some((_, n)) => *n += 1,
        None => counts.push((d, 1)),
    };
    let mut classifier = Classifier::default();
    let mut lines = lines(buf).map(|(_, line)| line).peekable();
    // The probe's lines are all weighed: those the families weigh alone side by side on the
    // pool, as `PartFinder::lines` does (one after another, a HotSpot log's 1 MiB probe is
    // 15 ms of serial start before its blocks are parsed on every core).
    let start = |line: &[u8]| line.as_ptr() as usize - buf.as_ptr() as usize;
    let probe: Vec<_> = std::iter::from_fn(|| lines.next_if(|l| start(l) < DETECT_PROBE))
        .filter_map(|line| match classifier.ordered(line) {
            Seen::Nothing => None,
            Seen::Weigh(first) => Some((line, first)),
        })
        .collect();
    let found: Vec<Option<Detected>> = probe
        .par_iter()
        .map(|&(line, first)| alone(&classifier.alone, line, first))
        .collect();
    for d in found.into_iter().flatten() {
        count(&mut counts, d);
    }
    // After the probe, lines until one family has three.
    for line in lines {
        if let Some(d) = classifier.line(line) {
            count(&mut counts, d);
        }
        if counts.iter().any(|&(_, n)| n >= SETTLE) {
            break;
        }
    }
    // Most lines win; a tie goes to the family seen first.
    let most = counts.iter().map(|&(_, n)| n).max()?;
    counts.into_iter().find(|&(_, n)| n == most).map(|(d, _)| d)
}

/// A part of a file that holds one log family: from byte `start` (line `line`, 1-based) to
/// the next part's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    pub family: Detected,
    pub start: usize,
    pub line: u64,
}

/// The most parts a file is read as: past this many the families' lines are mixed, not logs
/// one after another (see `load::streamed_parts`); `parts` finds at most one more.
pub const MAX_PARTS: usize = 256;

/// Where a file changes log family (a HotSpot log with a JRockit log or a performance log
/// appended, say): the parts in order, one when it does not (see `PartFinder`).
pub fn parts(buf: &[u8]) -> Vec<Part> {
    let mut f = PartFinder::default();
    f.lines(buf, 0, 0);
    f.finish()
}

/// `parts` fed a line at a time (a file read in blocks): a part starts at the first line of
/// a run of at least three lines of its family; shorter runs are stray lines of the part
/// around them (its parser skips and counts them). Lines of no family stay with the part
/// before them. At most `MAX_PARTS + 1` parts are kept.
#[derive(Default)]
pub struct PartFinder {
    classifier: Classifier,
    /// The run of consecutive classified lines of one family going on: its start, its lines.
    run: Option<(Part, u32)>,
    out: Vec<Part>,
}

impl PartFinder {
    /// The lines of `text`, which follows the file's first `lines_before` lines and
    /// `bytes_before` bytes. The performance families that read the lines before a line weigh
    /// each in turn; the families that weigh a line alone (the other performance families,
    /// the GC families) weigh a batch of lines side by side on the pool (a HotSpot line is
    /// read whole to be known: one line after another, a 381 MB file's take 3.7 s).
    pub fn lines(&mut self, text: &[u8], lines_before: u64, bytes_before: usize) {
        use rayon::prelude::*;
        const BATCH: usize = 1 << 14;
        type Batch<'a> = Vec<(u64, usize, &'a [u8], Option<(usize, PerfFormat)>)>;
        let mut batch: Batch = Vec::with_capacity(BATCH);
        let flush = |me: &mut Self, batch: &mut Batch| {
            let found: Vec<Option<Detected>> = batch
                .par_iter()
                .map(|&(_, _, line, first)| alone(&me.classifier.alone, line, first))
                .collect();
            for ((no, start, ..), d) in batch.drain(..).zip(found) {
                if let Some(d) = d {
                    me.classified(no, start, d);
                }
            }
        };
        for (no, line) in lines(text) {
            let start = bytes_before + (line.as_ptr() as usize - text.as_ptr() as usize);
            if let Seen::Weigh(first) = self.classifier.ordered(line) {
                batch.push((lines_before + no, start, line, first));
            }
            if batch.len() == BATCH {
                flush(self, &mut batch);
            }
        }
        flush(self, &mut batch);
    }

    /// Line `line` (1-based), starting at byte `start` of the file, is of `family`.
    fn classified(&mut self, line: u64, start: usize, family: Detected) {
        match &mut self.run {
            Some((p, n)) if p.family == family => *n += 1,
            _ => {
                self.close_run();
                self.run = Some((
                    Part {
                        family,
                        start,
                        line,
                    },
                    1,
                ));
            }
        }
    }

    fn close_run(&mut self) {
        let Some((p, n)) = self.run.take() else {
            return;
        };
        if n < SETTLE || self.out.len() > MAX_PARTS {
            return;
        }
        match self.out.last() {
            Some(last) if last.family == p.family => {}
            _ => self.out.push(p),
        }
    }

    pub fn finish(mut self) -> Vec<Part> {
        self.close_run();
        if let Some(first) = self.out.first_mut() {
            // The first part takes the file's head (banners, headers) too.
            first.start = 0;
            first.line = 1;
        }
        self.out
    }
}

/// What a file with no record of any family is, where it is a known output that holds no
/// record per request (load tools' statistics and summaries): named in its refusal, with what
/// to give instead, rather than the generic "no records found". Looked at only after
/// detection found nothing, so no log gcperf reads is ever refused here.
pub fn not_per_request(head: &[u8]) -> Option<(&'static str, &'static str)> {
    const PER_REQUEST: &str = "give a log of one record per request: the load test's results \
         (JMeter, Gatling, k6 --out json) or the web server's access log";
    let text = head.get(..head.len().min(64 << 10)).unwrap_or(head);
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let first = lines(text)
        .map(|(_, l)| l.trim_ascii())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    let has = |needle: &[u8]| memchr::memmem::find(text, needle).is_some();
    let what = if first.starts_with(b"Type,Name,Request Count,Failure Count,") {
        "Locust --csv request statistics (totals per request name)"
    } else if first.starts_with(b"Timestamp,User Count,Type,Name,Requests/s,") {
        "Locust --csv statistics history (figures per second)"
    } else if first.starts_with(b"Method,Name,Error,Occurrences")
        || first.starts_with(b"Count,Message,Traceback,Nodes")
    {
        "Locust --csv failures or exceptions (counts per error)"
    } else if first.starts_with(b"{")
        && has(b"\"metrics\"")
        && (has(b"\"root_group\"") || has(b"\"http_req_duration\""))
    {
        "a k6 end-of-test summary (--summary-export or handleSummary JSON)"
    } else if first.starts_with(b"{") && has(b"\"sampleCount\"") && has(b"\"transaction\"") {
        "JMeter's dashboard statistics.json (figures per label)"
    } else if first.starts_with(b"Label,# Samples,") {
        "a JMeter Summary or Aggregate Report (figures per label)"
    } else if first == b"starttime\tseconds\tctime\tdtime\tttime\twait" {
        return Some((
            "ApacheBench -g data",
            "its times are whole seconds, its rows sorted by duration, with no request names \
             or status codes: give the web server's access log of the run",
        ));
    } else if first.starts_with(b"Percentage served,Time in ms") {
        "ApacheBench -e percentiles"
    } else if first.starts_with(b"This is ApacheBench") {
        "ApacheBench's report"
    } else if first.starts_with(b"** SIEGE") || has(b"\nTransactions:") && has(b"\nAvailability:") {
        "siege's report"
    } else if first.starts_with(b"Date & Time,") && has(b"Trans Rate") {
        "a siege log (one line of totals per run)"
    } else if first.starts_with(b"Running ") && has(b" threads and ") && has(b" connections") {
        "wrk's report"
    } else {
        return None;
    };
    Some((what, PER_REQUEST))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A content read as parts, by `append` in odd sizes and by `read`: each part is its
    /// bytes and ends there; the last runs to the content's end.
    #[test]
    fn a_reader_hands_on_parts_as_whole_contents() {
        let content: Vec<u8> = (0..5000u32)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let cuts = [0, 7, 7, 4000, 4001, 30_000, content.len()];
        for by_read in [false, true] {
            let mut r = Reader::capped(Box::new(std::io::Cursor::new(content.clone())), 1 << 20);
            for w in cuts.windows(2) {
                let last = w[1] == content.len();
                r.set_part((!last).then(|| (w[1] - w[0]) as u64));
                let mut got = Vec::new();
                if by_read {
                    r.read_to_end(&mut got).unwrap();
                } else {
                    let mut want = 1;
                    while !r.append(&mut got, want).unwrap() {
                        want = got.len() + 333;
                    }
                }
                assert_eq!(got, &content[w[0]..w[1]], "{w:?} {by_read}");
                let n = got.len();
                assert!(r.append(&mut got, n + 10).unwrap());
                assert_eq!(got.len(), w[1] - w[0]);
            }
        }
    }

    #[test]
    fn detects_each_family_past_noise() {
        let hs = b"Java HotSpot(TM) 64-Bit Server VM\nMemory: 4k page\nsome app output\n0.294: [GC 0.294: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]\n";
        assert_eq!(
            detect(hs),
            Some(Detected::Gc(crate::parse::hotspot::FAMILY))
        );
        let jr = b"[INFO] Deserialization Total time: 18 ms\n[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n";
        assert_eq!(
            detect(jr),
            Some(Detected::Gc(crate::parse::jrockit::FAMILY))
        );
        let ul = b"[0.014s][info][os,cpu] CPU:total 4\n[0.207s][info][gc           ] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n";
        assert_eq!(
            detect(ul),
            Some(Detected::Gc(crate::parse::unified::FAMILY))
        );
        // A log cut in the middle of a multi-line event: the continuation comes first.
        let cut = b" [PSYoungGen: 540800K->1217K(617472K)] 592910K->53464K(2015744K), 0,0082230 secs]\n2015-03-04T09:13:59.454+0100: 55047,624: [GC (Allocation Failure) [PSYoungGen: 1K->1K(2K)] 3K->3K(4K), 0.001 secs]\n";
        assert_eq!(
            detect(cut),
            Some(Detected::Gc(crate::parse::hotspot::FAMILY))
        );
        // An event split over lines, a full GC first (the real G1 log that GCViewer can't read).
        let split = b"{Heap before GC invocations=20034 (full 925):\n189074.607: [Full GC 10192M->7271M(10240M)\nDesired survivor size 150994944 bytes\n, 37.0629320 secs]\n";
        assert_eq!(
            detect(split),
            Some(Detected::Gc(crate::parse::hotspot::FAMILY))
        );
        assert_eq!(detect(b"hello\nworld\n"), None);
        // A performance log quoting one GC line in an error message is still a performance log.
        let perf = b"[A1];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;\n\
[A2];2012-09-21 12:04:03.308;13;8;5;1;getContract;e- java.lang.OutOfMemoryError after [GC 1K->2K(3K), 0.1 secs]\n\
[A3];2012-09-21 12:04:04.308;20;10;10;1;getContract;\n";
        assert_eq!(
            detect(perf),
            Some(Detected::Perf(crate::parse::perf::SEMICOLON))
        );
        assert_eq!(detect(b""), None);
    }

    /// Read all of `r` through an output buffer of `step` bytes at a time.
    fn drain(mut r: Reader, step: usize) -> (Vec<u8>, ReadNotes) {
        let mut out = Vec::new();
        let mut b = vec![0u8; step];
        loop {
            let n = r.read(&mut b).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&b[..n]);
        }
        (out, r.into_notes())
    }

    /// `append` in blocks (chunks read straight onto the block where they can be) hands on
    /// the bytes and notes that `read` through the reader's own buffer does: inputs of short
    /// and long lines, `\n`, `\r\n` and lone `\r` (some at chunk edges), lines over and at
    /// the cap, with and without a last line end, block sizes below and above a chunk.
    #[test]
    fn blocks_appended_equal_the_buffered_read() {
        let mut next = crate::xorshift(0x9e37_79b9_7f4a_7c15u64);
        for case in 0..40 {
            let mut input = Vec::new();
            let size = 1000 + next(400_000) as usize;
            while input.len() < size {
                let len = match next(20) {
                    0 => 70_000 + next(100_000) as usize,
                    1 => 0,
                    _ => next(120) as usize,
                };
                input.extend(std::iter::repeat_n(b'a' + (len % 26) as u8, len));
                input.extend_from_slice(match next(if case % 2 == 0 { 1 } else { 12 }) {
                    0 | 3..=11 => &b"\n"[..],
                    1 => b"\r\n",
                    _ => b"\r",
                });
            }
            if next(2) == 0 {
                input.extend_from_slice(b"no line end");
            }
            let cap = [100_000, 150_000, MAX_LINE][next(3) as usize];
            let want = drain(
                Reader::capped(Box::new(std::io::Cursor::new(input.clone())), cap),
                4096,
            );
            for block in [1000, CHUNK, 2 * CHUNK + 17, 1 << 21] {
                let mut r = Reader::capped(Box::new(std::io::Cursor::new(input.clone())), cap);
                let mut out = Vec::new();
                let mut all = Vec::new();
                loop {
                    let end = r.append(&mut out, block).unwrap();
                    all.extend_from_slice(&out);
                    out.clear();
                    if end {
                        break;
                    }
                }
                let notes = r.into_notes();
                assert!(all == want.0, "case {case} block {block}: bytes differ");
                assert_eq!(
                    notes.long_lines, want.1.long_lines,
                    "case {case} block {block}"
                );
                assert_eq!(
                    notes.long_count, want.1.long_count,
                    "case {case} block {block}"
                );
            }
        }
    }

    #[test]
    fn lines_over_the_cap_become_empty_lines_and_are_noted() {
        let mut input = b"aa\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 25)); // line 2: too long, ends with \n
        input.extend_from_slice(b"\nbb\r\n");
        input.extend(std::iter::repeat_n(b'z', 20)); // line 4: too long, ends with \r\n
        input.extend_from_slice(b"\r\nexactly-10\r"); // line 5: at the cap, kept; lone CR
        input.extend(std::iter::repeat_n(b'w', 11)); // line 6: too long, between \r and \n
        input.extend_from_slice(b"\n\n");
        input.extend(std::iter::repeat_n(b'y', 30)); // line 8: too long, no line end
        let want = b"aa\n\nbb\r\n\r\nexactly-10\r\0\n\n\n".to_vec();
        assert_eq!(crate::parse::lines::count(&input), 8);
        for step in [1, 3, 7, 4096] {
            let r = Reader::capped(Box::new(std::io::Cursor::new(input.clone())), 10);
            let (out, notes) = drain(r, step);
            assert_eq!(out, want, "step {step}");
            let got: Vec<_> = crate::parse::lines::lines(&out).collect();
            let empty: &[u8] = b"";
            assert_eq!(
                got,
                vec![
                    (1, &b"aa"[..]),
                    (2, empty),
                    (3, &b"bb"[..]),
                    (4, empty),
                    (5, &b"exactly-10"[..]),
                    (6, empty),
                    (7, empty),
                    (8, empty)
                ]
            );
            assert_eq!(notes.long_lines, vec![(2, 25), (4, 20), (6, 11), (8, 30)]);
            assert_eq!(notes.long_count, 4);
            assert_eq!(notes.damage, None);
        }
    }

    #[test]
    fn a_long_line_across_many_chunks_is_counted_whole() {
        // 200,000 bytes (about three chunks) over a cap of 100,000, between two short lines,
        // CRLF split across the read boundary of the line after it.
        let mut input = b"first\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'q', 200_000));
        input.extend_from_slice(b"\r\nlast\n");
        let r = Reader::capped(Box::new(std::io::Cursor::new(input)), 100_000);
        let (out, notes) = drain(r, 1000);
        assert_eq!(out, b"first\r\n\r\nlast\n");
        assert_eq!(notes.long_lines, vec![(2, 200_000)]);
        // Without any line end at all: one empty line stands for it.
        let r = Reader::capped(Box::new(std::io::Cursor::new(vec![0u8; 300_000])), 100_000);
        let (out, notes) = drain(r, 65536);
        assert_eq!(out, b"\n");
        assert_eq!(notes.long_lines, vec![(1, 300_000)]);
    }

    #[test]
    fn long_lines_after_many_plain_chunks_are_numbered_right() {
        // 20,000 short `\n` lines (chunks counted by the vectorised pass, the buffer under
        // the cap), a `\r\n` line, a line of 200,000 bytes over the cap, a last line.
        let mut input: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("l{i}\n").into_bytes())
            .collect();
        let plain = input.clone();
        input.extend_from_slice(b"x\r\n");
        input.extend(std::iter::repeat_n(b'q', 200_000));
        input.extend_from_slice(b"\nend\n");
        let r = Reader::capped(Box::new(std::io::Cursor::new(input)), 100_000);
        let (out, notes) = drain(r, 4096);
        let mut want = plain;
        want.extend_from_slice(b"x\r\n\nend\n");
        assert_eq!(out, want);
        assert_eq!(notes.long_lines, vec![(20_002, 200_000)]);
    }

    #[test]
    fn truncated_gzip_keeps_what_came_before_the_cut() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.gz");
        let text: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        std::fs::write(&p, &gz[..gz.len() / 2]).unwrap();
        let c = read_noted(&p).unwrap();
        // A prefix of the log, and the damage noted with where it was met.
        assert!(!c.bytes.is_empty() && c.bytes.len() < text.len());
        assert!(text.as_bytes().starts_with(&c.bytes));
        let d = c.notes.damage.unwrap();
        assert!(
            d.starts_with(&format!(
                "gzip data damaged or cut short at byte {} of the file",
                gz.len() / 2
            )),
            "{d}"
        );
        assert!(
            d.contains(&format!("the {} bytes of log", c.bytes.len())),
            "{d}"
        );
        // The streamed path too.
        let mut r = open(&p).unwrap();
        let mut b = Vec::new();
        r.read_to_end(&mut b).unwrap();
        assert_eq!(b, c.bytes);
        assert_eq!(r.into_notes().damage.as_deref(), Some(d.as_str()));
    }

    #[test]
    fn formats_not_read_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut tar = vec![0u8; 600];
        tar[..7].copy_from_slice(b"gc.log\0");
        tar[257..263].copy_from_slice(b"ustar\0");
        let cases: [(&[u8], &str); 4] = [
            (
                b"\xFD7zXZ\x00rest",
                "xz-compressed: not supported; decompress it first",
            ),
            (
                b"\x28\xB5\x2F\xFD...",
                "zstd-compressed: not supported; decompress it first",
            ),
            (&tar, "a tar archive: not supported; extract it first"),
            (
                b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
                "a zip archive with no files in it",
            ),
        ];
        for (i, (bytes, msg)) in cases.iter().enumerate() {
            let p = dir.path().join(format!("f{i}.log"));
            std::fs::write(&p, bytes).unwrap();
            let e = open(&p).err().map(|e| e.to_string()).unwrap_or_default();
            assert_eq!(e, format!("{}: {msg}", p.display()));
        }
        // A tar inside gzip is named as such.
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&tar).unwrap();
        let p = dir.path().join("logs.tgz");
        std::fs::write(&p, enc.finish().unwrap()).unwrap();
        let e = open(&p).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.ends_with("a tar archive (gzip-compressed): not supported; extract it first"));
    }

    #[test]
    fn folders_are_walked_once_whatever_the_symlinks() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        std::fs::write(d.join("a/one.log"), "1").unwrap();
        std::fs::write(d.join("a/b/two.log"), "2").unwrap();
        std::fs::write(d.join("a/.hidden.log"), "h").unwrap();
        symlink(".", d.join("a/loop1")).unwrap();
        symlink(".", d.join("a/loop2")).unwrap();
        symlink("../..", d.join("a/b/up")).unwrap();
        symlink("one.log", d.join("a/link-to-one.log")).unwrap();
        symlink("nowhere", d.join("a/dangling.log")).unwrap();
        let st = std::process::Command::new("mkfifo")
            .arg(d.join("a/fifo"))
            .status()
            .unwrap();
        assert!(st.success());
        let x = expand(&[d.join("a"), d.join("a/b/two.log"), PathBuf::from("-")]);
        assert_eq!(
            x.files,
            vec![
                d.join("a/b/two.log"),
                d.join("a/one.log"),
                d.join("a/dangling.log"),
                // Named on the command line: read again.
                d.join("a/b/two.log"),
                PathBuf::from("-"),
            ]
        );
        assert_eq!(
            x.skipped,
            vec![format!(
                "{}: a FIFO, not a regular file: skipped",
                d.join("a/fifo").display()
            )]
        );
        // Opening it directly is refused too, without waiting for a writer.
        let e = open(&d.join("a/fifo")).err().map(|e| e.to_string());
        assert_eq!(
            e,
            Some(format!(
                "{}: a FIFO, not a regular file: skipped",
                d.join("a/fifo").display()
            ))
        );
    }

    #[test]
    fn zip_members_are_listed_and_opened_by_name() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("logs.zip");
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        w.add_directory("dir/", o).unwrap();
        w.start_file("dir/a.log", o).unwrap();
        w.write_all(b"alpha\n").unwrap();
        w.start_file("__MACOSX/dir/._a.log", o).unwrap();
        w.write_all(b"junk").unwrap();
        w.start_file(
            "b:c.log",
            o.compression_method(zip::CompressionMethod::Stored),
        )
        .unwrap();
        w.write_all(b"beta\n").unwrap();
        w.start_file("../gc2.log", o).unwrap();
        w.write_all(b"gamma\n").unwrap();
        std::fs::write(&p, w.finish().unwrap().into_inner()).unwrap();
        let x = expand(std::slice::from_ref(&p));
        let name = |m: &str| PathBuf::from(format!("{}:{m}", p.display()));
        assert_eq!(
            x.files,
            vec![name("dir/a.log"), name("b:c.log"), name("../gc2.log")]
        );
        assert_eq!(read(&x.files[0]).unwrap(), b"alpha\n");
        assert_eq!(read(&x.files[1]).unwrap(), b"beta\n");
        // Read from the archive by its name, which is never a path here.
        assert_eq!(read(&x.files[2]).unwrap(), b"gamma\n");
        let e = open(&name("nope.log")).err().map(|e| e.to_string());
        assert_eq!(
            e,
            Some(format!(
                "{}:nope.log: no such member in the archive",
                p.display()
            ))
        );
    }

    /// An archive's directory is read once for all its members, and again when the archive
    /// changes: a member read after the archive was written anew is the new one.
    #[test]
    fn zip_members_of_a_rewritten_archive_are_read_anew() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("logs.zip");
        let write = |members: &[(&str, &str)]| {
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            for (name, text) in members {
                w.start_file(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                w.write_all(text.as_bytes()).unwrap();
            }
            std::fs::write(&p, w.finish().unwrap().into_inner()).unwrap();
        };
        let member = |m: &str| PathBuf::from(format!("{}:{m}", p.display()));
        write(&[("a.log", "alpha\n"), ("b.log", "beta\n")]);
        assert_eq!(read(&member("a.log")).unwrap(), b"alpha\n");
        assert_eq!(read(&member("b.log")).unwrap(), b"beta\n");
        write(&[("a.log", "gamma gamma\n")]);
        assert_eq!(read(&member("a.log")).unwrap(), b"gamma gamma\n");
        assert!(read(&member("b.log")).is_err());
    }

    /// A gzip file inside a zip, deflated or stored, is read whole and not called damaged:
    /// the archive's size is the gzip file's, not its content's.
    #[test]
    fn gzip_members_of_a_zip_are_checked_against_their_own_size() {
        use std::io::Write;
        let text = "1.0: [GC 1K->2K(3K), 0.1 secs]\n".repeat(200);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("logs.zip");
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default();
        for (name, method) in [
            ("deflated.log.gz", zip::CompressionMethod::Deflated),
            ("stored.log.gz", zip::CompressionMethod::Stored),
        ] {
            w.start_file(name, o.compression_method(method)).unwrap();
            w.write_all(&gz).unwrap();
        }
        std::fs::write(&p, w.finish().unwrap().into_inner()).unwrap();
        for m in ["deflated.log.gz", "stored.log.gz"] {
            let c = read_noted(&PathBuf::from(format!("{}:{m}", p.display()))).unwrap();
            assert_eq!(c.bytes, text.as_bytes(), "{m}");
            assert_eq!(c.notes.damage, None, "{m}");
        }
    }

    #[test]
    fn jtl_rows_are_read_in_their_headers_order_and_quoted_lines_are_inside() {
        use crate::parse::perf::JMETER_JTL;
        let jtl = Some(Detected::Perf(JMETER_JTL));
        let gc = Some(Detected::Gc(crate::parse::hotspot::FAMILY));
        let mut c = Classifier::default();
        // A row in this header's order (no dataType, success at 6): JMeter's default order
        // would read `100` as elapsed and `Login` as a code, and find no success flag.
        let header = b"timeStamp,elapsed,Latency,label,responseCode,responseMessage,success,bytes";
        assert_eq!(c.line(header), jtl);
        assert_eq!(c.line(b"1700000000000,120,100,Login,200,OK,true,512"), jtl);
        assert_eq!(
            Classifier::default().line(b"1700000000000,120,100,Login,200,OK,true,512"),
            None
        );
        // A failure message over four lines, two of them GC lines: inside the row.
        assert_eq!(
            c.line(b"1700000000500,80,70,Home,500,Err,false,\"Assertion failed ab\"\"c"),
            jtl
        );
        assert_eq!(
            c.line(b"1.000: [GC 1234K->567K(8192K), 0.0123456 secs]"),
            None
        );
        assert_eq!(
            c.line(b"2.000: [GC 2234K->667K(8192K), 0.0133456 secs]"),
            None
        );
        assert_eq!(c.line(b"end of it\",64"), None);
        // The field closed: the next GC line is one.
        assert_eq!(
            c.line(b"3.000: [GC 2234K->667K(8192K), 0.0133456 secs]"),
            gc
        );
        // A quote left open (a stray one) holds no more than `MAX_QUOTED_BYTES` of lines.
        let mut c = Classifier::default();
        c.line(header);
        assert_eq!(
            c.line(b"1700000000500,80,70,Home,500,Err,false,\"stray"),
            jtl
        );
        let line = b"3.000: [GC 2234K->667K(8192K), 0.0133456 secs]";
        let inside = (0..5000).take_while(|_| c.line(line).is_none()).count();
        // `"stray` is 6 bytes of the field; each line adds itself and its line end, and the
        // line that takes the field past 64 KiB is the last inside it.
        assert_eq!(inside, ((64 << 10) - 6) / (line.len() + 1) + 1);
    }

    #[test]
    fn detection_weighs_every_line_so_quoted_gc_lines_stay_in_a_perf_log() {
        // Five of seven requests failed with a message that quotes a GC line: still a
        // performance log (7 perf lines against 0 GC lines: a record's shape comes first).
        let mut b = String::new();
        for i in 0..7 {
            let err = if i < 5 {
                format!("e- OutOfMemoryError after {i}.5: [GC 1K->2K(3K), 0.1 secs]")
            } else {
                String::new()
            };
            b.push_str(&format!(
                "[A{i}];2012-09-21 12:04:0{i}.308;13;8;5;1;getContract;{err}\n"
            ));
        }
        // And three GC lines of their own at the end are outweighed too.
        b.push_str("1.0: [GC 1K->2K(3K), 0.1 secs]\n2.0: [GC 1K->2K(3K), 0.1 secs]\n3.0: [GC 1K->2K(3K), 0.1 secs]\n");
        assert_eq!(
            detect(b.as_bytes()),
            Some(Detected::Perf(crate::parse::perf::SEMICOLON))
        );
        assert_eq!(
            parts(b.as_bytes()),
            vec![
                Part {
                    family: Detected::Perf(crate::parse::perf::SEMICOLON),
                    start: 0,
                    line: 1
                },
                Part {
                    family: Detected::Gc(crate::parse::hotspot::FAMILY),
                    start: b.find("1.0: [GC").unwrap(),
                    line: 8
                },
            ]
        );
    }

    #[test]
    fn a_file_that_changes_family_is_cut_into_its_parts() {
        let hs = "Java HotSpot(TM) 64-Bit Server VM\n\
                  1.0: [GC 1K->2K(3K), 0.1 secs]\n2.0: [GC 1K->2K(3K), 0.1 secs]\n\
                  3.0: [GC 1K->2K(3K), 0.1 secs]\n";
        let jr = "[memory ] 9.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
                  some output\n\
                  [memory ] 9.985: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n\
                  [memory ] 10.385: Nursery GC 123930K->27087K (1048576K), 53.417 ms\n";
        let ul = "[0.207s][info][gc] GC(0) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n\
                  [0.307s][info][gc] GC(1) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n\
                  [0.407s][info][gc] GC(2) Pause Young (G1 Evacuation Pause) 14M->12M(128M) 7.033ms\n";
        let all = format!("{hs}{jr}{ul}");
        let p = parts(all.as_bytes());
        assert_eq!(p.len(), 3, "{p:?}");
        assert_eq!(
            (p[0].family, p[0].start, p[0].line),
            (Detected::Gc(crate::parse::hotspot::FAMILY), 0, 1)
        );
        assert_eq!(
            (p[1].family, p[1].start, p[1].line),
            (Detected::Gc(crate::parse::jrockit::FAMILY), hs.len(), 5)
        );
        assert_eq!(
            (p[2].family, p[2].start, p[2].line),
            (
                Detected::Gc(crate::parse::unified::FAMILY),
                hs.len() + jr.len(),
                9
            )
        );
        // One family: one part, from the start.
        assert_eq!(parts(hs.as_bytes()).len(), 1);
        // Two stray JRockit lines in a HotSpot log are not a part of their own.
        let stray = format!("{hs}[memory ] 1.0: Nursery GC 1K->1K (2K), 1.0 ms\n{hs}");
        assert_eq!(parts(stray.as_bytes()).len(), 1);
        assert!(parts(b"no log here\n").is_empty());
    }

    #[test]
    fn reads_gzip_by_magic_not_name() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("plain-name.log");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"[GC 1K->2K(3K), 0.1 secs]\n").unwrap();
        std::fs::write(&p, enc.finish().unwrap()).unwrap();
        assert_eq!(read(&p).unwrap(), b"[GC 1K->2K(3K), 0.1 secs]\n");
    }
}
