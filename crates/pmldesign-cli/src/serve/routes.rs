//! The endpoints, behind the guard:
//!
//! - `GET /`, `/app.js`, `/style.css`: the page ([`super::assets`]);
//! - `POST /api/upload` (multipart field `file`): `{upload, name, columns}`;
//! - `POST /api/design` (JSON [`DesignForm`]): `{design_id, design, table, report}`;
//! - `POST /api/cancel` (`{job}`): `{cancelled}`;
//! - `POST /api/privatise` (`{design, seed}`): the privatised file, as an
//!   attachment, with a warning about a short seed in `X-Pml-Warning`.
//!
//! Every error is `{"error": "one line"}` with its status.

use super::assets;
use super::error::ApiError;
use super::form::{CancelForm, DesignForm, PrivatiseForm, design_args};
use super::guard::{Guard, guard};
use super::jobs::Jobs;
use super::store::{Kept, Store};
use super::upload;
use super::work;
use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Multipart, State};
use axum::http::{StatusCode, header};
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncReadExt;
use tokio::sync::Semaphore;

/// The header of a privatised file's answer that carries a warning about its
/// guarantee (a short seed), shown on the page.
const WARNING_HEADER: &str = "x-pml-warning";

/// Uploads received at once; more are refused with 503.
const UPLOADS_AT_ONCE: usize = 4;

/// The state of one server.
pub struct App {
    /// Uploads and designs kept.
    pub store: Store,
    /// The running designs.
    pub jobs: Jobs,
    /// `--time-limit` in seconds.
    pub time_limit: f64,
    /// `--max-upload` in bytes.
    pub max_upload: u64,
    /// The uploads being received.
    pub uploads: Arc<Semaphore>,
    /// `--upload-idle`: how long an upload may send no byte before it is
    /// dropped (408), so that stalled clients cannot hold every upload slot.
    pub upload_idle: Duration,
}

impl App {
    /// The state of a server with the limits of `a` (already checked).
    pub fn new(store: Store, a: &crate::args::serve::ServeArgs) -> Self {
        App {
            store,
            jobs: Jobs::new(a.jobs),
            time_limit: a.time_limit,
            max_upload: a.max_upload,
            uploads: Arc::new(Semaphore::new(UPLOADS_AT_ONCE)),
            upload_idle: Duration::from_secs_f64(a.upload_idle),
        }
    }
}

/// Every route, behind the guard.
pub fn router(app: Arc<App>, guard_state: Arc<Guard>) -> Router {
    let limit = usize::try_from(app.max_upload).unwrap_or(usize::MAX);
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route(
            "/api/upload",
            post(upload_file).layer(DefaultBodyLimit::max(limit)),
        )
        .route("/api/design", post(design))
        .route("/api/cancel", post(cancel))
        .route("/api/privatise", post(privatise))
        .fallback(not_found)
        .with_state(app)
        .layer(axum::middleware::from_fn_with_state(guard_state, guard))
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: open the URL `pml serve` printed",
    )
}

/// A JSON body that could not be read.
fn json_error(e: JsonRejection) -> ApiError {
    ApiError::new(e.status(), format!("invalid request: {}", e.body_text()))
}

async fn upload_file(
    State(app): State<Arc<App>>,
    headers: axum::http::HeaderMap,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Json<Value>, ApiError> {
    let multipart = multipart.map_err(|e| {
        ApiError::bad(format!(
            "invalid upload: {}; send the file as multipart/form-data with the field {:?}",
            e.body_text(),
            upload::FIELD
        ))
    })?;
    // A body announced past the cap is refused before it is read (a client
    // that sent `Expect: 100-continue` then never sends it).
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|n| n > app.max_upload) {
        return Err(upload::too_large(app.max_upload));
    }
    let _receiving = app.uploads.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("busy: {UPLOADS_AT_ONCE} uploads are already being received; try again when one is done"),
        )
    })?;
    let u = upload::receive(&app.store, multipart, (app.max_upload, app.upload_idle)).await?;
    Ok(Json(
        json!({ "upload": u.id, "name": u.name, "columns": u.columns }),
    ))
}

async fn design(
    State(app): State<Arc<App>>,
    form: Result<Json<DesignForm>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(form) = form.map_err(json_error)?;
    let source = match &form.upload {
        None => None,
        Some(id) => {
            let upload = app.store.upload(id).ok_or_else(gone_upload)?;
            let column = form.column.clone().ok_or_else(|| {
                ApiError::bad("invalid --column: none picked; pick one of the file's columns")
            })?;
            Some((upload, column))
        }
    };
    let a = design_args(
        &form,
        source.as_ref().map(|(u, c)| (&**u, c.as_str())),
        app.time_limit,
    )?;
    let job = app.jobs.start(form.job.as_deref())?;
    let abandon = job.abandon_guard();
    let tradeoff = form.tradeoff.then(|| tradeoff_budget(app.time_limit));
    let upload = source.as_ref().map(|(u, _)| u.clone());
    let done = tokio::task::spawn_blocking(move || {
        let designed = work::design(&a, job.interrupt(), tradeoff, upload.as_deref());
        drop(job);
        designed
    })
    .await;
    abandon.finished();
    let d = done.map_err(crashed)??;
    let id = app.store.add_design(Kept {
        json: d.json.clone(),
        source,
    });
    Ok(Json(json!({
        "design_id": id,
        "design": d.json,
        "table": d.table,
        "report": d.report,
    })))
}

/// The trade-off curve's budget: the CLI's default, capped by `--time-limit`.
fn tradeoff_budget(time_limit: f64) -> Duration {
    let seconds = time_limit.min(crate::args::report::DEFAULT_TRADEOFF_SECONDS);
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::ZERO)
}

fn gone_upload() -> ApiError {
    ApiError::bad(format!(
        "invalid upload: not (or no longer) kept by the server, which keeps the last {} uploads; upload the file again",
        super::store::KEPT_UPLOADS
    ))
}

/// A job whose thread panicked: an error for the page, not a crash.
fn crashed(e: tokio::task::JoinError) -> ApiError {
    ApiError::internal(format!(
        "the work stopped unexpectedly ({e}); this is a bug in pml, please report it"
    ))
}

async fn cancel(
    State(app): State<Arc<App>>,
    form: Result<Json<CancelForm>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Json(form) = form.map_err(json_error)?;
    Ok(Json(json!({ "cancelled": app.jobs.cancel(&form.job) })))
}

async fn privatise(
    State(app): State<Arc<App>>,
    form: Result<Json<PrivatiseForm>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(form) = form.map_err(json_error)?;
    let kept = app.store.design(&form.design).ok_or_else(|| {
        ApiError::bad(format!(
            "invalid design: not (or no longer) kept by the server, which keeps the last {} designs; design again",
            super::store::KEPT_DESIGNS
        ))
    })?;
    let job = app.jobs.start(form.job.as_deref())?;
    let worker = app.clone();
    let done = tokio::task::spawn_blocking(move || {
        let limits = (job.interrupt(), worker.time_limit);
        let file = work::privatise(&worker.store, &kept, form.seed.as_deref(), limits);
        drop(job);
        file
    })
    .await;
    let work::Privatised {
        file,
        name,
        warning,
    } = done.map_err(crashed)??;
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut answer = Response::builder();
    if let Some(w) = warning {
        answer = answer.header(WARNING_HEADER, w);
    }
    answer
        .header(header::CONTENT_TYPE, "application/octet-stream")
        .header(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        )
        .body(Body::from_stream(file_chunks(file)))
        .map_err(|e| ApiError::internal(format!("cannot send the file: {e}")))
}

/// A file read in chunks of 64 KiB, for a streamed body.
fn file_chunks(
    file: std::fs::File,
) -> impl futures_util::Stream<Item = std::io::Result<Vec<u8>>> + Send + 'static {
    let file = tokio::fs::File::from_std(file);
    futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let mut chunk = vec![0u8; 64 * 1024];
        match file.read(&mut chunk).await {
            Ok(0) => None,
            Ok(n) => {
                chunk.truncate(n);
                Some((Ok(chunk), Some(file)))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
}
