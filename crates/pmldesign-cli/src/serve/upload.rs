//! An uploaded file: streamed from the multipart body into the work directory
//! (never held whole in memory), refused past `--max-upload` (413), its columns
//! listed from its header or schema; a file that is not CSV or Parquet is
//! refused (400).

use super::error::ApiError;
use super::store::{Store, Upload, fresh_id};
use crate::args::DataFormat;
use crate::args::serve::show_size;
use crate::io::data::data_columns;
use axum::extract::Multipart;
use axum::extract::multipart::MultipartError;
use axum::http::StatusCode;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// The form field that holds the file.
pub const FIELD: &str = "file";

/// Receives the file of a multipart upload and keeps it in `store`.
pub async fn receive(
    store: &Store,
    mut multipart: Multipart,
    (max, idle): (u64, Duration),
) -> Result<Arc<Upload>, ApiError> {
    while let Some(mut field) = within(idle, multipart.next_field())
        .await?
        .map_err(|e| multipart_error(&e, max))?
    {
        if field.name() != Some(FIELD) {
            continue;
        }
        let name = field.file_name().unwrap_or("upload").to_owned();
        let format = format_of(&name)?;
        let id = fresh_id();
        let extension = match format {
            DataFormat::Csv => "csv",
            DataFormat::Parquet => "parquet",
        };
        // Removed on drop: an upload that fails leaves nothing behind.
        let mut upload = Upload {
            path: store.path(&id, extension),
            id,
            name,
            format,
            columns: Vec::new(),
        };
        let mut file = Store::create(&upload.path)
            .map_err(|e| ApiError::internal(format!("cannot store the upload: {e}")))?;
        while let Some(chunk) = within(idle, field.chunk())
            .await?
            .map_err(|e| multipart_error(&e, max))?
        {
            file.write_all(&chunk)
                .map_err(|e| ApiError::internal(format!("cannot store the upload: {e}")))?;
        }
        drop(file);
        upload.columns =
            data_columns(&upload.path, format).map_err(|e| ApiError::from(e).naming(&upload))?;
        return Ok(store.add_upload(upload));
    }
    Err(ApiError::bad(format!(
        "no file in the upload: send it as the multipart/form-data field {FIELD:?}"
    )))
}

/// `next` (the next part or chunk of the body), or 408 when no byte came for
/// `idle`.
async fn within<T>(idle: Duration, next: impl Future<Output = T>) -> Result<T, ApiError> {
    tokio::time::timeout(idle, next).await.map_err(|_| {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the upload stalled: no byte for {} s (pml serve --upload-idle); send the file again",
                idle.as_secs_f64()
            ),
        )
    })
}

/// CSV or Parquet, from the file's name: `.parquet` is Parquet; `.csv`, `.txt`
/// or no extension CSV; anything else is refused.
fn format_of(name: &str) -> Result<DataFormat, ApiError> {
    let extension = std::path::Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("parquet") => Ok(DataFormat::Parquet),
        None | Some("csv") | Some("txt") => Ok(DataFormat::Csv),
        Some(other) => Err(ApiError::bad(format!(
            "invalid upload {name:?}: a .{other} file is neither CSV nor Parquet; upload a .csv file with a header row (export it as CSV first) or a .parquet file"
        ))),
    }
}

/// A multipart error: 413 past the cap, 400 for a malformed body.
fn multipart_error(e: &MultipartError, max: u64) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large(max);
    }
    ApiError::bad(format!(
        "invalid upload: {}; send the file as multipart/form-data",
        e.body_text()
    ))
}

/// The refusal of an upload past `--max-upload` (413).
pub fn too_large(max: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "refused: the upload is larger than --max-upload = {}; upload a smaller file, or restart pml serve with a larger --max-upload",
            show_size(max)
        ),
    )
}

impl ApiError {
    /// The message with the stored file's path replaced by the name the browser
    /// gave it.
    pub fn naming(mut self, upload: &Upload) -> Self {
        let path = upload.path.display().to_string();
        self.message = self.message.replace(&path, &upload.name);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_names() {
        assert_eq!(format_of("a.parquet").unwrap(), DataFormat::Parquet);
        assert_eq!(format_of("a.CSV").unwrap(), DataFormat::Csv);
        assert_eq!(format_of("data").unwrap(), DataFormat::Csv);
        let e = format_of("sheet.xlsx").unwrap_err();
        assert!(e.message.contains(".xlsx"), "{}", e.message);
    }
}
