//! What the server keeps between requests, in its work directory (removed when
//! it stops, Ctrl-C included): the uploaded files, and the designs whose
//! privatised file may still be asked for. Both are bounded: the oldest goes
//! when a new one comes past the bound.

use crate::args::DataFormat;
use crate::signals::LiveDir;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Uploaded files kept at once.
pub const KEPT_UPLOADS: usize = 8;

/// Designs kept at once (for their privatised file).
pub const KEPT_DESIGNS: usize = 16;

/// An uploaded file; dropping the last handle removes it.
#[derive(Debug)]
pub struct Upload {
    /// Its name in the store.
    pub id: String,
    /// The name the browser gave.
    pub name: String,
    /// Where it is.
    pub path: PathBuf,
    /// CSV or Parquet.
    pub format: DataFormat,
    /// The columns of its header or schema.
    pub columns: Vec<String>,
}

impl Drop for Upload {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A design the page may ask to apply to the file it came from.
#[derive(Debug)]
pub struct Kept {
    /// The JSON `pml design --format json` writes.
    pub json: String,
    /// The upload and column it was counted from, if any.
    pub source: Option<(Arc<Upload>, String)>,
}

/// The store of one server.
pub struct Store {
    dir: LiveDir,
    uploads: Mutex<VecDeque<Arc<Upload>>>,
    designs: Mutex<VecDeque<(String, Arc<Kept>)>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// 128 random bits in hex: the name of a stored thing.
pub fn fresh_id() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Store {
    /// A store in a new private temporary directory.
    pub fn new() -> std::io::Result<Self> {
        Ok(Store {
            dir: LiveDir::create("pml-serve-")?,
            uploads: Mutex::default(),
            designs: Mutex::default(),
        })
    }

    /// Creates the file `path` (which must not exist), readable and writable by
    /// its owner only: it holds raw data.
    pub fn create(path: &Path) -> std::io::Result<std::fs::File> {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
    }

    /// A fresh path in the work directory.
    pub fn path(&self, id: &str, extension: &str) -> PathBuf {
        self.dir.path().join(format!("{id}.{extension}"))
    }

    /// The work directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Keeps an upload (the oldest beyond [`KEPT_UPLOADS`] goes).
    pub fn add_upload(&self, upload: Upload) -> Arc<Upload> {
        let upload = Arc::new(upload);
        let mut uploads = lock(&self.uploads);
        uploads.push_back(upload.clone());
        while uploads.len() > KEPT_UPLOADS {
            uploads.pop_front();
        }
        upload
    }

    /// The upload `id`, if it is still kept.
    pub fn upload(&self, id: &str) -> Option<Arc<Upload>> {
        lock(&self.uploads).iter().find(|u| u.id == id).cloned()
    }

    /// Keeps a design and returns its id (the oldest beyond [`KEPT_DESIGNS`]
    /// goes).
    pub fn add_design(&self, kept: Kept) -> String {
        let id = fresh_id();
        let mut designs = lock(&self.designs);
        designs.push_back((id.clone(), Arc::new(kept)));
        while designs.len() > KEPT_DESIGNS {
            designs.pop_front();
        }
        id
    }

    /// The design `id`, if it is still kept.
    pub fn design(&self, id: &str) -> Option<Arc<Kept>> {
        lock(&self.designs)
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, k)| k.clone())
    }
}
