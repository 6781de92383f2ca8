//! The errors of the web API: an HTTP status and one line, sent as
//! `{"error": "..."}` for the page to show.

use crate::error::CliError;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A refused or failed request.
#[derive(Debug)]
pub struct ApiError {
    /// The status sent.
    pub status: StatusCode,
    /// One line naming the field, the value and the fix.
    pub message: String,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// Bad input (400).
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// Refused by the guard (403).
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    /// Something failed on the server (500).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl From<CliError> for ApiError {
    /// A usage error is the request's fault (400), any other failure the server's
    /// (500); the message is the CLI's.
    fn from(e: CliError) -> Self {
        match e {
            CliError::Usage(m) => ApiError::bad(m),
            CliError::Failure(m) => ApiError::internal(m),
            closed @ CliError::Closed => ApiError::internal(closed.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": crate::error::bounded(&self.message) });
        (self.status, Json(body)).into_response()
    }
}
