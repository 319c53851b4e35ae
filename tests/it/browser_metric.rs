//! The page's metric switch in a real browser (issue 26): with a 3x3
//! single-tile file and a 3x3 multi-tile file served, the page counts
//! moves either way, and every number it shows in the multi-tile metric is
//! the command line's (`query --metric mtm`) on the server's own file.
//! Ignored by default, as the other browser tests:
//! `scripts/browser-tests.sh` runs them.

use crate::browser::{
    api, click, click_and_settle, hinted, holds, open_page_of, settle, shown, spawn, text, Server,
};
use fantoccini::{Client, Locator};
use npuzzle::{Board, Metric, Move, Shape};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// The server with 2x3 and 3x3 single-tile files and a 3x3 multi-tile one.
pub(crate) fn server_both_metrics() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["serve".to_string(), "--port".into(), "0".into()];
    for (name, size, metric) in [
        ("2x3", "2x3", Metric::SingleTile),
        ("3x3", "3x3", Metric::SingleTile),
        ("3x3-mtm", "3x3", Metric::MultiTile),
    ] {
        let shape: Shape = size.parse().unwrap();
        let path = dir.path().join(format!("{name}.db"));
        let plan = npuzzle::Plan::Complete {
            shape,
            metric,
            blanks: vec![shape.cells() - 1],
            // Path tables are single-tile only.
            paths: metric == Metric::SingleTile,
        };
        npuzzle::build(&path, &plan, &|_, _| {}).unwrap();
        args.extend(["--db".into(), path.to_str().unwrap().to_string()]);
    }
    spawn(dir, &args)
}

/// `query --db DB --metric mtm ARGS` on the server's multi-tile file:
/// its standard output.
fn mtm_query(db: &Path, args: &[&str]) -> String {
    let out = Command::new(assert_cmd::cargo::cargo_bin("query"))
        .env_remove("NPUZZLE_DB")
        .args(["--db", db.to_str().unwrap(), "--metric", "mtm"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "query --metric mtm {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn mtm_distance(db: &Path, position: &str) -> u64 {
    mtm_query(db, &["distance", position])
        .trim()
        .parse()
        .unwrap()
}

/// The blank's single-tile moves that slide notation (`U3 L R2`) spells.
fn expand(slides: &str) -> String {
    slides
        .split_whitespace()
        .map(|slide| {
            let (letter, count) = slide.split_at(1);
            letter.repeat(count.parse().unwrap_or(1))
        })
        .collect()
}

fn board(text: &str) -> Board {
    npuzzle::parse_board(text, Shape::THREE_BY_THREE).unwrap()
}

/// Chooses the "Solutions" option `value` ("" for the shortest).
async fn set_within(c: &Client, value: &str) {
    let script = "const s = document.getElementById('within'); s.value = arguments[0]; \
                  s.dispatchEvent(new Event('change'));";
    c.execute(script, vec![Value::from(value)]).await.unwrap();
}

async fn checked(c: &Client, id: &str) -> bool {
    holds(
        c,
        &format!("return document.getElementById('{id}').checked;"),
    )
    .await
}

async fn disabled(c: &Client, id: &str) -> bool {
    holds(
        c,
        &format!("return document.getElementById('{id}').disabled;"),
    )
    .await
}

async fn displayed(c: &Client, id: &str) -> bool {
    let e = c.find(Locator::Id(id)).await.unwrap();
    e.is_displayed().await.unwrap()
}

async fn href(c: &Client) -> String {
    let v = c.execute("return location.href;", vec![]).await.unwrap();
    v.as_str().unwrap().to_string()
}

async fn trace(c: &Client) -> String {
    let v = c
        .execute(
            "return document.getElementById('trace').getAttribute('aria-label');",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

async fn custom(c: &Client, start: &str) {
    let input = c.find(Locator::Id("custom-start")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(start).await.unwrap();
    click_and_settle(c, Locator::Id("custom-set")).await;
}

#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_metric_switch_counts_moves_as_query_metric_mtm() {
    let (session, c, url) = open_page_of(server_both_metrics()).await;
    let mtm = session.server.db("3x3-mtm");
    let start = "647850321";

    // 3x3 is served both ways: the switch is there, single-tile moves first.
    assert!(checked(&c, "metric-stm").await);
    assert!(!disabled(&c, "metric-mtm").await);
    custom(&c, start).await;
    assert_eq!(shown(&c).await, (31, start.to_string()));

    // "Solutions: at most 1.5 × the shortest": the note gives the length
    // and the shortest, which the page knows here (elsewhere the bound the
    // search proved), and the moves replay to the goal.
    set_within(&c, "1.5").await;
    click_and_settle(&c, Locator::Id("show-solution")).await;
    let note = text(&c, "solution-note").await;
    assert!(
        note.contains("; the shortest is 31 (this one is at most 1.5 × the shortest)"),
        "{note}"
    );
    let within = text(&c, "solution-moves").await;
    assert!((31..=46).contains(&within.len()), "{within}");
    let end = within
        .chars()
        .try_fold(board(start), |b, l| b.apply(Move::from_letter(l)?));
    assert_eq!(end, Some(Board::goal(Shape::THREE_BY_THREE)));
    set_within(&c, "").await;

    // Multi-tile moves: the command line's distance for the same start.
    click_and_settle(&c, Locator::Id("metric-mtm")).await;
    assert!(checked(&c, "metric-mtm").await);
    let d = mtm_distance(&mtm, start);
    assert!(d < 31, "{d}");
    assert_eq!(shown(&c).await, (d, start.to_string()));
    assert_eq!(text(&c, "metric-unit").await, "(multi-tile moves)");
    // The histogram and the puzzles at K moves are the multi-tile file's.
    let hist = api(&url, "/api/histogram?metric=mtm");
    let k_max = c
        .execute("return Number(document.getElementById('k').max);", vec![])
        .await
        .unwrap();
    assert_eq!(k_max, hist["max_distance"]);

    // The solution in slide notation: the command line's, and it replays
    // to the goal in that many slides.
    click_and_settle(&c, Locator::Id("show-solution")).await;
    let shown_solution = text(&c, "solution-moves").await;
    let cli: Value = serde_json::from_str(&mtm_query(&mtm, &["solve", "--json", start])).unwrap();
    assert_eq!(shown_solution, cli["moves"].as_str().unwrap());
    assert_eq!(shown_solution.split_whitespace().count() as u64, d);
    let mut at = board(start);
    for l in expand(&shown_solution).chars() {
        at = at.apply(Move::from_letter(l).unwrap()).unwrap();
    }
    assert_eq!(at, Board::goal(Shape::THREE_BY_THREE));

    // The hint marks the first slide of the command line's solution (and
    // only slides one closer, as the command line counts them).
    click_and_settle(&c, Locator::Id("hint")).await;
    let marked = hinted(&c).await;
    let first = cli["single_tile_moves"].as_str().unwrap()[..1].to_string();
    assert!(marked.contains(&first), "{marked:?} lacks {first}");
    for m in &marked {
        let mut at = board(start);
        let mut closer = false;
        while let Some(next) = at.apply(Move::from_letter(m.chars().next().unwrap()).unwrap()) {
            at = next;
            if mtm_distance(&mtm, &at.to_string()) == d - 1 {
                closer = true;
                break;
            }
        }
        assert!(closer, "the hint's {m} starts no slide one closer");
    }

    // Two steps of the solver's first slide and one more: the moves made
    // are counted in slides, and the distance is the command line's.
    let letters = &cli["single_tile_moves"].as_str().unwrap()[..3];
    for _ in 0..3 {
        click_and_settle(&c, Locator::Id("solve-step")).await;
    }
    let (after, position) = shown(&c).await;
    assert_eq!(after, mtm_distance(&mtm, &position));
    let slides = {
        let b = letters.as_bytes();
        (0..b.len()).filter(|&i| i == 0 || b[i] != b[i - 1]).count()
    };
    assert_eq!(text(&c, "move-count").await, slides.to_string());

    // Where the API refuses multi-tile moves, words, not an error banner.
    click(&c, Locator::Css("#heuristics-panel summary")).await;
    settle(&c).await;
    assert!(displayed(&c, "heuristics-note").await);
    assert!(text(&c, "heuristics-note")
        .await
        .contains("single-tile moves"));
    assert!(!displayed(&c, "worksheet").await);
    assert!(displayed(&c, "worksheet-note").await);
    assert!(!displayed(&c, "error").await);

    // The multi-tile page passes the accessibility check too, with every
    // move's change shown (a step may leave the distance as it is: "±0").
    click_and_settle(&c, Locator::Id("show-changes")).await;
    let script = format!(
        "const done = arguments[arguments.length - 1];\n{}\n\
         axe.run(document, {{ resultTypes: ['violations'] }})\
           .then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')\
             .map((v) => v.id)))\
           .catch((e) => done(String(e)));",
        crate::browser_classroom::axe_source()
    );
    assert_eq!(c.execute_async(&script, vec![]).await.unwrap(), json!([]));

    // Grading counts slides: the command line's solution is optimal.
    let grade = c.find(Locator::Id("grade-moves")).await.unwrap();
    grade
        .send_keys(cli["single_tile_moves"].as_str().unwrap())
        .await
        .unwrap();
    click_and_settle(&c, Locator::Id("grade")).await;
    let graded = text(&c, "grade-result").await;
    assert!(
        graded.contains(&format!("{d} moves against the optimum of {d}: optimal.")),
        "{graded}"
    );

    // The link holds the metric, and a reload restores the game in it.
    let link = href(&c).await;
    assert!(link.contains("metric=mtm"), "{link}");
    let before = (
        shown(&c).await,
        text(&c, "move-count").await,
        trace(&c).await,
    );
    c.goto("about:blank").await.unwrap();
    c.goto(&link).await.unwrap();
    settle(&c).await;
    assert!(checked(&c, "metric-mtm").await);
    let again = (
        shown(&c).await,
        text(&c, "move-count").await,
        trace(&c).await,
    );
    assert_eq!(again, before);
    assert_eq!(href(&c).await, link);

    // A click on a tile two cells from the gap, in its row, slides both
    // tiles: one multi-tile move, two steps on the trace.
    let corner = "012453786";
    custom(&c, corner).await;
    // Named for what it does, and reachable by Tab, as the neighbours are.
    let named = c
        .execute(
            "const t = document.querySelector(\"#board .tile[data-cell='2']\"); \
             return [t.getAttribute('aria-label'), t.tabIndex];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        named,
        json!(["tile 2, can slide left with the 1 tile before it", 0])
    );
    click_and_settle(&c, Locator::Css("#board .tile[data-cell='2']")).await;
    let (d, position) = shown(&c).await;
    assert_eq!(position, "120453786");
    assert_eq!(d, mtm_distance(&mtm, &position));
    assert_eq!(text(&c, "move-count").await, "1");
    let steps = [corner, "102453786", "120453786"].map(|p| mtm_distance(&mtm, p).to_string());
    assert_eq!(
        trace(&c).await,
        format!("distance after each move: {}", steps.join(", "))
    );

    // Back to single-tile moves: the same game, counted one tile a move.
    click_and_settle(&c, Locator::Id("metric-stm")).await;
    let (stm, position) = shown(&c).await;
    assert_eq!(position, "120453786");
    let answer = api(&url, &format!("/api/distance?start={position}"));
    assert_eq!(answer["distance"], json!(stm));
    assert_eq!(text(&c, "move-count").await, "2");
    assert!(href(&c).await.contains("metric=stm"));

    // 2x3 is served in single-tile moves only: the switch is disabled, with
    // the reason.
    c.find(Locator::Id("board-size"))
        .await
        .unwrap()
        .select_by_value("2x3")
        .await
        .unwrap();
    settle(&c).await;
    assert!(disabled(&c, "metric-mtm").await);
    assert!(checked(&c, "metric-stm").await);
    assert!(text(&c, "metric-note")
        .await
        .contains("single-tile moves only"));
    c.close().await.unwrap();
}

/// The end-of-game report under multi-tile moves counts slides, as the
/// metric does: the moves made, the solver's and the moves numbered that
/// went farther (each slide's distances the command line's).
#[tokio::test]
#[ignore = "needs chromium and chromedriver: run scripts/browser-tests.sh"]
async fn the_multi_tile_report_counts_slides() {
    let (session, c, url) = open_page_of(server_both_metrics()).await;
    let mtm = session.server.db("3x3-mtm");
    let start = "507236418";
    c.goto(&format!(
        "{url}?board=3x3&metric=mtm&start={start}&moves=DDLU"
    ))
    .await
    .unwrap();
    settle(&c).await;
    click(&c, Locator::Id("solve-play")).await;
    crate::browser::wait_for_report(&c).await;
    // The moves as played, from the link, counted and judged slide by slide.
    let link = href(&c).await;
    let letters = link
        .split("moves=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let mut slides: Vec<String> = Vec::new();
    for l in letters.chars() {
        match slides.last_mut() {
            Some(s) if s.ends_with(l) => s.push(l),
            _ => slides.push(l.to_string()),
        }
    }
    let (mut at, mut before) = (board(start), mtm_distance(&mtm, start));
    let mut farther = Vec::new();
    for (i, s) in slides.iter().enumerate() {
        for l in s.chars() {
            at = at.apply(Move::from_letter(l).unwrap()).unwrap();
        }
        let after = mtm_distance(&mtm, &at.to_string());
        if after > before {
            farther.push(format!("move {}:", i + 1));
        }
        before = after;
    }
    let (made, optimum, away) = crate::browser::report(&c).await;
    assert_eq!(made, slides.len() as u64, "{letters}");
    assert_eq!(optimum, mtm_distance(&mtm, start));
    assert_eq!(away, farther.len() as u64);
    let said = text(&c, "report").await;
    for f in &farther {
        assert!(said.contains(f.as_str()), "{said} lacks {f}");
    }
    // The solver played the slides after the link's four single steps.
    let solver = said.split(" (").nth(1).and_then(|s| s.split(' ').next());
    let solver: u64 = solver.unwrap().parse().unwrap();
    assert!(solver < made, "{said}");
    c.close().await.unwrap();
}
