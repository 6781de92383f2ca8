//! The work running at once: at most `--jobs` designs (or privatised files),
//! each with an interrupt that the cancel endpoint, or the page going away,
//! sets. A request beyond the limit is refused at once (503), never queued
//! without bound.

use super::error::ApiError;
use axum::http::StatusCode;
use pmldesign_solver::Interrupt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The longest job name the page may give (it names the job to cancel).
const MAX_JOB_NAME: usize = 64;

/// The jobs of one server.
#[derive(Debug)]
pub struct Jobs {
    permits: Arc<Semaphore>,
    limit: u32,
    running: Arc<Mutex<HashMap<String, Interrupt>>>,
}

impl Jobs {
    /// At most `limit` jobs at once.
    pub fn new(limit: u32) -> Self {
        Jobs {
            permits: Arc::new(Semaphore::new(limit as usize)),
            limit,
            running: Arc::default(),
        }
    }

    /// Starts a job named `name` (if given, it can be cancelled by it), or refuses
    /// it with 503 when `--jobs` are already running.
    pub fn start(&self, name: Option<&str>) -> Result<Job, ApiError> {
        if let Some(n) = name
            && (n.is_empty()
                || n.len() > MAX_JOB_NAME
                || !n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        {
            return Err(ApiError::bad(format!(
                "invalid job = {n:?}: give 1 to {MAX_JOB_NAME} letters, digits or '-'"
            )));
        }
        let permit = self.permits.clone().try_acquire_owned().map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "busy: {} designs are already running (pml serve --jobs {}); wait for one to finish or cancel it, then try again",
                    self.limit, self.limit
                ),
            )
        })?;
        let interrupt = Interrupt::new();
        if let Some(n) = name {
            lock(&self.running).insert(n.to_owned(), interrupt.clone());
        }
        Ok(Job {
            _permit: permit,
            interrupt,
            name: name.map(str::to_owned),
            running: self.running.clone(),
        })
    }

    /// Sets the interrupt of the running job `name`; false if none runs by that
    /// name.
    pub fn cancel(&self, name: &str) -> bool {
        match lock(&self.running).get(name) {
            Some(i) => {
                i.set();
                true
            }
            None => false,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A running job: holds its place among the `--jobs` until dropped (when the
/// work is done, even if the page has gone).
#[derive(Debug)]
pub struct Job {
    _permit: OwnedSemaphorePermit,
    interrupt: Interrupt,
    name: Option<String>,
    running: Arc<Mutex<HashMap<String, Interrupt>>>,
}

impl Job {
    /// The interrupt the solver checks.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// Sets the interrupt when dropped unless [`Abandon::finished`] was called:
    /// the request's future is dropped when the page goes away, and the work
    /// it asked for then stops.
    pub fn abandon_guard(&self) -> Abandon {
        Abandon(Some(self.interrupt.clone()))
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if let Some(n) = &self.name {
            lock(&self.running).remove(n);
        }
    }
}

/// See [`Job::abandon_guard`].
pub struct Abandon(Option<Interrupt>);

impl Abandon {
    /// The answer was computed: nothing to stop.
    pub fn finished(mut self) {
        self.0 = None;
    }
}

impl Drop for Abandon {
    fn drop(&mut self) {
        if let Some(i) = &self.0 {
            i.set();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_the_limit_and_cancel_by_name() {
        let jobs = Jobs::new(2);
        let a = jobs.start(Some("a")).unwrap();
        let _b = jobs.start(None).unwrap();
        let e = jobs.start(Some("c")).unwrap_err();
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(jobs.cancel("a"));
        assert!(a.interrupt().is_set());
        assert!(!jobs.cancel("c"));
        drop(a);
        assert!(!jobs.cancel("a"));
        assert!(jobs.start(Some("d")).is_ok());
        assert!(jobs.start(Some("bad name")).is_err());
    }

    #[test]
    fn an_abandoned_request_stops_its_work() {
        let jobs = Jobs::new(1);
        let job = jobs.start(None).unwrap();
        drop(job.abandon_guard());
        assert!(job.interrupt().is_set());
        let job = jobs.start(None);
        assert!(job.is_err(), "the first job still holds its place");
    }
}
