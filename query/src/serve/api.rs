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
//! | `/api/check`     | a move list graded, as Python's `check`         |
//! | `/api/heuristics`| `heuristics START --json`                       |
//! | `/api/compare`   | `compare START --json`, or `--distance K`'s     |
//! | `/worksheet`     | `random --worksheet`'s page (HTML)              |
//!
//! Parameters take the command line's names: `board` (`3x3` by default),
//! `metric` (`stm` by default; `mtm` answers from a multi-tile database,
//! `data/RxC-mtm.db`, in its notation), `start`, `goal`, `distance`,
//! `count`, `seed`, `moves`, `max_nodes`, `depth_limit`. Every answer but a 200 is
//! `{"error": "…", "code": "…"}`, its status and code one of
//! [`Code`]'s (a 422 for an unsolvable pair also carries `solve --json`'s
//! answer). The connection layer answers what never reaches the routes (a
//! head it cannot read or that is too large) in the same form.
//!
//! Answers run off the async threads: a search over pattern databases
//! takes every core for up to the timeout, and stops there, or as soon as
//! its request is dropped.

use super::boards::Boards;
use super::code::Code;
use super::error::{
    answer_error, client_gone, json_ok, json_response, unsolvable_error, ApiError, HEADERS,
};
use super::hosts::{check as check_host, Hosts};
use super::kind::{self, Budget, Db};
use super::origins::{allow, refuse_cross_site, Origins};
use super::served::boards_json;
use crate::worksheet::{self, Part, Styles, Worksheet};
use axum::body::HttpBody;
use axum::extract::{FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use npuzzle::analysis::{
    check_comparable, check_distances, compare_served, search_costs, CompareError,
    PositionEstimates, COSTS_COUNT, COSTS_SEED, DEFAULT_COMPARE_NODES, MAX_COMPARE_NODES,
};
use npuzzle::analysis::{
    draw_fell_short, draw_stopped, grade_in, parse_distances, read_steps_on, AtDistance, DrawError,
    Histogram, Sample, SampleError,
};
use npuzzle::bounded::Weight;
use npuzzle::pattern::Stopped;
use npuzzle::rules::excerpt;
use npuzzle::{AnswerError, Board, Metric, Move, Shape};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest query string answered (414 beyond): room for two boards of
/// 36 cells written with spaces (`+`), URL-encoded, and the rest.
pub const MAX_QUERY: usize = 1024;
/// The largest request body accepted (413 beyond). No route reads one.
pub const MAX_BODY: usize = 1024;
/// The most positions one `/api/random` draws.
pub const MAX_DRAWN: usize = 1000;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// What every handler shares: the databases, `/api/boards`' answer, made
/// once, and how long one request may search.
struct Server {
    boards: Boards,
    /// The board sizes served, with a file or without, for advice that
    /// names one: worked out once, lent to each request's parameters.
    shapes: Arc<[Shape]>,
    boards_json: Vec<u8>,
    timeout: Duration,
    /// Turns for `within` searches: see [`within_turn`].
    within_turns: tokio::sync::Semaphore,
    /// Turns for the searches with no file: see [`fileless_turn`].
    fileless_turns: tokio::sync::Semaphore,
    /// Turns for the textbook searches: see [`compare_turn`].
    compare_turns: tokio::sync::Semaphore,
    /// Set when the server is told to stop: see [`budgeted`].
    stopping: Stopping,
}

/// The server's stop, told to the searches under way: without it, a
/// search of seconds would hold Ctrl-C up until the connections' grace ran
/// out, and its client would get no answer at all.
#[derive(Clone)]
pub struct Stopping(tokio::sync::watch::Sender<bool>);

impl Stopping {
    pub fn new() -> Stopping {
        Stopping(tokio::sync::watch::Sender::new(false))
    }

    /// Tells every search under way, and every one started after, to stop.
    pub fn stop(&self) {
        self.0.send_replace(true);
    }

    fn is_set(&self) -> bool {
        *self.0.borrow()
    }

    /// Completes once [`Stopping::stop`] is called.
    async fn stopped(&self) {
        let _ = self.0.subscribe().wait_for(|set| *set).await;
    }
}

type Shared = Arc<Server>;

/// The whole number `text` gives parameter `name`, read as the command
/// line reads its flags ([`crate::numbers::whole`]: spaces around the
/// digits, no sign), within `range`; else a 400 that says what it takes
/// (`wanted`, worded only then).
fn whole_parameter<T>(
    (name, text): (&str, &str),
    range: std::ops::RangeInclusive<T>,
    wanted: impl FnOnce() -> String,
) -> Result<T, ApiError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    crate::numbers::whole(range)(text).map_err(|_| {
        ApiError::new(
            Code::BadParameter,
            format!("bad {name} {:?}: {}", excerpt(text, 40), wanted()),
        )
    })
}

/// A turn for a `within` search, or 503 when every turn is taken. Such a
/// search keeps what it has seen in memory, up to 8 million positions
/// (1.46 GB measured on 6x6 at W = 1), so at most [`within_searches`]
/// run at once: a burst of requests cannot exhaust the machine.
fn within_turn(server: &Server) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
    server.within_turns.try_acquire().map_err(|_| {
        let running = match within_searches() {
            1 => "a search within a factor is running".to_string(),
            n => format!("{n} searches within a factor are running"),
        };
        ApiError::busy(format!(
            "the server is busy: {running}, as many as it runs at once; ask again when one has \
             answered"
        ))
    })
}

/// A turn for a search over linear conflicts with no file (one position's
/// heuristics on a board served with none, or toward a goal the file has
/// no table for), or 503 when every turn is taken. Each holds a core until
/// it answers or `--timeout` passes: at most [`fileless_searches`] run at
/// once, so that a burst of far positions cannot take the machine.
fn fileless_turn(server: &Server) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
    server.fileless_turns.try_acquire().map_err(|_| {
        ApiError::busy(format!(
            "the server is busy: {} searches with no file are running, one a core, as many as \
             it runs at once; ask again when one has answered",
            fileless_searches()
        ))
    })
}

/// A turn for the textbook searches on one position, or 503 when every
/// turn is taken. Breadth-first search and A* keep every position they
/// see (about 340 MB on 4x4 at 2,000,000 expansions), and each search
/// holds a core: at most [`fileless_searches`] comparisons, one a core,
/// run at once.
fn compare_turn(server: &Server) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
    server.compare_turns.try_acquire().map_err(|_| {
        ApiError::busy(format!(
            "the server is busy: {} comparisons of the textbook searches are running, one a \
             core, as many as it runs at once; ask again when one has answered",
            fileless_searches()
        ))
    })
}

/// How many searches with no file run at once: one a core.
pub(super) fn fileless_searches() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// How many `within` searches run at once: two (each may hold about 2.5
/// GB: 1.5 GB in its weighted A*, 1 GB in a round's beams), or
/// one on a machine of one core, where a second would only share it
/// ([`npuzzle::bounded::search_threads`], the rule of `batch --within`).
pub(super) fn within_searches() -> usize {
    npuzzle::bounded::search_threads(2)
}

/// The whole application: pages, API, limits and headers. A request that
/// searches gives up after `timeout`; any request unanswered after
/// `answer_within` is answered 408; requests are answered for the `hosts`
/// named, and pages from `origins` may read the answers.
pub fn router(
    boards: Boards,
    timeout: Duration,
    answer_within: Duration,
    (hosts, origins): (Hosts, Origins),
    stopping: Stopping,
) -> Router {
    let boards_json = serde_json::to_vec(&boards_json(&boards, timeout)).expect("serializes");
    let shapes = (boards.iter().map(|s| s.shape))
        .chain(boards.without_file())
        .collect();
    let origins = Arc::new(origins);
    let state = Arc::new(Server {
        boards,
        shapes,
        boards_json,
        timeout,
        within_turns: tokio::sync::Semaphore::new(within_searches()),
        fileless_turns: tokio::sync::Semaphore::new(fileless_searches()),
        compare_turns: tokio::sync::Semaphore::new(fileless_searches()),
        stopping,
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
        .route("/api/distance", get(distance))
        .route("/api/moves", get(moves))
        .route("/api/random", get(random))
        .route("/api/histogram", get(histogram))
        .route("/api/check", get(check))
        .route("/api/heuristics", get(heuristics))
        .route("/api/compare", get(compare))
        .route("/worksheet", get(worksheet))
        .route(
            "/worksheet.css",
            get(|| async { asset("text/css; charset=utf-8", worksheet::CSS) }),
        )
        // After the routes: it applies to those already added.
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
        .with_state(state)
        .layer(middleware::from_fn_with_state(answer_within, in_time))
        .layer(middleware::from_fn_with_state(
            origins.clone(),
            refuse_cross_site,
        ))
        .layer(middleware::from_fn_with_state(hosts, check_host))
        .layer(middleware::from_fn(limits_and_headers))
        .layer(middleware::from_fn_with_state(origins, allow))
}

/// A 414 for a query string over [`MAX_QUERY`], a 413 for a body over
/// [`MAX_BODY`] or of a length not given in advance (no route reads one, so
/// it is judged by its length); on every answer, [`HEADERS`]. The page's
/// own address is not judged by its query string: that is the game the
/// page's link holds, which only the page reads (up to 800 moves, and it
/// says so of more), and the request's head is bounded anyway
/// ([`super::conn::MAX_HEAD`]).
async fn limits_and_headers(request: Request, next: Next) -> Response {
    let query = match request.uri().path() {
        "/" => 0,
        _ => request.uri().query().map_or(0, str::len),
    };
    let body = request.body().size_hint().upper();
    let mut response = if query > MAX_QUERY {
        ApiError::new(
            Code::QueryTooLong,
            format!("the query string is {query} bytes; at most {MAX_QUERY} are read"),
        )
        .into_response()
    } else if body.is_none_or(|length| length > MAX_BODY as u64) {
        let length = match body {
            Some(length) => format!("{length} bytes"),
            None => "of a length not given in advance (no Content-Length)".into(),
        };
        ApiError::new(
            Code::BodyTooLarge,
            format!("the request body is {length}; at most {MAX_BODY} bytes are accepted"),
        )
        .into_response()
    } else {
        next.run(request).await
    };
    for (name, value) in HEADERS {
        response
            .headers_mut()
            .insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A 408 for a request not answered within `limit`: a backstop past the
/// search's own deadline, which answers first, with a 503. Dropping the
/// answer under way stops its search.
async fn in_time(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            Code::RequestTimeout,
            format!(
                "no answer within {} s: the server gave up on this request",
                limit.as_secs_f64()
            ),
        )
        .into_response(),
    }
}

/// A route asked by a method other than GET (or HEAD): a 405 in JSON. The
/// router adds the `Allow` header.
async fn method_not_allowed(method: Method) -> ApiError {
    // A browser's preflight: its script added a header of its own.
    let preflight = match method {
        Method::OPTIONS => {
            "; a browser asks with OPTIONS first only for a request with headers of its own \
             (such as Content-Type): send the GET without them"
        }
        _ => "",
    };
    // Cut as other echoes are: a method is any token, of any length.
    let method = npuzzle::rules::excerpt(method.as_str(), 40);
    ApiError::new(
        Code::MethodNotAllowed,
        format!("{method} is not answered: the page and the API take GET (or HEAD){preflight}"),
    )
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

fn asset_owned(content_type: &'static str, text: String) -> Response {
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// The query parameters, by the command line's names.
#[derive(serde::Deserialize, serde::Serialize, Default)]
struct Params {
    board: Option<String>,
    start: Option<String>,
    goal: Option<String>,
    distance: Option<String>,
    count: Option<String>,
    seed: Option<String>,
    moves: Option<String>,
    metric: Option<String>,
    within: Option<String>,
    /// A worksheet's part: both, puzzles or key.
    part: Option<String>,
    /// The expansions each textbook search is given.
    max_nodes: Option<String>,
    /// Depth-first search's depth limit.
    depth_limit: Option<String>,
    /// Names no route reads, kept to be refused by the route's own list
    /// ([`Params::only`]) rather than by every route's.
    #[serde(flatten, skip_serializing)]
    unknown: std::collections::BTreeMap<String, String>,
    /// The board sizes served, for advice that names one: not a parameter,
    /// but the server's, set as the parameters are read.
    #[serde(skip)]
    served: Arc<[Shape]>,
}

/// The parameters as a handler's argument: a query string that does not
/// read is a 400 in JSON, as every other error.
impl FromRequestParts<Shared> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Shared) -> Result<Params, ApiError> {
        match Query::<Params>::from_request_parts(parts, state).await {
            Ok(Query(mut p)) => {
                p.served = Arc::clone(&state.shapes);
                Ok(p)
            }
            Err(e) => {
                let said = e.body_text();
                let said = said.trim_start_matches("Failed to deserialize query string: ");
                // serde's word for a parameter given twice.
                let repeated = said
                    .strip_prefix("duplicate field `")
                    .and_then(|rest| rest.strip_suffix('`'));
                let message = match repeated {
                    Some(name) => format!("{name} is given more than once: give it once"),
                    None => format!("bad query string: {said}"),
                };
                Err(ApiError::new(Code::UnknownParameter, message))
            }
        }
    }
}

impl Params {
    /// Refuses the parameters that `route` does not read: dropped without a
    /// word, a `count` on the wrong route would look obeyed.
    fn only(&self, route: &str, reads: &[&str]) -> Result<&Params, ApiError> {
        // The fields by their own names, so that a new one is checked too.
        let fields = serde_json::to_value(self).unwrap_or_default();
        let given = fields.as_object().into_iter().flatten();
        let extra: Vec<std::borrow::Cow<str>> = given
            .filter(|(name, value)| !value.is_null() && !reads.contains(&name.as_str()))
            .map(|(name, _)| name.as_str().into())
            .chain(self.unknown.keys().map(|name| match name.is_empty() {
                true => "parameter with no name".into(),
                false => excerpt(name, 40),
            }))
            .collect();
        match extra.as_slice() {
            [] => Ok(self),
            _ if reads.is_empty() => Err(ApiError::new(
                Code::UnknownParameter,
                format!("{route} takes no parameters ({} given)", extra.join(", ")),
            )),
            _ => Err(ApiError::new(
                Code::UnknownParameter,
                format!(
                    "{route} takes no {}: it reads {}",
                    extra.join(" or "),
                    reads.join(", ")
                ),
            )),
        }
    }

    /// The board size asked for (`3x3` by default).
    fn shape(&self) -> Result<Shape, ApiError> {
        match &self.board {
            None => Ok(Shape::THREE_BY_THREE),
            // Up to 36 cells: boards past 12 are served by pattern databases.
            Some(text) => text.parse::<Shape>().map_err(|e| {
                ApiError::new(Code::BadParameter, format!("bad board size {text:?}: {e}"))
            }),
        }
    }

    /// How moves are counted (`stm` by default).
    fn metric(&self) -> Result<Metric, ApiError> {
        match &self.metric {
            None => Ok(Metric::SingleTile),
            Some(text) => text
                .parse::<Metric>()
                .map_err(|e| ApiError::new(Code::BadParameter, format!("bad metric: {e}"))),
        }
    }

    /// The database for the board size and metric asked for.
    fn db<'a>(&self, boards: &'a Boards) -> Result<&'a Db, ApiError> {
        let (shape, metric) = (self.shape()?, self.metric()?);
        boards.get(shape, metric).ok_or_else(|| {
            if boards.without_file() == Some(shape) && metric == Metric::SingleTile {
                return ApiError::new(
                    Code::BoardNotServed,
                    format!(
                        "{shape} is served with no database, and this needs one: {}; \
                         /api/solve with within=W answers there",
                        npuzzle::tables::unbuildable(shape, metric).unwrap_or_default()
                    ),
                );
            }
            let served: Vec<String> = boards
                .iter()
                .map(|s| match s.metric() {
                    Metric::SingleTile => s.shape.to_string(),
                    Metric::MultiTile => format!("{} {}", s.shape, s.metric()),
                })
                .collect();
            let (what, flag) = match metric {
                Metric::SingleTile => (String::new(), String::new()),
                Metric::MultiTile => (format!(" {metric}"), format!(" --metric {metric}")),
            };
            let mut advice = match npuzzle::tables::unbuildable(shape, metric) {
                None => format!("build one with build-db --board {shape}{flag}"),
                Some(why) if metric == Metric::SingleTile => {
                    format!("{why}, and /api/solve with within=W needs none")
                }
                Some(why) => why,
            };
            // The board is served in the other metric: the parameter is the fix.
            let served_other = Metric::ALL
                .into_iter()
                .find(|&m| m != metric && boards.get(shape, m).is_some());
            if let Some(other) = served_other {
                advice = format!("ask with metric={other}; {advice}");
            }
            ApiError::new(
                Code::BoardNotServed,
                format!(
                    "no {shape}{what} database is served (served: {}); {advice}",
                    served.join(", ")
                ),
            )
        })
    }

    /// The board asked for, where it is the one served with no file (in
    /// single-tile moves: multi-tile ones have no search without a file).
    fn without_file(&self, boards: &Boards) -> Result<Option<Shape>, ApiError> {
        let (shape, metric) = (self.shape()?, self.metric()?);
        Ok((boards.without_file() == Some(shape) && metric == Metric::SingleTile).then_some(shape))
    }

    /// The start position: required.
    fn start(&self, shape: Shape) -> Result<Board, ApiError> {
        let text = self.start.as_deref().ok_or_else(|| {
            ApiError::new(
                Code::MissingParameter,
                "missing parameter: start (a board, such as 867254301)",
            )
        })?;
        board(
            text,
            shape,
            "start",
            self.board.is_none().then_some(&*self.served),
        )
    }

    /// The distances asked for (K, `A..=B`, `A..B`), if any.
    fn distances(&self) -> Result<Option<std::ops::RangeInclusive<u32>>, ApiError> {
        self.distance
            .as_deref()
            .map(|text| {
                parse_distances(text)
                    .map_err(|e| ApiError::new(Code::BadParameter, format!("bad distance: {e}")))
            })
            .transpose()
    }

    /// How many positions to draw: 1 unless given, at most [`MAX_DRAWN`].
    fn count(&self) -> Result<usize, ApiError> {
        match self.count.as_deref() {
            None => Ok(1),
            Some(text) => whole_parameter(("count", text), 1..=MAX_DRAWN, || {
                format!("count must be from 1 to {MAX_DRAWN}")
            }),
        }
    }

    /// The seed of a draw: a fresh one unless given.
    fn seed(&self) -> Result<u64, ApiError> {
        match self.seed.as_deref() {
            None => Ok(npuzzle::analysis::fresh_seed()),
            Some(text) => whole_parameter(("seed", text), 0..=u64::MAX, || {
                format!("seed must be from 0 to {}", u64::MAX)
            }),
        }
    }

    /// `within`: W for a bounded-suboptimal answer, if asked for.
    fn weight(&self) -> Result<Option<Weight>, ApiError> {
        self.within
            .as_deref()
            .map(|text| {
                text.parse::<Weight>().map_err(|e| {
                    ApiError::new(
                        Code::BadParameter,
                        format!("bad within {:?}: {e}", excerpt(text, 40)),
                    )
                })
            })
            .transpose()
    }

    /// `max_nodes`: the expansions each textbook search is given, the
    /// command line's default unless given, and at most that: the command
    /// line's largest (10,000,000: 1.3 GB and over a minute on 4x4) is
    /// not a request's to take.
    fn max_nodes(&self) -> Result<u64, ApiError> {
        match self.max_nodes.as_deref() {
            None => Ok(DEFAULT_COMPARE_NODES),
            Some(text) => whole_parameter(("max_nodes", text), 1..=DEFAULT_COMPARE_NODES, || {
                format!(
                    "each search may expand from 1 to {DEFAULT_COMPARE_NODES} positions here \
                     (query compare --max-nodes takes up to {MAX_COMPARE_NODES})"
                )
            }),
        }
    }

    /// `depth_limit`: depth-first search's limit, if given (by default the
    /// goal's farthest distance, or on a search the distance).
    fn depth_limit(&self) -> Result<Option<u32>, ApiError> {
        self.depth_limit
            .as_deref()
            .map(|text| {
                whole_parameter(("depth_limit", text), 0..=u32::MAX, || {
                    format!("a number of moves from 0 to {}", u32::MAX)
                })
            })
            .transpose()
    }

    /// A worksheet's part: both (the default), `puzzles` or `key`.
    fn part(&self) -> Result<Part, ApiError> {
        match self.part.as_deref() {
            None | Some("both") => Ok(Part::Both),
            Some("puzzles") => Ok(Part::Puzzles),
            Some("key") => Ok(Part::Key),
            Some(text) => Err(ApiError::new(
                Code::BadParameter,
                format!(
                    "bad part {:?}: a worksheet's part is both, puzzles or key",
                    excerpt(text, 40)
                ),
            )),
        }
    }

    /// The goal: tiles in order, blank last, unless given.
    fn goal(&self, shape: Shape) -> Result<Board, ApiError> {
        match &self.goal {
            // A goal's tiles would name a board the start is not on.
            Some(text) => board(text, shape, "goal", None),
            None => Ok(Board::goal(shape)),
        }
    }
}

/// A board parsed and its error worded as the command line words them;
/// read on the default size (no `board` given), with the board among
/// those `served` that the tiles fit, where they fit another.
fn board(
    text: &str,
    shape: Shape,
    what: &'static str,
    served: Option<&[Shape]>,
) -> Result<Board, ApiError> {
    crate::board_arg(text, shape, what).map_err(|e| {
        let another_size = (e.downcast_ref::<npuzzle::rules::ParseError>())
            .zip(served)
            .and_then(|(p, served)| {
                p.another_size_note(|s| served.contains(&s), |s| format!("add board={s}"))
            });
        match another_size {
            Some(note) => ApiError::new(Code::BadBoard, format!("{e:#}; {note}")),
            None => ApiError::new(Code::BadBoard, format!("{e:#}")),
        }
    })
}

async fn boards_handler(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/boards", &[])?;
    Ok(json_response(StatusCode::OK, server.boards_json.clone()))
}

/// Sets its flag when dropped: a request dropped before its answer (the
/// client gone, or the handler's time up) stops its search.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on the blocking threads with the database for `shape` and
/// the request's search budget: a search takes whole cores for seconds,
/// which must not stall the threads that serve other requests.
async fn searching<T: Send + 'static>(
    server: &Shared,
    (shape, metric): (Shape, Metric),
    work: impl FnOnce(&Db, &Budget) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let served = server.clone();
    budgeted(server, move |budget| {
        let db = served
            .boards
            .get(shape, metric)
            .expect("checked by the caller");
        work(db, budget)
    })
    .await
}

/// Runs `work` on the blocking threads with the request's search budget;
/// a search the server's stop cuts short is answered `stopping`.
async fn budgeted<T: Send + 'static>(
    server: &Shared,
    work: impl FnOnce(&Budget) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    // Set when the client goes: its connection closes (watched while the
    // search runs), or the request is dropped.
    let watch = super::conn::CLIENT.try_with(|client| client.watch()).ok();
    let cancel = watch
        .as_ref()
        .map_or_else(Default::default, |w| w.gone.clone());
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let timeout = server.timeout;
    let flag = cancel.clone();
    let mut search = tokio::task::spawn_blocking(move || {
        let budget = Budget {
            deadline: Instant::now() + timeout,
            cancel: &flag,
            timeout,
        };
        work(&budget)
    });
    let searched = tokio::select! {
        searched = &mut search => searched,
        () = server.stopping.stopped() => {
            cancel.store(true, Ordering::Relaxed);
            search.await
        }
    };
    match searched.map_err(|e| ApiError::new(Code::Internal, e.to_string()))? {
        Err(e) if e.code() == Code::ClientGone && server.stopping.is_set() => Err(ApiError::new(
            Code::Stopping,
            "the server is stopping (Ctrl-C), and stopped this search; ask again once it is \
             started again",
        )),
        answer => answer,
    }
}

/// `/api/solve`: `solve --json`'s object (with `nodes` where a search ran,
/// as the command line prints it for pattern files); with `within=W`,
/// `solve --within W --json`'s, on any board up to 6x6, served or not.
async fn solve(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only(
        "/api/solve",
        &["board", "metric", "start", "goal", "within"],
    )?;
    let within = p.weight()?;
    let (shape, metric) = (p.shape()?, p.metric()?);
    if within.is_some() && metric == Metric::MultiTile {
        return Err(ApiError::new(
            Code::BadParameter,
            "within counts single-tile moves; multi-tile tables answer exactly without it",
        ));
    }
    if let Some(weight) = within {
        if server.boards.get(shape, metric).is_none() {
            // Within a factor, any board is answered without a file.
            let (start, goal) = (p.start(shape)?, p.goal(shape)?);
            let _turn = within_turn(&server)?;
            let answer = budgeted(&server, move |budget| {
                kind::answer_within(None, (&start, &goal), weight, budget)
            })
            .await?;
            return json_ok(&answer);
        }
    }
    p.db(&server.boards)?;
    let (start, goal) = (p.start(shape)?, p.goal(shape)?);
    // Taken once the request reads: a bad one is a 400 even when busy.
    let _turn = within.map(|_| within_turn(&server)).transpose()?;
    let answer = searching(&server, (shape, metric), move |db, budget| match within {
        Some(weight) => kind::answer_within(Some(db), (&start, &goal), weight, budget),
        None => kind::answer(db, &start, &goal, budget),
    })
    .await?;
    json_ok(&answer)
}

/// `/api/distance`: `distance --json`'s answer, the shortest solution's
/// length; `within`, like any parameter the route does not take, is a 400.
async fn distance(server: State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/distance", &["board", "metric", "start", "goal"])?;
    solve(server, p).await
}

/// `/api/moves`: the distance of `start`, and each legal move with the
/// tile it slides and the distance it leads to. On a board served with no
/// file, only distances near the goal are known (see [`near_goal`]): the
/// others are `null`.
async fn moves(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/moves", &["board", "metric", "start", "goal"])?;
    if let Some(shape) = p.without_file(&server.boards)? {
        let (start, goal) = (p.start(shape)?, p.goal(shape)?);
        npuzzle::rules::solvability::check(&start, &goal)
            .map_err(|why| unsolvable_error(&why, Some((&start, &goal))))?;
        let distance = near_goal(&start, &goal);
        let around = start.successors().map(|(m, next)| {
            // A move changes the distance by one: from 1, all but the
            // move to the goal lead to 2.
            let after = near_goal(&next, &goal).or(distance.filter(|&d| d == 1).map(|_| 2));
            (m, 1, next, after)
        });
        return json_ok(&Moves::new(start, goal, distance, around));
    }
    let db = p.db(&server.boards)?;
    let (shape, metric) = (db.shape(), db.metric());
    let (start, goal) = (p.start(shape)?, p.goal(shape)?);
    let (distance, around) = searching(&server, (shape, metric), move |db, budget| {
        kind::neighbours(db, &start, &goal, budget)
    })
    .await
    .map_err(|e| e.naming(&start, &goal))?;
    let around = around
        .into_iter()
        .map(|(m, cells, next, after)| (m, cells, next, Some(after)));
    json_ok(&Moves::new(start, goal, Some(distance), around))
}

/// The distance of `board` where it is known with no file: 0 at the goal,
/// 1 a move from it.
fn near_goal(board: &Board, goal: &Board) -> Option<u32> {
    if board == goal {
        Some(0)
    } else {
        goal.successors()
            .any(|(_, next)| next == *board)
            .then_some(1)
    }
}

/// `/api/moves`' answer: the start's distance and where each move leads
/// (`null` where no file tells).
#[derive(Serialize)]
struct Moves {
    start: String,
    goal: String,
    distance: Option<u32>,
    moves: Vec<MoveTo>,
}

impl Moves {
    /// The answer for `start`, at `distance`, whose moves lead where
    /// `around` says.
    fn new(
        start: Board,
        goal: Board,
        distance: Option<u32>,
        around: impl Iterator<Item = (Move, usize, Board, Option<u32>)>,
    ) -> Moves {
        let moves = around.map(|(m, cells, next, after)| MoveTo {
            name: npuzzle::rules::slide_notation(&vec![m; cells]),
            tile: start.tile_moved_by(m),
            tiles: (0..cells)
                .scan(start, |board, _| {
                    let tile = board.tile_moved_by(m);
                    *board = board.apply(m)?;
                    tile
                })
                .collect(),
            slides: m.tile_direction(),
            board: next.to_string(),
            distance: after,
            change: after
                .zip(distance)
                .map(|(after, before)| after as i64 - before as i64),
        });
        Moves {
            start: start.to_string(),
            goal: goal.to_string(),
            distance,
            moves: moves.collect(),
        }
    }
}

/// One legal move: the blank's letter (with the count of a slide of
/// several tiles, `U2`, under the multi-tile metric), the tile beside the
/// blank that it slides, every tile it slides, which way, the board it
/// leads to, its distance and the change from the start's.
#[derive(Serialize)]
struct MoveTo {
    #[serde(rename = "move")]
    name: String,
    tile: Option<u8>,
    tiles: Vec<u8>,
    slides: &'static str,
    board: String,
    distance: Option<u32>,
    change: Option<i64>,
}

/// `/api/random`: `random --json`'s object. Drawing scans the table, which
/// on 12-cell boards takes a while: it runs off the async threads. Without
/// `distance`, positions drawn uniformly from every one that reaches the
/// goal, on any board: what a pattern database can offer.
async fn random(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only(
        "/api/random",
        &["board", "metric", "goal", "distance", "count", "seed"],
    )?;
    if let (Some(shape), None) = (p.without_file(&server.boards)?, &p.distance) {
        let (goal, count, seed) = (p.goal(shape)?, p.count()?, p.seed()?);
        return json_ok(&Sample::uniform(&goal, count, seed));
    }
    let db = p.db(&server.boards)?;
    let (shape, metric) = (db.shape(), db.metric());
    let goal = p.goal(shape)?;
    let (distances, count, seed) = (p.distances()?, p.count()?, p.seed()?);
    let Some(distances) = distances else {
        // A goal no table serves is refused before the draw is queued.
        kind::check_goal(db, &goal)?;
        let drawn = searching(&server, (shape, metric), move |db, _| {
            Sample::uniform_for(Some(db), &goal, count, seed).map_err(|e| match e {
                DrawError::Answer(e) => answer_error(e, None, Duration::ZERO),
                e => ApiError::new(Code::Internal, e.to_string()),
            })
        })
        .await?;
        return json_ok(&drawn);
    };
    let (drawn, _) = searching(&server, (shape, metric), move |db, budget| {
        draw(db, &goal, distances, (count, seed), budget)
    })
    .await?;
    json_ok(&drawn)
}

/// `count` positions at `distances` from `goal`, as `random --json` draws
/// them, and on a pattern database (whose walks find them) a shortest
/// solution of each.
fn draw(
    db: &Db,
    goal: &Board,
    distances: std::ops::RangeInclusive<u32>,
    (count, seed): (usize, u64),
    budget: &Budget,
) -> Result<AtDistance, ApiError> {
    let options = kind::options(budget);
    Sample::at_distance(db, goal, distances, (count, seed), &options).map_err(|e| match e {
        DrawError::TimedOut { stopped, found } => {
            let limit = format!(
                "the server's --timeout is {} s",
                budget.timeout.as_secs_f64()
            );
            let found = found.0.positions.len();
            let again = format!("count={found}&seed={seed}");
            let message = draw_stopped(&stopped, &limit, found, &again);
            ApiError::new(Code::TimedOut, message)
        }
        DrawError::Answer(e) => answer_error(e, None, budget.timeout),
        e @ DrawError::Walked(_) => ApiError::new(
            Code::BadParameter,
            draw_fell_short(&e, |found| format!("count={found}&seed={seed}")),
        ),
        e @ DrawError::Listed(SampleError::Damaged) => {
            ApiError::new(Code::DamagedDatabase, e.to_string())
        }
        e => ApiError::new(Code::BadParameter, e.to_string()),
    })
}

/// `/worksheet`: the printable page of `random --worksheet`, for the
/// positions `/api/random` draws with the same parameters; its CSS is
/// `/worksheet.css`. Errors are JSON, as every route's.
async fn worksheet(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only(
        "/worksheet",
        &[
            "board", "metric", "goal", "distance", "count", "seed", "part",
        ],
    )?;
    let part = p.part()?;
    let db = p.db(&server.boards)?;
    let (shape, metric) = (db.shape(), single_tile(db, "a worksheet")?);
    let goal = p.goal(shape)?;
    let distances = p.distances()?.ok_or_else(|| {
        ApiError::new(
            Code::MissingParameter,
            "missing parameter: distance (K, A..=B or A..B)",
        )
    })?;
    let (count, seed) = (p.count()?, p.seed()?);
    let html = searching(&server, (shape, metric), move |db, budget| {
        let (drawn, solutions) = draw(db, &goal, distances, (count, seed), budget)?;
        let sheet = Worksheet::with_key(db, &drawn, solutions)
            .map_err(|e| answer_error(e, None, Duration::ZERO))?;
        Ok(sheet.html(Styles::Linked, part))
    })
    .await?;
    Ok(asset_owned("text/html; charset=utf-8", html))
}

/// `/api/check`: a move list from `start` graded toward `goal`, as
/// Python's `check` grades it; on a pattern board each position the moves
/// pass through is searched, within the server's `--timeout` in all.
async fn check(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/check", &["board", "metric", "start", "goal", "moves"])?;
    let db = p.db(&server.boards)?;
    let (shape, metric) = (db.shape(), db.metric());
    let (start, goal) = (p.start(shape)?, p.goal(shape)?);
    let text = p.moves.as_deref().ok_or_else(|| {
        ApiError::new(
            Code::MissingParameter,
            "missing parameter: moves (the blank's moves, ULDR, or the tiles moved, 6 5 2)",
        )
    })?;
    let steps = read_steps_on(text, shape)
        .map_err(|e| ApiError::new(Code::BadMoves, format!("bad moves: {e}")))?;
    let graded = searching(&server, (shape, metric), move |db, budget| {
        grade_in(db, (&start, &goal), &steps, &kind::options(budget)).map_err(|e| match e {
            e @ AnswerError::Stopped(Stopped::TimedOut { .. }) => ApiError::new(
                Code::TimedOut,
                format!(
                    "{}: {e} (the server's --timeout is {} s); fewer moves, a longer serve \
                         --timeout, or a stronger partition (build-db --partition) may be graded",
                    crate::check::grading_stopped(),
                    budget.timeout.as_secs_f64()
                ),
            ),
            e => answer_error(e, Some((&start, &goal)), budget.timeout),
        })
    })
    .await?;
    json_ok(&graded)
}

/// `/api/heuristics`: `heuristics START --json`, each heuristic's value
/// beside the true distance (a search on a pattern board), or where the
/// search stops at the server's `--timeout`, the bound it proved. Any
/// board up to 6x6 is answered without a file, as `within` is: the
/// distance is searched by IDA* over linear conflicts, which holds only
/// its path, and takes one of the [`fileless_turn`]s. So is a goal the
/// served file has no table for (`analysis::serving`).
async fn heuristics(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/heuristics", &["board", "metric", "start", "goal"])?;
    let (shape, metric) = (p.shape()?, p.metric()?);
    // Refused whether or not a multi-tile file is served: a 404 would send
    // the client to build one.
    if metric == Metric::MultiTile {
        return Err(single_tile_only("the heuristics"));
    }
    let (start, goal) = (p.start(shape)?, p.goal(shape)?);
    let served = server.boards.get(shape, metric);
    let serving = npuzzle::analysis::serving(served, &goal)
        .map_err(|e| answer_error(e, None, Duration::ZERO))?;
    if serving.is_none() {
        let _turn = fileless_turn(&server)?;
        let truth = budgeted(&server, move |budget| {
            kind::truth(None, &start, &goal, budget)
        })
        .await?;
        return json_ok(&PositionEstimates::new(&start, &goal, truth));
    }
    let db = p.db(&server.boards)?;
    let truth = searching(&server, (shape, metric), move |db, budget| {
        kind::truth(Some(db), &start, &goal, budget)
    })
    .await?;
    let position = PositionEstimates::new(&start, &goal, truth)
        .with_patterns(db, &start, &goal)
        .map_err(|e| answer_error(e, Some((&start, &goal)), Duration::ZERO))?;
    json_ok(&position)
}

/// `/api/compare`: `compare START --json`, the textbook searches on one
/// position beside the database's answer: a lookup, or on a pattern board
/// its search; on a board of up to 16 cells served with no file, or toward
/// a goal the file has no table for, IDA* over linear conflicts. With
/// `distance` instead of `start`, `compare --distance K --json`: the
/// searches averaged over `count` positions drawn at each distance with
/// `seed` (complete tables). Each search stops after `max_nodes`
/// expansions; the whole comparison, within the server's `--timeout`,
/// takes one of the [`compare_turn`]s.
async fn compare(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only(
        "/api/compare",
        &[
            "board",
            "metric",
            "start",
            "goal",
            "max_nodes",
            "depth_limit",
            "distance",
            "count",
            "seed",
        ],
    )?;
    let (shape, metric) = (p.shape()?, p.metric()?);
    if metric == Metric::MultiTile {
        return Err(single_tile_only("the textbook searches"));
    }
    let limits = (p.max_nodes()?, p.depth_limit()?);
    let goal = p.goal(shape)?;
    if let Some(distances) = p.distances()? {
        return compare_at_distances(&server, &p, (shape, metric), (&goal, distances), limits)
            .await;
    }
    if let Some(name) = [("count", &p.count), ("seed", &p.seed)]
        .iter()
        .find_map(|(name, given)| given.is_some().then_some(name))
    {
        return Err(ApiError::new(
            Code::BadParameter,
            format!(
                "{name} goes with distance, which averages the searches over positions drawn at \
                 each distance; one start is compared alone"
            ),
        ));
    }
    if p.start.is_none() {
        return Err(ApiError::new(
            Code::MissingParameter,
            "missing parameter: start (a board, such as 867254301), or distance (K, A..=B or \
             A..B) for the searches averaged over positions drawn at each distance",
        ));
    }
    let start = p.start(shape)?;
    // What cannot run is refused as such, even when every turn is taken.
    check_comparable(shape).map_err(|e| compare_error(e, (&start, &goal), server.timeout))?;
    npuzzle::rules::solvability::check(&start, &goal)
        .map_err(|why| unsolvable_error(&why, Some((&start, &goal))))?;
    let _turn = compare_turn(&server)?;
    let served = server.clone();
    let searches = budgeted(&server, move |budget| {
        let db = served.boards.get(shape, metric);
        let pair = (&start, &goal);
        // The truth's search on every core, as the command line's: its
        // nodes are the ones `compare --json` gives.
        compare_served(db, pair, limits.0, limits.1, &kind::options(budget))
            .map_err(|e| compare_error(e, pair, budget.timeout))
    });
    let less = format!(
        "ask with a smaller max_nodes (each search may now expand {} positions; on the page, \
         fewer expansions each search may make), or from a position closer to the goal",
        limits.0
    );
    json_ok(&textbook_in_time(&server, &less, searches).await?)
}

/// `/api/compare` with `distance`: `compare --distance K --json`'s object,
/// the positions searched one after another on the turn's one core.
async fn compare_at_distances(
    server: &Shared,
    p: &Params,
    (shape, metric): (Shape, Metric),
    (goal, distances): (&Board, std::ops::RangeInclusive<u32>),
    (max_nodes, depth_limit): (u64, Option<u32>),
) -> Result<Response, ApiError> {
    if p.start.is_some() {
        return Err(ApiError::new(
            Code::BadParameter,
            "start or distance, not both: distance averages the searches over positions drawn \
             at each distance",
        ));
    }
    // The command line's defaults, not a draw's (one position, a fresh seed).
    let count = match p.count {
        None => COSTS_COUNT,
        Some(_) => p.count()?,
    };
    let seed = match p.seed {
        None => COSTS_SEED,
        Some(_) => p.seed()?,
    };
    // What cannot run is refused as such, even when every turn is taken.
    check_distances(p.db(&server.boards)?, goal, &distances)
        .map_err(|e| compare_error(e, (goal, goal), server.timeout))?;
    let _turn = compare_turn(server)?;
    let goal = *goal;
    let searches = searching(server, (shape, metric), move |db, budget| {
        let one_core = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| ApiError::new(Code::Internal, e.to_string()))?;
        let no_progress = |_: u32| {};
        let searched = (
            &kind::options(budget),
            &no_progress as &(dyn Fn(u32) + Sync),
        );
        let limits = (max_nodes, depth_limit);
        let drawn = (count, seed);
        one_core
            .install(|| search_costs(db, &goal, distances, drawn, limits, searched))
            .map_err(|e| match e {
                // On pattern boards: a walk's search, or a position's.
                CompareError::Lookup(AnswerError::Stopped(stopped @ Stopped::TimedOut { .. })) => {
                    ApiError::new(
                        Code::TimedOut,
                        format!(
                            "the positions at each distance are found by random walks, and \
                             their distances by searches, and one stopped: {stopped} (the \
                             server's --timeout is {} s); ask for fewer positions (count) or \
                             distances, or for distances closer to the goal",
                            budget.timeout.as_secs_f64()
                        ),
                    )
                }
                // No start here: the pair only names an unsolvable one,
                // which positions drawn or walked to never are.
                e => compare_error(e, (&goal, &goal), budget.timeout),
            })
    });
    let less = format!(
        "ask with a smaller max_nodes (each search may now expand {max_nodes} positions), or \
         for fewer positions (count) or distances"
    );
    json_ok(&textbook_in_time(server, &less, searches).await?)
}

/// `searches` within the server's `--timeout`: the search for the truth
/// stops at the deadline, and says where; the textbook searches stop at
/// their expansions, not at a deadline, so a moment past it the request is
/// dropped, and its flag stops them. `less` says how to ask for less work.
async fn textbook_in_time<T>(
    server: &Shared,
    less: &str,
    searches: impl std::future::Future<Output = Result<T, ApiError>>,
) -> Result<T, ApiError> {
    match tokio::time::timeout(server.timeout + TEXTBOOK_GRACE, searches).await {
        Ok(answer) => answer,
        Err(_) => Err(ApiError::new(
            Code::TimedOut,
            format!(
                "the textbook searches ran past the server's --timeout of {} s; {less}",
                server.timeout.as_secs_f64()
            ),
        )),
    }
}

/// How long past the server's `--timeout` the textbook searches may run,
/// so that the search for the truth, stopped at the timeout itself, is the
/// one that answers when it is the slow part.
const TEXTBOOK_GRACE: Duration = Duration::from_millis(250);

/// A comparison's failure as an answer.
fn compare_error(e: CompareError, pair: (&Board, &Board), timeout: Duration) -> ApiError {
    match e {
        CompareError::Lookup(e @ AnswerError::Stopped(Stopped::TimedOut { .. })) => ApiError::new(
            Code::TimedOut,
            format!(
                "the textbook searches are checked against the true distance, and its search \
                 stopped: {e} (the server's --timeout is {} s); a position closer to the goal, \
                 or a longer serve --timeout, may be answered",
                timeout.as_secs_f64()
            ),
        ),
        CompareError::Lookup(e) => answer_error(e, Some(pair), timeout),
        e @ (CompareError::TooLarge(_)
        | CompareError::NeedsSingleTile(_)
        | CompareError::BeyondFarthest { .. }
        | CompareError::Walked(_)) => ApiError::new(Code::BadParameter, e.to_string()),
        e @ CompareError::Sample(SampleError::Damaged) => {
            ApiError::new(Code::DamagedDatabase, e.to_string())
        }
        e @ CompareError::Sample(_) => ApiError::new(Code::BadParameter, e.to_string()),
        e @ CompareError::Cancelled => client_gone(e),
        // A wrong answer, or two boards of different shapes: a bug.
        e => ApiError::new(Code::Internal, e.to_string()),
    }
}

/// The metric of `db`, which `what` needs to be single-tile: the heuristics
/// and a worksheet's drawings count one tile per move.
fn single_tile(db: &Db, what: &str) -> Result<Metric, ApiError> {
    match db.metric() {
        Metric::SingleTile => Ok(Metric::SingleTile),
        Metric::MultiTile => Err(single_tile_only(what)),
    }
}

/// The refusal of `what` in multi-tile moves.
fn single_tile_only(what: &str) -> ApiError {
    ApiError::new(
        Code::BadParameter,
        format!("{what}: single-tile moves only; ask with metric=stm"),
    )
}

/// `/api/histogram`: `histogram --json`'s object, from the header.
async fn histogram(State(server): State<Shared>, p: Params) -> Result<Response, ApiError> {
    p.only("/api/histogram", &["board", "metric", "goal"])?;
    let db = p.db(&server.boards)?;
    let goal = p.goal(db.shape())?;
    let db = kind::complete(db, "counting positions at each distance")?;
    let target = db
        .goal_table(&goal)
        .map_err(|e| answer_error(e, None, Duration::ZERO))?;
    json_ok(&Histogram::of(&target))
}

/// Any other path: a 404 in JSON.
async fn not_found(request: Request) -> Response {
    let method = request.method().clone();
    // No page is answered but by GET: another method is what is refused,
    // whatever it names (`OPTIONS *`, `CONNECT host:port` name no page).
    if method != Method::GET && method != Method::HEAD {
        let mut refused = method_not_allowed(method).await.into_response();
        let allow = HeaderValue::from_static("GET,HEAD");
        refused.headers_mut().insert(header::ALLOW, allow);
        return refused;
    }
    let path: String = request.uri().path().chars().take(100).collect();
    ApiError::new(Code::NoSuchRoute, format!("no such page: {path}")).into_response()
}
