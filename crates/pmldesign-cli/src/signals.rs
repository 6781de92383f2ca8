//! SIGINT, SIGTERM, SIGHUP and SIGQUIT (every signal that ends the process and
//! can be caught): the temporary files of atomic writes are removed, then the
//! process exits with 128 + the signal number (130 for Ctrl-C, 143 for SIGTERM).
//! SIGKILL cannot be caught: what it leaves is a temporary file of mode 0600.
//!
//! Every temporary file lives in a global registry from its creation to its rename
//! (or removal); both happen with the registry locked, and so does the handler's
//! cleanup, so a signal never leaves a temporary file behind, nor removes a file that
//! has been renamed into place. `pml serve`'s work directory ([`LiveDir`]) is
//! registered likewise and removed with everything in it.

use pmldesign_solver::Interrupt;
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use tempfile::NamedTempFile;

/// The temporary files being written.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The temporary directories in use.
static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn dirs() -> MutexGuard<'static, Vec<PathBuf>> {
    DIRS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The interrupt of a running design, which the first Ctrl-C sets
/// ([`soft_interrupt`]).
static SOFT: Mutex<Option<Interrupt>> = Mutex::new(None);

fn soft() -> MutexGuard<'static, Option<Interrupt>> {
    SOFT.lock().unwrap_or_else(|e| e.into_inner())
}

/// While the guard lives, the first Ctrl-C sets `interrupt` (the design
/// stops at its next check and writes the best certified mechanism it holds,
/// marked interrupted) instead of ending the process; a second Ctrl-C ends it.
pub fn soft_interrupt(interrupt: Interrupt) -> SoftInterrupt {
    *soft() = Some(interrupt);
    SoftInterrupt
}

/// Unregisters the interrupt of [`soft_interrupt`] when dropped.
pub struct SoftInterrupt;

impl Drop for SoftInterrupt {
    fn drop(&mut self) {
        *soft() = None;
    }
}

/// Sets the registered interrupt on a first SIGINT; true if it did.
fn interrupted_softly(signal: i32) -> bool {
    if signal != SIGINT {
        return false;
    }
    match soft().as_ref() {
        Some(i) if !i.is_set() => {
            i.set();
            eprintln!(
                "pml: stopping at the next check; the best certified design found so far will be written (Ctrl-C again to quit without it)"
            );
            true
        }
        _ => false,
    }
}

/// Installs the handler: a thread that waits for one of the signals, removes the
/// registered temporary files and exits with 128 + the signal (a first Ctrl-C
/// during a design only stops the design, [`soft_interrupt`]). If the handler
/// cannot be installed the default disposition stays (the process is killed).
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if interrupted_softly(signal) {
                continue;
            }
            let live = live();
            for path in live.iter() {
                let _ = std::fs::remove_file(path);
            }
            for dir in dirs().iter() {
                let _ = std::fs::remove_dir_all(dir);
            }
            // The registry stays locked: no temporary file is created or renamed
            // from here to the exit.
            std::process::exit(128 + signal);
        }
    });
}

/// A temporary file in the registry; dropping it removes the file.
pub struct LiveTemp {
    file: Option<NamedTempFile>,
}

impl LiveTemp {
    /// Creates a temporary file in `dir`, readable and writable by its owner only
    /// (0600: it may hold raw data until renamed), and registers it.
    pub fn create_in(dir: &Path) -> std::io::Result<Self> {
        let mut live = live();
        let file = tempfile::Builder::new()
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .tempfile_in(dir)?;
        live.push(file.path().to_path_buf());
        Ok(LiveTemp { file: Some(file) })
    }

    /// The open file.
    pub fn as_file(&self) -> &std::fs::File {
        self.file
            .as_ref()
            .expect("present until persisted")
            .as_file()
    }

    /// Renames the file to `target` and unregisters it.
    pub fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let mut live = live();
        let file = self.file.take().expect("present until persisted");
        let path = file.path().to_path_buf();
        let result = file.persist(target).map(|_| ()).map_err(|e| e.error);
        // On error the file was dropped with the error, and so removed.
        live.retain(|p| *p != path);
        result
    }
}

impl Drop for LiveTemp {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut live = live();
            let path = file.path().to_path_buf();
            drop(file);
            live.retain(|p| *p != path);
        }
    }
}

/// A temporary directory in the registry; dropping it removes it and its files
/// (`pml serve`'s uploads).
#[cfg(feature = "serve")]
pub struct LiveDir {
    dir: Option<tempfile::TempDir>,
}

#[cfg(feature = "serve")]
impl LiveDir {
    /// Creates a private temporary directory named `prefix...` (0700: only its
    /// owner may list or open what it holds) and registers it.
    pub fn create(prefix: &str) -> std::io::Result<Self> {
        let mut dirs = dirs();
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .tempdir()?;
        dirs.push(dir.path().to_path_buf());
        Ok(LiveDir { dir: Some(dir) })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("present until dropped").path()
    }
}

#[cfg(feature = "serve")]
impl Drop for LiveDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let mut dirs = dirs();
            let path = dir.path().to_path_buf();
            drop(dir);
            dirs.retain(|p| *p != path);
        }
    }
}
