//! The page as a classroom tool, in a real browser (issue 23): links that
//! hold a game, undo and redo, seeded puzzles, grading, the heuristics
//! beside the truth, the worksheet, and an accessibility check (axe-core).
//!
//! Every fact checked here comes from somewhere else than the page: the
//! command line (`query random`, `solve`, `distance`, `heuristics`) run on
//! the server's own files, or the API. Ignored by default, as the other
//! browser tests: `scripts/browser-tests.sh` installs Chromium,
//! chromedriver and axe-core and runs them.

use crate::browser::{
    api, click, click_and_settle, displayed, get, holds, new_puzzle_at, open_page, panel_shows,
    settle, shown, slide, text, wait_until, Session,
};
use fantoccini::{key::Key, Client, Locator};
use npuzzle::{Board, Move, Shape};
use serde_json::{json, Value};
use std::process::Command;

/// `query --db 3x3.db ARGS` on the server's own file: stdout, stderr and
/// whether it succeeded.
fn query(session: &Session, args: &[&str]) -> (String, String, bool) {
    let db = session.server.db("3x3");
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args(["--db", db.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn cli_distance(session: &Session, position: &str) -> u64 {
    let (out, err, ok) = query(session, &["distance", position]);
    assert!(ok, "query distance {position}: {err}");
    out.trim().parse().unwrap()
}

fn board(text: &str) -> Board {
    npuzzle::parse_board(text, Shape::THREE_BY_THREE).unwrap()
}

/// Everything a reload must keep: distance, position, moves made, the
/// trace (as its accessible name lists it) and the link itself.
async fn state(c: &Client) -> (u64, String, String, String) {
    let (d, position) = shown(c).await;
    let trace = c
        .execute(
            "return document.getElementById('trace').getAttribute('aria-label');",
            vec![],
        )
        .await
        .unwrap();
    (
        d,
        position,
        text(c, "move-count").await,
        trace.as_str().unwrap().to_string(),
    )
}

/// A parameter of a link (the page's links hold only letters, digits and
/// `x`, so no decoding is needed).
fn param(link: &str, key: &str) -> Option<String> {
    let query = link.split_once('?')?.1;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| v.to_string())
    })
}

async fn href(c: &Client) -> String {
    let v = c.execute("return location.href;", vec![]).await.unwrap();
    v.as_str().unwrap().to_string()
}

/// Clicks the first tile that can move (in the board's order), `n` times.
async fn play_moves(c: &Client, n: usize) {
    for _ in 0..n {
        click_and_settle(c, Locator::Css("#board .tile.movable")).await;
    }
}

/// Sends keys to the board, as a player typing would.
async fn keys(c: &Client, keys: &str) {
    let board = c.find(Locator::Id("board")).await.unwrap();
    board.send_keys(keys).await.unwrap();
    settle(c).await;
}

pub(crate) async fn type_into(c: &Client, id: &str, value: &str) {
    let input = c.find(Locator::Id(id)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(value).await.unwrap();
    // The page listens for `input`; clear() alone does not send one.
    c.execute(
        "document.getElementById(arguments[0]).dispatchEvent(new Event('input'));",
        vec![json!(id)],
    )
    .await
    .unwrap();
}

/// The distances after each move of `letters` from `start`, by the command
/// line, one position at a time: the trace a page must draw.
fn trace_by_cli(session: &Session, start: &str, letters: &str) -> Vec<u64> {
    let mut at = board(start);
    let mut trace = vec![cli_distance(session, start)];
    for l in letters.chars() {
        at = at.apply(Move::from_letter(l).unwrap()).unwrap();
        trace.push(cli_distance(session, &at.to_string()));
    }
    trace
}

fn trace_label(trace: &[u64]) -> String {
    let list: Vec<String> = trace.iter().map(u64::to_string).collect();
    format!("distance after each move: {}", list.join(", "))
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_link_restores_a_game_mid_way_with_its_distance_and_trace() {
    let (session, c, url) = open_page().await;
    new_puzzle_at(&c, 14).await;
    play_moves(&c, 3).await;
    let before = state(&c).await;
    let link = href(&c).await;
    let (start, moves) = (
        param(&link, "start").unwrap(),
        param(&link, "moves").unwrap(),
    );
    assert_eq!(moves.len(), 3, "{link}");
    // The trace is the command line's distances along the moves.
    assert_eq!(
        before.3,
        trace_label(&trace_by_cli(&session, &start, &moves))
    );

    // A fresh load of the link: the same game, the same trace.
    c.goto("about:blank").await.unwrap();
    c.goto(&link).await.unwrap();
    settle(&c).await;
    assert_eq!(state(&c).await, before);
    assert_eq!(href(&c).await, link);
    // And the game goes on from there: one more move, the API's distance.
    play_moves(&c, 1).await;
    let (d, position) = shown(&c).await;
    assert_eq!(
        api(&url, &format!("/api/distance?start={position}"))["distance"],
        d
    );
    assert_eq!(text(&c, "move-count").await, "4");

    // A link to a bad or unsolvable position opens a game, with the
    // command line's message.
    for (start, cli_args) in [
        ("12345678", "distance 12345678"),
        ("213456780", "distance 213456780"),
    ] {
        c.goto(&format!("{url}?board=3x3&start={start}"))
            .await
            .unwrap();
        settle(&c).await;
        let (out, err, ok) = query(&session, &cli_args.split(' ').collect::<Vec<_>>());
        assert!(!ok);
        let said = format!(
            "{}{}",
            out.trim().trim_start_matches("unsolvable: "),
            err.trim().trim_start_matches("query: ")
        );
        let shown_error = text(&c, "link-error").await;
        assert!(
            shown_error.contains(&said),
            "{shown_error:?} lacks {said:?}"
        );
        let (d, position) = shown(&c).await;
        assert_eq!(
            api(&url, &format!("/api/distance?start={position}"))["distance"],
            d
        );
    }
}

/// That the page shows the API's distance, `moves` moves made, and the
/// command line's trace along the moves its link holds; the position.
async fn check(c: &Client, url: &str, session: &Session, start: &str, moves: usize) -> String {
    let (d, position) = shown(c).await;
    assert_eq!(
        api(url, &format!("/api/distance?start={position}"))["distance"],
        d
    );
    assert_eq!(text(c, "move-count").await, moves.to_string());
    let letters = param(&href(c).await, "moves").unwrap_or_default();
    assert_eq!(letters.len(), moves);
    let trace = state(c).await.3;
    assert_eq!(trace, trace_label(&trace_by_cli(session, start, &letters)));
    position
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn undo_and_redo_keep_the_distance_and_trace_the_apis() {
    let (session, c, url) = open_page().await;
    new_puzzle_at(&c, 10).await;
    let start = shown(&c).await.1;
    play_moves(&c, 4).await;
    let after_four = state(&c).await;
    click_and_settle(&c, Locator::Id("undo")).await;
    check(&c, &url, &session, &start, 3).await;
    keys(&c, &format!("{}z", char::from(Key::Control))).await;
    check(&c, &url, &session, &start, 2).await;
    keys(&c, "u").await;
    let at_one = check(&c, &url, &session, &start, 1).await;
    keys(&c, &format!("{}y", char::from(Key::Control))).await;
    check(&c, &url, &session, &start, 2).await;
    click_and_settle(&c, Locator::Id("redo")).await;
    click_and_settle(&c, Locator::Id("redo")).await;
    check(&c, &url, &session, &start, 4).await;
    assert_eq!(state(&c).await, after_four);
    // Nothing left to redo; a new move after an undo clears what was undone.
    assert!(holds(&c, "return document.getElementById('redo').disabled;").await);
    keys(&c, "uu").await;
    assert_ne!(check(&c, &url, &session, &start, 2).await, at_one);
    play_moves(&c, 1).await;
    check(&c, &url, &session, &start, 3).await;
    assert!(holds(&c, "return document.getElementById('redo').disabled;").await);
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_seed_gives_the_command_lines_positions_in_order() {
    // Past 2^53, where a JSON number in JavaScript loses digits.
    const SEED: &str = "942136313306371298";
    let (session, c, _url) = open_page().await;
    let (out, _, ok) = query(
        &session,
        &["random", "--distance", "20", "--count", "5", "--seed", SEED],
    );
    assert!(ok);
    let expected: Vec<&str> = out.lines().collect();
    assert_eq!(expected.len(), 5);
    type_into(&c, "seed", SEED).await;
    type_into(&c, "count", "5").await;
    new_puzzle_at(&c, 20).await;
    for (i, position) in expected.iter().enumerate() {
        if i > 0 {
            click_and_settle(&c, Locator::Id("next-puzzle")).await;
        }
        assert_eq!(
            shown(&c).await,
            (20, position.to_string()),
            "puzzle {}",
            i + 1
        );
        let link = href(&c).await;
        assert!(
            link.contains(&format!("seed={SEED}")) && link.contains(&format!("puzzle={}", i + 1)),
            "{link}"
        );
    }
    assert!(
        holds(
            &c,
            "return document.getElementById('next-puzzle').disabled;"
        )
        .await
    );
    // A bad seed is refused in the API's words, and the game stays.
    type_into(&c, "seed", "18446744073709551616").await;
    click_and_settle(&c, Locator::Id("new-k")).await;
    let error = text(&c, "error").await;
    assert!(error.contains("bad seed"), "{error}");
    assert_eq!(shown(&c).await.1, expected[4]);
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn grading_finds_the_first_illegal_move_and_counts_the_moves_that_went_away() {
    let (session, c, _url) = open_page().await;
    new_puzzle_at(&c, 9).await;
    let start = shown(&c).await.1;
    // Six legal moves: three of the command line's solution (each one
    // closer), the third taken back (one farther), then two that do not
    // undo the last; then one off the board, then more.
    let (solution, _, ok) = query(&session, &["solve", &start, "--json"]);
    assert!(ok);
    let solution: Value = serde_json::from_str(&solution).unwrap();
    let mut letters: String = solution["moves"]
        .as_str()
        .unwrap()
        .chars()
        .take(3)
        .collect();
    let back = Move::from_letter(letters.chars().last().unwrap())
        .unwrap()
        .opposite();
    letters.push(back.letter());
    let mut at = board(&start);
    for l in letters.chars() {
        at = at.apply(Move::from_letter(l).unwrap()).unwrap();
    }
    let mut last = Some(back);
    for _ in 0..2 {
        let (m, next) = at
            .successors()
            .find(|(m, _)| Some(m.opposite()) != last)
            .unwrap();
        letters.push(m.letter());
        (at, last) = (next, Some(m));
    }
    let off = Move::ALL
        .into_iter()
        .find(|&m| at.apply(m).is_none())
        .unwrap();
    letters.push(off.letter());
    letters.push_str("UD");
    let trace = trace_by_cli(&session, &start, &letters[..6]);
    let away: Vec<String> = (1..=6)
        .filter(|&i| trace[i] > trace[i - 1])
        .map(|i| i.to_string())
        .collect();
    assert!(
        !away.is_empty() && away.len() < 6,
        "{trace:?}: a list with both kinds"
    );

    type_into(&c, "grade-moves", &letters).await;
    click_and_settle(&c, Locator::Id("grade")).await;
    let result = c.find(Locator::Id("grade-result")).await.unwrap();
    assert_eq!(result.attr("data-illegal").await.unwrap().unwrap(), "7");
    assert_eq!(
        result.attr("data-away").await.unwrap().unwrap(),
        away.join(",")
    );
    let words = result.text().await.unwrap();
    assert!(words.contains("Move 7 is illegal"), "{words}");
    assert!(
        words.contains(&format!("{} moves went away", away.len())) || away.len() == 1,
        "{words}"
    );

    // The same moves as the tiles they slide grade the same.
    let mut at = board(&start);
    let mut tiles = Vec::new();
    for l in letters[..6].chars() {
        let m = Move::from_letter(l).unwrap();
        tiles.push(at.tile_moved_by(m).unwrap().to_string());
        at = at.apply(m).unwrap();
    }
    type_into(&c, "grade-moves", &tiles.join(" ")).await;
    click_and_settle(&c, Locator::Id("grade")).await;
    let result = c.find(Locator::Id("grade-result")).await.unwrap();
    assert_eq!(result.attr("data-legal").await.unwrap().unwrap(), "true");
    assert_eq!(
        result.attr("data-away").await.unwrap().unwrap(),
        away.join(",")
    );
    assert!(!result
        .text()
        .await
        .unwrap()
        .contains("ways the tiles slide"));

    // The whole solution written in the tiles' directions: the page says
    // how it was likely meant, as `query check` does.
    let turned: String = (solution["moves"].as_str().unwrap().chars())
        .map(|l| Move::from_letter(l).unwrap().opposite().letter())
        .collect();
    let words = graded(&c, &turned).await;
    assert!(
        words.contains("Read as the ways the tiles slide, these moves reach the goal"),
        "{words}"
    );
    assert!(!words.contains("not needed"), "{words}");

    // The solution, then a move away and back: the page says where the goal
    // was first reached, as `query check` does.
    let solution = solution["moves"].as_str().unwrap();
    let last = Move::from_letter(solution.chars().last().unwrap()).unwrap();
    let detour = format!("{solution}{}{}", last.opposite().letter(), last.letter());
    let words = graded(&c, &detour).await;
    let said = format!(
        "The goal is reached after move {}: the moves after it are not needed.",
        solution.len()
    );
    assert!(words.contains(&said), "{words}");
}

/// What the page's grader says of `moves`, typed and graded as a user does.
async fn graded(c: &Client, moves: &str) -> String {
    type_into(c, "grade-moves", moves).await;
    click_and_settle(c, Locator::Id("grade")).await;
    text(c, "grade-result").await
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_heuristics_panel_equals_query_heuristics() {
    let (session, c, _url) = open_page().await;
    for k in [18, 3] {
        new_puzzle_at(&c, k).await;
        let position = shown(&c).await.1;
        if k == 18 {
            click(&c, Locator::Css("#heuristics-panel summary")).await;
            click(&c, Locator::Id("show-manhattan")).await;
        }
        settle(&c).await;
        let (out, _, ok) = query(&session, &["heuristics", &position, "--json"]);
        assert!(ok);
        let cli: Value = serde_json::from_str(&out).unwrap();
        panel_shows(&c, &cli, &position).await;
        // Each tile shows its part of the Manhattan distance.
        let badges = c
            .execute(
                "return [...document.querySelectorAll('#board .tile')].map((t) => \
                 [Number(t.dataset.cell), Number(t.parentElement.querySelector('.manhattan').textContent)]);",
                vec![],
            )
            .await
            .unwrap();
        let by_cell = cli["manhattan_by_cell"].as_array().unwrap();
        for pair in badges.as_array().unwrap() {
            let cell = pair[0].as_u64().unwrap() as usize;
            assert_eq!(pair[1], by_cell[cell], "{position}, cell {cell}");
        }
    }
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_worksheets_answer_key_equals_query_solve() {
    let (session, c, url) = open_page().await;
    // With no seed typed, the links still name one set: the puzzles alone
    // and the key alone carry the same seed, drawn for the page.
    let seeds: Vec<String> = c
        .execute(
            "return ['worksheet', 'worksheet-puzzles', 'worksheet-key'].map((id) => \
             new URL(document.getElementById(id).href).searchParams.get('seed'));",
            vec![],
        )
        .await
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        seeds[0].parse::<u64>().is_ok() && seeds.iter().all(|s| s == &seeds[0]),
        "{seeds:?}"
    );
    type_into(&c, "seed", "7").await;
    type_into(&c, "count", "4").await;
    slide(&c, "k", 15).await;
    let link = c
        .find(Locator::Id("worksheet"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    // The two parts apart, for the same set (below: the key's rows are
    // the whole sheet's, and the puzzles' page has drawings and no key).
    let href = |id: &'static str| {
        let c = &c;
        async move {
            let link = c.find(Locator::Id(id)).await.unwrap();
            link.attr("href").await.unwrap().unwrap()
        }
    };
    let (puzzles, key) = (href("worksheet-puzzles").await, href("worksheet-key").await);
    assert_eq!(puzzles, format!("{link}&part=puzzles"));
    assert!(link.ends_with("&seed=7"), "{link}");
    assert_eq!(key, format!("{link}&part=key"));
    let (drawn, _, ok) = query(
        &session,
        &["random", "--distance", "15", "--count", "4", "--seed", "7"],
    );
    assert!(ok);
    c.goto(&format!("{}{}", url.trim_end_matches('/'), link))
        .await
        .unwrap();
    let rows = c
        .execute(
            "return [...document.querySelectorAll('#answer-key tbody tr')].map((r) => \
             [...r.cells].map((c) => c.textContent));",
            vec![],
        )
        .await
        .unwrap();
    let rows = rows.as_array().unwrap();
    let starts: Vec<&str> = drawn.lines().collect();
    assert_eq!(rows.len(), starts.len());
    for (i, (row, start)) in rows.iter().zip(&starts).enumerate() {
        let (out, _, ok) = query(&session, &["solve", start, "--json"]);
        assert!(ok);
        let solved: Value = serde_json::from_str(&out).unwrap();
        let want = json!([
            (i + 1).to_string(),
            start,
            solved["distance"].to_string(),
            solved["moves"]
        ]);
        assert_eq!(row, &want);
    }
    // One drawing per puzzle, and the key on a page of its own in print.
    let boards = c
        .execute(
            "return document.querySelectorAll('.puzzle svg.board').length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(boards, json!(starts.len()));
    let css = get(&url, "/worksheet.css");
    assert!(css.contains("break-before: page"), "{css}");

    // The parts, for the same set.
    let puzzles = get(&url, &puzzles);
    assert_eq!(
        puzzles.matches("<svg class=\"board\"").count(),
        starts.len() + 1
    );
    assert!(!puzzles.contains("answer-key"));
    let key = get(&url, &key);
    for (i, start) in starts.iter().enumerate() {
        assert!(key.contains(&format!(
            "<tr><td>{}</td><td class=\"start\">{start}</td>",
            i + 1
        )));
    }
}

/// Chooses `value` in the select `id`, as a click on its option would.
async fn choose(c: &Client, id: &str, value: &str) {
    let option = format!("#{id} option[value='{value}']");
    click(c, Locator::Css(&option)).await;
}

/// The rows of the textbook searches' table, each cell's text.
async fn comparison_rows(c: &Client) -> Vec<Vec<String>> {
    let rows = crate::browser::table_rows(c, "compare").await;
    serde_json::from_value(Value::Array(rows)).unwrap()
}

/// `n` as the page writes counts: 1,234,567.
fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A puzzle 16 moves from the goal, its textbook searches run on the page
/// at 10,000 expansions each: the position, and what `query compare
/// --json` says of it.
async fn compared_at_16(session: &Session, c: &Client) -> (String, Value) {
    new_puzzle_at(c, 16).await;
    let position = shown(c).await.1;
    compared(session, c, position).await
}

/// Runs the textbook searches on the position shown, `position`, in the
/// page and by `query compare`, both at 10,000 expansions.
async fn compared(session: &Session, c: &Client, position: String) -> (String, Value) {
    click(c, Locator::Css("#compare-panel summary")).await;
    choose(c, "compare-nodes", "10000").await;
    click_and_settle(c, Locator::Id("compare-run")).await;
    let (out, err, ok) = query(
        session,
        &["compare", &position, "--max-nodes", "10000", "--json"],
    );
    assert!(ok, "{err}");
    (position, serde_json::from_str(&out).unwrap())
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_textbook_searches_panel_equals_query_compare() {
    let (session, c, _url) = open_page().await;
    let (position, cli) = compared_at_16(&session, &c).await;
    // Run, disabled while the searches ran, has the keyboard's focus back.
    let focused = "return document.activeElement.id;";
    assert_eq!(c.execute(focused, vec![]).await.unwrap(), "compare-run");
    let rows = comparison_rows(&c).await;
    assert_eq!(rows.len(), 9, "{rows:?}");
    let distance = cli["distance"].to_string();
    assert_eq!(
        rows[0][..5],
        ["database lookup", &distance, "yes", "–", "–"]
    );
    for (row, run) in rows[1..].iter().zip(cli["algorithms"].as_array().unwrap()) {
        let name = match run["depth_limit"].as_u64() {
            Some(limit) => format!("{} (limit {limit})", str_of(&run["algorithm"])),
            None => str_of(&run["algorithm"]),
        };
        let length = match (run["length"].as_u64(), run["hit_limit"].as_bool()) {
            (Some(length), _) => length.to_string(),
            (None, Some(true)) => "limit".into(),
            (None, _) => "none".into(),
        };
        let shortest = match run["optimal"].as_bool() {
            Some(true) => "yes",
            Some(false) => "no",
            None => "–",
        };
        let counts = ["expanded", "max_open"].map(|k| with_commas(run[k].as_u64().unwrap()));
        assert_eq!(
            row[..5],
            [
                name,
                length,
                shortest.into(),
                counts[0].clone(),
                counts[1].clone()
            ],
            "{position}"
        );
        assert!(row[5].ends_with('s'), "a time: {row:?}");
    }
    // At 10,000 expansions some search stops, and the legend says so.
    assert!(rows.iter().any(|r| r[1] == "limit"), "{rows:?}");
    assert!(text(&c, "compare-legend")
        .await
        .contains("stopped after 10,000 expansions"));
    let caption = text(&c, "compare-caption").await;
    assert!(
        caption.starts_with(&format!(
            "From {position} toward 123456780, {distance} moves away"
        )),
        "{caption}"
    );
    // A search's solution plays on the board to the goal, move for move:
    // the longest found within 120 moves (greedy's wanders, where found).
    let (algorithm, length) = cli["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| Some((str_of(&r["algorithm"]), r["length"].as_u64()?)))
        .filter(|&(_, length)| length <= 120)
        .max_by_key(|&(_, length)| length)
        .unwrap();
    choose(&c, "compare-pick", &algorithm).await;
    slide(&c, "speed", 20).await;
    click(&c, Locator::Id("compare-play-button")).await;
    let at_goal = "return document.getElementById('distance').textContent === '0';";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let every = std::time::Duration::from_millis(100);
    wait_until(&c, at_goal, deadline, every, "the solution reached no goal").await;
    settle(&c).await;
    assert_eq!(
        text(&c, "move-count").await,
        length.to_string(),
        "{algorithm}"
    );
    // The link holds every move, however fast they came.
    let moves = param(&href(&c).await, "moves").unwrap_or_default();
    assert_eq!(moves.len() as u64, length, "{moves}");
    // Away from the searches' start, the table is an earlier position's,
    // and its solutions do not play from here.
    assert!(text(&c, "compare-caption")
        .await
        .contains("an earlier position"));
    let button = "return document.getElementById('compare-play-button').disabled;";
    assert!(holds(&c, button).await);
    // After a move the table stays, named as an earlier position's.
    play_moves(&c, 1).await;
    assert!(text(&c, "compare-caption")
        .await
        .contains("an earlier position"));
    assert_eq!(comparison_rows(&c).await, rows);
    // A comparison under way when another board is chosen is dropped, its
    // note with it (2,000,000 expansions take seconds in a debug build).
    choose(&c, "compare-nodes", "2000000").await;
    click(&c, Locator::Id("compare-run")).await;
    assert!(text(&c, "compare-note")
        .await
        .starts_with("Running the searches"));
    let select = c.find(Locator::Id("board-size")).await.unwrap();
    select.select_by_value("2x3").await.unwrap();
    settle(&c).await;
    assert_eq!(text(&c, "compare-note").await, "");
    assert!(
        holds(
            &c,
            "return !document.getElementById('compare-run').disabled;"
        )
        .await
    );
    assert!(!displayed(&c, "compare-scroll").await);
}

/// A search's solution paused half-way gives way to a shortest one: Play
/// then reaches the goal in as many moves as the distance where it paused.
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn a_paused_search_solution_gives_way_to_a_shortest_one() {
    let (session, c, _url) = open_page().await;
    // A position 16 moves out whose depth-first (30 moves) and greedy (34)
    // solutions are longer than the shortest: at a random one, depth-first
    // search can stop at 10,000 expansions and greedy find a shortest.
    let start = "712538460";
    type_into(&c, "custom-start", start).await;
    click_and_settle(&c, Locator::Id("custom-set")).await;
    assert_eq!(shown(&c).await.1, start);
    let (_, cli) = compared(&session, &c, start.to_string()).await;
    // Depth-first search's, or greedy's: longer than the shortest.
    let longer = cli["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["optimal"] == false)
        .map(|r| str_of(&r["algorithm"]))
        .expect("a solution longer than the shortest");
    choose(&c, "compare-pick", &longer).await;
    slide(&c, "speed", 1).await;
    click(&c, Locator::Id("compare-play-button")).await;
    let moved = "return document.getElementById('move-count').textContent === '1';";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let every = std::time::Duration::from_millis(20);
    wait_until(&c, moved, deadline, every, "Play it made no move").await;
    click_and_settle(&c, Locator::Id("solve-play")).await;
    let (paused_at, _) = shown(&c).await;
    let made: u64 = text(&c, "move-count").await.parse().unwrap();
    slide(&c, "speed", 20).await;
    click(&c, Locator::Id("solve-play")).await;
    let at_goal = "return document.getElementById('distance').textContent === '0';";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    wait_until(&c, at_goal, deadline, every, "Play reached no goal").await;
    settle(&c).await;
    assert_eq!(
        text(&c, "move-count").await,
        (made + paused_at).to_string(),
        "{longer} paused after {made} moves, {paused_at} from the goal"
    );
}

/// Stop pressed while an answer is read (its head come, its body not yet)
/// says where the run stopped, as Stop pressed before the answer came; an
/// answer that breaks off is the server not answering. Each answer's body
/// is held here until the request is stopped, or broken off at once.
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn stop_while_an_answer_is_read_says_where_it_stopped() {
    let (_session, c, _url) = open_page().await;
    let held_bodies = "const fetched = window.fetch;\
        window.fetch = async (url, options) => {\
          const answer = await fetched(url, options);\
          if (!String(url).startsWith('/api/compare')) return answer;\
          const body = new ReadableStream({ start(stream) {\
            if (window.breakOff) stream.error(new TypeError('network error'));\
            else options.signal.addEventListener('abort', () =>\
              stream.error(new DOMException('stopped', 'AbortError')));\
          } });\
          return new Response(body, { status: answer.status, headers: answer.headers });\
        };";
    c.execute(held_bodies, vec![]).await.unwrap();
    start_growth(&c, "5", "10000").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let every = std::time::Duration::from_millis(20);
    let first = "return document.getElementById('growth-progress').textContent\
                 .includes('at distance 1 of');";
    wait_until(&c, first, deadline, every, "no first distance").await;
    // The answer's head has come: the page waits on its body.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    click_and_settle(&c, Locator::Id("growth-stop")).await;
    assert_eq!(text(&c, "growth-note").await, "Stopped at distance 1.");
    c.execute("window.breakOff = true;", vec![]).await.unwrap();
    click(&c, Locator::Id("growth-run")).await;
    growth_stopped(&c).await;
    let note = text(&c, "growth-note").await;
    assert!(
        note.starts_with("Stopped at distance 1: the server is not answering."),
        "{note}"
    );
}

/// Waits until the searches at every distance have stopped.
async fn growth_stopped(c: &Client) {
    let stopped =
        "return document.getElementById('growth-note').textContent.startsWith('Stopped');";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let every = std::time::Duration::from_millis(50);
    wait_until(c, stopped, deadline, every, "the searches did not stop").await;
    settle(c).await;
}

/// Opens the panel of the searches at every distance and runs them with
/// `count` positions and `max_nodes` expansions.
async fn start_growth(c: &Client, count: &str, max_nodes: &str) {
    if !holds(c, "return document.getElementById('growth-panel').open;").await {
        click(c, Locator::Css("#growth-panel summary")).await;
    }
    choose(c, "growth-count", count).await;
    choose(c, "growth-nodes", max_nodes).await;
    click(c, Locator::Id("growth-run")).await;
}

/// Waits for the searches at every distance to reach the farthest.
async fn growth_ends(c: &Client) {
    let done = "return document.getElementById('growth-note').textContent.startsWith('Searched');";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let every = std::time::Duration::from_millis(100);
    let what = "the searches at every distance did not end";
    wait_until(c, done, deadline, every, what).await;
    settle(c).await;
}

/// [`start_growth`], then [`growth_ends`].
async fn run_growth(c: &Client, count: &str, max_nodes: &str) {
    start_growth(c, count, max_nodes).await;
    growth_ends(c).await;
}

/// The rows of the panel's table for `compare --distance --json`'s answer
/// `cli`: the distance, the positions, then each search's figure of
/// `measure` ("≥ " where some search stopped at the limit, for the
/// expansions and b*, two decimals as the command line prints it); and how
/// many figures are floors.
fn growth_rows(cli: &Value, measure: &str) -> (Vec<Value>, usize) {
    let all = cli["rows"].as_array().unwrap();
    let mut floors = 0;
    let rows = all
        .chunk_by(|a, b| a["distance"] == b["distance"])
        .map(|at| {
            let mut cells = vec![
                at[0]["distance"].to_string(),
                at[0]["positions"].to_string(),
            ];
            for r in at {
                let figure = r[measure].as_f64().unwrap();
                let digits = if measure == "effective_branching" {
                    2
                } else {
                    1
                };
                let mean = decimals(figure, digits);
                let floor = r["solved"] != r["positions"] && measure != "mean_max_open";
                floors += usize::from(floor);
                cells.push(if floor { format!("≥ {mean}") } else { mean });
            }
            json!(cells)
        });
    (rows.collect(), floors)
}

/// `mean` as the command line prints it (`digits` decimals, a tie to even:
/// 3.25 is 3.2 at one), with commas.
fn decimals(mean: f64, digits: usize) -> String {
    let printed = format!("{mean:.digits$}");
    let (whole, tenth) = printed.split_once('.').unwrap();
    format!("{}.{tenth}", with_commas(whole.parse().unwrap()))
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_searches_at_every_distance_equal_query_compare_distance() {
    let (session, c, _url) = open_page().await;
    // While the searches run, focus is on Stop, and the game's
    // "searching…" beside the distance stays hidden: it is the game's.
    // (1,000,000 expansions: each distance's searches take seconds in a
    // debug build, past the 250 ms after which the game's would show.)
    start_growth(&c, "5", "1000000").await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(text(&c, "growth-progress")
        .await
        .starts_with("Searching from 5 positions at distance "));
    assert!(!displayed(&c, "searching").await);
    let focused = "return document.activeElement.id;";
    assert_eq!(c.execute(focused, vec![]).await.unwrap(), "growth-stop");
    // Stopped, the panel says where, and Run has the focus again.
    click_and_settle(&c, Locator::Id("growth-stop")).await;
    assert!(text(&c, "growth-note")
        .await
        .starts_with("Stopped at distance "));
    assert_eq!(c.execute(focused, vec![]).await.unwrap(), "growth-run");
    assert!(!displayed(&c, "growth-stop").await);
    run_growth(&c, "5", "10000").await;
    // The command the panel names gives the same figures.
    let command = text(&c, "growth-command").await;
    assert_eq!(
        command,
        "query compare --distance 1..=31 --count 5 --max-nodes 10000"
    );
    let words: Vec<&str> = command.split(' ').skip(1).chain(["--json"]).collect();
    let (out, err, ok) = query(&session, &words);
    assert!(ok, "{err}");
    let cli: Value = serde_json::from_str(&out).unwrap();
    let cli_rows = cli["rows"].as_array().unwrap();
    let algorithms: Vec<String> = (cli_rows.iter())
        .take_while(|r| r["distance"] == 1)
        .map(|r| str_of(&r["algorithm"]))
        .collect();
    assert_eq!(algorithms.len(), 8, "{algorithms:?}");
    let head = "return [...document.querySelectorAll('#growth-table thead th')]\
                .map((h) => h.textContent);";
    let head = c.execute(head, vec![]).await.unwrap();
    let want: Vec<String> = ["Distance", "Positions"]
        .map(String::from)
        .into_iter()
        .chain(algorithms.iter().cloned())
        .collect();
    assert_eq!(head, json!(want));
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows.len(), 31);
    let (table, floors) = growth_rows(&cli, "mean_expanded");
    assert_eq!(rows, table);
    // Means that end in exactly 5 hundredths are among them (3.25 at
    // distance 2), rounded as the command line rounds them.
    let ties = (cli_rows.iter()).filter(|r| {
        let hundredths = r["mean_expanded"].as_f64().unwrap() * 100.0;
        hundredths.fract() == 0.0 && hundredths as u64 % 10 == 5
    });
    assert!(ties.count() > 0, "{cli}");
    // Each search is a line through every distance; a mean that counts
    // searches stopped at the limit is a hollow mark, and the panel says so.
    let lines = "return [...document.querySelectorAll('#growth polyline')]\
                 .map((l) => [l.dataset.algorithm, l.getAttribute('points').split(' ').length]);";
    let lines = c.execute(lines, vec![]).await.unwrap();
    let want: Vec<Value> = algorithms.iter().map(|a| json!([a, 31])).collect();
    assert_eq!(lines, json!(want));
    let hollow = "return document.querySelectorAll('#growth circle[fill=\"#ffffff\"]').length;";
    assert_eq!(c.execute(hollow, vec![]).await.unwrap(), json!(floors));
    assert!(
        floors > 0,
        "depth-first search stops at 10,000 expansions somewhere"
    );
    assert!(text(&c, "growth-marks")
        .await
        .contains("stopped at the 10,000 expansions"));

    // Stopped after some distances, the chart keeps them.
    click(&c, Locator::Id("growth-run")).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let every = std::time::Duration::from_millis(20);
    // Stop is pressed by the poll that first sees a distance from the fourth
    // on, in the same turn of the page's script: in a release build the
    // searches of a distance can end between two polls, and all 31 between
    // a poll and a click.
    let stop_from_fourth = "const stop = document.getElementById('growth-stop');\
        const m = document.getElementById('growth-progress').textContent\
        .match(/at distance (\\d+) of/);\
        if (stop.hidden || m === null || Number(m[1]) < 4) return false;\
        stop.click(); return true;";
    wait_until(&c, stop_from_fourth, deadline, every, "no fourth distance").await;
    settle(&c).await;
    // Where it stopped: the fourth distance, or one a moment later.
    let note = text(&c, "growth-note").await;
    let at: usize = (note.strip_prefix("Stopped at distance "))
        .and_then(|rest| rest.split('.').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    assert!(at >= 4, "{note}");
    let held = format!(" The chart holds distances 1 to {}.", at - 1);
    assert!(note.ends_with(&held), "{note}");
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows, table[..at - 1]);
    let range = format!("--distance 1..={} ", at - 1);
    assert!(text(&c, "growth-command").await.contains(&range));
    // Toward a goal of one's own, the positions are that goal's, as far as
    // its farthest (30 moves with the blank in the middle).
    type_into(&c, "custom-start", "123045678").await;
    type_into(&c, "custom-goal", "123405678").await;
    click_and_settle(&c, Locator::Id("custom-set")).await;
    assert!(
        !displayed(&c, "growth-figure").await,
        "the last goal's chart"
    );
    run_growth(&c, "5", "10000").await;
    let command = text(&c, "growth-command").await;
    assert_eq!(
        command,
        "query compare --distance 1..=30 --count 5 --max-nodes 10000 --goal \"123405678\""
    );
    let args = [
        "compare",
        "--distance",
        "1..=30",
        "--count",
        "5",
        "--max-nodes",
        "10000",
        "--goal",
        "123405678",
        "--json",
    ];
    let (out, err, ok) = query(&session, &args);
    assert!(ok, "{err}");
    let cli: Value = serde_json::from_str(&out).unwrap();
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows.len(), 30);
    assert_eq!(rows, growth_rows(&cli, "mean_expanded").0);
    // Drawn for memory instead: the largest open lists, from the same answer.
    choose(&c, "growth-measure", "mean_max_open").await;
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows, growth_rows(&cli, "mean_max_open").0);
    assert!(text(&c, "growth-caption")
        .await
        .starts_with("The largest open list"));
    // And for the growth of the work with each move: b*, as the command
    // line prints it, drawn on its own scale (ticks 1, 2, 5, …).
    choose(&c, "growth-measure", "effective_branching").await;
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows, growth_rows(&cli, "effective_branching").0);
    assert!(text(&c, "growth-caption")
        .await
        .starts_with("The effective branching factor b*"));
    // Its scale runs from 1 to the highest b* (by halves), 4 at the most:
    // depth-first search's, thousands near the goal, leaves the chart.
    let highest = (cli["rows"].as_array().unwrap().iter())
        .filter_map(|r| r["effective_branching"].as_f64())
        .fold(1.0, f64::max);
    let top = ((highest * 2.0).ceil() / 2.0).clamp(2.0, 4.0);
    let step = if top <= 2.5 { 0.5 } else { 1.0 };
    let expected: Vec<String> = (0..)
        .map(|i| 1.0 + step * f64::from(i))
        .take_while(|&v| v <= top)
        .map(|v: f64| v.to_string())
        .collect();
    let vertical = "return [...document.querySelectorAll('#growth text.tick[text-anchor=end]')]\
        .map((t) => t.textContent);";
    let ticks = c.execute(vertical, vec![]).await.unwrap();
    assert_eq!(ticks, json!(expected));
    let off = format!("runs above {top} at some distances, off the chart");
    assert_eq!(
        text(&c, "growth-marks").await.contains(&off),
        highest > 4.0,
        "{highest}"
    );
    // Another board's chart is its own: the 3x3 one goes.
    assert!(displayed(&c, "growth-figure").await);
    let select = c.find(Locator::Id("board-size")).await.unwrap();
    select.select_by_value("2x3").await.unwrap();
    settle(&c).await;
    assert!(!displayed(&c, "growth-figure").await);
    assert_eq!(text(&c, "growth-note").await, "");
}

/// On the 15-puzzle's board, where no table lists the positions at a
/// distance, they are walked to, as far as the user asks: the table equals
/// `query --board 4x4 compare --distance 1..=K` on the server's file.
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_searches_at_each_distance_on_the_15_puzzle_are_walked_to() {
    let (_session, c, _url) = crate::browser::open_page_of(crate::browser::server_4x4()).await;
    click(&c, Locator::Css("#growth-panel summary")).await;
    assert!(displayed(&c, "growth-walks").await);
    assert_eq!(text(&c, "growth-run").await, "Run them at each distance");
    choose(&c, "growth-until", "10").await;
    run_growth(&c, "5", "10000").await;
    let command = text(&c, "growth-command").await;
    assert_eq!(
        command,
        "query --board 4x4 compare --distance 1..=10 --count 5 --max-nodes 10000"
    );
    let db = crate::pattern_file::pattern_file("4x4", "6-6-3");
    let words: Vec<&str> = command.split(' ').skip(1).chain(["--json"]).collect();
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .args(["--db", db.to_str().unwrap()])
        .args(&words)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["drawn"], "walks");
    let rows = crate::browser::table_rows(&c, "growth-table").await;
    assert_eq!(rows.len(), 10);
    assert_eq!(rows, growth_rows(&cli, "mean_expanded").0);
    // On 3x3 every distance is searched, as far as the farthest.
    let select = c.find(Locator::Id("board-size")).await.unwrap();
    select.select_by_value("3x3").await.unwrap();
    settle(&c).await;
    assert!(!displayed(&c, "growth-walks").await);
    assert!(!displayed(&c, "growth-until").await);
    assert_eq!(text(&c, "growth-run").await, "Run them at every distance");
}

fn str_of(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// axe-core's script, which `scripts/browser-tests.sh` installs from npm
/// and names in `AXE_CORE_JS`; the page itself never loads it.
pub(crate) fn axe_source() -> String {
    let path = std::env::var("AXE_CORE_JS").expect(
        "AXE_CORE_JS names axe.min.js: run scripts/browser-tests.sh, which installs axe-core",
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_page_passes_an_accessibility_check() {
    let (_session, c, _url) = open_page().await;
    // Every part of the page shown: a move, hints, changes, heuristics, a
    // solution and a grade.
    new_puzzle_at(&c, 8).await;
    play_moves(&c, 1).await;
    click(&c, Locator::Id("hint")).await;
    click(&c, Locator::Id("show-changes")).await;
    click(&c, Locator::Css("#heuristics-panel summary")).await;
    click(&c, Locator::Id("show-manhattan")).await;
    click_and_settle(&c, Locator::Id("show-solution")).await;
    type_into(&c, "grade-moves", "UUUU").await;
    click_and_settle(&c, Locator::Id("grade")).await;
    click(&c, Locator::Css("#compare-panel summary")).await;
    choose(&c, "compare-nodes", "10000").await;
    click_and_settle(&c, Locator::Id("compare-run")).await;
    run_growth(&c, "5", "10000").await;
    click(&c, Locator::Css("#growth-figures summary")).await;

    // Tiles are named for what they are and can do.
    let labels = c
        .execute(
            "return [...document.querySelectorAll('#board .tile.movable')].map((t) => \
             [t.dataset.tile, t.getAttribute('aria-label')]);",
            vec![],
        )
        .await
        .unwrap();
    for pair in labels.as_array().unwrap() {
        let (tile, label) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
        let ways = ["up", "down", "left", "right"];
        assert!(
            ways.iter()
                .any(|w| label.starts_with(&format!("tile {tile}, can move {w}"))),
            "{label}"
        );
    }
    // Every control shown is in the tab order.
    let unreachable = c
        .execute(
            "return [...document.querySelectorAll('button, input, select, textarea, a[href], summary')]\
             .filter((e) => e.offsetParent !== null && e.tabIndex < 0 && !e.closest('#board'))\
             .map((e) => e.id || e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(unreachable, json!([]));

    let script = format!(
        "const done = arguments[arguments.length - 1];\n{}\n\
         axe.run(document, {{ resultTypes: ['violations'] }})\
           .then((r) => done(r.violations.map((v) => ({{ id: v.id, impact: v.impact, help: v.help, \
             nodes: v.nodes.map((n) => n.target.join(' ')) }}))))\
           .catch((e) => done(String(e)));",
        axe_source()
    );
    let violations = c.execute_async(&script, vec![]).await.unwrap();
    let serious: Vec<&Value> = violations
        .as_array()
        .unwrap_or_else(|| panic!("axe failed: {violations}"))
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .collect();
    assert!(serious.is_empty(), "{serious:#?}");
}
