//! Writing output: stdout, or a file replaced atomically (a temporary file renamed
//! into place, removed on error or on a signal), so that no partial file is left.

use crate::error::CliError;
use std::io::Write;

/// Writes `text` to stdout (no `output`) or, atomically, to the file `output` (the
/// `--output` flag).
pub fn emit(output: Option<&std::path::Path>, text: &str) -> Result<(), CliError> {
    match output {
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
            Ok(())
        }
        Some(path) => write_atomic("--output", path, text),
    }
}

/// Writes `v` as pretty JSON with a final newline like [`emit`], serialised
/// straight into the file or stdout: an LDP design of N = 4096 is 500 MB of
/// text, which a string held in memory first.
pub fn emit_json(
    output: Option<&std::path::Path>,
    v: &impl serde::Serialize,
) -> Result<(), CliError> {
    match output {
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
            pretty_json(&mut out, v)?;
            Ok(out.flush()?)
        }
        Some(path) => write_atomic_with("--output", path, |w| {
            pretty_json(w, v).map_err(|e| write_error("--output", path, &e))
        }),
    }
}

/// `v` as pretty JSON and a newline; serde_json hands back the writer's own
/// error (a closed pipe stays one).
fn pretty_json(w: &mut dyn Write, v: &impl serde::Serialize) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, v).map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

/// Writes `text` like [`emit`], then the `--report` page, if any (each file
/// replaced atomically; the page is rendered before anything is written).
pub fn emit_with_report(
    output: Option<&std::path::Path>,
    text: &str,
    report: Option<(std::path::PathBuf, String)>,
) -> Result<(), CliError> {
    emit(output, text)?;
    write_report(report)
}

/// Writes the `--report` page, if any, atomically.
pub fn write_report(report: Option<(std::path::PathBuf, String)>) -> Result<(), CliError> {
    match report {
        Some((path, html)) => write_atomic("--report", &path, &html),
        None => Ok(()),
    }
}

/// Writes a file through a temporary file in the same directory, renamed into
/// place, so that nothing partial is ever left at `path`. `flag` (e.g. `--plot`)
/// names the file in errors.
pub fn write_atomic(flag: &str, path: &std::path::Path, text: &str) -> Result<(), CliError> {
    write_atomic_with(flag, path, |w| {
        w.write_all(text.as_bytes())
            .map_err(|e| write_error(flag, path, &e))
    })
}

/// A file a command names, with its flag (`--data`, `--output`, ...); `None`
/// where the flag was not given.
pub type Named<'a> = (&'static str, Option<&'a std::path::Path>);

/// Refuses, before anything is read or written, an output that is one of the
/// command's inputs (by device and inode: the same path, a relative path, a link)
/// or another of its outputs: writing it would destroy the input (the data, a
/// mechanism, the secret seed) or one output would replace the other. Standard
/// input and output (`-`) are never a clash. Every command that writes calls it.
pub fn check_outputs(inputs: &[Named<'_>], outputs: &[Named<'_>]) -> Result<(), CliError> {
    let stdin: Vec<&str> = inputs
        .iter()
        .filter(|(_, p)| p.is_some_and(|p| p.as_os_str() == "-"))
        .map(|(flag, _)| *flag)
        .collect();
    if let [first, second, ..] = stdin[..] {
        return Err(CliError::Usage(format!(
            "invalid {second} -: {first} reads standard input already; give {second} a file"
        )));
    }
    let (inputs, outputs) = (given(inputs), given(outputs));
    for (k, &(flag, out)) in outputs.iter().enumerate() {
        if let Some((input, path)) = inputs.iter().find(|(_, i)| same_place(i, out)) {
            return Err(CliError::Usage(format!(
                "invalid {flag} {}: it is the {input} file {} itself; give {flag} another file, so that the input is kept",
                out.display(),
                path.display()
            )));
        }
        if let Some((earlier, _)) = outputs[..k].iter().find(|(_, o)| same_place(o, out)) {
            return Err(CliError::Usage(format!(
                "invalid {flag} {}: it is also the {earlier} file; give each output its own file, e.g. {flag} {}",
                out.display(),
                example(flag)
            )));
        }
    }
    Ok(())
}

/// The files given, standard input and output (`-`) left out.
fn given<'a>(files: &[Named<'a>]) -> Vec<(&'static str, &'a std::path::Path)> {
    files
        .iter()
        .filter_map(|&(flag, path)| Some((flag, path?)))
        .filter(|(_, path)| path.as_os_str() != "-")
        .collect()
}

/// A file name to suggest for `flag`.
fn example(flag: &str) -> &'static str {
    match flag {
        "--report" => "report.html",
        "--plot" => "plot.svg",
        _ => "out.json",
    }
}

/// Whether two paths name one file: [`same_file`] for files that exist, else
/// the same resolved location (the canonical parent directory and the file
/// name: `r.html`, `./r.html` and `dir/../r.html` are one file before it exists).
fn same_place(a: &std::path::Path, b: &std::path::Path) -> bool {
    a == b || same_file(a, b) || resolved(a).is_some_and(|x| resolved(b).as_ref() == Some(&x))
}

/// Where `path` is or will be: its parent directory, canonical, and its file
/// name; `None` where the directory does not exist.
fn resolved(path: &std::path::Path) -> Option<std::path::PathBuf> {
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// Whether `output` names the file `input` already is (the same path, a relative
/// path, a symbolic or a hard link): compared by device and inode where the
/// platform has them, else by canonical path. A file that does not exist yet is
/// never the input.
pub fn same_file(input: &std::path::Path, output: &std::path::Path) -> bool {
    let (Ok(a), Ok(b)) = (std::fs::metadata(input), std::fs::metadata(output)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        match (std::fs::canonicalize(input), std::fs::canonicalize(output)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// The error for a failed write of the file `path` given with `flag`: one line
/// naming the flag and the file, never the temporary file.
pub fn write_error(flag: &str, path: &std::path::Path, e: &std::io::Error) -> CliError {
    // tempfile appends ` at path "<the temporary file>"` to its own errors.
    let message = e.to_string();
    let cause = message.split(" at path ").next().unwrap_or(&message);
    CliError::Failure(format!(
        "cannot write {flag} {}: {cause}; check that the directory exists, is writable and has space",
        path.display()
    ))
}

/// The process's umask, from `/proc/self/status` (reading it through `umask(2)`
/// would set it); 022, the usual one, where that file is not there.
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("Umask:"))?;
            u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
        })
        .unwrap_or(0o022)
}

/// Streams a file through a temporary file in the same directory: `fill` writes to
/// a buffered writer (its errors are returned as they are); only when it succeeds
/// is the file synced and renamed to `path`. On error, or on SIGINT / SIGTERM (see
/// [`crate::signals`]), the temporary file is removed and `path` is untouched.
/// `flag` (e.g. `--output`) names the file in errors.
///
/// A replaced file keeps its mode; a new file gets the mode 0666 less the umask;
/// the temporary file is 0600 until then.
/// Only regular files are replaced. `-` is standard output; a symbolic link is
/// followed and its target replaced; an existing path that is not a regular file
/// (`/dev/null`, a FIFO, a terminal) is written in place, since renaming over it
/// would swap the device for a plain file.
pub fn write_atomic_with<T>(
    flag: &str,
    path: &std::path::Path,
    fill: impl FnOnce(&mut (dyn Write + Send)) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let fail = |e: std::io::Error| write_error(flag, path, &e);
    // Stdout and existing non-regular files are written in place.
    let meta = std::fs::metadata(path);
    let in_place: Option<Box<dyn Write + Send>> = match &meta {
        _ if path.as_os_str() == "-" => Some(Box::new(std::io::stdout())),
        Ok(m) if !m.is_file() => Some(Box::new(
            std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(fail)?,
        )),
        _ => None,
    };
    if let Some(w) = in_place {
        let mut out = std::io::BufWriter::new(w);
        let value = fill(&mut out)?;
        out.flush().map_err(fail)?;
        return Ok(value);
    }
    let target = match meta {
        Ok(_) => std::fs::canonicalize(path).map_err(fail)?,
        Err(_) => path.to_path_buf(),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    // The temporary file is 0600 while it is written (a process killed with
    // SIGKILL leaves it behind, readable by its owner only); it takes its final
    // mode just before the rename: the replaced file's, or 0666 less the umask.
    let mode = meta.as_ref().ok().map_or_else(
        || std::os::unix::fs::PermissionsExt::from_mode(0o666 & !umask()),
        std::fs::Metadata::permissions,
    );
    let tmp = crate::signals::LiveTemp::create_in(dir).map_err(fail)?;
    let mut buffered = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file());
    let value = fill(&mut buffered)?;
    buffered.flush().map_err(fail)?;
    drop(buffered);
    tmp.as_file().set_permissions(mode).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(&target).map_err(fail)?;
    Ok(value)
}
