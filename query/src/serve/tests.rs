//! The server in-process on a free loopback port, spoken to over raw TCP:
//! every route, every error status, answers equal to the library's and to
//! the command line's `--json`, and hostile requests; on complete tables
//! and on pattern databases (a 3x3 `4-4` file, checked against the complete
//! 3x3 table, and a 4x4 `6-6-3` file).

use super::boards::{Boards, Served};
use super::conn::MAX_HEAD;
use super::hosts::Hosts;
use super::origins::Origins;
use super::{discover, router, serve, Limits, Stopping};
use clap::Parser;
use npuzzle::pattern::Partition;
use npuzzle::{Board, Database, Move, Shape};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

mod classroom;
mod compare;

/// Databases built once for all tests: 2x3 and 3x3 complete, a 2x3
/// with only the table of its last cell (so that goals with the blank in
/// the middle of a row have no table), and a 3x3 pattern database of
/// partition `4-4` for the default goal, as `build-db --board 3x3
/// --partition 4-4` writes it. The 4x4 file is [`pattern_4x4`].
struct Files {
    _dir: tempfile::TempDir,
    full_2x3: PathBuf,
    full_3x3: PathBuf,
    partial_2x3: PathBuf,
    pattern_3x3: PathBuf,
}

fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let build = |name: &str, size: &str, blanks: &[usize]| {
            let shape: Shape = size.parse().unwrap();
            let path = dir.path().join(name);
            let plan = npuzzle::Plan::Complete {
                shape,
                metric: npuzzle::Metric::SingleTile,
                blanks: blanks.to_vec(),
                paths: true,
            };
            npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
            path
        };
        Files {
            full_2x3: build("2x3.db", "2x3", &[0, 1, 2, 3, 4, 5]),
            full_3x3: build(
                "3x3.db",
                "3x3",
                &npuzzle::tables::default_blanks(Shape::THREE_BY_THREE),
            ),
            partial_2x3: build("partial-2x3.db", "2x3", &[5]),
            pattern_3x3: build_patterns(&dir.path().join("pattern-3x3.db"), "3x3", "4-4"),
            _dir: dir,
        }
    })
}

/// Builds the pattern database of `partition` for `size` boards at `path`,
/// for the default goal.
fn build_patterns(path: &Path, size: &str, partition: &str) -> PathBuf {
    let shape = size.parse::<Shape>().unwrap();
    let plan = npuzzle::Plan::Patterns {
        partition: Partition::named(shape, partition).unwrap(),
        goal_blanks: vec![shape.cells() - 1],
    };
    npuzzle::build(path, &plan, &|_, _| {}).unwrap();
    path.to_path_buf()
}

/// The 4x4 `6-6-3` pattern database, built once for all tests (seconds in
/// release, longer in a debug build), beside [`files`]; only the tests that
/// need it wait for it.
fn pattern_4x4() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let path = files()._dir.path().join("4x4-6-6-3.db");
        build_patterns(&path, "4x4", "6-6-3")
    })
}

fn open(path: &Path) -> Served {
    let db = Database::open(path).unwrap();
    Served {
        shape: db.shape(),
        db,
        path: path.to_path_buf(),
    }
}

/// A server on a free port, stopped when dropped.
struct TestServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap();
    }
}

fn limits() -> Limits {
    Limits {
        header_read: Duration::from_millis(400),
        shutdown_grace: Duration::from_millis(200),
    }
}

/// How long a request may search in most tests: far more than any of
/// their searches takes, even in a debug build.
const TIMEOUT: Duration = Duration::from_secs(60);

fn start(paths: &[&Path]) -> TestServer {
    start_with(paths, TIMEOUT)
}

/// A server over `paths`, whose searches stop after `timeout`, and which
/// answers every request within 5 s more.
fn start_with(paths: &[&Path], timeout: Duration) -> TestServer {
    start_answering_within(paths, timeout, timeout + Duration::from_secs(5))
}

/// A server over `paths`, whose searches stop after `timeout`, and which
/// answers 408 to a request not answered within `answer_within`.
fn start_answering_within(
    paths: &[&Path],
    timeout: Duration,
    answer_within: Duration,
) -> TestServer {
    let boards = Boards::new(paths.iter().map(|p| open(p)).collect(), None, None);
    serve_boards(boards, timeout, answer_within)
}

/// A server over `boards`, as [`start_answering_within`].
/// A server of `boards` that answers requests for any host (the tests
/// name one freely), as one listening beyond loopback does.
fn serve_boards(boards: Boards, timeout: Duration, answer_within: Duration) -> TestServer {
    serve_app(
        boards,
        timeout,
        answer_within,
        (Hosts::Any, Origins::default()),
    )
}

fn serve_app(
    boards: Boards,
    timeout: Duration,
    answer_within: Duration,
    access: (Hosts, Origins),
) -> TestServer {
    serve_app_limited(boards, (timeout, answer_within), access, limits())
}

/// A server as [`serve_app`], with its own `limits`.
fn serve_app_limited(
    boards: Boards,
    (timeout, answer_within): (Duration, Duration),
    access: (Hosts, Origins),
    limits: Limits,
) -> TestServer {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let stopping = Stopping::new();
            let router = router(boards, timeout, answer_within, access, stopping.clone());
            serve((listener, None), router, limits, async move {
                let _ = stopped.await;
                stopping.stop();
            })
            .await;
        });
    });
    TestServer {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    }
}

fn full() -> TestServer {
    let f = files();
    start(&[&f.full_2x3, &f.full_3x3])
}

/// The 3x3 complete file and the 4x4 pattern file.
fn with_4x4() -> TestServer {
    start(&[&files().full_3x3, pattern_4x4()])
}

/// A new connection to the server, on which a read gives up after 10 s.
fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Sends raw bytes on a new connection and reads until the server closes
/// it. The server may answer and close before it has read all of a hostile
/// request, so a failed write is left for the answer to explain.
fn exchange(addr: SocketAddr, request: &[u8]) -> Vec<u8> {
    let mut stream = connect(addr);
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    answer
}

/// A request for `path` by `method`, asking the server to close after it.
fn request(method: &str, path: &str) -> Vec<u8> {
    format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").into_bytes()
}

/// Sends raw bytes, reads the whole answer (the server closes after
/// `connection: close`), returns the status and the body.
fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    parse_answer(&exchange(addr, request))
}

fn parse_answer(answer: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(answer);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let (status, body) = raw(addr, &request("GET", path));
    let value =
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body:?}"));
    if status != 200 {
        assert_code(status, &value, path);
    }
    (status, value)
}

/// An error answer's `code` is one of the guide's, of the answer's status.
fn assert_code(status: u16, v: &serde_json::Value, what: &str) -> super::code::Code {
    let name = v["code"].as_str();
    let name = name.unwrap_or_else(|| panic!("{what}: no code in {v}"));
    let code = super::code::Code::ALL
        .into_iter()
        .find(|c| c.name() == name);
    let code = code.unwrap_or_else(|| panic!("{what}: the code {name:?} is none of the guide's"));
    assert_eq!(code.status().as_u16(), status, "{what}: {v}");
    code
}

/// Each cause of an error has its own code, whatever its status shares
/// with others.
#[test]
fn each_cause_of_an_error_has_its_code() {
    use super::code::Code;
    let f = files();
    let server = start(&[&f.partial_2x3, &f.full_3x3]);
    let cases = [
        ("/api/solve?start=12345678", Code::BadBoard),
        ("/api/solve?start=123456780&goal=1", Code::BadBoard),
        ("/api/check?start=867254301&moves=UX", Code::BadMoves),
        ("/api/solve?board=nonsense&start=1", Code::BadParameter),
        ("/api/random?distance=20&count=0", Code::BadParameter),
        ("/api/solve?start=867254301&within=0.5", Code::BadParameter),
        ("/api/solve", Code::MissingParameter),
        ("/api/check?start=867254301", Code::MissingParameter),
        ("/api/solve?start=867254301&bogus=1", Code::UnknownParameter),
        ("/api/solve?start=1&start=1", Code::UnknownParameter),
        ("/api/solve?board=3x4&start=1", Code::BoardNotServed),
        (
            "/api/solve?metric=mtm&start=867254301",
            Code::BoardNotServed,
        ),
        ("/api/histogram?board=2x3&goal=102345", Code::NoTableForGoal),
        (
            "/api/solve?board=2x3&start=123450&goal=102345",
            Code::NoTableForGoal,
        ),
        ("/nothing/here", Code::NoSuchRoute),
        ("/api/solve?start=213456780", Code::Unsolvable),
        (
            &*format!("/api/solve?start={}", "1".repeat(3000)),
            Code::QueryTooLong,
        ),
    ];
    for (path, code) in cases {
        let (status, v) = get(server.addr, path);
        assert_eq!(v["code"], code.name(), "{path}: {v}");
        assert_eq!(status, code.status().as_u16(), "{path}");
    }
    let patterns = start(&[&f.pattern_3x3]);
    let (_, v) = get(patterns.addr, "/api/histogram");
    assert_eq!(v["code"], "needs_complete_tables", "{v}");
    let (_, v) = get(patterns.addr, "/api/solve?start=867254301&goal=123405678");
    assert_eq!(v["code"], "no_table_for_goal", "{v}");
    // Refused before any route: the method, the head.
    for (request, code) in [
        (request("POST", "/api/boards"), Code::MethodNotAllowed),
        (b"GET /api/boards HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(), Code::BadRequest),
        (b"GARBAGE\r\n\r\n".to_vec(), Code::BadRequest),
        (format!("GET /api/boards HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n", "a".repeat(40_000)).into_bytes(), Code::HeadTooLarge),
        (b"GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nConnection: close\r\n\r\nxx".to_vec(), Code::BodyTooLarge),
    ] {
        let (status, body) = raw(server.addr, &request);
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(assert_code(status, &v, &body), code, "{body}");
    }
}

/// What `query --db PATH ARGS…` prints, run in-process.
fn cli_json(path: &Path, args: &[&str]) -> serde_json::Value {
    let mut argv = vec!["query", "--db", path.to_str().unwrap()];
    argv.extend_from_slice(args);
    let cli = crate::Cli::try_parse_from(argv).unwrap();
    let mut out = Vec::new();
    let db = Database::open(path).unwrap();
    match &cli.command {
        crate::Command::Solve(a) => match a.within {
            Some(w) => crate::within::run(Some(&db), db.shape(), a, w, &mut out),
            None => crate::solve::solve(&db, a, &mut out),
        },
        crate::Command::Distance(a) => crate::solve::distance(&db, a, &mut out),
        crate::Command::Random(a) => crate::random::run(&db, a, &mut out),
        crate::Command::Histogram(a) => crate::histogram::run(db.complete().unwrap(), a, &mut out),
        crate::Command::Heuristics(a) => crate::heuristics::run(&db, a, &mut out),
        crate::Command::Check(a) => crate::check::run(&db, a, &mut out),
        crate::Command::Compare(a) => crate::compare::run(Some(&db), db.shape(), a, &mut out),
        _ => unreachable!(),
    }
    .unwrap();
    serde_json::from_slice(&out).unwrap()
}

fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn answers_equal_the_command_lines_json() {
    let server = full();
    let f = files();
    for start in [
        "867254301",
        "123456780",
        "8 6 7 / 2 5 4 / 3 0 1",
        "[[1,2,3],[4,5,6],[0,7,8]]",
    ] {
        for route in ["solve", "distance"] {
            let (status, api) = get(server.addr, &format!("/api/{route}?start={}", enc(start)));
            assert_eq!(status, 200, "{route} {start}");
            assert_eq!(
                api,
                cli_json(&f.full_3x3, &[route, "--json", start]),
                "{route} {start}"
            );
        }
    }
    let goal = "123405678";
    let (status, api) = get(
        server.addr,
        &format!("/api/solve?start=867254301&goal={goal}"),
    );
    assert_eq!(status, 200);
    assert_eq!(
        api,
        cli_json(
            &f.full_3x3,
            &["solve", "--json", "867254301", "--goal", goal]
        )
    );

    // Spaces around a number, as the command line takes them in a flag.
    let (_, api) = get(server.addr, "/api/random?distance=20&count=%205&seed=7%20");
    assert_eq!(
        api,
        cli_json(
            &f.full_3x3,
            &[
                "random",
                "--json",
                "--distance",
                "20",
                "--count",
                "5",
                "--seed",
                "7"
            ]
        )
    );
    let (_, api) = get(
        server.addr,
        "/api/random?board=2x3&distance=3..%3D5&seed=1&goal=123045",
    );
    assert_eq!(
        api,
        cli_json(
            &f.full_2x3,
            &[
                "--board",
                "2x3",
                "random",
                "--json",
                "--distance",
                "3..=5",
                "--seed",
                "1",
                "--goal",
                "123045"
            ]
        )
    );

    for moves in ["ULDR", "RUULDDRUULDLDRRULLURRDLLDRUURDD", "LDD", "5 8"] {
        let (_, api) = get(
            server.addr,
            &format!("/api/check?start=867254301&moves={}", enc(moves)),
        );
        assert_eq!(
            api,
            cli_json(&f.full_3x3, &["check", "--json", "867254301", moves]),
            "{moves}"
        );
    }

    let (_, api) = get(server.addr, "/api/histogram");
    assert_eq!(api, cli_json(&f.full_3x3, &["histogram", "--json"]));
    let (_, api) = get(server.addr, "/api/histogram?board=2x3&goal=102345");
    assert_eq!(
        api,
        cli_json(&f.full_2x3, &["histogram", "--json", "--goal", "102345"])
    );
}

#[test]
fn an_unsolvable_answer_is_the_command_lines_with_an_error() {
    let server = full();
    // The 422's body is `solve --json`'s answer, with the reason also as
    // its error, and its code.
    let (status, mut api) = get(server.addr, "/api/solve?start=213456780");
    assert_eq!(status, 422);
    let error = api.as_object_mut().unwrap().remove("error").unwrap();
    let code = api.as_object_mut().unwrap().remove("code").unwrap();
    let cli = cli_json(&files().full_3x3, &["solve", "--json", "213456780"]);
    assert_eq!(api, cli);
    assert_eq!(error, api["reason"]);
    assert_eq!(code, "unsolvable");
    // In the command line's order too, the error and code after its fields.
    let answer = exchange(server.addr, &request("GET", "/api/solve?start=213456780"));
    let body = parse_answer(&answer).1;
    let printed = serde_json::to_string(&cli).unwrap();
    let fields = printed.strip_suffix('}').unwrap();
    assert!(body.starts_with(&format!("{fields},\"error\":")), "{body}");
    assert!(body.ends_with(",\"code\":\"unsolvable\"}"), "{body}");
}

#[test]
fn moves_and_solutions_agree_with_the_library() {
    let server = full();
    let db = Database::open(&files().full_3x3).unwrap();
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = db.goal_table(&goal).unwrap();
    for start in ["867254301", "123456708", "123456780", "647850321"] {
        let board = npuzzle::parse_board(start, Shape::THREE_BY_THREE).unwrap();
        let (status, v) = get(server.addr, &format!("/api/moves?start={start}"));
        assert_eq!(status, 200);
        let d = target.distance(&board).unwrap();
        assert_eq!(v["distance"], d);
        assert_eq!(v["start"], start);
        let legal: Vec<Move> = Move::ALL
            .into_iter()
            .filter(|&m| board.apply(m).is_some())
            .collect();
        let listed = v["moves"].as_array().unwrap();
        assert_eq!(listed.len(), legal.len());
        for (m, entry) in legal.iter().zip(listed) {
            let next = board.apply(*m).unwrap();
            let after = target.distance(&next).unwrap();
            assert_eq!(entry["move"], m.letter().to_string());
            assert_eq!(entry["board"], next.to_string());
            assert_eq!(entry["distance"], after);
            assert_eq!(entry["change"], after as i64 - d as i64);
            assert_eq!(entry["tile"], board.tile_moved_by(*m).unwrap());
        }
        let (_, v) = get(server.addr, &format!("/api/solve?start={start}"));
        let moves: Vec<Move> = v["moves"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| Move::from_letter(c).unwrap())
            .collect();
        assert_eq!(moves.len() as u32, d);
        assert_eq!(board.replay(&moves), Some(goal));
    }
    let (status, v) = get(server.addr, "/api/boards");
    assert_eq!(status, 200);
    assert_eq!(v["default"], "3x3");
    let names: Vec<&str> = v["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["2x3", "3x3"]);
    assert_eq!(v["boards"][1]["max_distance"], 31);
    assert_eq!(v["boards"][1]["goal"], "123456780");
}

/// `within=W` answers as `solve --within W --json` does, through complete
/// tables (linear conflicts guide it) and pattern tables alike.
#[test]
fn within_answers_as_the_command_line_does() {
    let f = files();
    for path in [&f.full_3x3, &f.pattern_3x3] {
        let server = start(&[path]);
        for (start, goal) in [("867254301", "123456780"), ("647850321", "012345678")] {
            let query = format!("/api/solve?start={start}&goal={goal}&within=1.2");
            let (status, api) = get(server.addr, &query);
            assert_eq!(status, 200, "{query}");
            let args = ["solve", "--within", "1.2", "--json", start, "--goal", goal];
            assert_eq!(api, cli_json(path, &args), "{query}");
            let (length, bound) = (api["length"].as_u64(), api["lower_bound"].as_u64());
            assert!(bound <= length && length.unwrap() as f64 <= 1.2 * bound.unwrap() as f64);
        }
    }
}

/// `within=W` on a board no file is served for answers as `query --board
/// RxC solve --within W --json` does with no file (linear conflicts), on
/// boards that have no database at all (6x6) and on those that could
/// (4x4); what needs a file says whether one can be built.
#[test]
fn within_answers_boards_with_no_file_served() {
    let f = files();
    let server = start(&[&f.full_3x3]);
    let six: Vec<String> = (1..35).chain([0, 35]).map(|t| t.to_string()).collect();
    let fifteen = "5 1 3 4 2 0 7 8 9 6 10 12 13 14 11 15";
    for (board, start) in [("6x6", six.join(" ")), ("4x4", fifteen.to_string())] {
        let query = format!(
            "/api/solve?board={board}&within=2&start={}",
            start.replace(' ', "%20")
        );
        let (status, api) = get(server.addr, &query);
        assert_eq!(status, 200, "{query}: {api}");
        let argv = [
            "query", "--board", board, "solve", "--within", "2", "--json", &start,
        ];
        let cli = crate::Cli::try_parse_from(argv).unwrap();
        let crate::Command::Solve(args) = &cli.command else {
            unreachable!()
        };
        let mut out = Vec::new();
        let shape = board.parse().unwrap();
        crate::within::run(None, shape, args, args.within.unwrap(), &mut out).unwrap();
        assert_eq!(
            api,
            serde_json::from_slice::<serde_json::Value>(&out).unwrap()
        );
        assert_eq!(api["heuristic"], "linear-conflict");
    }
    let (status, api) = get(
        server.addr,
        &format!("/api/solve?board=6x6&start={}", six.join("%20")),
    );
    assert_eq!(status, 404);
    let message = api["error"].as_str().unwrap();
    assert!(
        message.contains("no database can be built for 6x6 boards"),
        "{message}"
    );
    let (_, api) = get(server.addr, "/api/solve?board=4x4&start=1");
    assert!(api["error"]
        .as_str()
        .unwrap()
        .contains("build one with build-db --board 4x4"));
    // /api/distance takes no within, and says so, as `query distance` does.
    let (status, api) = get(server.addr, "/api/distance?start=867254301&within=1.5");
    assert_eq!(
        (status, &api["error"]),
        (
            400,
            &serde_json::json!(
                "/api/distance takes no within: it reads board, metric, start, goal"
            )
        ),
        "{api}"
    );
    assert!(api.get("lower_bound").is_none(), "{api}");
}

/// `serve --board 6x6`: a board no database can be built for, served with
/// none. It is listed (kind `none`, every goal blank) and opened first;
/// moves know no distance but near the goal; random positions are drawn
/// uniformly; solutions come within a factor; the rest needs a file.
#[test]
fn a_board_with_no_file_is_served_within_a_factor() {
    let six: Shape = "6x6".parse().unwrap();
    let boards = Boards::new(vec![open(&files().full_3x3)], Some(six), None);
    let server = serve_boards(boards, TIMEOUT, TIMEOUT + Duration::from_secs(5));
    let (status, served) = get(server.addr, "/api/boards");
    assert_eq!(
        (status, &served["default"]),
        (200, &serde_json::json!("6x6"))
    );
    let entry = served["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["board"] == "6x6")
        .unwrap_or_else(|| panic!("{served}"));
    assert_eq!(entry["kind"], "none", "{entry}");
    assert_eq!(entry["metrics"], serde_json::json!(["stm"]), "{entry}");
    assert!(entry["positions"].is_null() && entry["max_distance"].is_null());
    assert_eq!(entry["blanks"].as_array().unwrap().len(), 36, "{entry}");

    // Near the goal, distances are known with no file: one move away, the
    // move back leads to 0 and the others to 2; at the goal every move leads
    // to 1; two moves away only the moves to a neighbour of the goal (1).
    let goal = Board::goal(six);
    let (back, near) = goal.successors().next().unwrap();
    let moves_from = |board: &Board| {
        let (status, v) = get(
            server.addr,
            &format!("/api/moves?board=6x6&start={}", enc(&board.to_string())),
        );
        assert_eq!(status, 200, "{v}");
        v
    };
    let v = moves_from(&near);
    assert_eq!(v["distance"], 1, "{v}");
    for m in v["moves"].as_array().unwrap() {
        let home = m["move"] == back.opposite().letter().to_string();
        let (distance, change) = if home { (0, -1) } else { (2, 1) };
        assert_eq!(
            (&m["distance"], &m["change"]),
            (&distance.into(), &change.into()),
            "{m}"
        );
    }
    let v = moves_from(&goal);
    assert_eq!(v["distance"], 0, "{v}");
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(
            (&m["distance"], &m["change"]),
            (&1.into(), &1.into()),
            "{m}"
        );
    }
    let (_, far) = near
        .successors()
        .find(|(_, b)| *b != goal && !goal.successors().any(|(_, n)| n == *b))
        .unwrap();
    let v = moves_from(&far);
    assert!(v["distance"].is_null(), "{v}");
    for m in v["moves"].as_array().unwrap() {
        let next = npuzzle::parse_board(m["board"].as_str().unwrap(), six).unwrap();
        let beside_goal = goal.successors().any(|(_, n)| n == next);
        let expected = if beside_goal {
            serde_json::json!(1)
        } else {
            serde_json::Value::Null
        };
        assert_eq!(m["distance"], expected, "{m}");
        assert!(m["change"].is_null(), "{m}");
    }
    let mut swapped: Vec<u8> = goal.cells().to_vec();
    swapped.swap(0, 1);
    let swapped: Vec<String> = swapped.iter().map(|t| t.to_string()).collect();
    let (status, v) = get(
        server.addr,
        &format!("/api/moves?board=6x6&start={}", swapped.join("%20")),
    );
    assert_eq!(status, 422, "{v}");

    let (status, v) = get(server.addr, "/api/random?board=6x6&count=5&seed=3");
    assert_eq!(status, 200, "{v}");
    for p in v["positions"].as_array().unwrap() {
        let board = npuzzle::parse_board(p["start"].as_str().unwrap(), six).unwrap();
        npuzzle::rules::solvability::check(&board, &goal).unwrap();
    }
    let query = format!(
        "/api/solve?board=6x6&within=2&start={}",
        enc(&near.to_string())
    );
    let (status, v) = get(server.addr, &query);
    assert_eq!((status, &v["length"]), (200, &serde_json::json!(1)), "{v}");
    // What needs a file says so; the 3x3 file is served as before.
    for route in ["solve", "distance", "histogram", "random"] {
        let asked = match route {
            "random" => "distance=3".to_string(),
            "histogram" => "goal=".to_string() + &enc(&goal.to_string()),
            _ => format!("start={}", enc(&near.to_string())),
        };
        let query = format!("/api/{route}?board=6x6&{asked}");
        let (status, v) = get(server.addr, &query);
        assert_eq!(status, 404, "{route}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains("6x6 is served with no database"), "{error}");
        assert!(
            error.contains("no database can be built for 6x6"),
            "{error}"
        );
    }
    assert_eq!(get(server.addr, "/api/solve?start=867254301").0, 200);
}

/// One position's heuristics need no file: its distance is searched over
/// linear conflicts, as `query --board 6x6 heuristics START` searches it;
/// where the server's `--timeout` stops that search, the values come
/// beside the bound it proved.
#[test]
fn heuristics_with_no_file_search_the_distance_or_give_a_bound() {
    let server = start_with(&[&files().full_3x3], Duration::from_secs(1));
    let shape: Shape = "6x6".parse().unwrap();
    let goal = Board::goal(shape);
    let near = walk(&goal, 8, 2);
    let (status, v) = get(
        server.addr,
        &format!("/api/heuristics?board=6x6&start={}", enc(&near.to_string())),
    );
    assert_eq!(status, 200, "{v}");
    let argv = [
        "query",
        "--board",
        "6x6",
        "heuristics",
        &near.to_string(),
        "--json",
    ];
    let crate::Command::Heuristics(args) = crate::Cli::try_parse_from(argv).unwrap().command else {
        unreachable!("parsed as heuristics")
    };
    let mut out = Vec::new();
    crate::heuristics::without_file(shape, &args, &mut out).unwrap();
    assert_eq!(
        v,
        serde_json::from_slice::<serde_json::Value>(&out).unwrap()
    );
    assert!(v["distance"].as_u64().unwrap() <= 8, "{v}");

    let far = walked_6x6(300);
    let (status, v) = get(
        server.addr,
        &format!("/api/heuristics?board=6x6&start={}", enc(&far.to_string())),
    );
    assert_eq!(status, 200, "{v}");
    assert!(v["distance"].is_null(), "{v}");
    let linear_conflict = v["heuristics"][2]["h"].as_u64().unwrap();
    assert!(v["lower_bound"].as_u64().unwrap() >= linear_conflict, "{v}");
    assert_eq!(v["heuristics"][2]["admissible_here"], true);
}

/// Searches within a factor run two at a time (one on a machine of one
/// core): past that, a request is answered 503 at once, and a turn is free
/// again once a search answers.
#[test]
fn within_searches_past_two_at_once_are_answered_busy() {
    let server = start_with(&[&files().full_3x3], Duration::from_secs(2));
    // A 6x6 position 300 moves out: an optimal search (W = 1) runs out of
    // time on it, holding its turn for the whole 2 s.
    let shape: Shape = "6x6".parse().unwrap();
    let far = walked_6x6(300);
    let query = format!(
        "/api/solve?board=6x6&within=1&start={}",
        enc(&far.to_string())
    );
    let turns = super::api::within_searches();
    let statuses: Vec<(u16, String)> = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..=turns)
            .map(|_| scope.spawn(|| get(server.addr, &query)))
            .collect();
        asked
            .into_iter()
            .map(|a| {
                let (status, v) = a.join().unwrap();
                (status, v["error"].as_str().unwrap_or("").to_string())
            })
            .collect()
    });
    let busy = statuses
        .iter()
        .filter(|(_, e)| e.contains("the server is busy"))
        .count();
    assert!(busy >= 1, "{statuses:?}");
    // The others ran out of time, and W = 1 can grow.
    let advice = "a larger within, or a longer serve --timeout, may find one";
    assert!(
        statuses.iter().any(|(_, e)| e.contains(advice)),
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|(status, _)| *status == 503),
        "{statuses:?}"
    );
    let near = Board::goal(shape).successors().next().unwrap().1;
    let query = format!(
        "/api/solve?board=6x6&within=2&start={}",
        enc(&near.to_string())
    );
    let (status, v) = get(server.addr, &query);
    assert_eq!((status, &v["length"]), (200, &serde_json::json!(1)), "{v}");
}

/// A busy server says when to ask again; a search past its time, which
/// would stop the same way again, does not.
#[test]
fn a_busy_answer_says_when_to_ask_again() {
    use axum::response::IntoResponse;
    let busy = super::error::ApiError::busy("the server is busy".into()).into_response();
    assert_eq!(busy.status(), 503);
    assert_eq!(busy.headers()["retry-after"], "1");
    let late = super::error::ApiError::new(super::code::Code::TimedOut, "late");
    assert!(late.into_response().headers().get("retry-after").is_none());
}

/// One position's heuristics with no file search on a core each: past
/// one a core at once, a request is answered 503 at once; the others give
/// the bound they proved by the timeout.
#[test]
fn searches_with_no_file_past_one_a_core_are_answered_busy() {
    let server = start_with(&[&files().full_3x3], Duration::from_secs(2));
    let query = format!(
        "/api/heuristics?board=6x6&start={}",
        enc(&walked_6x6(300).to_string())
    );
    let turns = super::api::fileless_searches();
    let answers: Vec<(u16, serde_json::Value)> = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..=turns)
            .map(|_| scope.spawn(|| get(server.addr, &query)))
            .collect();
        asked.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let busy = answers
        .iter()
        .filter(|(status, v)| *status == 503 && str_of(&v["error"]).contains("the server is busy"))
        .count();
    assert!(busy >= 1, "{answers:?}");
    let bounds = answers
        .iter()
        .filter(|(status, v)| {
            *status == 200 && v["distance"].is_null() && v["lower_bound"].as_u64() > Some(0)
        })
        .count();
    assert_eq!(busy + bounds, turns + 1, "{answers:?}");
    // A turn is free again once a search answers.
    let near = format!(
        "/api/heuristics?board=6x6&start={}",
        enc(&walked_6x6(1).to_string())
    );
    let (status, v) = get(server.addr, &near);
    assert_eq!(
        (status, &v["distance"]),
        (200, &serde_json::json!(1)),
        "{v}"
    );
}

/// A 6x6 position `steps` random moves from the goal.
fn walked_6x6(steps: usize) -> Board {
    let shape: Shape = "6x6".parse().unwrap();
    let (mut far, mut seed) = (Board::goal(shape), 7u64);
    for _ in 0..steps {
        let next: Vec<Board> = far.successors().map(|(_, b)| b).collect();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        far = next[(seed >> 33) as usize % next.len()];
    }
    far
}

/// A client that goes away stops its search: the searches of clients
/// that closed their connections give back their turns long before the
/// server's timeout, and one that only closes its sending side is told
/// that the server took it for gone.
#[test]
fn a_search_stops_when_its_client_goes() {
    let server = start_with(&[&files().full_3x3, pattern_4x4()], Duration::from_secs(60));
    // Searches that hold a turn for the whole minute, unless stopped.
    let query = format!(
        "/api/solve?board=6x6&within=1&start={}",
        enc(&walked_6x6(300).to_string())
    );
    for _ in 0..super::api::within_searches() {
        let mut leaving = connect(server.addr);
        leaving.write_all(&request("GET", &query)).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        drop(leaving);
    }
    let near = walked_6x6(1);
    let query = format!(
        "/api/solve?board=6x6&within=2&start={}",
        enc(&near.to_string())
    );
    let began = std::time::Instant::now();
    loop {
        let (status, v) = get(server.addr, &query);
        if status == 200 {
            break;
        }
        assert!(str_of(&v["error"]).contains("the server is busy"), "{v}");
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "turns still held: {v}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Closing only the sending side looks the same to the server, but a
    // search shorter than a second is still answered.
    let near = walk(&Board::goal("4x4".parse().unwrap()), 6, 3);
    let path = format!("/api/solve?board=4x4&start={}", enc(&near.to_string()));
    let mut closing = connect(server.addr);
    closing.write_all(&request("GET", &path)).unwrap();
    closing.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    let _ = closing.read_to_end(&mut answer);
    assert_eq!(
        parse_answer(&answer).0,
        200,
        "{}",
        String::from_utf8_lossy(&answer)
    );
    let mut closing = connect(server.addr);
    let path = format!("/api/solve?{}", far_4x4());
    closing.write_all(&request("GET", &path)).unwrap();
    closing.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    let _ = closing.read_to_end(&mut answer);
    assert_eq!(parse_answer(&answer).0, 503);
    let error = json_error(&answer, "a half-closed search");
    assert!(
        error.contains("the client closed its side of the connection"),
        "{error}"
    );
    assert!(began.elapsed() < Duration::from_secs(20));
}

/// Stopping the server (Ctrl-C) stops the searches under way at once, and
/// tells their clients why, where they used to get no answer at all once
/// the connections' grace ran out, and the server waited for the searches.
#[test]
fn stopping_the_server_stops_its_searches_and_says_so() {
    let boards = Boards::new(vec![open(&files().full_3x3)], None, None);
    let minute = Duration::from_secs(60);
    let grace = Limits {
        shutdown_grace: Duration::from_secs(5),
        ..limits()
    };
    let server = serve_app_limited(
        boards,
        (minute, minute),
        (Hosts::Any, Origins::default()),
        grace,
    );
    // A search that holds its turn for the whole minute, unless stopped.
    let query = format!(
        "/api/solve?board=6x6&within=1&start={}",
        enc(&walked_6x6(300).to_string())
    );
    let addr = server.addr;
    let asked = std::thread::spawn(move || get(addr, &query));
    // Time for the request to reach its search, even on a busy machine: a
    // request not yet read when the server stops gets no answer.
    std::thread::sleep(Duration::from_millis(1500));
    let began = std::time::Instant::now();
    drop(server);
    let stopped_in = began.elapsed();
    let (status, v) = asked.join().unwrap();
    assert_eq!((status, &v["code"]), (503, &"stopping".into()), "{v}");
    assert!(
        str_of(&v["error"]).contains("the server is stopping"),
        "{v}"
    );
    assert!(stopped_in < Duration::from_secs(4), "{stopped_in:?}");
}

/// On loopback, a request naming another host (a page elsewhere that
/// pointed its name here) is refused with a 403 in JSON, while the names
/// of this machine, and no name at all, are answered.
#[test]
fn on_loopback_only_requests_for_this_machine_are_answered() {
    let boards = discover(&[files().full_3x3.clone()], None).unwrap();
    let long = Duration::from_secs(60);
    let server = serve_app(boards, long, long, (Hosts::Loopback, Origins::default()));
    let ask = |head: &str| {
        let request = format!("GET /api/distance?start=867254301 {head}\r\n\r\n");
        parse_answer(&exchange(server.addr, request.as_bytes()))
    };
    for host in ["127.0.0.1:8080", "localhost", "[::1]:9000"] {
        let (status, body) = ask(&format!("HTTP/1.1\r\nHost: {host}\r\nConnection: close"));
        assert_eq!(status, 200, "{host}: {body}");
        assert!(body.contains("\"distance\":31"), "{host}: {body}");
    }
    assert_eq!(ask("HTTP/1.0").0, 200);
    let (status, body) = ask("HTTP/1.1\r\nHost: evil.example:8080\r\nConnection: close");
    assert_eq!(status, 403, "{body}");
    assert!(body.ends_with(",\"code\":\"foreign_host\"}"), "{body}");
    assert!(
        body.contains("not for Host \\\"evil.example:8080\\\""),
        "{body}"
    );
    // A host that cannot be known is a 400 (RFC 9112), whichever comes first.
    for head in [
        "HTTP/1.1\r\nConnection: close",
        "HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close",
        "HTTP/1.1\r\nHost: evil.example\r\nHost: localhost\r\nConnection: close",
    ] {
        let (status, body) = ask(head);
        assert_eq!(status, 400, "{head:?}: {body}");
        assert!(body.contains("Host"), "{body}");
    }
    // A request line that gives a whole URL names its host there.
    let whole = |url: &str| {
        let request = format!("GET {url}/api/distance?start=867254301 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        parse_answer(&exchange(server.addr, request.as_bytes())).0
    };
    assert_eq!(whole("http://evil.example"), 403);
    assert_eq!(whole("http://localhost:8080"), 200);
    // Even then HTTP/1.1 asks for a Host header.
    let request =
        "GET http://localhost/api/distance?start=867254301 HTTP/1.1\r\nConnection: close\r\n\r\n";
    assert_eq!(
        parse_answer(&exchange(server.addr, request.as_bytes())).0,
        400
    );
}

/// `--allow-origin`: the answers name the origin of a page allowed to
/// read them, errors included, and no other; with none given, none.
#[test]
fn pages_from_allowed_origins_may_read_the_answers() {
    let boards = discover(&[files().full_3x3.clone()], None).unwrap();
    let allowed = vec!["http://localhost:3000".to_string()];
    let long = Duration::from_secs(60);
    let server = serve_app(boards, long, long, (Hosts::Any, Origins::new(&allowed)));
    let from = |origin: &str, path: &str| {
        let ask = format!(
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nOrigin: {origin}\r\nConnection: close\r\n\r\n"
        );
        String::from_utf8(exchange(server.addr, ask.as_bytes())).unwrap()
    };
    let named = "access-control-allow-origin: http://localhost:3000\r\n";
    for path in [
        "/api/distance?start=867254301",
        "/api/solve?start=86725430",
        "/nowhere",
    ] {
        let answer = from("http://localhost:3000", path);
        assert!(answer.contains(named), "{path}: {answer}");
        assert!(answer.contains("vary: origin\r\n"), "{path}: {answer}");
        let answer = from("http://localhost:3001", path);
        assert!(!answer.contains("access-control"), "{path}: {answer}");
    }
    let server = full();
    let answer = exchange(
        server.addr,
        b"GET /api/boards HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:3000\r\nConnection: close\r\n\r\n",
    );
    let answer = String::from_utf8_lossy(&answer).to_lowercase();
    assert!(
        !answer.contains("access-control") && !answer.contains("vary"),
        "{answer}"
    );
}

#[test]
fn each_error_has_its_status_and_a_json_message() {
    let f = files();
    let server = start(&[&f.partial_2x3, &f.full_3x3]);
    // By status: bad requests, what is not served, unsolvable pairs.
    let bad_request: &[(&str, &str)] = &[
        ("/api/solve?board=nonsense&start=1", "bad board size"),
        ("/api/solve?board=7x7&start=1", "49 cells"),
        (
            "/api/solve?start=12345678",
            "bad start board \"12345678\": expected 9 tiles",
        ),
        // Tiles of another board on the default size: which one served to
        // ask for (2x3 is, 3x2 is not; see below for 4x4 and a goal).
        (
            "/api/check?start=123450&moves=U",
            "got 6; 6 tiles fit a 2x3 board: add board=2x3",
        ),
        ("/api/solve?start=123456780&goal=1", "bad goal board"),
        ("/api/solve", "missing parameter: start"),
        (
            "/api/compare",
            "missing parameter: start (a board, such as 867254301), or distance",
        ),
        ("/api/moves?start=1234%FF5678", "bad start board"),
        (
            "/api/solve?start=867254301&bogus=1",
            "/api/solve takes no bogus: it reads board, metric, start, goal, within",
        ),
        (
            "/api/solve?start=867254301&start=867254301",
            "start is given more than once: give it once",
        ),
        (
            "/api/solve?start=867254301&within=0.5",
            "bad within \"0.5\": a weight of 0.5 is below 1",
        ),
        ("/api/solve?start=867254301&within=nan", "bad within"),
        // Within counts single-tile moves, served or not.
        (
            "/api/solve?start=867254301&metric=mtm&within=1.2",
            "within counts single-tile moves",
        ),
        (
            "/api/solve?board=5x5&metric=mtm&within=2&start=1",
            "within counts single-tile moves",
        ),
        ("/api/random?distance=x", "bad distance"),
        ("/api/random?distance=40", "maximum distance is 31"),
        // A count of 0 is refused everywhere, in the command line's words.
        (
            "/api/random?distance=20&count=0",
            "bad count \"0\": count must be from 1 to 1000",
        ),
        ("/api/random?count=0", "count must be from 1 to 1000"),
        (
            "/api/random?distance=20&count=1001",
            "count must be from 1 to 1000",
        ),
        ("/api/random?count=-5", "count must be from 1 to 1000"),
        // Numbers are read as the command line reads its flags: no sign.
        ("/api/random?count=%2B5", "bad count \"+5\""),
        ("/api/random?count=5&seed=%2B1", "bad seed \"+1\""),
        ("/api/random?distance=1&count=3", "only 2 lie"),
        (
            "/api/random?distance=20&seed=-1",
            "bad seed \"-1\": seed must be from 0 to 18446744073709551615",
        ),
        // A parameter the route does not read is not dropped in silence.
        (
            "/api/solve?start=867254301&count=abc&seed=abc",
            "/api/solve takes no count or seed: it reads board, metric, start, goal, within",
        ),
        ("/api/histogram?start=1", "/api/histogram takes no start"),
        // An unknown name is refused by the route's own list, not every
        // route's; a long one is shortened, one with no name is said so.
        (
            "/api/boards?board=3x3&x=1",
            "/api/boards takes no parameters (board, x given)",
        ),
        (
            "/api/distance?start=867254301&=1",
            "/api/distance takes no parameter with no name: it reads board, metric, start, goal",
        ),
        (
            &*format!("/api/distance?start=867254301&{}=1", "a".repeat(200)),
            &*format!("/api/distance takes no {}…: it reads", "a".repeat(40)),
        ),
        (
            "/api/boards?board=3x3",
            "/api/boards takes no parameters (board given)",
        ),
        (
            "/api/check?start=867254301&moves=U&within=2",
            "/api/check takes no within",
        ),
    ];
    let not_found: &[(&str, &str)] = &[
        ("/api/solve?board=3x4&start=1", "no 3x4 database is served"),
        (
            "/api/solve?metric=mtm&start=867254301",
            "ask with metric=stm; build one with build-db --board 3x3 --metric mtm",
        ),
        (
            "/api/solve?board=4x4&metric=mtm&start=1",
            "no multi-tile database can be built for 4x4 boards",
        ),
        ("/api/histogram?board=2x3&goal=102345", "no table"),
        ("/api/solve?board=2x3&start=123450&goal=102345", "no table"),
        ("/nothing/here", "no such page: /nothing/here"),
        ("/api/", "no such page"),
    ];
    let unprocessable: &[(&str, &str)] = &[
        ("/api/solve?start=213456780", "tile inversion"),
        ("/api/distance?start=213456780", "tile inversion"),
        ("/api/moves?start=213456780", "tile inversion"),
    ];
    for (status, cases) in [(400, bad_request), (404, not_found), (422, unprocessable)] {
        for (path, message) in cases {
            let (got, v) = get(server.addr, path);
            assert_eq!(got, status, "{path}: {v}");
            let error = v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{path}: no error in {v}"));
            assert!(
                error.contains(message),
                "{path}: {error:?} lacks {message:?}"
            );
        }
    }
    // No board served that the tiles fit (4x4), or a goal's tiles, which
    // would name a board the start is not on: no note.
    for path in [
        "/api/distance?start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+0+15",
        "/api/distance?start=123456780&goal=123450",
    ] {
        let (_, v) = get(server.addr, path);
        let error = v["error"].as_str().unwrap();
        assert!(
            error.ends_with(" for a 3x3 board (the blank included), got 16")
                || error.ends_with("got 6"),
            "{path}: {error}"
        );
    }
    // An unsolvable answer also carries the command line's answer.
    let (_, v) = get(server.addr, "/api/solve?start=213456780");
    assert_eq!(v["solvable"], false);
    assert_eq!(v["reason"], v["error"]);
    assert!(v["moves"].is_null());
    // And the server still answers.
    assert_eq!(get(server.addr, "/api/solve?start=867254301").0, 200);
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = full();
    for (path, kind, needle) in [
        ("/", "text/html", "<div id=\"board\""),
        ("/app.js", "text/javascript", "/api/moves"),
        ("/style.css", "text/css", "#board"),
    ] {
        let (status, body) = raw(server.addr, &request("GET", path));
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(needle), "{path}");
        let head = String::from_utf8(exchange(server.addr, &request("HEAD", path)))
            .unwrap()
            .to_ascii_lowercase();
        let content_type = format!("content-type: {kind}");
        for header in [&content_type, "content-security-policy: default-src 'self'"] {
            assert!(head.contains(header), "{path}: no {header:?} in {head}");
        }
    }
}

/// The page's address with a long game in its link (800 moves on 6x6
/// is past the API's 1 KiB) is the page, for the page to replay or to
/// say is too long; an API request as long is still refused.
#[test]
fn the_page_is_served_whatever_the_game_in_its_link() {
    let server = full();
    for moves in [800, 5000] {
        let link = format!(
            "/?board=3x3&start=867254301&moves={}",
            "UD".repeat(moves / 2)
        );
        let (status, body) = raw(server.addr, &request("GET", &link));
        assert_eq!(status, 200, "{moves} moves");
        assert!(body.contains("<!doctype html>"), "{moves} moves");
    }
    let long = format!("/api/check?start=867254301&moves={}", "UD".repeat(600));
    assert_eq!(raw(server.addr, &request("GET", &long)).0, 414);
}

#[test]
fn hostile_requests_get_a_4xx_and_the_server_goes_on() {
    let server = full();
    let addr = server.addr;
    let long_query = format!("/api/solve?start={}", "1".repeat(3000));
    let cases: Vec<(String, Vec<u8>, u16)> = vec![
        ("a long query".into(), format!("GET {long_query} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes(), 414),
        ("an oversized head".into(), format!("GET /api/boards HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\nConnection: close\r\n\r\n", "a".repeat(40_000)).into_bytes(), 431),
        ("a huge request line".into(), format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000)).into_bytes(), 431),
        ("an oversized body".into(), b"GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nConnection: close\r\n\r\nxx".to_vec(), 413),
        ("garbage".into(), b"GARBAGE\r\n\r\n".to_vec(), 400),
        ("binary noise".into(), vec![0xff, 0xfe, 0x00, 0x13, b'\r', b'\n', b'\r', b'\n'], 400),
        ("a non-UTF-8 path".into(), b"GET /api/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), 400),
        ("a non-UTF-8 query".into(), b"GET /api/solve?start=%ff%fe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), 400),
        ("a bad header".into(), b"GET /api/boards HTTP/1.1\r\nHost x\r\nConnection: close\r\n\r\n".to_vec(), 400),
        ("another method".into(), b"POST /api/solve?start=867254301 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(), 405),
        ("an unknown path".into(), b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), 404),
        ("a file name as a board".into(), b"GET /api/solve?board=../../etc/passwd&start=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), 400),
    ];
    for (what, request, status) in cases {
        let answer = exchange(addr, &request);
        assert!(!answer.is_empty(), "{what}: no answer");
        assert_eq!(
            parse_answer(&answer).0,
            status,
            "{what}: {}",
            String::from_utf8_lossy(&answer[..answer.len().min(300)])
        );
        json_error(&answer, &what);
        assert_eq!(get(addr, "/api/boards").0, 200, "after {what}");
    }
}

/// The `error` message of an answer, which must be a JSON error with the
/// headers of every answer; `what` names the request in a failure.
fn json_error(answer: &[u8], what: &str) -> String {
    let text = String::from_utf8_lossy(answer);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("{what}: no head in {text:?}"));
    let head = head.to_ascii_lowercase();
    for header in [
        "content-type: application/json",
        "content-security-policy: default-src 'self'",
        "x-content-type-options: nosniff",
    ] {
        assert!(head.contains(header), "{what}: no {header:?} in {head}");
    }
    let v: serde_json::Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("{what}: the body is not JSON ({e}): {body:?}"));
    let error = v["error"].as_str();
    let error = error.unwrap_or_else(|| panic!("{what}: no error in {v}"));
    assert!(!error.is_empty(), "{what}");
    assert_code(parse_answer(answer).0, &v, what);
    error.to_string()
}

#[test]
fn other_methods_get_a_405_in_json_that_names_the_method() {
    let server = full();
    let nowhere = [
        ("OPTIONS", "*"),
        ("CONNECT", "localhost:80"),
        ("POST", "/nowhere"),
    ];
    let anywhere = ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]
        .into_iter()
        .flat_map(|method| {
            ["/api/boards", "/api/solve?start=867254301", "/"].map(|path| (method, path))
        });
    for (method, path) in anywhere.chain(nowhere) {
        let what = format!("{method} {path}");
        let answer = exchange(server.addr, &request(method, path));
        assert_eq!(parse_answer(&answer).0, 405, "{what}");
        let error = json_error(&answer, &what);
        assert!(error.starts_with(method), "{what}: {error}");
        assert!(error.contains("GET"), "{what}: {error}");
        // A preflight is told what brought it on.
        let preflight = error.contains("send the GET without them");
        assert_eq!(preflight, method == "OPTIONS", "{what}: {error}");
        let head = String::from_utf8_lossy(&answer).to_ascii_lowercase();
        assert!(head.contains("allow: get,head"), "{what}: {head}");
    }
    // A method of any length is cut in the message, as other echoes are.
    let long = "A".repeat(5000);
    let answer = exchange(server.addr, &request(&long, "/api/boards"));
    assert_eq!(parse_answer(&answer).0, 405);
    let error = json_error(&answer, "a long method");
    assert!(
        error.starts_with(&format!("{}… is not answered", &long[..40])),
        "{error}"
    );
}

/// A request a page on another site makes (a script's fetch, an image)
/// is refused before any work, unless `--allow-origin` names the page's
/// origin; a link followed from there, the page's own requests and clients
/// that say nothing of where they come from are answered.
#[test]
fn requests_from_other_sites_pages_are_refused_unless_allowed() {
    let boards = || discover(&[files().full_3x3.clone()], None).unwrap();
    let long = Duration::from_secs(60);
    let allowed = vec!["http://localhost:3000".to_string()];
    let server = serve_app(boards(), long, long, (Hosts::Any, Origins::new(&allowed)));
    let ask = |addr, headers: &str| {
        let request = format!(
            "GET /api/distance?start=867254301 HTTP/1.1\r\nHost: localhost\r\n{headers}\
             Connection: close\r\n\r\n"
        );
        parse_answer(&exchange(addr, request.as_bytes()))
    };
    let script = "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\n";
    let (status, body) = ask(server.addr, script);
    assert_eq!(status, 403, "{body}");
    assert!(body.ends_with(",\"code\":\"cross_site\"}"), "{body}");
    assert!(body.contains("--allow-origin"), "{body}");
    let same_site =
        "Sec-Fetch-Site: same-site\r\nSec-Fetch-Mode: cors\r\nOrigin: http://localhost:3001\r\n";
    assert_eq!(ask(server.addr, same_site).0, 403);
    for answered in [
        "",
        "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n",
        "Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\n",
        "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n",
        "Sec-Fetch-Site: same-site\r\nSec-Fetch-Mode: cors\r\nOrigin: http://localhost:3000\r\n",
    ] {
        let (status, body) = ask(server.addr, answered);
        assert_eq!(status, 200, "{answered:?}: {body}");
    }
    // With every origin allowed, every page's request is answered.
    let any = serve_app(
        boards(),
        long,
        long,
        (Hosts::Any, Origins::new(&["*".to_string()])),
    );
    assert_eq!(ask(any.addr, script).0, 200);
}

#[test]
fn absurd_requests_are_answered_in_json_within_the_documented_limits() {
    let server = full();
    let addr = server.addr;
    let head_of = |headers: &str, host: &str| {
        format!("GET /api/boards HTTP/1.1\r\nHost: {host}\r\n{headers}Connection: close\r\n\r\n")
    };
    let short_headers = |n: usize| {
        let headers = (0..n).map(|i| format!("X-{i}: v\r\n"));
        head_of(&headers.collect::<String>(), "x")
    };
    // The head's size is the limit, not its count of headers: a head of
    // 16 KiB is read, whatever it holds; a byte more is a 431. Built of the
    // shortest header lines (`a:` and a line feed), the host padded to size.
    let head_of_size = |size: usize| {
        let room = size - head_of("", "x").len();
        head_of(&"a:\n".repeat(room / 3), &"x".repeat(1 + room % 3))
    };
    let at_limit = head_of_size(MAX_HEAD);
    assert_eq!(at_limit.len(), MAX_HEAD);
    let over_limit = head_of_size(MAX_HEAD + 1);
    assert_eq!(over_limit.len(), MAX_HEAD + 1);
    for (what, request) in [
        ("100 short headers", short_headers(100)),
        ("1000 short headers", short_headers(1000)),
        ("a head of 16 KiB in 3-byte headers", at_limit),
    ] {
        let (status, body) = raw(addr, request.as_bytes());
        assert_eq!(status, 200, "{what}: {body}");
    }
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        (
            "a head one byte over 16 KiB",
            over_limit.into_bytes(),
            431,
            "the request head (its request line and headers) is over 16384 bytes",
        ),
        (
            "10,000 headers",
            short_headers(10_000).into_bytes(),
            431,
            "over 16384 bytes",
        ),
        (
            "a 200,000-character request line",
            format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(200_000)).into_bytes(),
            431,
            "over 16384 bytes",
        ),
        (
            "a 2 KB body",
            format!(
                "GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 2048\r\n\
                 Connection: close\r\n\r\n{}",
                "a".repeat(2048)
            )
            .into_bytes(),
            413,
            "the request body is 2048 bytes; at most 1024 bytes are accepted",
        ),
        (
            "a body of a terabyte, announced",
            b"GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000000\r\n\
              Connection: close\r\n\r\n"
                .to_vec(),
            413,
            "1000000000000 bytes",
        ),
        (
            "a huge body, sent",
            [
                &b"GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000\r\n\r\n"[..],
                &vec![b'a'; 4_000_000],
            ]
            .concat(),
            413,
            "4000000 bytes",
        ),
        (
            "a chunked body",
            b"GET /api/boards HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\
              Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                .to_vec(),
            413,
            "a length not given in advance",
        ),
        (
            "garbage",
            b"GARBAGE\r\n\r\n".to_vec(),
            400,
            "not a request this server can read: invalid HTTP method",
        ),
        (
            "a bad Content-Length",
            b"GET /api/boards HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n".to_vec(),
            400,
            "not a request this server can read",
        ),
        (
            "HTTP/2's preface",
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(),
            400,
            "it speaks HTTP/1.1",
        ),
    ];
    for (what, request, status, message) in cases {
        let answer = exchange(addr, &request);
        assert_eq!(parse_answer(&answer).0, status, "{what}");
        let error = json_error(&answer, what);
        assert!(
            error.contains(message),
            "{what}: {error:?} lacks {message:?}"
        );
    }
    // A client that closes its side once its request is sent still gets
    // its answer.
    let mut closing = connect(addr);
    closing
        .write_all(b"GET /api/boards HTTP/1.0\r\nHost: x\r\n\r\n")
        .unwrap();
    closing.shutdown(std::net::Shutdown::Write).unwrap();
    let mut answer = Vec::new();
    let _ = closing.read_to_end(&mut answer);
    assert_eq!(parse_answer(&answer).0, 200);
    // A head that stops halfway: a 408 in JSON once the header timeout
    // (0.4 s here) has passed.
    let mut slow = connect(addr);
    slow.write_all(b"GET /api/boards HTTP/1.1\r\nHost: x\r\nX-Half: ")
        .unwrap();
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer);
    assert_eq!(parse_answer(&answer).0, 408);
    let error = json_error(&answer, "a head that stops halfway");
    assert!(error.contains("did not arrive within 0.4 s"), "{error}");
    assert_eq!(get(addr, "/api/boards").0, 200);
}

fn str_of(v: &serde_json::Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// The parameters of Gasser's position, 80 moves from Korf's goal (the
/// farthest there are, `tests/data/hardest4x4.txt`), and that goal: with
/// 6-6-3 a search of more than 20 s even in release on 2 cores. (Korf's
/// instance 60, the hardest of his 100 for 6-6-3, takes 11.4 million
/// nodes: 0.3 s in release, too soon for these tests.)
fn far_4x4() -> String {
    let gasser = enc("15 14 8 12 10 11 9 13 2 6 5 1 3 7 4 0");
    let korf_goal = enc("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    format!("board=4x4&start={gasser}&goal={korf_goal}")
}

#[test]
fn a_request_past_its_answer_time_gets_a_408_in_json() {
    // Searches may take a minute, answers only half a second: the answer's
    // deadline comes first, and the search stops with it.
    let server = start_answering_within(
        &[&files().full_3x3, pattern_4x4()],
        TIMEOUT,
        Duration::from_millis(500),
    );
    let path = format!("/api/solve?{}", far_4x4());
    let began = std::time::Instant::now();
    let answer = exchange(server.addr, &request("GET", &path));
    assert_eq!(parse_answer(&answer).0, 408);
    let error = json_error(&answer, &path);
    assert!(error.contains("no answer within 0.5 s"), "{error}");
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    assert_eq!(get(server.addr, "/api/solve?start=867254301").0, 200);
}

#[test]
fn a_slow_client_times_out_with_408_and_others_are_served_meanwhile() {
    let server = full();
    let addr = server.addr;
    let mut slow = connect(addr);
    slow.write_all(b"GET /api/boards HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    // While it stalls, the server answers others.
    assert_eq!(get(addr, "/api/solve?start=867254301").0, 200);
    let began = std::time::Instant::now();
    let mut answer = Vec::new();
    let _ = slow.read_to_end(&mut answer);
    assert_eq!(
        parse_answer(&answer).0,
        408,
        "{}",
        String::from_utf8_lossy(&answer)
    );
    assert!(began.elapsed() < Duration::from_secs(5));
    // A client that connects and says nothing is closed, with no answer to a request never made.
    let mut silent = connect(addr);
    let mut answer = Vec::new();
    let _ = silent.read_to_end(&mut answer);
    assert!(answer.is_empty());
    assert_eq!(get(addr, "/api/boards").0, 200);
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let server = full();
    let mut stream = connect(server.addr);
    let request = b"GET /api/distance?start=867254301 HTTP/1.1\r\nHost: x\r\n\r\n";
    let mut buf = vec![0; 4096];
    for _ in 0..100 {
        stream.write_all(request).unwrap();
        let n = stream.read(&mut buf).unwrap();
        let text = String::from_utf8_lossy(&buf[..n]);
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        assert!(text.contains("\"distance\":31"), "{text}");
    }
}

#[test]
fn discovery_takes_given_files_and_refuses_two_of_one_size() {
    let f = files();
    let boards = super::discover(&[f.full_3x3.clone(), f.full_2x3.clone()], None).unwrap();
    let shapes: Vec<String> = boards.iter().map(|s| s.shape.to_string()).collect();
    assert_eq!(shapes, ["2x3", "3x3"]);
    assert_eq!(boards.default_shape(), Shape::THREE_BY_THREE);
    let refusals = [
        (
            vec![f.full_2x3.clone(), f.partial_2x3.clone()],
            None,
            "both hold 2x3 boards",
        ),
        (
            vec![f.full_2x3.clone()],
            Some(Shape::THREE_BY_THREE),
            "no 3x3 database is served",
        ),
        (
            vec![f.full_2x3.with_extension("missing")],
            None,
            "no database at",
        ),
    ];
    for (paths, default, message) in refusals {
        let e = super::discover(&paths, default).err().unwrap();
        assert!(e.to_string().contains(message), "{message}: {e}");
    }
}

/// `start` after `steps` random moves from `goal` that never undo the last
/// one: a position at most `steps` moves away, cheap to search even in a
/// debug build.
fn walk(goal: &Board, steps: usize, seed: u64) -> Board {
    use rand::{seq::SliceRandom, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut board = *goal;
    let mut last: Option<Move> = None;
    for _ in 0..steps {
        let choices: Vec<(Move, Board)> = board
            .successors()
            .filter(|(m, _)| Some(m.opposite()) != last)
            .collect();
        let (m, next) = *choices.choose(&mut rng).unwrap();
        board = next;
        last = Some(m);
    }
    board
}

/// The moves of a `solve` answer, checked to replay from `start` to `goal`.
fn replayed(v: &serde_json::Value, start: &Board, goal: &Board) -> usize {
    let moves: Vec<Move> = v["moves"]
        .as_str()
        .unwrap_or_else(|| panic!("no moves in {v}"))
        .chars()
        .map(|c| Move::from_letter(c).unwrap())
        .collect();
    assert_eq!(start.replay(&moves), Some(*goal), "{v}");
    moves.len()
}

#[test]
fn boards_lists_each_kind() {
    let server = with_4x4();
    let (status, v) = get(server.addr, "/api/boards");
    assert_eq!(status, 200);
    assert_eq!(v["default"], "3x3");
    assert_eq!(v["timeout"], TIMEOUT.as_secs_f64());
    let boards = v["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2);
    let (nine, sixteen) = (&boards[0], &boards[1]);
    assert_eq!(nine["board"], "3x3");
    assert_eq!(nine["kind"], "complete");
    assert_eq!(nine["max_distance"], 31);
    assert!(nine["partition"].is_null());
    assert_eq!(sixteen["board"], "4x4");
    assert_eq!(sixteen["kind"], "pattern");
    assert_eq!(sixteen["partition"], "6-6-3");
    assert_eq!(sixteen["rows"], 4);
    assert_eq!(sixteen["goal"], "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
    // 16!/2, and no maximum: only a complete table knows it.
    assert_eq!(sixteen["positions"], 10_461_394_944_000u64);
    assert!(sixteen["max_distance"].is_null());
    // One set, for the blank in the last corner, answers every corner
    // through the board's symmetries, and no other cell.
    assert_eq!(
        sixteen["blanks"],
        serde_json::json!(["1,1", "1,4", "4,1", "4,4"])
    );
}

#[test]
fn a_3x3_pattern_file_answers_as_the_complete_table() {
    let f = files();
    let server = start(&[&f.pattern_3x3]);
    let (_, v) = get(server.addr, "/api/boards");
    assert_eq!(v["boards"][0]["kind"], "pattern");
    assert_eq!(v["boards"][0]["partition"], "4-4");
    let table = Database::open(&f.full_3x3).unwrap();
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let target = table.goal_table(&goal).unwrap();
    for start in [
        "867254301",
        "647850321",
        "123456708",
        "123456780",
        "806547231",
    ] {
        let board = npuzzle::parse_board(start, Shape::THREE_BY_THREE).unwrap();
        let d = target.distance(&board).unwrap();
        // Solve and distance: the table's length, moves that replay, and
        // the command line's answer for the same file.
        for route in ["solve", "distance"] {
            let (status, v) = get(server.addr, &format!("/api/{route}?start={start}"));
            assert_eq!(status, 200, "{route} {start}: {v}");
            assert_eq!(replayed(&v, &board, &goal), d as usize, "{route} {start}");
            assert!(v["nodes"].is_u64(), "{v}");
            let cli = cli_json(&f.pattern_3x3, &[route, "--json", start]);
            assert_eq!(cli["moves"].as_str().unwrap().len(), d as usize);
            assert_eq!((&v["start"], &v["goal"]), (&cli["start"], &cli["goal"]));
        }
        // Moves: every neighbour's distance is the table's, so a hint
        // (the moves whose change is -1) is exactly the table's.
        let (status, v) = get(server.addr, &format!("/api/moves?start={start}"));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["distance"], d, "{start}");
        let listed = v["moves"].as_array().unwrap();
        let legal: Vec<(Move, Board)> = board.successors().collect();
        assert_eq!(listed.len(), legal.len());
        for ((m, next), entry) in legal.iter().zip(listed) {
            let after = target.distance(next).unwrap();
            assert_eq!(entry["move"], m.letter().to_string());
            assert_eq!(entry["board"], next.to_string());
            assert_eq!(entry["distance"], after, "{start} {m:?}");
            assert_eq!(entry["change"], after as i64 - d as i64);
        }
    }
}

#[test]
fn moves_on_4x4_agree_with_separate_searches() {
    let server = with_4x4();
    let db = Database::open(pattern_4x4()).unwrap();
    let shape = db.shape();
    let goal = Board::goal(shape);
    let options = npuzzle::pattern::SolveOptions::default();
    let distance = |b: &Board| db.distance(b, &goal, &options).unwrap();
    for (steps, seed) in [(14, 1), (20, 2), (24, 3), (1, 4), (0, 5)] {
        let board = walk(&goal, steps, seed);
        let text = board.to_string();
        let (status, v) = get(
            server.addr,
            &format!("/api/moves?board=4x4&start={}", enc(&text)),
        );
        assert_eq!(status, 200, "{text}: {v}");
        let d = distance(&board);
        assert_eq!(v["distance"], d, "{text}");
        let listed = v["moves"].as_array().unwrap();
        let legal: Vec<(Move, Board)> = board.successors().collect();
        assert_eq!(listed.len(), legal.len());
        for ((m, next), entry) in legal.iter().zip(listed) {
            let after = distance(next);
            assert_eq!(entry["board"], next.to_string());
            assert_eq!(entry["distance"], after, "{text} {m:?}");
            assert_eq!(entry["change"], after as i64 - d as i64);
        }
        let (status, v) = get(
            server.addr,
            &format!("/api/solve?board=4x4&start={}", enc(&text)),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(replayed(&v, &board, &goal), d as usize);
        assert_eq!(
            (&v["start"], &v["goal"]),
            (
                &serde_json::json!(text),
                &serde_json::json!(goal.to_string())
            )
        );
    }
}

/// Positions at a distance on a pattern board are the command line's
/// walks, each as far as `/api/distance` finds it.
#[test]
fn random_at_a_distance_walks_on_pattern_boards() {
    let server = with_4x4();
    let (status, v) = get(
        server.addr,
        "/api/random?board=4x4&distance=12&count=3&seed=3",
    );
    assert_eq!(status, 200, "{v}");
    let path = pattern_4x4();
    let cli = cli_json(
        path,
        &[
            "random",
            "--distance",
            "12",
            "--count",
            "3",
            "--seed",
            "3",
            "--json",
        ],
    );
    assert_eq!(v, cli);
    for p in v["positions"].as_array().unwrap() {
        let start = enc(p["start"].as_str().unwrap());
        let (_, d) = get(
            server.addr,
            &format!("/api/distance?board=4x4&start={start}"),
        );
        assert_eq!(
            (&d["distance"], &p["distance"]),
            (&12.into(), &12.into()),
            "{p}"
        );
    }
}

/// A walked draw that finds some positions, then no more, says how to
/// draw those found, in the API's words, as the command line does in its.
#[test]
fn a_walked_draw_that_falls_short_says_how_to_draw_those_found() {
    let f = files();
    let server = start(&[&f.pattern_3x3]);
    let (status, v) = get(server.addr, "/api/random?distance=29&count=40&seed=1");
    assert_eq!(status, 400, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.starts_with("no further position 29 moves from the goal"),
        "{error}"
    );
    let (_, again) = error.split_once("; count=").expect(error);
    let (count, rest) = again.split_once('&').unwrap();
    assert!(rest.starts_with("seed=1 draws the "), "{error}");
    let (status, v) = get(
        server.addr,
        &format!("/api/random?distance=29&count={count}&seed=1"),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["positions"].as_array().unwrap().len().to_string(), count);
}

#[test]
fn what_needs_complete_tables_is_refused_on_pattern_boards() {
    let server = with_4x4();
    let needs = "this needs complete tables";
    // The tiles reversed: 105 inversions, an odd number, with the blank in
    // its goal row: no solution.
    let reversed = enc("15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0");
    let cases: &[(&str, u16, &str)] = &[
        ("/api/histogram?board=4x4", 404, needs),
        // A goal whose blank is on an edge: no set serves it (the start is
        // one move from it; an unsolvable one would be answered 422).
        (
            "/api/solve?board=4x4&start=0%201%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%2015&goal=1%200%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%2015",
            404,
            "--all-goals",
        ),
        (
            "/api/moves?board=4x4&start=0%201%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%2015&goal=1%200%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%2015",
            404,
            "--all-goals",
        ),
        ("/api/random?board=4x4&goal=1%200%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%2015", 404, "--all-goals"),
        ("/api/solve?board=4x4&start=1", 400, "bad start board"),
        ("/api/solve?board=3x5&start=1", 404, "no 3x5 database is served"),
    ];
    for (path, status, message) in cases {
        let (got, v) = get(server.addr, path);
        assert_eq!(got, *status, "{path}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(message), "{path}: {error:?}");
    }
    // 422, with the command line's unsolvable answer, on every route that
    // takes a start, before any search.
    for route in ["solve", "distance", "moves"] {
        let (status, v) = get(
            server.addr,
            &format!("/api/{route}?board=4x4&start={reversed}"),
        );
        assert_eq!(status, 422, "{route}: {v}");
        assert!(v["error"].as_str().unwrap().contains("inversion"), "{v}");
        if route != "moves" {
            assert_eq!(v["solvable"], false);
        }
    }
}

#[test]
fn random_without_a_distance_is_uniform_over_solvable_positions() {
    let f = files();
    let server = start(&[&f.full_2x3, &f.full_3x3, pattern_4x4()]);
    // 2x3: 360 positions reach the goal. 36,000 draws over 100 seeds: each
    // is solvable by the table, every position comes up, and the counts
    // pass a chi-square test (359 degrees of freedom; the bound is about
    // the 0.9999 quantile, and the seeds are fixed, so it cannot flake).
    let table = Database::open(&f.full_2x3).unwrap();
    let goal = Board::goal(table.shape());
    let target = table.goal_table(&goal).unwrap();
    let mut counts = std::collections::HashMap::new();
    for seed in 0..36 {
        let (status, v) = get(
            server.addr,
            &format!("/api/random?board=2x3&count=1000&seed={seed}"),
        );
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["goal"], "123450");
        for p in v["positions"].as_array().unwrap() {
            let start = p["start"].as_str().unwrap();
            let board = npuzzle::parse_board(start, table.shape()).unwrap();
            // Complete tables give each one's distance.
            assert_eq!(p["distance"], target.distance(&board).unwrap());
            *counts.entry(start.to_string()).or_insert(0u32) += 1;
        }
    }
    assert_eq!(counts.len(), 360);
    let expected = 100.0;
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 470.0, "chi-square {chi2}");

    // 4x4: solvable toward the goal asked for, and the seed repeats a draw.
    let (status, v) = get(server.addr, "/api/random?board=4x4&count=50&seed=9");
    assert_eq!(status, 200, "{v}");
    let shape = "4x4".parse::<Shape>().unwrap();
    for p in v["positions"].as_array().unwrap() {
        let board = npuzzle::parse_board(p["start"].as_str().unwrap(), shape).unwrap();
        npuzzle::rules::solvability::check(&board, &Board::goal(shape)).unwrap();
        assert!(
            p.get("distance").is_none(),
            "pattern tables hold no distances: {p}"
        );
    }
    assert_eq!(
        get(server.addr, "/api/random?board=4x4&count=50&seed=9").1,
        v
    );
    // The command line draws the same positions for the seed.
    let cli = cli_json(
        pattern_4x4(),
        &[
            "--board", "4x4", "random", "--json", "--count", "50", "--seed", "9",
        ],
    );
    assert_eq!(cli, v);
    let (_, v) = get(server.addr, "/api/random?board=2x3&count=20&seed=4");
    let args = [
        "--board", "2x3", "random", "--json", "--count", "20", "--seed", "4",
    ];
    assert_eq!(cli_json(&f.full_2x3, &args), v);
}

#[test]
fn a_search_past_the_timeout_answers_503_and_the_server_goes_on() {
    let server = start_with(
        &[&files().full_3x3, pattern_4x4()],
        Duration::from_millis(300),
    );
    for route in ["solve", "moves"] {
        let began = std::time::Instant::now();
        let (status, v) = get(server.addr, &format!("/api/{route}?{}", far_4x4()));
        assert_eq!(status, 503, "{route}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(
            error.contains("no solution within the time allowed"),
            "{error}"
        );
        assert!(error.contains("--timeout is 0.3 s"), "{error}");
        assert!(error.contains("a solution within a factor"), "{error}");
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
        // /api/moves names the boards it read, for the page to play on.
        if route == "moves" {
            let named = format!(
                "start={}&goal={}",
                enc(&str_of(&v["start"])),
                enc(&str_of(&v["goal"]))
            );
            assert!(far_4x4().ends_with(&named), "{v}");
        }
    }
    // A grading past it says what grading needs, not where a solution is.
    let (status, v) = get(server.addr, &format!("/api/check?{}&moves=LU", far_4x4()));
    assert_eq!(status, 503, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.starts_with(
            "grading needs the distance of every position the moves pass through, and a \
             search for one stopped: no solution within the time allowed"
        ),
        "{error}"
    );
    assert!(
        error.ends_with(
            "(the server's --timeout is 0.3 s); fewer moves, a longer serve --timeout, or a \
             stronger partition (build-db --partition) may be graded"
        ),
        "{error}"
    );
    // A draw past the timeout says what the draw searched for, and what
    // may be found in time.
    let (status, v) = get(
        server.addr,
        "/api/random?board=4x4&distance=62&count=1000&seed=1",
    );
    assert_eq!(status, 503, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.starts_with("the draw searches for each position's shortest solution"),
        "{error}"
    );
    // Then, if any were found before it, how to draw those alone.
    let (_, after) = error
        .split_once("(the server's --timeout is 0.3 s); more time, or fewer moves or positions, may find them")
        .expect(error);
    if let Some(again) = after.strip_prefix("; count=") {
        let (found, rest) = again.split_once('&').unwrap();
        assert!(found.parse::<usize>().unwrap() > 0, "{error}");
        assert!(rest.starts_with("seed=1 draws the "), "{error}");
    } else {
        assert_eq!(after, "", "{error}");
    }
    // Within a factor, the same position is answered in time.
    let (status, v) = get(server.addr, &format!("/api/solve?{}&within=2", far_4x4()));
    assert_eq!(status, 200, "{v}");
    assert!(
        v["length"].as_u64() <= Some(2 * v["lower_bound"].as_u64().unwrap()),
        "{v}"
    );
    // Lookups are not searches: a complete table answers as before.
    assert_eq!(get(server.addr, "/api/solve?start=867254301").0, 200);
}

#[test]
fn serve_timeout_takes_seconds_and_refuses_absurd_values() {
    let parse = |value: &str| {
        crate::Cli::try_parse_from(["query", "serve", "--timeout", value]).map(|cli| {
            match cli.command {
                crate::Command::Serve(args) => args.timeout,
                _ => unreachable!(),
            }
        })
    };
    assert_eq!(parse("2.5").unwrap(), Duration::from_millis(2500));
    let default = match crate::Cli::try_parse_from(["query", "serve"])
        .unwrap()
        .command
    {
        crate::Command::Serve(args) => args.timeout,
        _ => unreachable!(),
    };
    assert_eq!(default, Duration::from_secs(10));
    let long = "9".repeat(200_000);
    for (value, says) in [
        (
            "0",
            "a timeout must be above 0 seconds; the server bounds every search",
        ),
        ("-1", "a timeout must be above 0 seconds"),
        ("nan", "NaN is not a number of seconds"),
        ("1e300", "above the limit of 1000000000 seconds"),
        (
            "inf",
            "an infinite timeout is no limit: the server bounds every search",
        ),
        (long.as_str(), "above the limit"),
        ("ten", "not a number of seconds"),
        ("", "not a number of seconds"),
    ] {
        let e = parse(value)
            .err()
            .unwrap_or_else(|| panic!("{value:?} accepted"));
        // What `main` prints: ours where it says more than clap's.
        let shown =
            npuzzle::io::usage_message(&e, &[], &|_| false).unwrap_or_else(|| e.to_string());
        assert!(shown.contains(says), "{value:.20}: {shown:.300}");
        // The value is echoed, but never all 200,000 digits of it.
        assert!(shown.len() < 500, "{value:.20}: {} bytes", shown.len());
    }
}

#[test]
fn discovery_opens_pattern_files() {
    let f = files();
    let given = [f.full_3x3.clone(), f.pattern_3x3.clone()];
    let e = super::discover(&given, None).err().unwrap();
    assert!(e.to_string().contains("both hold 3x3 boards"), "{e}");
    // One file named twice is said to be.
    let twice = [f.full_3x3.clone(), f.full_3x3.clone()];
    let e = super::discover(&twice, None).err().unwrap();
    assert!(e.to_string().contains("is given twice"), "{e}");
    let boards = super::discover(&[f.full_2x3.clone(), f.pattern_3x3.clone()], None).unwrap();
    let kinds: Vec<npuzzle::report::Kind> = boards.iter().map(|s| s.db.kind()).collect();
    assert_eq!(
        kinds,
        [
            npuzzle::report::Kind::Complete,
            npuzzle::report::Kind::Pattern
        ]
    );
}

/// `metric=mtm` answers from the board's multi-tile file, in its notation
/// and with the single-tile string, as `query --metric mtm solve --json`
/// prints it; `/api/boards` lists both metrics for the board; an unknown
/// metric is a 400, and a metric not served a 404 that says how to build it.
#[test]
fn the_multi_tile_metric_is_served_beside_the_single_tile_one() {
    let f = files();
    let mtm = f._dir.path().join("3x3-mtm.db");
    if !mtm.exists() {
        let plan = npuzzle::Plan::Complete {
            shape: Shape::THREE_BY_THREE,
            metric: npuzzle::Metric::MultiTile,
            blanks: npuzzle::tables::default_blanks(Shape::THREE_BY_THREE),
            paths: false,
        };
        npuzzle::build(&mtm, &plan, &|_, _| {}).unwrap();
    }
    let server = start(&[&f.full_3x3, &mtm, &f.full_2x3]);
    let (status, v) = get(server.addr, "/api/solve?start=867254301&metric=mtm");
    assert_eq!(status, 200);
    assert_eq!(v, cli_json(&mtm, &["solve", "--json", "867254301"]));
    assert_eq!(v["distance"], 20);
    assert!(v["single_tile_moves"].as_str().unwrap().len() > 20);
    let (_, single) = get(server.addr, "/api/solve?start=867254301");
    assert_eq!(single["distance"], 31);
    // Every slide is a move: /api/moves lists each, with the tiles it
    // slides and its distance, looked up apart here; one of them is the
    // hint, one closer.
    let db = Database::open(&mtm).unwrap();
    let goal = Board::goal(Shape::THREE_BY_THREE);
    let table = db.complete().unwrap().goal_table(&goal).unwrap();
    for start in ["867254301", "123456078", "105426783"] {
        let board = npuzzle::parse_board(start, Shape::THREE_BY_THREE).unwrap();
        let (status, v) = get(server.addr, &format!("/api/moves?start={start}&metric=mtm"));
        assert_eq!(status, 200, "{v}");
        let mut listed = Vec::new();
        for (m, _) in board.successors() {
            let (mut at, mut tiles) = (board, Vec::new());
            while let Some(next) = at.apply(m) {
                tiles.push(at.tile_moved_by(m).unwrap());
                at = next;
                listed.push((m, tiles.clone(), at));
            }
        }
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), listed.len(), "{v}");
        for (entry, (m, tiles, at)) in moves.iter().zip(&listed) {
            let name = match tiles.len() {
                1 => m.letter().to_string(),
                n => format!("{}{n}", m.letter()),
            };
            assert_eq!(entry["move"], serde_json::json!(name), "{entry}");
            assert_eq!(entry["tiles"], serde_json::json!(tiles), "{entry}");
            assert_eq!(entry["board"], serde_json::json!(at.to_string()), "{entry}");
            assert_eq!(entry["distance"], table.distance(at).unwrap(), "{entry}");
        }
        let closer = moves.iter().filter(|e| e["change"] == -1).count();
        assert!(closer >= 1, "{v}");
    }
    let (_, hist) = get(server.addr, "/api/histogram?metric=mtm");
    assert_eq!(hist["max_distance"], 24);
    let (_, boards) = get(server.addr, "/api/boards");
    let three = boards["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["board"] == "3x3")
        .unwrap();
    assert_eq!(three["metrics"], serde_json::json!(["stm", "mtm"]));
    assert_eq!(three["max_distance"], 31);
    let (status, v) = get(server.addr, "/api/solve?start=123&metric=xtm");
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("unknown metric"),
        "{v}"
    );
    let (status, v) = get(server.addr, "/api/solve?board=2x3&start=123450&metric=mtm");
    assert_eq!(status, 404);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("--board 2x3 --metric mtm"),
        "{v}"
    );
}
