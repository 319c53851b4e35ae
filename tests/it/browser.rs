//! `query serve` in a real browser: headless Chromium driven through
//! WebDriver (chromedriver), against the real binary on a free port.
//!
//! Ignored by default: they need Debian's `chromium` and `chromium-driver`.
//! `scripts/browser-tests.sh` installs both and runs them. The screenshot
//! they take is `docs/serve.png`.

use fantoccini::{key::Key, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
pub(crate) struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The server with 2x3 and 3x3 databases built in a temporary folder, and
/// its URL.
pub(crate) struct Server {
    _dir: tempfile::TempDir,
    child: Option<Killed>,
    args: Vec<String>,
    url: String,
}

impl Server {
    /// The database of `size` boards the server was given.
    pub(crate) fn db(&self, size: &str) -> PathBuf {
        self._dir.path().join(format!("{size}.db"))
    }

    /// Stops the server, as Ctrl-C would.
    fn stop(&mut self) {
        self.child = None;
    }

    /// Starts the server again, on the same port and files.
    fn start_again(&mut self) {
        assert!(self.child.is_none(), "the server is running");
        let port = self.url.trim_end_matches('/').rsplit(':').next().unwrap();
        let mut args = self.args.clone();
        let at = args.iter().position(|a| a == "--port").unwrap();
        args[at + 1] = port.to_string();
        let (child, url) = run_serve(&args);
        assert_eq!(url, self.url);
        self.child = Some(child);
    }
}

pub(crate) fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["serve".to_string(), "--port".into(), "0".into()];
    for (size, blanks) in [("2x3", vec![0, 1, 2, 3, 4, 5]), ("3x3", vec![8, 7, 4])] {
        let shape: npuzzle::Shape = size.parse().unwrap();
        let path = dir.path().join(format!("{size}.db"));
        let plan = npuzzle::Plan::Complete {
            shape,
            metric: npuzzle::Metric::SingleTile,
            blanks,
            paths: true,
        };
        npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
        args.extend(["--db".into(), path.to_str().unwrap().to_string()]);
    }
    spawn(dir, &args)
}

/// How long the 4x4 server lets a search run: enough for the positions a
/// test plays (a few dozen moves from the goal) in a debug build, short
/// enough that the page's first random puzzle does not hold a test long.
const SEARCH_SECONDS: &str = "5";

/// The server with a 3x3 complete file and the 4x4 `6-6-3` pattern file,
/// opening on 4x4, whose searches stop after [`SEARCH_SECONDS`].
pub(crate) fn server_4x4() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let nine = dir.path().join("3x3.db");
    let shape = npuzzle::Shape::THREE_BY_THREE;
    let plan = npuzzle::Plan::Complete {
        shape,
        metric: npuzzle::Metric::SingleTile,
        blanks: vec![8, 7, 4],
        paths: true,
    };
    npuzzle::build(&nine, &plan, &|_, _| {}).unwrap();
    let sixteen = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let args: Vec<String> = [
        "serve",
        "--port",
        "0",
        "--board",
        "4x4",
        "--timeout",
        SEARCH_SECONDS,
        "--db",
        nine.to_str().unwrap(),
        "--db",
        sixteen.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    spawn(dir, &args)
}

/// `query serve` over the tests' shared 3x3 file, with `args` besides (a
/// `--port` among them).
fn serve_3x3_with(args: &[&str]) -> Server {
    let db = &crate::util::temp_db("3x3").path;
    let mut all: Vec<String> = ["serve", "--db"].map(String::from).to_vec();
    all.push(db.to_str().unwrap().to_string());
    all.extend(args.iter().map(|a| a.to_string()));
    spawn(tempfile::tempdir().unwrap(), &all)
}

/// `query ARGS` (a `serve`) over the files in `dir`, once it prints its URL.
pub(crate) fn spawn(dir: tempfile::TempDir, args: &[String]) -> Server {
    let (child, url) = run_serve(args);
    Server {
        _dir: dir,
        child: Some(child),
        args: args.to_vec(),
        url,
    }
}

/// `query ARGS` (a `serve`) and the URL it prints.
fn run_serve(args: &[String]) -> (Killed, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("http://127.0.0.1:"), "{line:?}");
    (Killed(child), line.trim().to_string())
}

/// A GET to the server's API, parsed.
pub(crate) fn api(url: &str, path: &str) -> Value {
    serde_json::from_str(&get(url, path)).unwrap()
}

/// A GET to the server: the body, as text.
pub(crate) fn get(url: &str, path: &str) -> String {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_once("\r\n\r\n").unwrap().1.to_string()
}

/// `--host localhost` listens on 127.0.0.1 and, where the machine has
/// IPv6, on ::1 at the same port: a client that resolves `localhost` to
/// ::1 alone (Node's `fetch`) reaches the page too. No browser needed.
#[test]
fn serve_on_localhost_answers_on_both_loopbacks() {
    let server = serve_3x3_with(&["--port", "0", "--host", "localhost"]);
    let port = server.url.trim_end_matches('/').rsplit(':').next().unwrap();
    let boards = |host: &str| api(&format!("http://{host}:{port}/"), "/api/boards");
    assert_eq!(boards("127.0.0.1")["default"], "3x3");
    match std::net::TcpListener::bind("[::1]:0") {
        Ok(_) => assert_eq!(boards("[::1]")["default"], "3x3"),
        Err(e) => {
            eprintln!("no IPv6 loopback here ({e}): only 127.0.0.1 checked");
            return;
        }
    }
    // ::1 at the port asked for is another program's: 127.0.0.1 is served
    // all the same, as before `localhost` meant both.
    let taken = std::net::TcpListener::bind("[::1]:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let server = serve_3x3_with(&["--host", "localhost", "--port", &port]);
    let answer = api(&server.url, "/api/boards");
    assert_eq!(answer["default"], "3x3");
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port, and a headless Chromium session through it.
pub(crate) async fn browser() -> (Killed, Client, tempfile::TempDir) {
    let port = free_port();
    let driver = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver (Debian's chromium-driver) is installed");
    let driver = Killed(driver);
    let began = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let profile = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-quic".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-dev-shm-usage".into(),
        "--window-size=1100,1000".into(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    let mut options = json!({ "args": [] });
    if Path::new("/usr/bin/chromium").exists() {
        options["binary"] = "/usr/bin/chromium".into();
    }
    options["args"] = Value::from(std::mem::take(&mut args));
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), options);
    let client = ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session");
    (driver, client, profile)
}

/// What keeps a test's page alive: the server, chromedriver and the
/// browser's profile folder.
pub(crate) struct Session {
    pub(crate) server: Server,
    _driver: Killed,
    _profile: tempfile::TempDir,
}

/// The server started, a browser session through chromedriver, and the
/// page loaded and settled: the session, the browser and the page's URL.
pub(crate) async fn open_page() -> (Session, Client, String) {
    open_page_of(server()).await
}

/// [`open_page`] on `server`.
pub(crate) async fn open_page_of(server: Server) -> (Session, Client, String) {
    let url = server.url.clone();
    let (driver, c, profile) = browser().await;
    c.goto(&url).await.unwrap();
    settle(&c).await;
    let session = Session {
        server,
        _driver: driver,
        _profile: profile,
    };
    (session, c, url)
}

/// Whether `script` returns `true` on the page.
pub(crate) async fn holds(c: &Client, script: &str) -> bool {
    c.execute(script, vec![]).await.unwrap() == Value::Bool(true)
}

/// Polls `script` every `every` until it returns `true`; fails with `what`
/// once `deadline` has passed.
pub(crate) async fn wait_until(
    c: &Client,
    script: &str,
    deadline: Instant,
    every: Duration,
    what: &str,
) {
    while !holds(c, script).await {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(every).await;
    }
}

/// Waits until the page has no request under way.
pub(crate) async fn settle(c: &Client) {
    const IDLE: &str = "return document.body.dataset.busy === '0';";
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let every = Duration::from_millis(20);
        wait_until(c, IDLE, deadline, every, "the page stayed busy").await;
        // One more frame, for the answer to be drawn.
        tokio::time::sleep(Duration::from_millis(30)).await;
        if holds(c, IDLE).await {
            return;
        }
    }
}

pub(crate) async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// The distance shown, and the position shown.
pub(crate) async fn shown(c: &Client) -> (u64, String) {
    let d = text(c, "distance").await;
    let d = d
        .parse()
        .unwrap_or_else(|_| panic!("distance shown: {d:?}"));
    (d, text(c, "position").await)
}

/// That the distance shown is the API's for the position shown.
async fn check_distance(c: &Client, url: &str) -> (u64, String) {
    let (d, position) = shown(c).await;
    let answer = api(url, &format!("/api/distance?start={position}"));
    assert_eq!(answer["distance"], d, "shown {d} for {position}");
    (d, position)
}

/// The blank moves that tiles marked by the hint make.
pub(crate) async fn hinted(c: &Client) -> Vec<String> {
    let mut moves = Vec::new();
    for tile in c.find_all(Locator::Css("#board .tile.hint")).await.unwrap() {
        moves.push(tile.attr("data-move").await.unwrap().unwrap());
    }
    moves.sort();
    moves
}

/// Sets a range input's value as a user dragging it would.
pub(crate) async fn slide(c: &Client, id: &str, value: u64) {
    c.execute(
        "const e = document.getElementById(arguments[0]); e.value = arguments[1]; \
         e.dispatchEvent(new Event('input'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

/// The moves the API lists from `position` (on the default board): each
/// with its letter, the board it leads to and the change in distance.
fn moves_from(url: &str, position: &str) -> Vec<Value> {
    let answer = api(url, &format!("/api/moves?start={position}"));
    answer["moves"].as_array().unwrap().clone()
}

/// Clicks the element `locator` finds, as a user would.
pub(crate) async fn click(c: &Client, locator: Locator<'_>) {
    c.find(locator).await.unwrap().click().await.unwrap();
}

/// Clicks the element `locator` finds and waits for the page to settle.
pub(crate) async fn click_and_settle(c: &Client, locator: Locator<'_>) {
    click(c, locator).await;
    settle(c).await;
}

/// Asks for a new puzzle `k` moves from the goal, with the slider and the
/// button a user would use.
pub(crate) async fn new_puzzle_at(c: &Client, k: u64) {
    slide(c, "k", k).await;
    click_and_settle(c, Locator::Id("new-k")).await;
}

async fn custom(c: &Client, start: &str) {
    let input = c.find(Locator::Id("custom-start")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(start).await.unwrap();
    click_and_settle(c, Locator::Id("custom-set")).await;
}

/// Waits until the end-of-game report shows, and the page settles.
pub(crate) async fn wait_for_report(c: &Client) {
    let shown = "return !document.getElementById('report').hidden;";
    let deadline = Instant::now() + Duration::from_secs(30);
    let every = Duration::from_millis(50);
    wait_until(c, shown, deadline, every, "no end-of-game report").await;
    settle(c).await;
}

pub(crate) async fn report(c: &Client) -> (u64, u64, u64) {
    let e = c.find(Locator::Id("report")).await.unwrap();
    let field = |v: Option<String>| v.unwrap().parse::<u64>().unwrap();
    (
        field(e.attr("data-moves").await.unwrap()),
        field(e.attr("data-optimum").await.unwrap()),
        field(e.attr("data-farther").await.unwrap()),
    )
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn play_in_a_real_browser() {
    let (_session, c, url) = open_page().await;
    // The page opens on 3x3 with a puzzle, and its distance is the API's.
    check_distance(&c, &url).await;
    assert_eq!(text(&c, "goal-text").await, "123456780");

    // A known start, then moves by click: the distance follows the API.
    custom(&c, "647850321").await;
    let (d, position) = check_distance(&c, &url).await;
    assert_eq!((d, position.as_str()), (31, "647850321"));
    for _ in 0..3 {
        let before = shown(&c).await.1;
        let tile = c.find(Locator::Css("#board .tile.movable")).await.unwrap();
        let m = tile.attr("data-move").await.unwrap().unwrap();
        tile.click().await.unwrap();
        settle(&c).await;
        let (_, after) = check_distance(&c, &url).await;
        let moves = moves_from(&url, &before);
        let expected = moves.iter().find(|e| e["move"] == m).unwrap();
        assert_eq!(expected["board"], after.as_str());
    }
    assert_eq!(text(&c, "move-count").await, "3");

    // Moves by keyboard: an arrow slides a tile that way (the blank the other).
    click_and_settle(&c, Locator::Id("board")).await;
    for (key, blank) in [
        (Key::Left, "R"),
        (Key::Up, "D"),
        (Key::Right, "L"),
        (Key::Down, "U"),
    ] {
        let before = shown(&c).await.1;
        let count: u64 = text(&c, "move-count").await.parse().unwrap();
        let expected = moves_from(&url, &before)
            .into_iter()
            .find(|e| e["move"] == blank);
        c.find(Locator::Id("board"))
            .await
            .unwrap()
            .send_keys(&char::from(key).to_string())
            .await
            .unwrap();
        settle(&c).await;
        let (_, after) = check_distance(&c, &url).await;
        match expected {
            Some(e) => {
                assert_eq!(e["board"], after.as_str(), "{blank}");
                assert_eq!(text(&c, "move-count").await, (count + 1).to_string());
            }
            None => assert_eq!(after, before, "{blank} runs into the edge"),
        }
    }

    // A hint marks exactly the moves one step closer; ±1 on every move.
    click_and_settle(&c, Locator::Id("hint")).await;
    let position = shown(&c).await.1;
    let moves = moves_from(&url, &position);
    let mut closer: Vec<String> = moves
        .iter()
        .filter(|e| e["change"] == -1)
        .map(|e| e["move"].as_str().unwrap().to_string())
        .collect();
    closer.sort();
    assert!(!closer.is_empty());
    assert_eq!(hinted(&c).await, closer);
    click_and_settle(&c, Locator::Id("show-changes")).await;
    let badges = c
        .find_all(Locator::Css("#board .cell .change"))
        .await
        .unwrap();
    assert_eq!(badges.len(), moves.len());
    assert_eq!(
        hinted(&c).await,
        closer,
        "the hint stays until the next move"
    );
    // From the top of the page, which "Play this", low in the panel, scrolled.
    c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    let shot = c.screenshot().await.unwrap();
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/serve.png");
    std::fs::write(&docs, shot).unwrap();

    // "New puzzle at K" shows a position K moves away.
    for k in [12, 0, 5] {
        new_puzzle_at(&c, k).await;
        let (d, _) = check_distance(&c, &url).await;
        assert_eq!(d, k);
        assert_eq!(text(&c, "move-count").await, "0");
    }
    // The hardest position.
    click_and_settle(&c, Locator::Id("hardest")).await;
    assert_eq!(check_distance(&c, &url).await.0, 31);

    // Play the solution back to the goal from 12 moves: a perfect game.
    new_puzzle_at(&c, 12).await;
    slide(&c, "speed", 20).await;
    click(&c, Locator::Id("solve-play")).await;
    wait_for_report(&c).await;
    assert_eq!(shown(&c).await, (0, "123456780".to_string()));
    assert_eq!(report(&c).await, (12, 12, 0));
    assert!(text(&c, "report").await.contains("a perfect game"));

    // One move away from the goal, then the solver: the report names it.
    new_puzzle_at(&c, 5).await;
    let position = shown(&c).await.1;
    let moves = moves_from(&url, &position);
    let away = moves.iter().find(|e| e["change"] == 1).unwrap();
    let selector = format!(
        "#board .tile[data-move='{}']",
        away["move"].as_str().unwrap()
    );
    click_and_settle(&c, Locator::Css(&selector)).await;
    assert_eq!(check_distance(&c, &url).await.0, 6);
    // Step pressed twice before its solution has come: two moves.
    let twice = "const b = document.getElementById('solve-step'); b.click(); b.click();";
    c.execute(twice, vec![]).await.unwrap();
    settle(&c).await;
    assert_eq!(check_distance(&c, &url).await.0, 4);
    for _ in 0..4 {
        click_and_settle(&c, Locator::Id("solve-step")).await;
        check_distance(&c, &url).await;
    }
    wait_for_report(&c).await;
    assert_eq!(report(&c).await, (7, 5, 1));
    let said = text(&c, "report-farther").await;
    assert!(said.contains("move 1: tile"), "{said}");

    // Another board size.
    let select = c.find(Locator::Id("board-size")).await.unwrap();
    select.select_by_value("2x3").await.unwrap();
    settle(&c).await;
    assert_eq!(text(&c, "goal-text").await, "123450");
    let (_, position) = shown(&c).await;
    let answer = api(&url, &format!("/api/distance?board=2x3&start={position}"));
    assert_eq!(answer["distance"].to_string(), text(&c, "distance").await);

    c.close().await.unwrap();
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_bad_custom_board_shows_the_command_lines_error() {
    let (_session, c, _url) = open_page().await;
    let before = shown(&c).await;
    for (start, says) in [
        ("12345", "bad start board \"12345\": expected 9 tiles for a 3x3 board (the blank included), got 5"),
        ("112345678", "bad start board \"112345678\""),
        ("213456780", "unsolvable: the start has 1 tile inversion "),
    ] {
        custom(&c, start).await;
        let error = c.find(Locator::Id("custom-error")).await.unwrap();
        assert!(error.is_displayed().await.unwrap(), "{start}");
        let shown_error = error.text().await.unwrap();
        assert!(shown_error.starts_with(says), "{start}: {shown_error:?}");
        // The game in play is left as it was.
        assert_eq!(shown(&c).await, before);
    }
    // As many tiles as a board the page serves: which, and where to choose it.
    custom(&c, "1 2 3 4 5 0").await;
    let said = text(&c, "custom-error").await;
    let fit = "got 6; 6 tiles fit the 2x3";
    assert!(
        said.contains(fit) && said.ends_with("board: choose it under Size first."),
        "{said}"
    );
    custom(&c, "1 2 3 4 5 6 7 8 9 0").await;
    let said = text(&c, "custom-error").await;
    assert!(
        said.ends_with("got 10"),
        "a tile too many is a slip: {said}"
    );
    c.close().await.unwrap();
}

/// The red banner's text, when it is shown.
pub(crate) async fn banner(c: &Client) -> Option<String> {
    match displayed(c, "error").await {
        true => Some(text(c, "error").await),
        false => None,
    }
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_server_that_stops_is_said_plainly_and_the_banner_clears_when_it_is_back() {
    let (mut session, c, url) = open_page().await;
    // Two moves from the goal.
    custom(&c, "123405786").await;
    let (d, _) = check_distance(&c, &url).await;
    assert_eq!(d, 2);
    assert_eq!(banner(&c).await, None);
    // Before any move, the trace marks where the game starts.
    let marked = "return document.querySelectorAll('#trace .trace-now').length;";
    assert_eq!(c.execute(marked, vec![]).await.unwrap(), json!(1));

    // The server stops; two moves are made meanwhile, the second to a
    // position whose distance the page never learnt.
    session.server.stop();
    for _ in 0..2 {
        click_and_settle(&c, Locator::Css("#board .tile.movable")).await;
    }
    let said = banner(&c).await.expect("a banner while the server is away");
    assert!(said.contains("The server is not answering"), "{said}");
    assert!(!said.contains("Failed to fetch"), "{said}");

    // Back: the page finds it within seconds, with no move made, and the
    // banner goes; the game plays on to the goal with its report.
    session.server.start_again();
    let gone = "return document.getElementById('error').hidden;";
    let deadline = Instant::now() + Duration::from_secs(8);
    wait_until(
        &c,
        gone,
        deadline,
        Duration::from_millis(100),
        "the banner stayed",
    )
    .await;
    // With no move made, the position's distance comes, and the moves
    // made meanwhile get theirs: the trace holds every move.
    settle(&c).await;
    let (d, _) = check_distance(&c, &url).await;
    let traced = "return document.getElementById('trace').getAttribute('aria-label');";
    let traced = c.execute(traced, vec![]).await.unwrap();
    let points = traced.as_str().unwrap().split(", ").count();
    assert_eq!(
        points, 3,
        "the start and both moves, at distance {d}: {traced}"
    );
    for step in 0.. {
        if shown_distance(&c).await == Some(0) {
            break;
        }
        assert!(step < 10, "not at the goal after {step} solver's moves");
        click_and_settle(&c, Locator::Id("solve-step")).await;
        assert_eq!(banner(&c).await, None);
    }
    wait_for_report(&c).await;
    let moves: u64 = text(&c, "move-count").await.parse().unwrap();
    assert_eq!(report(&c).await.0, moves);
    assert_eq!(report(&c).await.1, 2);
    assert_eq!(banner(&c).await, None);
    c.close().await.unwrap();
}

/// The distance shown, when it is known.
async fn shown_distance(c: &Client) -> Option<u64> {
    text(c, "distance").await.parse().ok()
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn another_board_size_starts_your_own_start_and_goal_afresh() {
    let (_session, c, _url) = open_page().await;
    custom(&c, "867254301").await;
    let goal = c.find(Locator::Id("custom-goal")).await.unwrap();
    goal.send_keys("123456780").await.unwrap();
    let select = c.find(Locator::Id("board-size")).await.unwrap();
    select.select_by_value("2x3").await.unwrap();
    settle(&c).await;
    for id in ["custom-start", "custom-goal"] {
        let field = c.find(Locator::Id(id)).await.unwrap();
        assert_eq!(
            field.prop("value").await.unwrap().as_deref(),
            Some(""),
            "{id}"
        );
        let example = field.attr("placeholder").await.unwrap().unwrap();
        assert_eq!(example.len(), 6, "{id}: {example}");
    }
    // "Play this" with nothing typed says what to type, for this board.
    click_and_settle(&c, Locator::Id("custom-set")).await;
    let error = text(&c, "custom-error").await;
    assert!(
        error.starts_with("Type a start position first: a 2x3 board, such as "),
        "{error}"
    );
    // And a 2x3 start plays.
    custom(&c, "123405").await;
    assert_eq!(shown(&c).await, (1, "123405".to_string()));
    assert!(!displayed(&c, "custom-error").await);
    c.close().await.unwrap();
}

/// On a phone 360 pixels wide the largest board, 6x6, fits: nothing
/// overflows the page sideways, and the board keeps a margin on the right
/// as on the left.
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_6x6_board_fits_a_phone() {
    let server = serve_3x3_with(&["--port", "0", "--board", "6x6"]);
    let url = server.url.clone();
    let (session, c, _) = open_page_of(server).await;
    c.set_window_size(360, 740).await.unwrap();
    c.goto(&url).await.unwrap();
    settle(&c).await;
    assert_eq!(
        c.find_all(Locator::Css("#board .tile"))
            .await
            .unwrap()
            .len(),
        35
    );
    let sizes = c
        .execute(
            "const b = document.getElementById('board').getBoundingClientRect(); \
             const root = document.documentElement; \
             return [root.scrollWidth, root.clientWidth, b.left, b.right];",
            vec![],
        )
        .await
        .unwrap();
    let n: Vec<f64> = (sizes.as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap())
        .collect();
    let (scroll, client, left, right) = (n[0], n[1], n[2], n[3]);
    assert!(scroll <= client, "the page is {scroll} wide in {client}");
    assert!(
        client - right >= left - 1.0,
        "margins {left} and {}",
        client - right
    );
    drop(session);
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_histogram_is_in_view_in_a_1200_by_900_window() {
    let (_session, c, url) = open_page().await;
    c.set_window_size(1200, 900).await.unwrap();
    c.goto(&url).await.unwrap();
    settle(&c).await;
    for size in ["3x3", "2x3"] {
        let select = c.find(Locator::Id("board-size")).await.unwrap();
        select.select_by_value(size).await.unwrap();
        settle(&c).await;
        let bottom = c
            .execute(
                "return [document.getElementById('histogram-card').getBoundingClientRect().bottom, \
                 window.innerHeight];",
                vec![],
            )
            .await
            .unwrap();
        let bottom = bottom.as_array().unwrap();
        let (bottom, height) = (bottom[0].as_f64().unwrap(), bottom[1].as_f64().unwrap());
        // The window's own bars take their share of the 900 pixels.
        assert!(
            bottom <= height,
            "{size}: the histogram ends at {bottom} px, the window shows {height}"
        );
        let shot = c.screenshot().await.unwrap();
        let path =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{size}-1200x900.png"));
        std::fs::write(path, shot).unwrap();
    }
    c.close().await.unwrap();
}

/// `query --db DB distance POSITION` on a 4x4 board: the command line's
/// own search, apart from the server's.
fn cli_distance(db: &Path, position: &str) -> u64 {
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args(["--db", db.to_str().unwrap(), "--board", "4x4", "distance"])
        .arg(position)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "query distance {position}: {said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    said.trim().parse().unwrap()
}

/// `steps` moves from `goal`, never undoing the last, chosen by a fixed
/// sequence from `seed`: a position at most `steps` moves away.
fn walk(goal: npuzzle::Board, steps: usize, mut seed: u64) -> npuzzle::Board {
    let mut board = goal;
    let mut last: Option<npuzzle::Move> = None;
    for _ in 0..steps {
        let choices: Vec<_> = board
            .successors()
            .filter(|(m, _)| Some(m.opposite()) != last)
            .collect();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (m, next) = choices[(seed >> 33) as usize % choices.len()];
        board = next;
        last = Some(m);
    }
    board
}

/// The rows of the heuristics panel's table, each its cells' text.
pub(crate) async fn heuristics_rows(c: &Client) -> Vec<serde_json::Value> {
    table_rows(c, "heuristics").await
}

/// The rows of the page's table `id`, each an array of its cells' text.
pub(crate) async fn table_rows(c: &Client, id: &str) -> Vec<serde_json::Value> {
    let script = format!(
        "return [...document.querySelectorAll('#{id} tbody tr')].map((r) => \
         [...r.cells].map((c) => c.textContent));"
    );
    let rows = c.execute(&script, vec![]).await.unwrap();
    rows.as_array().unwrap().clone()
}

/// Checks that the heuristics panel's rows are what `query heuristics
/// START --json` answered (`cli`): each heuristic, its h, the distance and
/// the verdict, as the page words them.
pub(crate) async fn panel_shows(c: &Client, cli: &Value, context: &str) {
    let rows = heuristics_rows(c).await;
    let expected = cli["heuristics"].as_array().unwrap();
    assert_eq!(rows.len(), expected.len(), "{context}");
    for (row, e) in rows.iter().zip(expected) {
        let verdict = match e["admissible_here"].as_bool().unwrap() {
            true => "admissible here".to_string(),
            false => format!("overestimates by {}", e["overestimate"]),
        };
        let want = json!([
            e["heuristic"],
            e["h"].to_string(),
            cli["distance"].to_string(),
            verdict
        ]);
        assert_eq!(row, &want, "{context}");
    }
}

/// Whether the element `id` is shown.
pub(crate) async fn displayed(c: &Client, id: &str) -> bool {
    let e = c.find(Locator::Id(id)).await.unwrap();
    e.is_displayed().await.unwrap()
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn play_4x4_with_exact_distances_and_hints() {
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let (_session, c, _url) = open_page_of(server_4x4()).await;
    let shape: npuzzle::Shape = "4x4".parse().unwrap();
    let goal = npuzzle::Board::goal(shape);

    // The page adapts to a pattern board: a uniformly random puzzle, said
    // so, puzzles at K moves found by walks, and no histogram.
    let size = c
        .execute(
            "return document.getElementById('board-size').value;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(size, "4x4");
    assert_eq!(text(&c, "goal-text").await, goal.to_string());
    assert!(displayed(&c, "k-controls").await);
    assert!(!displayed(&c, "hardest").await);
    // No histogram, and the page says why.
    assert!(!displayed(&c, "histogram").await);
    let why = text(&c, "histogram-note").await;
    assert!(why.starts_with("No histogram on this board"), "{why}");
    assert!(displayed(&c, "random-controls").await);
    let note = text(&c, "random-note").await;
    assert!(note.contains("drawn uniformly"), "{note}");
    assert!(note.contains("found by a random walk"), "{note}");
    assert!(note.contains("need every position's distance"), "{note}");

    // A puzzle at 20 moves, walked: 20 by the command line's search; with a
    // seed, the command line's first of the set, and a worksheet of it.
    new_puzzle_at(&c, 20).await;
    let (d, position) = shown(&c).await;
    assert_eq!((d, cli_distance(&db, &position)), (20, 20));
    crate::browser_classroom::type_into(&c, "seed", "5").await;
    crate::browser_classroom::type_into(&c, "count", "3").await;
    new_puzzle_at(&c, 20).await;
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args(["--db", db.to_str().unwrap(), "--board", "4x4", "random"])
        .args(["--distance", "20", "--count", "3", "--seed", "5"])
        .output()
        .unwrap();
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(String::from);
    // The command the page shows draws that set.
    assert_eq!(
        text(&c, "seed-command").await,
        "query --board 4x4 random --distance 20 --count 3 --seed 5"
    );
    assert_eq!(Some(shown(&c).await.1), first);
    let sheet = c
        .execute("return document.getElementById('worksheet').href;", vec![])
        .await
        .unwrap();
    let sheet = sheet.as_str().unwrap();
    assert!(
        sheet.contains("board=4x4") && sheet.contains("distance=20") && sheet.contains("seed=5"),
        "{sheet}"
    );
    crate::browser_classroom::type_into(&c, "seed", "").await;

    // A position 18 moves out, typed in; then moves by click, alternating
    // one farther and two closer. After each, the distance shown is the
    // command line's, and the hint marks exactly the moves to a neighbour
    // whose distance (the command line's) is lower.
    let start = walk(goal, 18, 7);
    custom(&c, &start.to_string()).await;
    assert_eq!(text(&c, "position").await, start.to_string());
    for step in 0..6 {
        let (d, position) = shown(&c).await;
        assert_eq!(d, cli_distance(&db, &position), "after {step} moves");
        let board = npuzzle::parse_board(&position, shape).unwrap();
        click_and_settle(&c, Locator::Id("hint")).await;
        let mut closer = Vec::new();
        let mut farther = Vec::new();
        for (m, next) in board.successors() {
            let after = cli_distance(&db, &next.to_string());
            assert_eq!(after.abs_diff(d), 1, "{next}");
            let list = if after < d { &mut closer } else { &mut farther };
            list.push(m.letter().to_string());
        }
        closer.sort();
        assert!(!closer.is_empty(), "{position}");
        assert_eq!(hinted(&c).await, closer, "{position}");
        if step == 0 {
            let shot = c.screenshot().await.unwrap();
            let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/serve-4x4.png");
            std::fs::write(&docs, shot).unwrap();
        }
        let m = farther
            .first()
            .filter(|_| step % 3 == 0)
            .unwrap_or(&closer[0]);
        click_and_settle(&c, Locator::Css(&format!("#board .tile[data-move='{m}']"))).await;
        let expected = board.apply(npuzzle::Move::from_letter(m.chars().next().unwrap()).unwrap());
        assert_eq!(text(&c, "position").await, expected.unwrap().to_string());
    }
    assert_eq!(text(&c, "move-count").await, "6");

    // The solver's steps: one closer each.
    for _ in 0..3 {
        let (d, _) = shown(&c).await;
        click_and_settle(&c, Locator::Id("solve-step")).await;
        let (after, position) = shown(&c).await;
        assert_eq!(after + 1, d);
        assert_eq!(after, cli_distance(&db, &position));
    }

    // The heuristics panel adds the pattern tables' own estimate, as
    // `query heuristics START` does.
    click(&c, Locator::Css("#heuristics-panel summary")).await;
    settle(&c).await;
    let position = shown(&c).await.1;
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args([
            "--db",
            db.to_str().unwrap(),
            "--board",
            "4x4",
            "heuristics",
            "--json",
        ])
        .arg(&position)
        .output()
        .unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = heuristics_rows(&c).await;
    let last = rows.last().cloned().unwrap();
    let pattern = &cli["pattern_database"];
    assert_eq!(last[0], "pattern db 6-6-3", "{rows:?}");
    assert_eq!(last[1], pattern["h"].to_string(), "{rows:?}");
    assert_eq!(last[2], cli["distance"].to_string(), "{rows:?}");
    assert_eq!(last[3], "admissible here", "{rows:?}");

    // One of the farthest positions, 80 moves out (Gasser's, turned to
    // this goal): "searching…" shows while the server searches; past its
    // timeout the game starts all the same, its distance unknown ("?") and
    // said so, and a solution within a factor still comes. The `6-6-3`
    // search of it takes about 40 s in a release build, 8 times the
    // timeout, so the test holds in either build.
    let far = "0 12 9 13 15 11 10 14 3 7 5 6 4 8 2 1";
    let input = c.find(Locator::Id("custom-start")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(far).await.unwrap();
    click(&c, Locator::Id("custom-set")).await;
    let searching = "return !document.getElementById('searching').hidden;";
    let deadline = Instant::now() + Duration::from_secs(4);
    let every = Duration::from_millis(50);
    wait_until(&c, searching, deadline, every, "no searching… state").await;
    assert!(text(&c, "searching").await.contains("searching"));
    let shot = c.screenshot().await.unwrap();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-4x4-searching.png");
    std::fs::write(path, shot).unwrap();
    settle(&c).await;
    assert!(!displayed(&c, "searching").await);
    assert_eq!(text(&c, "position").await, far);
    assert_eq!(text(&c, "distance").await, "?");
    let note = text(&c, "distance-note").await;
    assert!(
        note.contains("longer than the server's --timeout"),
        "{note}"
    );
    assert_eq!(text(&c, "custom-error").await, "");
    let choose = "const s = document.getElementById('within'); s.value = '2'; \
                  s.dispatchEvent(new Event('change'));";
    c.execute(choose, vec![]).await.unwrap();
    // The hint, with no distance known, marks the first move of a solution
    // within the factor chosen: the one Solve then shows.
    click_and_settle(&c, Locator::Id("hint")).await;
    let hinted = "const t = document.querySelector('#board button.hint'); \
                  return t ? [t.dataset.move, t.getAttribute('aria-label')] : null;";
    let hinted = c.execute(hinted, vec![]).await.unwrap();
    let label = hinted[1].as_str().unwrap_or_default().to_string();
    assert!(
        label.ends_with(", starts a solution at most 2 × the shortest"),
        "{label}"
    );
    click_and_settle(&c, Locator::Id("show-solution")).await;
    let said = text(&c, "solution-note").await;
    assert!(said.contains("; the shortest is at least"), "{said}");
    let letters = text(&c, "solution-moves").await;
    let moves = crate::util::moves_of(&letters);
    let far = npuzzle::parse_board(far, shape).unwrap();
    assert_eq!(far.replay(&moves), Some(goal));
    assert_eq!(hinted[0].as_str(), Some(&letters[..1]), "{letters}");
    // The heuristics' search proves a bound of its own by the timeout: the
    // table and the solution's note give the larger of the two, the same.
    let bound_in = |words: &str| -> u32 {
        let after = words
            .split("at least ")
            .nth(1)
            .unwrap_or_else(|| panic!("{words}"));
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap()
    };
    let solution_bound = bound_in(&said);
    // (The panel is open from above.)
    let truth = c.find(Locator::Css("#heuristics td.truth")).await.unwrap();
    let truth = truth.text().await.unwrap();
    let said = text(&c, "solution-note").await;
    assert_eq!(bound_in(&truth), bound_in(&said), "{truth} against {said}");
    assert!(bound_in(&said) >= solution_bound, "{said}");
    // A new game takes the last one's solution away, its note with it.
    click_and_settle(&c, Locator::Id("restart")).await;
    assert_eq!(text(&c, "solution-note").await, "");

    c.close().await.unwrap();
}

/// `serve --board 6x6`: a board no database can be built for, served with
/// none. The page opens on it, hides what needs distances and says why,
/// offers only solutions within a factor, and its solver plays one to the
/// goal. Its heuristics panel searches one position's distance, as `query
/// --board 6x6 heuristics START` does.
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn play_6x6_with_no_file_within_a_factor() {
    let dir = tempfile::tempdir().unwrap();
    let nine = crate::util::temp_db("3x3");
    let args: Vec<String> = [
        "serve",
        "--port",
        "0",
        "--board",
        "6x6",
        "--db",
        nine.path.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let (_session, c, _url) = open_page_of(spawn(dir, &args)).await;
    let shape: npuzzle::Shape = "6x6".parse().unwrap();
    let goal = npuzzle::Board::goal(shape);
    let value = |id: &str| {
        let script = format!("return document.getElementById('{id}').value;");
        let c = &c;
        async move { c.execute(&script, vec![]).await.unwrap() }
    };
    assert_eq!(value("board-size").await, "6x6");
    assert_eq!(value("within").await, "2");
    for hidden in ["hint", "k-controls", "grade"] {
        assert!(!displayed(&c, hidden).await, "{hidden} is shown");
    }
    let note = text(&c, "random-note").await;
    assert!(note.contains("no database can be built for 6x6"), "{note}");

    // A position 24 moves out: its distance unknown, and said why.
    let start = walk(goal, 24, 3);
    custom(&c, &start.to_string()).await;
    assert_eq!(text(&c, "position").await, start.to_string());
    assert_eq!(text(&c, "distance").await, "?");
    let note = text(&c, "distance-note").await;
    assert!(note.contains("No database is served for 6x6"), "{note}");
    click(&c, Locator::Css("#heuristics-panel summary")).await;
    settle(&c).await;
    let none = tempfile::tempdir().unwrap();
    let args = ["--board", "6x6", "heuristics", &start.to_string(), "--json"];
    let cli = crate::util::expect_code_in(none.path(), &args, 0);
    let cli: Value = serde_json::from_slice(&cli.get_output().stdout).unwrap();
    panel_shows(&c, &cli, "6x6").await;
    // A far position's search is abandoned once the game moves on: the
    // page settles long before the server's 10 s --timeout, and shows no
    // error.
    let far = walk(goal, 300, 5).to_string();
    let input = c.find(Locator::Id("custom-start")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(&far).await.unwrap();
    let asked = Instant::now();
    click(&c, Locator::Id("custom-set")).await;
    custom(&c, &start.to_string()).await;
    assert!(
        asked.elapsed() < Duration::from_secs(6),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(banner(&c).await, None);
    panel_shows(&c, &cli, "6x6, back").await;
    // Closed, the panel asks nothing more as the solver plays.
    click(&c, Locator::Css("#heuristics-panel summary")).await;
    let shot = c.screenshot().await.unwrap();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-6x6.png");
    std::fs::write(path, shot).unwrap();

    // The solution shown is within 2 of the bound it proves, and the
    // solver's play reaches the goal, where the distance is known: 0.
    click_and_settle(&c, Locator::Id("show-solution")).await;
    let said = text(&c, "solution-note").await;
    assert!(said.contains("at most 2 × the shortest"), "{said}");
    let moves = crate::util::moves_of(&text(&c, "solution-moves").await);
    assert_eq!(start.replay(&moves), Some(goal));
    click(&c, Locator::Id("solve-play")).await;
    let at_goal = format!("return document.getElementById('position').textContent === '{goal}';");
    let deadline = Instant::now() + Duration::from_secs(30);
    let every = Duration::from_millis(100);
    wait_until(
        &c,
        &at_goal,
        deadline,
        every,
        "the solver did not reach the goal",
    )
    .await;
    settle(&c).await;
    assert_eq!(text(&c, "distance").await, "0");
    assert_eq!(banner(&c).await, None);

    // The link holds the game: a reload replays it to the goal.
    c.refresh().await.unwrap();
    settle(&c).await;
    assert_eq!(text(&c, "position").await, goal.to_string());
    assert_eq!(text(&c, "distance").await, "0");
    assert_eq!(banner(&c).await, None);
    assert!(!displayed(&c, "link-error").await);

    // On a board with a file, "the shortest" comes back.
    let pick = "const s = document.getElementById('board-size'); s.value = '3x3'; \
                s.dispatchEvent(new Event('change'));";
    c.execute(pick, vec![]).await.unwrap();
    settle(&c).await;
    assert_eq!(value("within").await, "");
    assert!(displayed(&c, "hint").await);
    c.close().await.unwrap();
}
