//! What every answer shares: the headers that keep the page to its own
//! files, the JSON of a 200, and the error answers (a status, a message and
//! the [`Code`] of the cause) into which the library's errors turn.

use super::code::Code;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use npuzzle::io::Answer;
use npuzzle::pattern::Stopped;
use npuzzle::{AnswerError, Board, Unsolvable};
use serde::Serialize;
use serde_json::json;
use std::time::Duration;

/// Headers on every answer: they keep the page to its own three files.
pub(super) const HEADERS: [(header::HeaderName, &str); 4] = [
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::CACHE_CONTROL, "no-store"),
];

/// An error answer: a status and a JSON object with an `error` message
/// and the `code` of its cause.
#[derive(Debug)]
pub struct ApiError {
    code: Code,
    status: StatusCode,
    body: serde_json::Value,
}

impl ApiError {
    /// The answer for `code`, with its status.
    pub(super) fn new(code: Code, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            status: code.status(),
            body: json!({ "error": message.into(), "code": code.name() }),
        }
    }

    /// The cause.
    pub(super) fn code(&self) -> Code {
        self.code
    }

    /// The same answer with another status: hyper's own, where the
    /// connection layer passes it on.
    pub(super) fn with_status(self, status: StatusCode) -> ApiError {
        ApiError { status, ..self }
    }

    /// A 503 for a search that waits for no turn: asked again once one has
    /// answered, it runs.
    pub(super) fn busy(message: String) -> ApiError {
        ApiError::new(Code::Busy, message)
    }

    /// A search past the timeout names the pair asked about, as the
    /// command line read it: the page starts a game there all the same.
    pub(super) fn naming(mut self, start: &Board, goal: &Board) -> ApiError {
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            self.body["start"] = start.to_string().into();
            self.body["goal"] = goal.to_string().into();
        }
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json_response(self.status, self.body.to_string().into_bytes());
        // The server is busy, not the request at fault: ask again in a second.
        if self.code == Code::Busy {
            let again = HeaderValue::from_static("1");
            response.headers_mut().insert(header::RETRY_AFTER, again);
        }
        response
    }
}

impl ApiError {
    /// The answer as bytes for the socket, with the headers of every other
    /// answer, closing the connection: for the connection layer, which
    /// answers requests that never reach the routes.
    pub(super) fn to_http(&self) -> Vec<u8> {
        let body = self.body.to_string();
        let mut head = format!(
            "HTTP/1.1 {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\n",
            self.status,
            body.len()
        );
        for (name, value) in HEADERS {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        (head + &body).into_bytes()
    }
}

pub(super) fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A 200 with `report` as its body: the same serde form the command
/// line's `--json` prints.
pub(super) fn json_ok(report: &impl Serialize) -> Result<Response, ApiError> {
    let body =
        serde_json::to_vec(report).map_err(|e| ApiError::new(Code::Internal, e.to_string()))?;
    Ok(json_response(StatusCode::OK, body))
}

/// The answer for a start that cannot reach the goal: a 422 whose body is
/// also `solve --json`'s unsolvable answer when the pair is known.
pub(super) fn unsolvable_error(why: &Unsolvable, pair: Option<(&Board, &Board)>) -> ApiError {
    let mut error = ApiError::new(Code::Unsolvable, why.to_string());
    if let Some((start, goal)) = pair {
        let answer = Answer::new(*start, *goal, Err(why), None);
        let mut body = serde_json::to_value(answer).expect("an answer serializes");
        body["error"] = error.body["error"].take();
        body["code"] = Code::Unsolvable.name().into();
        error.body = body;
    }
    error
}

/// A question's failure as an answer; `pair` is the start and goal, for
/// the unsolvable answer's body, and `timeout` the server's `--timeout`,
/// for the message when a search runs out of it.
pub(super) fn answer_error(
    e: AnswerError,
    pair: Option<(&Board, &Board)>,
    timeout: Duration,
) -> ApiError {
    match e {
        AnswerError::Unsolvable(why) => unsolvable_error(&why, pair),
        e @ AnswerError::MissingGoal { shape, .. } => ApiError::new(
            Code::NoTableForGoal,
            format!(
                "{e}; a file built with build-db --board {shape} --all-goals answers every goal"
            ),
        ),
        e @ AnswerError::WrongShape { .. } => ApiError::new(Code::BadBoard, e.to_string()),
        e @ (AnswerError::Corrupt { .. } | AnswerError::DamagedPatterns { .. }) => ApiError::new(
            Code::DamagedDatabase,
            format!("{e}; run `query verify` on the server's database"),
        ),
        e @ AnswerError::Stopped(Stopped::Cancelled { .. }) => client_gone(e),
        e @ AnswerError::Stopped(_) => ApiError::new(
            Code::TimedOut,
            format!(
                "{e} (the server's --timeout is {} s); a position closer to the goal, a \
                 longer serve --timeout, or a stronger partition (build-db --partition) may \
                 be answered, and /api/solve finds a solution within a factor of the \
                 shortest faster (within=W; on the page, Solutions: at most W × the shortest)",
                timeout.as_secs_f64()
            ),
        ),
        e @ AnswerError::NeedsCompleteTables(_) => {
            ApiError::new(Code::NeedsCompleteTables, e.to_string())
        }
    }
}

/// A search stopped because its client closed the connection: a client
/// that only closed its sending side still reads this.
pub(super) fn client_gone(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        Code::ClientGone,
        format!(
            "{e}: the client closed its side of the connection, which the server takes for \
             the client gone; keep the connection open until the answer comes"
        ),
    )
}
