//! The server in-process on a free loopback port, spoken to over raw TCP:
//! every route, every error status, answers equal to the library's and to
//! the command line's `--json`, and hostile requests.

use super::boards::{Boards, Served};
use super::{router, serve, Limits};
use clap::Parser;
use npuzzle::{Board, CompleteTables, Move, Shape};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Databases built once for all tests: 2x3 and 3x3 complete, and a 2x3
/// with only the table of its last cell (so that goals with the blank in
/// the middle of a row have no table).
struct Files {
    _dir: tempfile::TempDir,
    full_2x3: PathBuf,
    full_3x3: PathBuf,
    partial_2x3: PathBuf,
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
                &npuzzle::default_blanks(Shape::THREE_BY_THREE),
            ),
            partial_2x3: build("partial-2x3.db", "2x3", &[5]),
            _dir: dir,
        }
    })
}

fn open(path: &Path) -> Served {
    let db = CompleteTables::open(path).unwrap();
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
        handler: Duration::from_secs(5),
        shutdown_grace: Duration::from_millis(200),
    }
}

fn start(paths: &[&PathBuf]) -> TestServer {
    let boards = Boards::new(paths.iter().map(|p| open(p)).collect(), None);
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
            serve(listener, router(boards), limits(), async {
                let _ = stopped.await;
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
    (status, value)
}

/// What `query --db PATH ARGS…` prints, run in-process.
fn cli_json(path: &Path, args: &[&str]) -> serde_json::Value {
    let mut argv = vec!["query", "--db", path.to_str().unwrap()];
    argv.extend_from_slice(args);
    let cli = crate::Cli::try_parse_from(argv).unwrap();
    let db = npuzzle::Database::open(path).unwrap();
    let tables = db.complete().unwrap();
    let mut out = Vec::new();
    match &cli.command {
        crate::Command::Solve(a) => crate::solve::solve(&db, a, &mut out),
        crate::Command::Distance(a) => crate::solve::distance(&db, a, &mut out),
        crate::Command::Random(a) => crate::random::run(tables, a, &mut out),
        crate::Command::Histogram(a) => crate::histogram::run(tables, a, &mut out),
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

    let (_, api) = get(server.addr, "/api/random?distance=20&count=5&seed=7");
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

    let (_, api) = get(server.addr, "/api/histogram");
    assert_eq!(api, cli_json(&f.full_3x3, &["histogram", "--json"]));
    let (_, api) = get(server.addr, "/api/histogram?board=2x3&goal=102345");
    assert_eq!(
        api,
        cli_json(&f.full_2x3, &["histogram", "--json", "--goal", "102345"])
    );
}

#[test]
fn moves_and_solutions_agree_with_the_library() {
    let server = full();
    let db = CompleteTables::open(&files().full_3x3).unwrap();
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

#[test]
fn each_error_has_its_status_and_a_json_message() {
    let f = files();
    let server = start(&[&f.partial_2x3, &f.full_3x3]);
    // By status: bad requests, what is not served, unsolvable pairs.
    let bad_request: &[(&str, &str)] = &[
        ("/api/solve?board=nonsense&start=1", "bad board size"),
        ("/api/solve?board=4x4&start=1", "16 cells"),
        (
            "/api/solve?start=12345678",
            "bad start board \"12345678\": expected 9 tiles",
        ),
        ("/api/solve?start=123456780&goal=1", "bad goal board"),
        ("/api/solve", "missing parameter: start"),
        ("/api/moves?start=1234%FF5678", "bad start board"),
        (
            "/api/solve?start=867254301&bogus=1",
            "unknown field `bogus`",
        ),
        (
            "/api/solve?start=867254301&start=867254301",
            "duplicate field",
        ),
        ("/api/random?distance=x", "bad distance"),
        ("/api/random", "missing parameter: distance"),
        ("/api/random?distance=40", "maximum distance is 31"),
        ("/api/random?distance=20&count=0", "bad count"),
        ("/api/random?distance=20&count=1001", "bad count"),
        ("/api/random?distance=1&count=3", "only 2 lie"),
        ("/api/random?distance=20&seed=-1", "bad seed"),
    ];
    let not_found: &[(&str, &str)] = &[
        ("/api/solve?board=3x4&start=1", "no 3x4 database is served"),
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
        assert_eq!(get(addr, "/api/boards").0, 200, "after {what}");
    }
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
