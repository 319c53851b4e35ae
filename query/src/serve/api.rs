//! The routes: the page's three files, and the JSON API.
//!
//! | route            | answers (as the command line's `--json`)        |
//! |------------------|-------------------------------------------------|
//! | `/api/boards`    | the boards served                               |
//! | `/api/solve`     | `solve --json`                                  |
//! | `/api/distance`  | `distance --json` (the same object)             |
//! | `/api/moves`     | each legal move with the distance it leads to   |
//! | `/api/random`    | `random --json`                                 |
//! | `/api/histogram` | `histogram --json`                              |
//!
//! Parameters take the command line's names: `board` (`3x3` by default),
//! `start`, `goal`, `distance`, `count`, `seed`. Errors are
//! `{"error": "…"}` with 400 (a bad parameter), 404 (no such board, table or
//! page) or 422 (unsolvable: the body is then also `solve --json`'s answer).

use super::boards::Boards;
use axum::extract::{FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use memmap2::Mmap;
use npuzzle::analysis::{parse_distances, sample, SampleError};
use npuzzle::io::write_json;
use npuzzle::{Board, CompleteTables, LookupError, Move, Shape};
use rand::{rngs::StdRng, SeedableRng};
use serde_json::json;
use std::sync::Arc;

/// The longest query string answered (414 beyond): room for two boards of
/// 16 cells written as JSON arrays, URL-encoded, and the rest.
pub const MAX_QUERY: usize = 1024;
/// The largest request body accepted (413 beyond). No route reads one.
pub const MAX_BODY: usize = 1024;
/// The most positions one `/api/random` draws.
pub const MAX_COUNT: usize = 1000;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What every handler shares: the databases, and `/api/boards`' answer,
/// made once.
struct Server {
    boards: Boards,
    boards_json: Vec<u8>,
}

type Shared = Arc<Server>;

/// The whole application: pages, API, limits and headers.
pub fn router(boards: Boards) -> Router {
    let boards_json = boards_json(&boards).to_string().into_bytes();
    let state = Arc::new(Server {
        boards,
        boards_json,
    });
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/api/boards", get(boards_handler))
        .route("/api/solve", get(solve))
        .route("/api/distance", get(solve))
        .route("/api/moves", get(moves))
        .route("/api/random", get(random))
        .route("/api/histogram", get(histogram))
        .fallback(not_found)
        .with_state(state)
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .layer(middleware::from_fn(limits_and_headers))
}

/// A 414 for a query string over [`MAX_QUERY`]; on every answer, headers
/// that keep the page to its own files.
async fn limits_and_headers(request: Request, next: Next) -> Response {
    let query = request.uri().query().map_or(0, str::len);
    let mut response = if query > MAX_QUERY {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the query string is {query} bytes; at most {MAX_QUERY} are read"),
        )
        .into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
             base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// An error answer: a status and a JSON object with an `error` message.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: serde_json::Value,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_response(self.status, self.body.to_string().into_bytes())
    }
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A 200 with `value` as its body.
fn json_ok(value: &serde_json::Value) -> Response {
    json_response(StatusCode::OK, value.to_string().into_bytes())
}

/// A lookup's failure as an answer; `pair` is the start and goal, for the
/// unsolvable answer's body.
fn lookup_error(e: LookupError, pair: Option<(&Board, &Board)>) -> ApiError {
    match e {
        LookupError::Unsolvable(why) => {
            let mut body = json!({ "error": why.to_string() });
            if let Some((start, goal)) = pair {
                let mut line = Vec::new();
                write_json(&mut line, start, goal, Err(&why));
                body = serde_json::from_slice(&line).expect("write_json writes JSON");
                body["error"] = why.to_string().into();
            }
            ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                body,
            }
        }
        e @ LookupError::MissingTable { .. } => ApiError::new(StatusCode::NOT_FOUND, e.to_string()),
        e @ LookupError::Shape { .. } => ApiError::bad(e.to_string()),
        e @ LookupError::Corrupt { .. } => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{e}; run `query verify` on the server's database"),
        ),
    }
}

/// The query parameters, by the command line's names.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Params {
    board: Option<String>,
    start: Option<String>,
    goal: Option<String>,
    distance: Option<String>,
    count: Option<String>,
    seed: Option<String>,
}

/// The parameters as a handler's argument: a query string that does not
/// read is a 400 in JSON, as every other error.
impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Params, ApiError> {
        match Query::<Params>::from_request_parts(parts, state).await {
            Ok(Query(p)) => Ok(p),
            Err(e) => Err(ApiError::bad(format!(
                "bad query string: {}",
                e.body_text()
                    .trim_start_matches("Failed to deserialize query string: ")
            ))),
        }
    }
}

impl Params {
    /// The board size asked for (`3x3` by default).
    fn shape(&self) -> Result<Shape, ApiError> {
        match &self.board {
            None => Ok(Shape::THREE_BY_THREE),
            Some(text) => text
                .parse()
                .map_err(|e| ApiError::bad(format!("bad board size {text:?}: {e}"))),
        }
    }

    /// The database for the board size asked for.
    fn db<'a>(&self, boards: &'a Boards) -> Result<&'a CompleteTables<Mmap>, ApiError> {
        let shape = self.shape()?;
        boards.get(shape).ok_or_else(|| {
            let served: Vec<String> = boards.iter().map(|s| s.shape.to_string()).collect();
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "no {shape} database is served (served: {}); build one with build-db --board {shape}",
                    served.join(", ")
                ),
            )
        })
    }

    /// The start position: required.
    fn start(&self, shape: Shape) -> Result<Board, ApiError> {
        let text = self.start.as_deref().ok_or_else(|| {
            ApiError::bad("missing parameter: start (a board, such as 867254301)")
        })?;
        board(text, shape, "start")
    }

    /// The goal: tiles in order, blank last, unless given.
    fn goal(&self, shape: Shape) -> Result<Board, ApiError> {
        match &self.goal {
            Some(text) => board(text, shape, "goal"),
            None => Ok(Board::goal(shape)),
        }
    }
}

/// A board parsed and its error worded as the command line words them.
fn board(text: &str, shape: Shape, what: &str) -> Result<Board, ApiError> {
    crate::board_arg(text, shape, what).map_err(|e| ApiError::bad(format!("{e:#}")))
}

/// `/api/boards`: every board served, its default goal and its tables.
fn boards_json(boards: &Boards) -> serde_json::Value {
    let list: Vec<_> = boards
        .iter()
        .map(|s| {
            let shape = s.shape;
            let goal = Board::goal(shape);
            let max = s.db.goal_table(&goal).ok().map(|t| t.info().max_distance);
            json!({
                "board": shape.to_string(),
                "rows": shape.rows(),
                "cols": shape.cols(),
                "positions": shape.positions(),
                "goal": goal.to_string(),
                "max_distance": max,
                "blanks": (0..shape.cells()).filter(|&c| s.db.serves(c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "default": boards.default_shape().to_string(), "boards": list })
}

async fn boards_handler(State(server): State<Shared>) -> Response {
    json_response(StatusCode::OK, server.boards_json.clone())
}

/// `/api/solve` and `/api/distance`: `solve --json`'s object.
async fn solve(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    let db = p.db(&server.boards)?;
    let (start, goal) = (p.start(db.shape())?, p.goal(db.shape())?);
    let moves = db
        .solve(&start, &goal)
        .map_err(|e| lookup_error(e, Some((&start, &goal))))?;
    let mut body = Vec::with_capacity(96 + moves.len());
    write_json(&mut body, &start, &goal, Ok(&moves));
    Ok(json_response(StatusCode::OK, body))
}

/// `/api/moves`: the distance of `start`, and each legal move with the
/// tile it slides and the distance it leads to.
async fn moves(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    let db = p.db(&server.boards)?;
    let (start, goal) = (p.start(db.shape())?, p.goal(db.shape())?);
    let target = db.goal_table(&goal).map_err(|e| lookup_error(e, None))?;
    let distance = target
        .distance(&start)
        .map_err(|e| lookup_error(e, Some((&start, &goal))))?;
    let mut moves = Vec::with_capacity(4);
    for m in Move::ALL {
        let Some(next) = start.apply(m) else { continue };
        let after = target.distance(&next).map_err(|e| lookup_error(e, None))?;
        moves.push(json!({
            "move": m.letter().to_string(),
            "tile": start.tile_moved_by(m),
            "slides": m.tile_direction(),
            "board": next.to_string(),
            "distance": after,
            "change": after as i64 - distance as i64,
        }));
    }
    let value = json!({
        "start": start.to_string(),
        "goal": goal.to_string(),
        "distance": distance,
        "moves": moves,
    });
    Ok(json_ok(&value))
}

/// `/api/random`: `random --json`'s object. Drawing scans the table, which
/// on 12-cell boards takes a while: it runs off the async threads.
async fn random(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    let shape = p.db(&server.boards)?.shape();
    let goal = p.goal(shape)?;
    let text = p
        .distance
        .as_deref()
        .ok_or_else(|| ApiError::bad("missing parameter: distance (K, A..=B or A..B)"))?;
    let distances =
        parse_distances(text).map_err(|e| ApiError::bad(format!("bad distance: {e}")))?;
    let count = match p.count.as_deref() {
        None => 1,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => n,
            _ => {
                return Err(ApiError::bad(format!(
                    "bad count {text:?}: a whole number from 1 to {MAX_COUNT}"
                )))
            }
        },
    };
    let seed = match p.seed.as_deref() {
        None => rand::random(),
        Some(text) => text.parse::<u64>().map_err(|_| {
            ApiError::bad(format!(
                "bad seed {text:?}: a whole number from 0 to {}",
                u64::MAX
            ))
        })?,
    };
    let server = server.clone();
    let drawn = tokio::task::spawn_blocking(move || {
        let db = server.boards.get(shape).expect("checked above");
        let target = db.goal_table(&goal).map_err(|e| lookup_error(e, None))?;
        let mut rng = StdRng::seed_from_u64(seed);
        let positions =
            sample(&target, distances.clone(), count, &mut rng).map_err(|e| match e {
                SampleError::Damaged => {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
                }
                e => ApiError::bad(e.to_string()),
            })?;
        Ok::<_, ApiError>(crate::random::json(&target, seed, &distances, &positions))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(json_ok(&drawn))
}

/// `/api/histogram`: `histogram --json`'s object, from the header.
async fn histogram(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    let db = p.db(&server.boards)?;
    let goal = p.goal(db.shape())?;
    let target = db.goal_table(&goal).map_err(|e| lookup_error(e, None))?;
    let value = crate::histogram::json(&goal, &target.info().counts);
    Ok(json_ok(&value))
}

/// Any other path: a 404 in JSON.
async fn not_found(request: Request) -> ApiError {
    let path: String = request.uri().path().chars().take(100).collect();
    ApiError::new(StatusCode::NOT_FOUND, format!("no such page: {path}"))
}
