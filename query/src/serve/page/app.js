// npuzzle's page: a client of the JSON API, which answers every question
// (distances, moves, solutions, random positions); the page only draws.
"use strict";

const $ = (id) => document.getElementById(id);

const game = {
  boards: [],      // from /api/boards
  board: null,     // the chosen entry of `boards`
  defaultBoard: "3x3", // the server's default, where a link names none
  metric: "stm",   // how moves are counted: "stm" (one tile) or "mtm" (a slide of several tiles)
  rows: 3,
  cols: 3,
  goal: [],        // cells, row by row, 0 the blank
  start: [],       // the game's first position
  cells: [],       // the position on the board
  startDistance: null,
  distance: null,  // of `cells`, once known
  unknown: false,  // the search for `cells`' distance ran past the server's --timeout
  info: null,      // /api/moves for `cells`, once known
  history: [],     // {move, tile, from, board, before, after, solver}
  redo: [],        // moves undone, the last undone last
  seeded: null,    // {seed, distance, count, index}: the game is puzzle `index` of that draw
  heuristics: null, // /api/heuristics for `cells`, once asked
  bound: null,     // {pair, lower}: the largest lower bound proved from a start to a goal, where the distance is unknown
  solved: null,    // {at, answer}: the /api/solve answer on show, for its note
  announced: null, // the distance last said in the live region
  heuristicsAsked: null, // the position whose /api/heuristics is under way
  heuristicsRequest: null, // its AbortController
  growth: null,    // the searches run at every distance: see runGrowth
  comparison: null, // {epoch, answer}: the /api/compare answer on show, for a position of that game
  compareRequest: null, // {controller, epoch}: the /api/compare under way
  histogram: null, // /api/histogram for the goal
  hint: false,
  slideHints: null, // {at, moves}: under the multi-tile metric, the moves that start a slide one closer
  nearHint: null,  // {at, move, within}: where the distance is unknown, the first move of a solution within a factor
  playing: null,   // the timer of solve playback
  playRun: 0,      // bumped by each playback started or stopped: an older one's late step is dropped
  linkTimer: null, // the timer of the link's next write
  linkWritten: 0,  // when the link was last written (ms)
  pending: 0,      // requests under way
  panelPending: 0, // those of them a panel's own: see api()
  epoch: 0,        // bumped by each new game: late answers of old games are dropped
  turn: 0,         // bumped by each action that starts a game, and each board chosen
  gradings: 0,     // bumped by each press of Grade: only the last one's answer is shown
  replaying: null, // the epoch whose link's moves are being graded
  plan: null,      // {at, moves}: the rest of the solver's last solution, from position `at`
  played: null,    // the entry of `boards` the game on the board is played on
  movesRequest: null, // the AbortController of the /api/moves under way
  searchingTimer: null,
  timeout: null,   // seconds a search may take on the server
  shortestChosen: false, // "the shortest" was chosen before a board with no file set W = 2
};

// The most moves a link replays, and a grading takes: what one /api/check
// request carries within the server's 1 KiB query string, boards included.
const MAX_MOVES = 800;
// The longest query string the server reads.
const MAX_QUERY = 1024;
// The farthest K offered on a pattern board, where random walks find the
// puzzles: short of where walks stop reaching (4x4 positions lie 53 moves
// out on average), and quick to search on 5x5.
const WALK_MAX = 60;

// Lookups answer at once; a request that takes longer than this is a
// search, and the page says so.
const SEARCHING_AFTER_MS = 250;

// ---- boards as text, as the command line writes them ----
function text(cells) {
  return cells.length <= 9 ? cells.join("") : cells.join(" ");
}
function parse(t) {
  return (t.includes(" ") ? t.trim().split(/\s+/) : t.split("")).map(Number);
}

// ---- the API ----
class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the server answered ${status}, without a message`);
    this.status = status;
    this.body = body;
  }
}
// What the page says when no answer comes at all: the browser's own words
// ("Failed to fetch") mean nothing to a player.
const NOT_ANSWERING =
  "The server is not answering: is query serve still running? The page asks again every few seconds.";
// How often the page asks a server that stopped answering whether it is
// back, so that the banner goes without a move (none is left at the goal).
const RECONNECT_MS = 2000;
let reconnecting = null;

// The query string of a request to the API: the board and metric, then `params`.
function queryOf(params) {
  return new URLSearchParams({
    board: game.board ? game.board.board : "3x3", metric: game.metric, ...params,
  });
}
// `panel`: a request of a panel's own (the textbook searches), which the
// game does not wait on: the "searching…" beside the distance is not for it.
async function api(path, params, signal, { panel = false } = {}) {
  // The boards served are the one question about no board.
  const query = path === "boards" ? new URLSearchParams(params) : queryOf(params);
  game.pending++;
  if (panel) game.panelPending++;
  setBusy();
  try {
    let response;
    try {
      response = await fetch(`/api/${path}?${query}`, signal ? { signal } : {});
    } catch (e) {
      throw e.name === "AbortError" ? e : new Error(NOT_ANSWERING);
    }
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      // Stopped while the answer was read: stopped, as before it came. An
      // answer that breaks off is the server's going away; an error's
      // body need not be JSON.
      if (signal && signal.aborted) throw new DOMException("stopped", "AbortError");
      if (response.ok) throw new Error(NOT_ANSWERING);
    }
    if (!response.ok) throw new ApiError(response.status, body);
    // The server answers again: the banner that said it did not is over
    // (others go with the next move or game, not with any answer).
    if ($("error").textContent === NOT_ANSWERING) showError(null);
    return body;
  } finally {
    game.pending--;
    if (panel) game.panelPending--;
    setBusy();
  }
}
function setBusy() {
  // The link's write waiting for its turn counts: the game is not settled
  // until the address holds it.
  const busy = game.pending > 0 || game.linkTimer !== null;
  document.body.dataset.busy = busy ? "1" : "0";
  const searching = game.pending > game.panelPending || game.linkTimer !== null;
  if (searching && !game.searchingTimer) {
    game.searchingTimer = setTimeout(() => { $("searching").hidden = false; }, SEARCHING_AFTER_MS);
  } else if (!searching) {
    clearTimeout(game.searchingTimer);
    game.searchingTimer = null;
    $("searching").hidden = true;
  }
}
function showError(e) {
  const box = $("error");
  const away = Boolean(e) && (e.message || String(e)) === NOT_ANSWERING;
  if (away && !reconnecting) {
    // Not through api(): the page is not busy while it waits.
    reconnecting = setInterval(async () => {
      try {
        const back = await fetch("/api/boards");
        if (!back.ok || $("error").textContent !== NOT_ANSWERING) return;
        showError(null);
        // A page whose boards never came starts again; so does a board
        // chosen whose first game never came (the last board's is shown).
        if (!game.boards.length) location.reload();
        else if (!playing()) selectBoard(game.board.board).catch(showError);
        else answerAgain().catch(showError);
      } catch (_) { /* still away */ }
    }, RECONNECT_MS);
  } else if (!away && reconnecting) {
    clearInterval(reconnecting);
    reconnecting = null;
  }
  if (!e) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = e.message || String(e);
  box.hidden = false;
}

// ---- moves: a blank move by its letter ----
const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
function target(cells, move) {
  const blank = cells.indexOf(0);
  const r = Math.floor(blank / game.cols) + STEP[move][0];
  const c = (blank % game.cols) + STEP[move][1];
  if (r < 0 || c < 0 || r >= game.rows || c >= game.cols) return -1;
  return r * game.cols + c;
}
function apply(cells, move) {
  const to = target(cells, move);
  if (to < 0) return null;
  const next = cells.slice();
  next[cells.indexOf(0)] = cells[to];
  next[to] = 0;
  return next;
}
// The blank's move that slides the tile in `cell`, if it is next to the blank.
function moveFor(cell) {
  for (const m of "UDLR") if (target(game.cells, m) === cell) return m;
  return null;
}
// The slide that brings the tile at `cell` and every tile between it and
// the gap one cell toward the gap: the blank's letter and how many cells
// it crosses, or null when the tile is not in the blank's row or column.
function slideFor(cell) {
  const blank = game.cells.indexOf(0);
  const [br, bc, r, c] = [Math.floor(blank / game.cols), blank % game.cols, Math.floor(cell / game.cols), cell % game.cols];
  let letter = null;
  if (br === r) letter = c > bc ? "R" : "L";
  else if (bc === c) letter = r > br ? "D" : "U";
  return letter ? { letter, count: Math.abs(r - br) + Math.abs(c - bc) } : null;
}
// Under the multi-tile metric a click on a tile in the blank's row or
// column slides it and every tile between it and the gap: one move.
async function slideTo(cell) {
  const slide = slideFor(cell);
  if (!slide) return;
  const epoch = game.epoch;
  for (let i = 0; i < slide.count; i++) {
    const next = apply(game.cells, slide.letter);
    if (!(await move(slide.letter))) return;
    // Another game, or a move of the player's own while this step's
    // distance came: the rest of the slide is not theirs.
    if (epoch !== game.epoch || text(game.cells) !== text(next)) return;
  }
}
// A tile slides the way the blank does not: the arrow (or swipe) names the tile's way.
const BY_TILE_DIRECTION = { up: "D", down: "U", left: "R", right: "L" };

// ---- a game ----
// Each action that starts a game takes a turn, and so does each board
// chosen: an earlier action whose answers come later (a slow walk on 4x4,
// then 3x3 chosen) starts nothing.
function takeTurn() {
  return ++game.turn;
}
function superseded(turn) {
  return turn !== game.turn;
}
// `request`'s answer while `current()` holds, or undefined once it does
// not: its error then is no one's either.
async function answerWhile(current, request) {
  try {
    const answer = await request;
    return current() ? answer : undefined;
  } catch (e) {
    if (!current()) return undefined;
    throw e;
  }
}
// `request`'s answer for the action of `turn`, or undefined where a later
// action has taken over.
function forTurn(turn, request) {
  return answerWhile(() => !superseded(turn), request);
}
// `request`'s answer for the game of `epoch`, or undefined where another
// game has begun or another board was chosen.
function forGame(epoch, request) {
  return answerWhile(() => epoch === game.epoch, request);
}
// Whether the game of `epoch` is still at the position `at`.
function stillAt(epoch, at) {
  return epoch === game.epoch && text(game.cells) === at;
}
// Whether the game shown is the chosen board's. Between a board chosen and
// its first game the board shown is the last one's: nothing is drawn,
// asked or written to the link for it.
function playing() {
  return game.played === game.board;
}
// What a new game by the player's own action leaves behind: a link's
// refusal, a grading of the last game, an error.
function forgetMessages() {
  $("link-error").hidden = true;
  $("grade-result").replaceChildren();
  showError(null);
}
// `known` is the start's /api/moves answer where the caller has it already
// (on a pattern board each costs up to four searches).
// `tooFar` says its search already ran past the server's timeout.
async function newGame(start, goal, known = null, seeded = null, tooFar = false) {
  stopPlaying();
  const epoch = ++game.epoch;
  const goalChanged = text(goal) !== text(game.goal);
  let info = known;
  try {
    if (!info && !tooFar) info = await api("moves", { start: text(start), goal: text(goal) });
  } catch (e) {
    if (epoch !== game.epoch) return;
    // Too far for an exact search in the server's time: the game starts
    // all the same, its distance unknown.
    if (!pastTimeout(e)) throw e;
  }
  if (epoch !== game.epoch) return;
  // The goal's histogram first, so that the game changes only as it is
  // drawn: a click meanwhile moves a tile of the board in view.
  let histogram = null;
  if (complete() && (goalChanged || !game.histogram)) {
    histogram = await histogramToward(goal);
    if (epoch !== game.epoch) return;
  }
  game.played = game.board;
  game.goal = goal;
  game.start = start;
  game.cells = start;
  game.info = info;
  game.distance = info ? info.distance : null;
  game.startDistance = game.distance;
  game.unknown = !info || info.distance === null;
  game.history = [];
  game.redo = [];
  game.seeded = seeded;
  game.hint = false;
  game.plan = null;
  game.heuristics = null;
  hideSolution();
  if (histogram) setHistogram(histogram);
  render();
}

// Whether the board is served by complete tables (every distance known, so
// puzzles at K moves and the histogram), rather than by pattern databases.
function complete() {
  return !game.board || game.board.kind === "complete";
}

// Whether the board is served with no file (one no database can be built
// for, such as 6x6): no distance is known but within a move of the goal, and solutions come
// within a factor of the shortest.
function withoutFile() {
  return Boolean(game.board && game.board.kind === "none");
}

// Whether moves count as slides of several tiles (the multi-tile metric).
function multiTile() {
  return game.metric === "mtm";
}
// The metrics the board is served in (`stm` only from an older server).
function metricsOf(board) {
  return board && board.metrics ? board.metrics : ["stm"];
}
// The moves made as the metric counts them, each with its steps: under
// multi-tile moves a run of steps the same way is one slide.
function movesAsCounted() {
  const moves = [];
  for (const h of game.history) {
    const last = moves[moves.length - 1];
    if (multiTile() && last && last.move === h.move) last.steps.push(h);
    else moves.push({ move: h.move, steps: [h] });
  }
  return moves;
}
function movesMade() {
  return movesAsCounted().length;
}

// "1 move", "2 moves".
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

// The histogram toward `goal` on the board and metric at hand, or null
// where another board or metric was chosen while it came.
async function histogramToward(goal) {
  const [board, metric] = [game.board, game.metric];
  const histogram = await api("histogram", { goal: text(goal) });
  return board === game.board && metric === game.metric ? histogram : null;
}
async function loadHistogram() {
  const goal = text(game.goal);
  const histogram = await histogramToward(game.goal);
  // Another board, metric or goal was chosen meanwhile: its own is asked for.
  if (histogram && goal === text(game.goal)) setHistogram(histogram);
}
function setHistogram(histogram) {
  game.histogram = histogram;
  const k = $("k");
  k.max = game.histogram.max_distance;
  if (Number(k.value) > game.histogram.max_distance) k.value = game.histogram.max_distance;
  showK();
}

// Makes a blank move, shows it at once, then asks for the new distances.
// A move of the player's own clears what Redo would replay.
async function move(letter, solver = false, redoing = false) {
  // A board chosen whose game has not come yet: the new size's moves do
  // not fit the board shown.
  if (!playing()) return false;
  const next = apply(game.cells, letter);
  if (!next) return false;
  // Whatever went wrong at the last position is over, and a link copied
  // before is one move behind.
  showError(null);
  $("copy-note").textContent = "";
  const epoch = game.epoch;
  const before = game.distance;
  const entry = {
    move: letter,
    tile: game.cells[target(game.cells, letter)],
    from: text(game.cells),
    board: text(next),
    before,
    after: null,
    solver,
  };
  // The table's answer for this move is already known from the last /api/moves.
  const known = game.info && game.info.start === text(game.cells)
    ? game.info.moves.find((m) => m.move === letter) : null;
  if (known) entry.after = known.distance;
  game.history.push(entry);
  if (!redoing) game.redo = [];
  game.cells = next;
  game.info = null;
  game.heuristics = null;
  game.distance = entry.after;
  game.unknown = withoutFile() && entry.after === null;
  game.hint = false;
  render();
  const info = await lookUp(entry.board);
  if (!info || epoch !== game.epoch) return true;
  entry.after = info.distance;
  if (text(game.cells) === entry.board && game.replaying !== epoch) await learnMissedDistances(epoch);
  return true;
}

// /api/moves for `position`, which becomes the board's answer if the board
// is still there. A newer lookup abandons this one (and its search): null.
async function lookUp(position) {
  if (game.movesRequest) game.movesRequest.abort();
  const request = new AbortController();
  game.movesRequest = request;
  const epoch = game.epoch;
  try {
    const info = await api("moves", { start: position, goal: text(game.goal) }, request.signal);
    if (epoch === game.epoch && text(game.cells) === position) {
      game.info = info;
      game.distance = info.distance;
      game.unknown = info.distance === null;
      render();
    }
    return info;
  } catch (e) {
    if (pastTimeout(e)) {
      if (epoch === game.epoch && text(game.cells) === position) {
        game.unknown = true;
        render();
        // A hint asked for while the distance was searched: the near one.
        if (game.hint && !multiTile()) loadNearHint().catch(showError);
      }
    } else if (e.name !== "AbortError" && epoch === game.epoch) showError(e);
    return null;
  } finally {
    if (game.movesRequest === request) game.movesRequest = null;
  }
}

// Whether `e` is the server's 503: a search that ran past its --timeout
// (on the 24-puzzle, most random positions), not a fault.
function pastTimeout(e) {
  return e instanceof ApiError && e.status === 503;
}

// Takes the last move back; Redo replays it. The distance before it is
// already known, and the trace loses the move.
function undo() {
  if (!playing()) return;
  const last = game.history.pop();
  if (!last) return;
  stopPlaying();
  game.redo.push(last);
  game.cells = parse(last.from);
  game.distance = last.before;
  game.unknown = withoutFile() && last.before === null;
  game.info = null;
  game.heuristics = null;
  game.hint = false;
  render();
  lookUp(last.from);
}
function redo() {
  const next = game.redo.pop();
  if (!next) return;
  stopPlaying();
  move(next.move, next.solver, true).catch(showError);
}

// Back after the server was away: the position's answer (its distance,
// the hint's moves), then the distances of the moves made meanwhile.
async function answerAgain() {
  const epoch = game.epoch;
  const at = text(game.cells);
  const info = await lookUp(at);
  if (info && epoch === game.epoch && text(game.cells) === at) await learnMissedDistances(epoch);
}

// The distances of earlier moves that never got one (made while the server
// was away, or left behind by a quicker move): the report needs them all.
async function learnMissedDistances(epoch) {
  if (withoutFile()) return;
  let learnt = false;
  for (const h of game.history.slice()) {
    if (h.after !== null) continue;
    const answer = await forGame(epoch, api("distance", { start: h.board, goal: text(game.goal) }));
    if (answer === undefined) return;
    h.after = answer.distance;
    learnt = true;
  }
  if (learnt) render();
}

// ---- drawing ----
const TILE_WAY = { U: "down", D: "up", L: "right", R: "left" };

function render() {
  if (!playing()) return;
  const board = $("board");
  // The tile the keyboard is on stays focused as the tiles are drawn again.
  const focused = document.activeElement && document.activeElement.classList.contains("tile")
    ? document.activeElement.dataset.tile : null;
  board.style.setProperty("--cols", game.cols);
  board.style.setProperty("--rows", game.rows);
  const moves = {};
  if (game.info) for (const m of game.info.moves) moves[m.move] = m;
  const showChanges = $("show-changes").checked;
  const here = game.heuristics && game.heuristics.start === text(game.cells) ? game.heuristics : null;
  const manhattan = $("show-manhattan").checked && here ? here.manhattan_by_cell : null;
  const tiles = [];
  game.cells.forEach((tile, cell) => {
    if (tile === 0) {
      const gap = document.createElement("div");
      gap.className = "gap";
      gap.setAttribute("aria-hidden", "true");
      tiles.push(gap);
      return;
    }
    // The badges sit beside the button, not in it: its visible text stays
    // the tile's number, which its accessible name starts with.
    const holder = document.createElement("div");
    holder.className = "cell";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile";
    button.textContent = tile;
    button.dataset.tile = tile;
    button.dataset.cell = cell;
    holder.appendChild(button);
    const badge = (cls, words) => {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = words;
      span.setAttribute("aria-hidden", "true");
      holder.appendChild(span);
    };
    let label = `tile ${tile}`;
    const m = moveFor(cell);
    if (m) {
      button.dataset.move = m;
      button.classList.add("movable");
      const answer = moves[m];
      label += `, can move ${TILE_WAY[m]}`;
      // Colour is never the only sign: a hint and a change also carry words.
      if (answer && game.hint && hinted(m, answer)) {
        button.classList.add("hint");
        badge("hint-mark", "closer");
        label += multiTile() ? ", starts an optimal slide" : ", one step closer";
      } else if (game.hint && nearHinted(m)) {
        button.classList.add("hint");
        badge("hint-mark", "short way");
        label += `, starts a solution at most ${game.nearHint.within} × the shortest`;
      }
      if (answer && showChanges && answer.change !== null) {
        // Under the multi-tile metric one tile's step may leave the distance as it is.
        const [cls, mark, words] = answer.change < 0 ? ["closer", "−1", ", one closer"]
          : answer.change > 0 ? ["farther", "+1", ", one farther"] : ["same", "±0", ", no change"];
        badge("change " + cls, mark);
        // The hint has said it already.
        if (!label.endsWith(", one step closer")) label += words;
      }
    } else if (multiTile() && slideFor(cell)) {
      // A longer slide, one move under this metric: named, and reachable.
      const { letter, count } = slideFor(cell);
      const others = count === 2 ? "1 tile" : `${count - 1} tiles`;
      label += `, can slide ${TILE_WAY[letter]} with the ${others} before it`;
    } else {
      button.tabIndex = -1;
    }
    if (manhattan) {
      badge("manhattan", `${manhattan[cell]}`);
      label += `, ${manhattan[cell]} from its goal cell`;
    }
    button.setAttribute("aria-label", label);
    tiles.push(holder);
  });
  board.replaceChildren(...tiles);
  if (focused !== null) {
    // The tile the keyboard was on, or, where it can no longer move, the
    // board: the keyboard stays in the game, not at the page's top.
    const again = board.querySelector(`.tile[data-tile="${focused}"]`);
    if (again && again.tabIndex !== -1) again.focus();
    else board.focus();
  }

  const unknown = game.distance === null && game.unknown;
  $("distance").textContent = game.distance === null ? (unknown ? "?" : "…") : game.distance;
  $("distance-note").hidden = !unknown;
  $("distance-note").textContent = !unknown ? ""
    : withoutFile()
      ? `No database is served for ${game.board.board} boards (none can be built), so no ` +
        "distance is known but within a move of the goal: play on, or have a solution shown at most " +
        "W × the shortest (Solve, Solutions)."
      : "The exact distance takes longer than the server's --timeout here: play on, " +
        "have a solution shown at most W × the shortest (Solve, Solutions), or ask for a " +
        "hint, which marks the first move of such a solution.";
  if (game.distance !== null && game.distance !== game.announced) {
    game.announced = game.distance;
    $("announce").textContent = game.distance === 0
      ? "At the goal." : `Distance to goal: ${game.distance}.`;
  }
  $("move-count").textContent = movesMade();
  $("metric-unit").textContent = multiTile() ? "(multi-tile moves)" : "";
  $("position").textContent = text(game.cells);
  $("goal-text").textContent = text(game.goal);
  $("undo").disabled = game.history.length === 0;
  $("redo").disabled = game.redo.length === 0;
  drawTrace();
  drawHistogram();
  drawReport();
  drawSeeded();
  drawHeuristics();
  drawComparison();
  drawGrowth();
  saveLink();
}

const SVG = "http://www.w3.org/2000/svg";
function svgElement(name, attributes, words) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (words !== undefined) element.textContent = words;
  return element;
}
// About `count` round values from `low` to `high`, both included.
function ticks(low, high, count) {
  const raw = Math.max(1, (high - low) / count);
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => s >= raw) ?? Math.ceil(raw);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) values.push(v);
  return values;
}
// Axes with ticks: `x` and `y` map values to the drawing's coordinates.
function axes(svg, box, xs, ys, x, y, xTitle, yTitle) {
  svg.appendChild(svgElement("line", { x1: box.left, y1: box.bottom, x2: box.right, y2: box.bottom, class: "axis" }));
  svg.appendChild(svgElement("line", { x1: box.left, y1: box.top, x2: box.left, y2: box.bottom, class: "axis" }));
  for (const v of xs) {
    svg.appendChild(svgElement("line", { x1: x(v), y1: box.bottom, x2: x(v), y2: box.bottom + 3, class: "axis" }));
    svg.appendChild(svgElement("text", { x: x(v), y: box.bottom + 12, "text-anchor": "middle", class: "tick" }, v));
  }
  for (const v of ys) {
    svg.appendChild(svgElement("line", { x1: box.left - 3, y1: y(v), x2: box.left, y2: y(v), class: "axis" }));
    svg.appendChild(svgElement("text", { x: box.left - 5, y: y(v) + 3, "text-anchor": "end", class: "tick" }, v.toLocaleString("en")));
  }
  svg.appendChild(svgElement("text", { x: (box.left + box.right) / 2, y: box.bottom + 24, "text-anchor": "middle", class: "axis-title" }, xTitle));
  svg.appendChild(svgElement("text", { x: box.left, y: box.top - 4, "text-anchor": "start", class: "axis-title" }, yTitle));
}

function drawTrace() {
  const svg = $("trace");
  const points = [game.startDistance, ...game.history.map((h) => h.after)].filter((d) => d !== null);
  svg.replaceChildren();
  if (!points.length) return;
  const low = Math.max(0, Math.min(...points) - 1), high = Math.max(...points) + 1;
  const box = { left: 28, right: 312, top: 12, bottom: 80 };
  const last = Math.max(1, points.length - 1);
  const x = (i) => box.left + (i / last) * (box.right - box.left);
  const y = (d) => box.bottom - ((d - low) / (high - low)) * (box.bottom - box.top);
  axes(svg, box, ticks(0, last, 5), ticks(low, high, 3), x, y,
    multiTile() ? "tiles moved" : "moves", multiTile() ? "distance (multi-tile moves)" : "distance");
  const xy = points.map((d, i) => `${x(i).toFixed(1)},${y(d).toFixed(1)}`);
  svg.appendChild(svgElement("polyline", { points: xy.join(" "), class: "trace-line" }));
  // Where the game stands: a mark, so that a game of no move yet shows
  // its start (a line of one point draws nothing).
  const now = points.length - 1;
  svg.appendChild(svgElement("circle", { cx: x(now).toFixed(1), cy: y(points[now]).toFixed(1), r: 3, class: "trace-now" }));
  svg.setAttribute("aria-label", "distance after each move: " + points.join(", "));
}

function drawHistogram() {
  const svg = $("histogram");
  const hist = game.histogram;
  svg.replaceChildren();
  // An SVG element has no `hidden` property: the attribute does it.
  svg.toggleAttribute("hidden", !hist || !complete());
  if (!complete()) {
    $("histogram-note").textContent =
      `No histogram on this board: counting the positions at each distance needs every ` +
      `position's distance, which only complete tables hold, and ` +
      (withoutFile()
        ? `no database is served for ${game.board.board}.`
        : `${game.board.board} is answered by a search over pattern databases.`);
    return;
  }
  if (!hist) return;
  const counts = hist.counts;
  const top = Math.max(...counts);
  const box = { left: 44, right: 314, top: 22, bottom: 104 };
  const bw = (box.right - box.left) / counts.length;
  const x = (d) => box.left + (d + 0.5) * bw;
  const y = (c) => box.bottom - (c / top) * (box.bottom - box.top);
  counts.forEach((c, d) => {
    const bh = c === 0 ? 0 : Math.max(1, box.bottom - y(c));
    const bar = svgElement("rect", {
      x: (box.left + d * bw + 0.5).toFixed(1),
      width: Math.max(1, bw - 1).toFixed(1),
      y: (box.bottom - bh).toFixed(1),
      height: bh.toFixed(1),
      class: d === game.distance ? "bar current" : "bar",
      "data-distance": d,
    });
    bar.appendChild(svgElement("title", {}, `${c} positions at distance ${d}`));
    svg.appendChild(bar);
  });
  axes(svg, box, ticks(0, counts.length - 1, 6), [0, Math.round(top / 2), top], x, y,
    multiTile() ? "distance from the goal (multi-tile moves)" : "distance from the goal (moves)", "positions");
  if (game.distance !== null && game.distance < counts.length) {
    // Marked by a word as well as by colour.
    // The arrow over the bar, the word on the side with room for it.
    const at = x(game.distance);
    const right = at > box.right - 30;
    svg.appendChild(svgElement("text", {
      x: right ? at + 4 : at - 4, y: Math.max(box.top + 8, y(counts[game.distance]) - 3),
      "text-anchor": right ? "end" : "start", class: "you", id: "histogram-you",
    }, right ? "you ▼" : "▼ you"));
  }
  const note = $("histogram-note");
  if (game.distance !== null && game.distance < counts.length) {
    const share = (100 * counts[game.distance] / hist.positions).toPrecision(2);
    note.textContent = `You are at distance ${game.distance}, with ${counts[game.distance].toLocaleString("en")} ` +
      `of the ${hist.positions.toLocaleString("en")} positions (${share}%). The farthest lie at ${hist.max_distance}.`;
  }
}

function drawReport() {
  const report = $("report");
  const done = game.distance === 0 && game.history.length > 0 &&
    game.history.every((h) => h.after !== null);
  report.hidden = !done;
  if (!done) return;
  const moves = movesAsCounted();
  const made = moves.length;
  const optimum = game.startDistance;
  const farther = [];
  let before = game.startDistance;
  moves.forEach((m, i) => {
    const after = m.steps[m.steps.length - 1].after;
    if (after > before) farther.push({ i: i + 1, move: m.move, tiles: m.steps.map((s) => s.tile), before, after });
    before = after;
  });
  const bySolver = moves.filter((m) => m.steps.every((s) => s.solver)).length;
  report.dataset.moves = made;
  report.dataset.optimum = optimum;
  report.dataset.farther = farther.length;
  const dir = { U: "down", D: "up", L: "right", R: "left" };
  const items = farther.map((f) =>
    `<li>move ${f.i}: ${f.tiles.length === 1 ? "tile" : "tiles"} ${f.tiles.join(", ")} ` +
    `${dir[f.move]} (${f.before} → ${f.after})</li>`).join("");
  const extra = made - optimum;
  report.innerHTML =
    `<h2>Solved</h2>` +
    `<p>You took <strong id="report-moves">${made}</strong> ${made === 1 ? "move" : "moves"}; ` +
    `the fewest possible from the start was <strong id="report-optimum">${optimum}</strong>` +
    (extra === 0 ? ": a perfect game." : `, so ${extra} ${extra === 1 ? "was" : "were"} extra.`) +
    (bySolver ? ` (${bySolver} of them played for you.)` : "") + `</p>` +
    (farther.length
      ? `<p>${count(farther.length, "move")} took you farther away:</p><ul id="report-farther">${items}</ul>`
      : `<p id="report-farther">No move took you farther away.</p>`);
}

// ---- the link: the game in the URL ----
// board, start, goal, the moves played, and for a seeded puzzle its draw:
// a reload (or the link sent to someone else) restores the game exactly.
function link() {
  const q = new URLSearchParams({
    board: game.board.board, metric: game.metric, start: text(game.start), goal: text(game.goal),
  });
  const moves = game.history.map((h) => h.move).join("");
  if (moves) q.set("moves", moves);
  if (game.seeded) {
    for (const key of ["seed", "distance", "count"]) q.set(key, game.seeded[key]);
    q.set("puzzle", game.seeded.index);
  }
  return `${location.origin}${location.pathname}?${q}`;
}
// The link follows the game, but a browser refuses address changes past
// about 200 in 10 s (playback makes several a move, at up to 20 moves a
// second): changes within LINK_EVERY_MS of the last write are written
// once, at its end.
const LINK_EVERY_MS = 100;
function saveLink() {
  if (!game.board || !playing() || !game.start.length || game.linkTimer) return;
  const wait = game.linkWritten + LINK_EVERY_MS - Date.now();
  if (wait <= 0) {
    writeLink();
    return;
  }
  game.linkTimer = setTimeout(() => {
    game.linkTimer = null;
    writeLink();
    setBusy();
  }, wait);
  setBusy();
}
function writeLink() {
  game.linkWritten = Date.now();
  // A write that waited past another board chosen has no game to write.
  if (game.board && playing() && game.start.length) history.replaceState(null, "", link());
}

// The game a link holds, or false (the link's error shown) when it holds
// none that can be played: then the caller starts the usual game.
async function restore(query) {
  if (!query.has("start")) return false;
  const refuse = (message) => {
    const box = $("link-error");
    box.textContent = `This link's game cannot be played: ${message}`;
    box.hidden = false;
    return false;
  };
  // Without a board, 3x3, as the API reads none (the server's first
  // board where 3x3 is not served); sizes in either case, as the command
  // line reads them.
  const unnamed = game.boards.some((b) => b.board === "3x3") ? "3x3" : game.defaultBoard;
  const name = (query.get("board") || unnamed).toLowerCase();
  if (!game.boards.some((b) => b.board === name)) {
    return refuse(`no ${name.slice(0, 40)} database is served (served: ${game.boards.map((b) => b.board).join(", ")}).`);
  }
  setBoard(name, query.get("metric"));
  const turn = game.turn;
  const asked = query.get("metric");
  if (asked && asked !== game.metric) {
    $("link-error").textContent = asked === "stm" || asked === "mtm"
      ? `This link counts moves as ${asked}, which ${name} is not served in here ` +
        `(served: ${metricsOf(game.board).join(", ")}): the game is played in ${game.metric}.`
      : `This link's metric, "${asked.slice(0, 40)}", is not one: moves are counted as stm ` +
        `(one tile a move) or mtm (a slide a move); the game is played in ${game.metric}.`;
    $("link-error").hidden = false;
  }
  let info = null;
  let boards;
  try {
    info = await api("moves", { start: query.get("start"), goal: query.get("goal") || game.board.goal });
    boards = info;
  } catch (e) {
    if (superseded(turn)) return true;
    // Too far for an exact search in the server's time (most 5x5
    // positions): the game is played all the same, its distance unknown.
    if (!(pastTimeout(e) && e.body && e.body.start)) return refuse(e.message);
    boards = e.body;
  }
  if (superseded(turn)) return true;
  const seeded = seededOf(query, info);
  if (seeded) {
    $("seed").value = seeded.seed;
    $("count").value = seeded.count;
    if (!withoutFile()) { $("k").value = seeded.distance; showK(); }
  }
  await newGame(parse(boards.start), parse(boards.goal), info, seeded, !info);
  // The game a later action started is not this link's to replay onto.
  if (superseded(turn)) return true;
  await replay(query.get("moves") || "");
  return true;
}

// The seeded set a link names, where it can be one: a seed of 0 to
// 2^64 - 1, a distance K or range, a count of 1 to 1000 and a puzzle
// within it, at that distance where it is known. Otherwise none, and the
// link's game is played alone, with a note.
function seededOf(query, info) {
  if (!query.has("seed")) return null;
  const seed = (query.get("seed") || "").trim();
  const distance = (query.get("distance") || "").trim();
  const count = Number(query.get("count") || 1);
  const index = Number(query.get("puzzle") || 1);
  // As the server reads K, A..B (B excluded) and A..=B: each number
  // trimmed, a `+` allowed, and no empty range.
  const range = distance.match(/^\+?(\d+)\s*(?:\.\.(=?)\s*\+?(\d+))?$/);
  const low = range ? Number(range[1]) : NaN;
  const high = !range ? NaN : range[3] === undefined ? low : Number(range[3]) - (range[2] ? 0 : 1);
  // A seed as the server reads it: digits, no sign.
  let fits = /^\d{1,20}$/.test(seed) && BigInt(seed) < 2n ** 64n && low <= high &&
    Number.isInteger(count) && count >= 1 && count <= 1000 &&
    Number.isInteger(index) && index >= 1 && index <= count;
  const d = info ? info.distance : null;
  if (fits && d !== null) fits = d >= low && d <= high;
  if (fits) return { seed, distance, count, index };
  // The link's own words, shortened, and those it left out as a draw
  // reads them.
  const said = (name, fallback) => (query.get(name) || fallback).slice(0, 40);
  $("link-error").textContent = `This link's set (seed ${said("seed", "none")}, distance ` +
    `${said("distance", "none")}, puzzle ${said("puzzle", "1")} of ${said("count", "1")}) is ` +
    `not one a draw gives: its game is played alone.`;
  $("link-error").hidden = false;
  return null;
}

// Plays a link's moves, then learns every distance on the way in one
// grading (each move changes the distance by exactly one).
async function replay(letters) {
  const epoch = game.epoch;
  let cells = game.cells;
  if (letters.length > MAX_MOVES) {
    $("link-error").textContent = `This link holds ${letters.length} moves; a link replays at ` +
      `most ${MAX_MOVES}, so the game starts from its start.`;
    $("link-error").hidden = false;
    return;
  }
  for (const [i, letter] of [...letters].entries()) {
    const next = STEP[letter] ? apply(cells, letter) : null;
    if (!next) {
      $("link-error").textContent = `This link's move ${i + 1} (${letter}) cannot be played ` +
        `from ${text(cells)}: the game stops before it.`;
      $("link-error").hidden = false;
      break;
    }
    game.history.push({ move: letter, tile: cells[target(cells, letter)], from: text(cells), board: text(next), before: null, after: null, solver: false });
    cells = next;
  }
  if (!game.history.length) return;
  game.cells = cells;
  game.distance = null;
  game.info = null;
  render();
  if (withoutFile() || game.startDistance === null) {
    // Nothing grades moves without distances, nor from a start too far to
    // search in time: the last position is looked at.
    await lookUp(text(game.cells));
    return;
  }
  // The link's moves: the player's own may follow while these are graded
  // (and need not look up the link's, which the grading gives).
  const linked = game.history.slice();
  game.replaying = epoch;
  try {
    const graded = await forGame(epoch, api("check", {
      start: text(game.start), goal: text(game.goal), moves: linked.map((h) => h.move).join(""),
    }));
    if (graded === undefined) return;
    let d = graded.optimal;
    if (multiTile()) {
      // One tile's step may leave a multi-tile distance as it is: each
      // position is looked up (multi-tile files are complete tables).
      for (const h of linked) {
        h.before = d;
        const answer = await forGame(epoch, api("distance", { start: h.board, goal: text(game.goal) }));
        if (answer === undefined) return;
        d = answer.distance;
        h.after = d;
      }
    } else {
      const away = new Set(graded.away);
      linked.forEach((h, i) => {
        h.before = d;
        d += away.has(i + 1) ? 1 : -1;
        h.after = d;
      });
    }
    // A move of the player's own made meanwhile starts where the link's
    // end; one undone has its distance from its own lookup.
    const end = game.history.indexOf(linked[linked.length - 1]);
    if (end === game.history.length - 1) game.distance = d;
    else if (end >= 0) game.history[end + 1].before = d;
  } catch (e) {
    // The distances stay unknown: asking for each one would search again.
    showError(e);
  } finally {
    if (game.replaying === epoch) game.replaying = null;
  }
  render();
  // A move or undo made meanwhile looks its own position up.
  if (game.history[game.history.length - 1] === linked[linked.length - 1]) {
    await lookUp(text(game.cells));
  }
}

async function copy(words, note) {
  try {
    await navigator.clipboard.writeText(words);
    // After what the note said (the solution's length), not over it.
    const kept = note.textContent.replace(/\s*Copied\.$/, "");
    note.textContent = kept && !kept.startsWith("Copy it from here") ? `${kept} Copied.` : "Copied.";
  } catch (_) {
    note.textContent = `Copy it from here: ${words}`;
  }
}

// ---- seeded puzzles and the worksheet ----
// Puzzle `index` of `query random --distance K --count N --seed S`.
async function newSeeded(distance, seed, count, index, turn = takeTurn()) {
  const drawn = await forTurn(turn, api("random", { distance, count, seed, goal: text(game.goal) }));
  if (!drawn) return;
  const at = Math.min(index, drawn.positions.length);
  // The seed as asked, not as JSON's numbers hold it: past 2^53 a number
  // loses digits, and the rest of the set would come from another draw.
  const seeded = { seed: String(seed).trim(), distance: String(distance), count, index: at };
  await newGame(parse(drawn.positions[at - 1].start), game.goal, null, seeded);
}
// The set's size typed, within 1 to 1000; nothing, or what is no number
// (which a number field holds as nothing), the default of 10.
function setCount() {
  const typed = $("count").value.trim();
  const n = Math.round(Number(typed));
  return typed !== "" && Number.isFinite(n) ? Math.min(1000, Math.max(1, n)) : 10;
}
// The set's size at `k` moves: no more than lie there, where complete
// tables count them (the hardest positions are few: 2 on 3x3).
function countAt(k) {
  const counts = complete() && game.histogram ? game.histogram.counts : null;
  const there = counts && /^\d+$/.test(String(k)) ? counts[Number(k)] : undefined;
  return there ? Math.min(setCount(), there) : setCount();
}
function drawSeeded() {
  const s = game.seeded;
  $("puzzle-number").textContent = s ? `${s.index} of ${s.count} (seed ${s.seed}, distance ${s.distance})` : "–";
  // The command that draws the same set: the board and goal said where
  // they are not the defaults.
  const name = game.board ? game.board.board : "3x3";
  const options = (name === "3x3" ? "" : ` --board ${name}`) + (multiTile() ? " --metric mtm" : "");
  const goal = game.board && text(game.goal) !== game.board.goal ? ` --goal "${text(game.goal)}"` : "";
  $("seed-command").textContent = s
    ? `query${options} random --distance ${s.distance} --count ${s.count} --seed ${s.seed}${goal}`
    : `query${options} random --distance K --count N --seed S${goal}`;
  $("next-puzzle").disabled = !s || s.index >= s.count;
  const q = new URLSearchParams({ board: game.board ? game.board.board : "3x3", distance: $("k").value, count: countAt($("k").value), goal: text(game.goal) });
  // Without a seed typed, one drawn for the page: the puzzles alone and
  // the key alone must be the same set.
  q.set("seed", $("seed").value.trim() || sheetSeed());
  // A worksheet's solutions and drawings count single-tile moves: the
  // server refuses multi-tile ones, and the page says so instead.
  $("worksheet").hidden = multiTile();
  $("worksheet-parts").hidden = multiTile();
  $("worksheet-note").hidden = !multiTile();
  $("worksheet-note").textContent = multiTile()
    ? "Worksheets count single-tile moves: switch to single-tile moves to print this set as one."
    : "";
  $("worksheet").href = `/worksheet?${q}`;
  for (const part of ["puzzles", "key"]) {
    q.set("part", part);
    $(`worksheet-${part}`).href = `/worksheet?${q}`;
  }
}

// The seed the worksheet's links carry when none is typed: drawn once, so
// that every link names the same set, and shown on the sheets.
let drawnSheetSeed = null;
function sheetSeed() {
  if (drawnSheetSeed === null) {
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    drawnSheetSeed = ((BigInt(high) << 32n) | BigInt(low)).toString();
  }
  return drawnSheetSeed;
}

// ---- heuristics beside the truth ----
async function loadHeuristics() {
  if (multiTile() || !playing()) return;
  const open = $("heuristics-panel").open;
  const at = text(game.cells);
  // A request for a position left behind, or for a panel closed, is
  // abandoned, and its search on the server with it (up to its --timeout
  // far from the goal).
  if (game.heuristicsRequest && (!open || game.heuristicsAsked !== at)) game.heuristicsRequest.abort();
  if (!open || (game.heuristics && game.heuristics.start === at) || game.heuristicsAsked === at) return;
  const epoch = game.epoch;
  const request = new AbortController();
  game.heuristicsRequest = request;
  game.heuristicsAsked = at;
  let answer;
  try {
    answer = await api("heuristics", { start: at, goal: text(game.goal) }, request.signal);
  } catch (e) {
    if (e.name === "AbortError") return;
    throw e;
  } finally {
    if (game.heuristicsRequest === request) {
      game.heuristicsRequest = null;
      game.heuristicsAsked = null;
    }
  }
  if (epoch !== game.epoch || text(game.cells) !== at) return;
  game.heuristics = answer;
  render();
  // A bound above the one the solution's note gave: the note says it too.
  const solved = game.solved;
  if (solved && solved.at === at && answer.lower_bound > (solved.answer.lower_bound ?? 0)) noteSolution();
}
function drawHeuristics() {
  const body = $("heuristics").tBodies[0];
  // The heuristics estimate single-tile moves: the server refuses them under
  // the multi-tile metric, and the page says so in words.
  $("heuristics").hidden = multiTile();
  $("heuristics-note").hidden = !multiTile();
  $("heuristics-note").textContent = multiTile()
    ? "The heuristics estimate single-tile moves, so they are not compared with multi-tile " +
      "distances: switch to single-tile moves to see them."
    : "";
  if (multiTile()) { body.replaceChildren(); return; }
  const here = game.heuristics && game.heuristics.start === text(game.cells) ? game.heuristics : null;
  if (!here) {
    body.replaceChildren();
    if ($("heuristics-panel").open) loadHeuristics().catch(showError);
    return;
  }
  // On a pattern database, its own estimate is a row of its own.
  const pattern = here.pattern_database;
  const rows = pattern ? [...here.heuristics, { ...pattern, heuristic: `pattern db ${pattern.partition}` }] : here.heuristics;
  body.replaceChildren(...rows.map((e) => {
    const row = document.createElement("tr");
    row.dataset.heuristic = e.heuristic;
    // Where the search for the distance stopped at the server's --timeout,
    // only the bound it proved is known, and a value above it is not judged.
    const truth = here.distance ?? `at least ${provedBound(here, here.lower_bound)}`;
    const verdict = e.admissible_here === null ? "not known here"
      : e.admissible_here ? "admissible here" : `overestimates by ${e.overestimate}`;
    for (const [words, cls] of [[e.heuristic, ""], [e.h, "h"], [truth, "truth"], [verdict, e.admissible_here === false ? "over" : ""]]) {
      const cell = document.createElement("td");
      cell.textContent = words;
      if (cls) cell.className = cls;
      row.appendChild(cell);
    }
    return row;
  }));
}

// ---- the textbook searches ----
// The searches keep a position in 64 bits, a tile in 4.
const COMPARE_CELLS = 16;
function comparisonUnavailable() {
  const metric = singleTileOnly();
  if (metric) return metric;
  if (game.rows * game.cols > COMPARE_CELLS) {
    return `The textbook searches keep a position in 64 bits, a tile in 4: boards of up to ` +
      `${COMPARE_CELLS} cells, and ${game.board.board} has ${game.rows * game.cols}.`;
  }
  return null;
}
function noteComparison(words, error = false) {
  const note = $("compare-note");
  note.textContent = words;
  note.classList.toggle("error", error);
  // A note belongs to its game: the next one clears it.
  note.dataset.epoch = game.epoch;
}
async function runComparison() {
  if (!playing()) return;
  const at = text(game.cells);
  const request = { controller: new AbortController(), epoch: game.epoch };
  game.compareRequest = request;
  noteComparison(`Running the searches from ${at}…`);
  const focused = document.activeElement === $("compare-run");
  $("compare-run").disabled = true;
  try {
    const params = { start: at, goal: text(game.goal), max_nodes: $("compare-nodes").value };
    const answer = await api("compare", params, request.controller.signal, { panel: true });
    if (request.epoch !== game.epoch) return;
    noteComparison("");
    game.comparison = { epoch: request.epoch, answer };
    fillComparison(answer);
    render();
  } catch (e) {
    if (e.name === "AbortError" || request.epoch !== game.epoch) return;
    noteComparison(e.message, true);
  } finally {
    if (game.compareRequest === request) {
      game.compareRequest = null;
      $("compare-run").disabled = false;
      // Disabled, Run lost the keyboard's focus to the page: it gets it back.
      if (focused && document.activeElement === document.body) $("compare-run").focus();
    }
  }
}
// A comparison of a game left behind is abandoned, and its searches on the
// server with it (up to the server's --timeout); its note goes too.
function dropOldComparison() {
  const running = game.compareRequest;
  if (running && running.epoch !== game.epoch) {
    running.controller.abort();
    game.compareRequest = null;
    $("compare-run").disabled = false;
  }
  if ($("compare-note").dataset.epoch !== String(game.epoch)) noteComparison("");
}
// A time in milliseconds as the command line's table writes it.
function duration(ms) {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(1)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(1)} µs`;
  return `${Math.round(ms * 1e6)} ns`;
}
function fillComparison(c) {
  const truth = {
    lookup: "database lookup",
    search: "database search",
    "linear-conflict": "IDA* over linear conflicts (no file)",
  }[c.database] || c.database;
  // Columns: length, shortest, expanded, largest open list, time.
  const rows = [{
    algorithm: "database",
    name: truth,
    cells: [c.distance, "yes", c.database_expanded ?? "–", "–", duration(c.database_elapsed_ms)],
  }];
  for (const run of c.algorithms) {
    rows.push({
      algorithm: run.algorithm,
      name: run.depth_limit === null ? run.algorithm : `${run.algorithm} (limit ${run.depth_limit})`,
      cells: [
        run.length ?? (run.hit_limit ? "limit" : "none"),
        run.optimal === null ? "–" : run.optimal ? "yes" : "no",
        run.expanded, run.max_open, duration(run.elapsed_ms),
      ],
    });
  }
  $("compare").tBodies[0].replaceChildren(...rows.map(({ algorithm, name, cells }) => {
    const row = document.createElement("tr");
    row.dataset.algorithm = algorithm;
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = name;
    row.appendChild(head);
    for (const [i, value] of cells.entries()) {
      const cell = document.createElement("td");
      cell.textContent = typeof value === "number" ? value.toLocaleString("en") : value;
      // Numbers line up on the right; "shortest" is a word.
      if (i !== 1) cell.className = "number";
      row.appendChild(cell);
    }
    return row;
  }));
  const legend = [];
  if (c.algorithms.some((r) => r.hit_limit)) {
    legend.push(`"limit": the search stopped after ${c.max_nodes.toLocaleString("en")} expansions.`);
  }
  if (c.algorithms.some((r) => r.length === null && !r.hit_limit)) {
    legend.push(`"none": depth-first search found no solution within its depth limit.`);
  }
  legend.push("Times vary from run to run; the other columns do not. Every solution found was " +
    "replayed to the goal.");
  $("compare-legend").textContent = legend.join(" ");
  // Each solution found can be played, to watch its distance on the trace:
  // greedy's wanders far from the goal before it gets there.
  $("compare-pick").replaceChildren(...c.algorithms.filter((r) => r.moves).map((r) => {
    const option = document.createElement("option");
    option.value = r.algorithm;
    option.textContent = `${r.algorithm}: ${count(r.length, "move")}${r.optimal ? " (a shortest)" : ""}`;
    return option;
  }));
}
// Plays the chosen search's solution with the solver's playback, from the
// position the searches ran from.
function playComparison() {
  const c = game.comparison ? game.comparison.answer : null;
  const run = c && c.algorithms.find((r) => r.algorithm === $("compare-pick").value);
  if (!run || !run.moves || c.start !== text(game.cells)) return;
  stopPlaying();
  game.plan = { at: c.start, moves: [...run.moves], search: run.algorithm };
  play();
}
function drawComparison() {
  dropOldComparison();
  const why = comparisonUnavailable();
  $("compare-unavailable").hidden = !why;
  $("compare-unavailable").textContent = why || "";
  $("compare-controls").hidden = Boolean(why);
  const shown = game.comparison && game.comparison.epoch === game.epoch && !why ? game.comparison.answer : null;
  $("compare-scroll").hidden = !shown;
  $("compare-legend").hidden = !shown;
  $("compare-play").hidden = !shown || $("compare-pick").options.length === 0;
  if (!shown) return;
  $("compare-play-button").disabled = shown.start !== text(game.cells);
  const earlier = shown.start === text(game.cells) ? ""
    : " (an earlier position: Run them from here for this one, or Undo back to it to play a solution)";
  $("compare-caption").textContent =
    `From ${shown.start} toward ${shown.goal}, ${count(shown.distance, "move")} away${earlier}`;
}

// ---- how the searches grow with the distance ----
// Each search's line: a colour dark enough on white, and a dash of its own,
// so that no line is told from another by its colour alone.
const GROWTH_STYLE = {
  bfs: ["#1b1f24", ""],
  dfs: ["#a3310b", "6 3"],
  iddfs: ["#9a5b00", "2 2"],
  "astar-misplaced": ["#2f6fa8", "7 2 2 2"],
  "astar-manhattan": ["#0f6b35", "12 3"],
  "astar-linear-conflict": ["#1d3f72", "4 2"],
  "idastar-manhattan": ["#9c3d78", "1 2"],
  "greedy-manhattan": ["#5f6670", "9 2 1 2 1 2"],
};
// A search the page does not know (from a newer server): grey, dotted.
const GROWTH_OTHER = ["#767676", "1 1"];
// The seed of every distance's draw: the command line's default, sent so
// that the command shown gives the same positions.
const GROWTH_SEED = 1;
// How long a distance waits before asking again when every turn for the
// textbook searches is taken.
const GROWTH_RETRY_MS = 1000;
// The chart belongs to a board, a metric and a goal: the positions drawn
// at each distance are the goal's.
function growthKey() {
  return `${game.board ? game.board.board : ""}|${game.metric}|${text(game.goal)}`;
}
// Why neither panel of textbook searches runs under the metric shown, or null.
function singleTileOnly() {
  if (!multiTile()) return null;
  return metricsOf(game.board).includes("stm")
    ? "The textbook searches count single-tile moves: switch to single-tile moves to run them."
    : `The textbook searches count single-tile moves, and ${game.board.board} is served in ` +
      `multi-tile moves only.`;
}
function growthUnavailable() {
  const metric = singleTileOnly();
  if (metric) return metric;
  if (!withoutFile()) return comparisonUnavailable();
  const one = comparisonUnavailable()
    ? ""
    : " The panel above runs the searches from the position on the board.";
  return `Drawing positions at each distance needs a database to tell their distances, and ` +
    `no database is served for ${game.board.board}.` + one;
}
// The note under the controls. Progress (`told` false) is shown but not
// said: a screen reader would hear it 31 times; how a run ends is said.
function noteGrowth(words, { error = false, told = true } = {}) {
  $("growth-progress").textContent = told ? "" : words;
  $("growth-note").textContent = told ? words : "";
  $("growth-note").classList.toggle("error", error);
}
// `words` as a sentence: the server's messages end without a full stop.
function sentence(words) {
  return /[.!?]$/.test(words) ? words : `${words}.`;
}
// The distances a run's figures cover: every one asked for once it ended,
// otherwise those drawn.
function growthRange(run) {
  const last = run.done || !run.rows.length ? run.farthest : run.rows[run.rows.length - 1].distance;
  return `1..=${last}`;
}
// The command that prints the same figures.
function growthCommand(run) {
  const board = run.board === "3x3" ? "" : ` --board ${run.board}`;
  const goal = run.goal !== run.defaultGoal ? ` --goal "${run.goal}"` : "";
  return `query${board} compare --distance ${growthRange(run)} --count ${run.count} ` +
    `--max-nodes ${run.maxNodes}${goal}`;
}
// The histogram of the goal on the board, loaded where the one at hand is
// another goal's (a goal just set, whose own is on its way).
async function histogramOfGoal() {
  const own = () => game.histogram && game.histogram.goal === text(game.goal);
  if (!own()) await loadHistogram();
  return own() ? game.histogram : null;
}
// Searches distance after distance, one request each, so that the chart
// grows as they come and each stays within the server's --timeout.
async function runGrowth() {
  stopGrowth();
  if (growthUnavailable()) return;
  const run = {
    key: growthKey(),
    board: game.board.board,
    defaultGoal: game.board.goal,
    goal: text(game.goal),
    count: Number($("growth-count").value),
    maxNodes: Number($("growth-nodes").value),
    farthest: null,
    rows: [],
    done: false,
    controller: new AbortController(),
    started: performance.now(),
  };
  // Run is disabled from here: a second press waits for Stop.
  game.growth = run;
  drawGrowth();
  $("growth-stop").focus();
  let distance = 1;
  try {
    if (complete()) {
      const histogram = await histogramOfGoal();
      if (game.growth !== run || !histogram) return;
      run.farthest = histogram.max_distance;
    } else {
      // Pattern databases know no farthest distance: the user says how far.
      run.farthest = Number($("growth-until").value);
    }
    for (; distance <= run.farthest; distance++) {
      noteGrowth(`Searching from ${count(run.count, "position")} at distance ${distance} of ` +
        `${run.farthest}…`, { told: false });
      drawGrowth();
      run.rows.push(...(await growthAt(run, distance)).rows);
      if (game.growth !== run) return;
    }
    run.done = true;
    const seconds = ((performance.now() - run.started) / 1000).toFixed(1);
    noteGrowth(`Searched every distance from 1 to ${run.farthest} in ${seconds} s.`);
  } catch (e) {
    if (game.growth !== run) return;
    noteGrowth(growthStopped(e, distance, run), { error: e.name !== "AbortError" });
    if (e.message === NOT_ANSWERING) showError(e);
  } finally {
    if (game.growth === run) {
      run.controller = null;
      const stopping = document.activeElement === $("growth-stop");
      drawGrowth();
      if (stopping || document.activeElement === document.body) $("growth-run").focus();
    }
  }
}
// One distance's figures; while every turn for the textbook searches is
// taken (other pages, or the panel above), it waits for one.
async function growthAt(run, distance) {
  const params = {
    distance, count: run.count, max_nodes: run.maxNodes, seed: GROWTH_SEED, goal: run.goal,
  };
  for (;;) {
    try {
      return await api("compare", params, run.controller.signal, { panel: true });
    } catch (e) {
      if (!(e instanceof ApiError && e.body && e.body.code === "busy")) throw e;
      noteGrowth(`The server is running other textbook searches: distance ${distance} waits ` +
        `for its turn…`, { told: false });
      await new Promise((resolve) => setTimeout(resolve, GROWTH_RETRY_MS));
      if (run.controller.signal.aborted) throw new DOMException("stopped", "AbortError");
    }
  }
}
// What the note says when a run ends before the farthest distance.
function growthStopped(e, distance, run) {
  const drawn = run.rows.length ? ` The chart holds distances 1 to ${distance - 1}.` : "";
  if (e.name === "AbortError") return `Stopped at distance ${distance}.${drawn}`;
  if (e.message === NOT_ANSWERING) {
    return `Stopped at distance ${distance}: the server is not answering. Press Run again ` +
      `once it is back.${drawn}`;
  }
  if (e instanceof ApiError && e.body && e.body.code === "timed_out") {
    return `Stopped at distance ${distance}: its searches ran past the server's --timeout of ` +
      `${game.timeout} s. Choose fewer expansions or fewer positions at each distance.${drawn}`;
  }
  return `Stopped at distance ${distance}: ${sentence(e.message)}${drawn}`;
}
// Stops the run under way; what it has drawn stays.
function stopGrowth() {
  const run = game.growth;
  if (run && run.controller) run.controller.abort();
}
function drawGrowth() {
  const left = game.growth;
  if (left && left.key !== growthKey()) {
    // Another board, metric or goal: the chart was the last one's.
    if (left.controller) left.controller.abort();
    game.growth = null;
    noteGrowth("");
  }
  const why = growthUnavailable();
  $("growth-unavailable").hidden = !why;
  $("growth-unavailable").textContent = why || "";
  $("growth-controls").hidden = Boolean(why);
  // On pattern databases the positions are walked to, as far as asked.
  const walked = !why && !complete();
  $("growth-walks").hidden = !walked;
  $("growth-until-label").hidden = !walked;
  $("growth-until").hidden = !walked;
  $("growth-run").textContent = walked ? "Run them at each distance" : "Run them at every distance";
  const run = why ? null : game.growth;
  const running = Boolean(run && run.controller);
  $("growth-run").disabled = running;
  $("growth-stop").hidden = !running;
  const shown = Boolean(run && run.rows.length);
  for (const id of ["growth-draw", "growth-figure", "growth-figures"]) $(id).hidden = !shown;
  $("growth-command").textContent = run && run.farthest ? growthCommand(run) : "query compare --distance";
  if (!shown) return;
  drawGrowthChart(run);
  fillGrowthTable(run);
}
// The algorithms in the order the server lists them.
function growthAlgorithms(run) {
  return [...new Set(run.rows.map((r) => r.algorithm))];
}
function growthStyle(algorithm) {
  return GROWTH_STYLE[algorithm] || GROWTH_OTHER;
}
// A mean that counts searches stopped at the limit: of expansions, a floor.
function isFloor(row) {
  return row.solved < row.positions;
}
// What the chart and the table show: the work, its growth with the
// distance (b*), or the memory. `floor`: whether a search stopped at the
// limit makes the figure a floor; `digits`: as the command line prints it.
const GROWTH_MEASURES = {
  mean_expanded: {
    axis: "positions expanded, mean (powers of ten)",
    what: "Positions each search expanded",
    each: "expanded",
    over: "on average over",
    stopped: "so the mean is at least the figure shown",
    floor: true,
    digits: 1,
  },
  effective_branching: {
    axis: "effective branching factor b*",
    what: "The effective branching factor b* of each search (1 + b* + … + b*^d = the mean " +
      "expanded + 1)",
    each: "b*",
    over: "from the positions expanded on average over",
    stopped: "so b* is at least the figure shown",
    floor: true,
    digits: 2,
  },
  mean_max_open: {
    axis: "largest open list, mean (powers of ten)",
    what: "The largest open list (or path) each search held",
    each: "held at most",
    over: "on average over",
    stopped: "so the figure is of searches cut short",
    floor: false,
    digits: 1,
  },
};
function growthMeasure() {
  const key = $("growth-measure").value;
  return { key, ...(GROWTH_MEASURES[key] || GROWTH_MEASURES.mean_expanded) };
}
// `row`'s figure as the command line prints it: ties to even (3.25 is
// 3.2), and "-" for a b* there is none of.
function growthFigure(row, measure) {
  const v = row[measure.key];
  if (v === null || v === undefined) return "-";
  return v.toLocaleString("en", {
    minimumFractionDigits: measure.digits, maximumFractionDigits: measure.digits, roundingMode: "halfEven",
  });
}
// b*'s scale ends at most here: depth-first search's runs to thousands
// near the goal (one move out, b* is the expansions), which would flatten
// the other searches' 1 to 3 into one line.
const B_STAR_TOP = 4;
// The chart's vertical scale for `measure`, within `box`: its ticks, its
// top, and where a value sits. The counts go on powers of ten up to the
// first past `highest`; b* on a line from 1.
function growthScale(measure, highest, box) {
  const height = box.bottom - box.top;
  if (measure.key === "effective_branching") {
    const top = Math.min(B_STAR_TOP, Math.max(2, Math.ceil(highest * 2) / 2));
    const step = top <= 2.5 ? 0.5 : 1;
    const ticks = [];
    for (let v = 1; v <= top; v += step) ticks.push(v);
    return { ticks, top, y: (v) => box.bottom - ((v - 1) / (top - 1)) * height };
  }
  let top = 10;
  while (top < highest) top *= 10;
  const ticks = [];
  for (let v = 1; v <= top; v *= 10) ticks.push(v);
  // Fewer than one on average sits on the axis.
  return { ticks, top, y: (v) => box.bottom - (Math.log10(Math.max(1, v)) / Math.log10(top)) * height };
}
function drawGrowthChart(run) {
  const svg = $("growth");
  svg.replaceChildren();
  const box = { left: 52, right: 312, top: 26, bottom: 174 };
  const measure = growthMeasure();
  const value = (r) => r[measure.key];
  // No b* at distance 0. A b* past its scale's top leaves the chart: the
  // lines and marks are clipped to the axes (with room for a mark's edge).
  const known = run.rows.filter((r) => typeof value(r) === "number");
  const scale = growthScale(measure, Math.max(1, ...known.map(value)), box);
  const clip = svgElement("clipPath", { id: "growth-clip" });
  clip.appendChild(svgElement("rect", {
    x: box.left - 3, y: box.top - 3, width: box.right - box.left + 6, height: box.bottom - box.top + 6,
  }));
  svg.appendChild(svgElement("defs", {})).appendChild(clip);
  const x = (d) => box.left + ((d - 1) / Math.max(1, run.farthest - 1)) * (box.right - box.left);
  const y = scale.y;
  axes(svg, box, ticks(1, run.farthest, 6), scale.ticks, x, y,
    "distance from the goal (moves)", measure.axis);
  for (const algorithm of growthAlgorithms(run)) {
    const [colour, dash] = growthStyle(algorithm);
    const rows = known.filter((r) => r.algorithm === algorithm);
    const xy = rows.map((r) => `${x(r.distance).toFixed(1)},${y(value(r)).toFixed(1)}`);
    svg.appendChild(svgElement("polyline", {
      points: xy.join(" "), class: "growth-line", stroke: colour, "stroke-dasharray": dash,
      "data-algorithm": algorithm, "clip-path": "url(#growth-clip)",
    }));
    for (const r of rows.filter((r) => value(r) <= scale.top)) {
      const mark = svgElement("circle", {
        cx: x(r.distance).toFixed(1), cy: y(value(r)).toFixed(1), r: 2.5,
        stroke: colour, fill: isFloor(r) ? "#ffffff" : colour, class: "growth-mark",
      });
      const stopped = isFloor(r) ? `, ${r.positions - r.solved} stopped without a solution` : "";
      mark.appendChild(svgElement("title", {}, `${algorithm} at distance ${r.distance}: ` +
        `${measure.each} ${growthFigure(r, measure)} ${measure.over} ` +
        `${count(r.positions, "position")}${stopped}`));
      svg.appendChild(mark);
    }
  }
  const last = run.rows[run.rows.length - 1].distance;
  $("growth-caption").textContent =
    `${measure.what}, ${measure.over} up to ${count(run.count, "position")} ` +
    `drawn at each distance from 1 to ${last} (seed ${GROWTH_SEED}) toward ${run.goal}; each ` +
    `search stopped after ${run.maxNodes.toLocaleString("en")} expansions. The figures are in ` +
    `the table below.`;
  $("growth-legend").replaceChildren(...growthAlgorithms(run).map((algorithm) => {
    const [colour, dash] = growthStyle(algorithm);
    const item = document.createElement("li");
    const swatch = svgElement("svg", { viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true" });
    swatch.appendChild(svgElement("line", {
      x1: 0, y1: 4, x2: 24, y2: 4, stroke: colour, "stroke-width": 2, "stroke-dasharray": dash,
    }));
    item.append(swatch, ` ${algorithm}`);
    return item;
  }));
  const above = growthAlgorithms(run).filter((a) =>
    known.some((r) => r.algorithm === a && value(r) > scale.top));
  $("growth-marks").textContent = [
    run.rows.some(isFloor) ? `A hollow mark${measure.floor ? `, and "≥" in the table` : ""}: ` +
      `some searches stopped at the ${run.maxNodes.toLocaleString("en")} expansions without ` +
      `a solution, ${measure.stopped}.` : "",
    above.length ? `The b* of ${above.join(", ")} runs above ${scale.top} at some ` +
      `distances, off the chart: the table gives it.` : "",
  ].filter(Boolean).join(" ");
}
// One row a distance: the positions searched, then each algorithm's mean.
function fillGrowthTable(run) {
  const algorithms = growthAlgorithms(run);
  const measure = growthMeasure();
  const head = ["Distance", "Positions", ...algorithms].map((words) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = words;
    return th;
  });
  $("growth-table").tHead.rows[0].replaceChildren(...head);
  const distances = [...new Set(run.rows.map((r) => r.distance))];
  $("growth-table").tBodies[0].replaceChildren(...distances.map((d) => {
    const rows = run.rows.filter((r) => r.distance === d);
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = d;
    tr.appendChild(th);
    const cells = [String(rows[0].positions), ...algorithms.map((a) => {
      const r = rows.find((row) => row.algorithm === a);
      const figure = growthFigure(r, measure);
      return isFloor(r) && measure.floor && figure !== "-" ? `≥ ${figure}` : figure;
    })];
    for (const words of cells) {
      const td = document.createElement("td");
      td.className = "number";
      td.textContent = words;
      tr.appendChild(td);
    }
    return tr;
  }));
  $("growth-table-caption").textContent =
    `${measure.what}, ${measure.over} the positions at each distance (seed ${GROWTH_SEED}).`;
}

// ---- grading a move list ----
async function gradeMoves() {
  if (!playing()) return;
  const [epoch, grading] = [game.epoch, ++game.gradings];
  const box = $("grade-result");
  box.replaceChildren();
  // Separators as single spaces (one byte in the request): a list written
  // with commas takes the room of one written with spaces. A move left out
  // between commas (8,,1) is kept for the server to name.
  const written = $("grade-moves").value.trim().replace(/\s*,\s*/g, ",").replace(/\s+/g, " ");
  const moves = /(^|,)(,|$)/.test(written) ? written : written.replace(/,/g, " ");
  const params = { start: text(game.start), goal: text(game.goal), moves };
  try {
    if (!moves) throw new Error("Type the moves to grade first (U D L R, or the tiles moved).");
    if (moves.replace(/ /g, "").length > MAX_MOVES || queryOf(params).toString().length > MAX_QUERY) {
      throw new Error(`This list is too long to grade here: at most ${MAX_MOVES} moves written ` +
        `as letters (UDLR), fewer as tile numbers (npuzzle.check in Python takes longer ones).`);
    }
    // Another game's grading is no one's, and so is one pressed again since.
    const g = await answerWhile(() => epoch === game.epoch && grading === game.gradings,
      api("check", params));
    if (g === undefined) return;
    box.dataset.legal = g.legal;
    box.dataset.illegal = g.illegal_move ?? "";
    box.dataset.away = g.away.join(",");
    const lines = [
      g.legal ? "Every move is legal." : `Move ${g.illegal_move} is illegal: nothing at or after it is counted.`,
      g.reaches_goal ? "It reaches the goal." : `It does not reach the goal: it ends at ${g.end}, ${count(g.remaining, "move")} away.`,
      g.reaches_goal
        ? `${count(g.length, "move")} against the optimum of ${g.optimal}` + (g.excess ? `: ${g.excess} extra.` : ": optimal.")
        : `${count(g.length, "move")} given; the optimum from the start is ${g.optimal}.`,
      g.away.length
        ? `${count(g.away.length, "move")} went away from the goal: ${g.away.length === 1 ? "move" : "moves"} ${g.away.join(", ")}.`
        : g.legal ? "No move went away from the goal." : "No move before it went away from the goal.",
    ];
    // Moves past the goal: any move from it goes away, or is illegal.
    const reached = g.goal_reached_after;
    if (reached !== null && (g.away.some((n) => n > reached) || (g.illegal_move ?? 0) > reached)) {
      lines.push(reached === 0
        ? "The start is the goal: none of the moves is needed."
        : `The goal is reached after move ${reached}: the moves after it are not needed.`);
    }
    if (g.reversed_reaches_goal) {
      lines.push("Read as the ways the tiles slide, these moves reach the goal: here U, D, L and R " +
        "are the blank's moves (U: the blank goes up, the tile above it slides down).");
    }
    box.replaceChildren(...lines.map((words) => {
      const p = document.createElement("p");
      p.textContent = words;
      return p;
    }));
  } catch (e) {
    const p = document.createElement("p");
    p.className = "error";
    p.textContent = e.message;
    box.replaceChildren(p);
  }
}

// ---- the solution as text ----
async function showSolution() {
  if (!playing()) return;
  const [epoch, at] = [game.epoch, text(game.cells)];
  // A position left meanwhile: its solution, or its error, is no one's.
  const answer = await answerWhile(() => stillAt(epoch, at), api("solve", solveQuery(at)));
  if (answer === undefined) return;
  // An earlier attempt's error is over.
  showError(null);
  game.plan = { at, moves: steps(answer) };
  $("solution-from").textContent = at;
  $("solution-moves").textContent = answer.moves || "(at the goal: no move)";
  game.solved = { at, answer };
  noteSolution();
  // Its bound may be the larger one the heuristics' table shows.
  drawHeuristics();
  $("solution").hidden = false;
  $("copy-solution").hidden = false;
}
function noteSolution() {
  if (!game.solved) return;
  const { at, answer } = game.solved;
  // Where the page knows the distance, the bound the search proved says
  // less than it.
  const shortest = game.distance !== null && text(game.cells) === at
    ? `the shortest is ${game.distance}` : `the shortest is at least ${provedBound(answer, answer.lower_bound)}`;
  $("solution-note").textContent = answer.within === undefined
    ? `${answer.distance} moves, the shortest.`
    : `${answer.length} moves; ${shortest} ` +
      `(this one is at most ${answer.within} × the shortest).`;
}
function hideSolution() {
  game.solved = null;
  $("solution").hidden = true;
  $("copy-solution").hidden = true;
  $("solution-note").textContent = "";
}
// The largest lower bound proved from `answer`'s start to its goal, `lower`
// among them: the heuristics' search and a solution's within a factor each
// prove one, and the page shows the larger in both places.
function provedBound(answer, lower) {
  const pair = `${answer.start} -> ${answer.goal}`;
  const known = game.bound && game.bound.pair === pair ? game.bound.lower : 0;
  game.bound = { pair, lower: Math.max(known, lower ?? 0) };
  return game.bound.lower;
}

// What a solution is asked for: from `at` to the goal, the shortest or, with
// "Solutions" set, one proved at most W times the shortest (faster to find
// on the largest boards).
function solveQuery(at) {
  const query = { start: at, goal: text(game.goal) };
  // Where the shortest was not found in the server's time (distance "?"),
  // asking for it again would only wait as long: a solution within 1.2 of
  // it, as the hint takes there, which the note says.
  const within = $("within").value || (game.unknown ? "1.2" : "");
  // Bounded answers count single-tile moves; multi-tile tables are exact.
  if (within && !multiTile()) query.within = within;
  return query;
}

// A solution's blank moves one tile at a time: under the multi-tile metric
// `moves` is in slide notation (`U3 L R2`), spelt out in `single_tile_moves`.
function steps(answer) {
  return answer.single_tile_moves ?? answer.moves;
}

// ---- solving ----
// One move of an optimal solution. The solution is kept while the game
// follows it: on a pattern board each one is a search.
async function solveStep() {
  if (!playing()) return false;
  if (game.distance === 0) { stopPlaying(); return false; }
  const at = text(game.cells);
  if (!game.plan || game.plan.at !== at) {
    const [epoch, run] = [game.epoch, game.playRun];
    // A playback started or stopped meanwhile, another position or another
    // game owns the board now: the answer and its error are not theirs.
    const mine = () => stillAt(epoch, at) && run === game.playRun;
    const answer = await answerWhile(mine, api("solve", solveQuery(at)));
    if (answer === undefined) return false;
    if (!answer.moves) { stopPlaying(); return false; }
    game.plan = { at, moves: steps(answer) };
  }
  const letter = game.plan.moves[0];
  const rest = game.plan.moves.slice(1);
  const after = apply(game.cells, letter);
  game.plan = rest && after ? { ...game.plan, at: text(after), moves: rest } : null;
  return move(letter, true);
}
// Step presses not played yet: a press while the first waits for its
// solution plays one more move once it comes, rather than asking again
// (which would drop the first press's answer).
let stepsWaiting = 0;
async function stepPressed() {
  stepsWaiting++;
  if (stepsWaiting > 1) return;
  stopPlaying();
  try {
    // Another game, position or playback meanwhile ends the steps.
    while (stepsWaiting > 0 && await solveStep()) stepsWaiting--;
  } finally {
    stepsWaiting = 0;
  }
}
function stopPlaying() {
  if (game.playing) clearTimeout(game.playing);
  game.playing = null;
  game.playRun++;
  // A search's solution is played by "Play it" alone: Step and Play then
  // follow a shortest one again.
  if (game.plan && game.plan.search) game.plan = null;
  $("solve-play").textContent = "Play";
  $("solve-play").setAttribute("aria-pressed", "false");
}
function play() {
  if (game.playing) { stopPlaying(); return; }
  $("solve-play").textContent = "Pause";
  $("solve-play").setAttribute("aria-pressed", "true");
  const run = ++game.playRun;
  const tick = async () => {
    let stepped;
    try {
      stepped = await solveStep();
    } catch (e) {
      if (run === game.playRun) { showError(e); stopPlaying(); }
      return;
    }
    // Stopped, or another playback took over, while the step waited.
    if (run !== game.playRun) return;
    if (!stepped || game.distance === 0) { stopPlaying(); return; }
    if (game.playing) game.playing = setTimeout(tick, 1000 / Number($("speed").value));
  };
  game.playing = setTimeout(tick, 0);
}

// ---- controls ----
function showK() {
  $("k-out").textContent = $("k").value;
  $("k-button").textContent = $("k").value;
  // A label's <output> is left out of the slider's accessible name.
  $("k").setAttribute("aria-label", `Exactly ${$("k").value} moves from the goal`);
}

async function newAt(k) {
  const turn = takeTurn();
  const seed = $("seed").value.trim();
  if (seed) return newSeeded(k, seed, countAt(k), 1, turn);
  const drawn = await forTurn(turn, api("random", { distance: k, goal: text(game.goal) }));
  if (!drawn) return;
  await newGame(parse(drawn.positions[0].start), game.goal);
}

// A position drawn uniformly from all that reach the goal: what a board
// without complete tables starts with (a pattern board's puzzles at
// exactly K moves, found by walks, are not uniform).
async function newRandom(turn = takeTurn()) {
  const drawn = await forTurn(turn, api("random", { goal: text(game.goal) }));
  if (!drawn) return;
  await newGame(parse(drawn.positions[0].start), game.goal);
}

// The board size chosen, its controls set; no game yet.
function setBoard(name, metric = game.metric) {
  // Whatever the last board's game and actions still wait for is dropped.
  takeTurn();
  game.epoch++;
  game.board = game.boards.find((b) => b.board === name);
  const metrics = metricsOf(game.board);
  game.metric = metrics.includes(metric) ? metric : metrics[0];
  drawMetric();
  game.rows = game.board.rows;
  game.cols = game.board.cols;
  game.histogram = null;
  game.goal = parse(game.board.goal);
  $("board-size").value = name;
  // The last board's text would not fit this one.
  $("custom-start").value = "";
  $("custom-goal").value = "";
  $("custom-error").hidden = true;
  $("custom-start").placeholder = text(apply(game.goal, "U") || game.goal);
  $("custom-goal").placeholder = game.board.goal;
  const full = complete();
  // A pattern board finds puzzles at K by random walks; with no file, no
  // distance is known.
  $("k-controls").hidden = withoutFile();
  $("seed-controls").hidden = withoutFile();
  $("hardest").hidden = !full;
  $("random-controls").hidden = full;
  // Past 12 cells the searches' 2,000,000 expansions (query compare's
  // default) take about 13 s far from the goal, past the server's default
  // --timeout of 10 s: half as many take about 5.5 s.
  $("compare-nodes").value = game.rows * game.cols > 12 ? "1000000" : "2000000";
  if (!full && !withoutFile()) {
    const k = $("k");
    k.max = WALK_MAX;
    if (Number(k.value) > WALK_MAX) k.value = WALK_MAX;
    showK();
  }
  if (!full) {
    // Past 20 cells the count outgrows 64 bits, and the server sends none.
    const positions = game.board.positions === null ? "" : `${game.board.positions.toLocaleString("en")} `;
    $("random-note").textContent =
      `A new random puzzle is drawn uniformly from all ${positions}` +
      `positions that reach the goal. ` +
      (withoutFile()
        ? `Puzzles of exactly K moves, the hardest position and the histogram need every ` +
          `position's distance, which only complete tables hold; `
        : `A puzzle at exactly K moves is found by a random walk from the goal, solved and ` +
          `cut where K moves are left: exactly K moves away, but not drawn uniformly, as ` +
          `only complete tables can. The hardest position and the histogram need every ` +
          `position's distance, which only complete tables hold; `) +
      (withoutFile()
        ? `no database can be built for ${name}, so no distance is known here but next to ` +
          `the goal (the heuristics panel searches one, or proves a bound), and each ` +
          `solution is found within a factor of the shortest (Solve, Solutions), stopped ` +
          `after ${game.timeout} s.`
        : `${name} is answered by an optimal search over pattern databases ` +
          `(${game.board.partition}), so each distance is a search, stopped after ${game.timeout} s.`);
  }
  for (const part of document.querySelectorAll(".needs-distances")) part.hidden = withoutFile();
  // With no file, only solutions within a factor are found; the choice
  // made before comes back on a board with a file.
  const within = $("within");
  within.querySelector('option[value=""]').disabled = withoutFile();
  if (withoutFile() && !within.value) {
    within.value = "2";
    game.shortestChosen = true;
  } else if (!withoutFile() && game.shortestChosen) {
    within.value = "";
    game.shortestChosen = false;
  }
}

// The metric switch: both choices where the board is served in both,
// otherwise disabled, with the reason.
function drawMetric() {
  const metrics = metricsOf(game.board);
  const both = metrics.includes("stm") && metrics.includes("mtm");
  for (const m of ["stm", "mtm"]) {
    const radio = $(`metric-${m}`);
    radio.checked = game.metric === m;
    radio.disabled = !both;
  }
  const name = game.board.board;
  $("metric-note").hidden = both;
  $("metric-note").textContent = both ? "" : game.metric === "mtm"
    ? `${name} is served in multi-tile moves only here; build-db --board ${name} adds single-tile moves.`
    : `${name} is served in single-tile moves only here` +
      (complete() ? `; build-db --board ${name} --metric mtm adds multi-tile moves.` : ".");
}

// The same game counted in `metric`: its start, goal and moves kept, every
// distance asked again (a seeded draw belongs to the metric it was drawn in).
async function switchMetric(metric) {
  if (metric === game.metric || !metricsOf(game.board).includes(metric)) return;
  const moves = game.history.map((h) => h.move).join("");
  const { start, goal, histogram } = game;
  const turn = takeTurn();
  const counted = game.metric;
  game.metric = metric;
  game.histogram = null;
  game.heuristics = null;
  game.slideHints = null;
  drawMetric();
  try {
    if (complete()) await forTurn(turn, loadHistogram());
  } catch (e) {
    // The game is still counted as before: so is the switch.
    game.metric = counted;
    game.histogram = histogram;
    drawMetric();
    throw e;
  }
  if (superseded(turn)) return;
  await newGame(start, goal);
  // The game a later action started is not this one's to replay onto.
  if (superseded(turn)) return;
  await replay(moves);
}

async function selectBoard(name) {
  setBoard(name);
  const turn = game.turn;
  if (!complete()) {
    await newRandom(turn);
    return;
  }
  await forTurn(turn, loadHistogram());
  if (superseded(turn)) return;
  const k = Math.min(Math.round(game.histogram.max_distance * 0.6), game.histogram.max_distance);
  $("k").value = k;
  showK();
  await newAt(k);
}

async function customGame() {
  const error = $("custom-error");
  error.hidden = true;
  const start = $("custom-start").value.trim();
  const goal = $("custom-goal").value.trim() || game.board.goal;
  if (!start) {
    error.textContent = `Type a start position first: a ${game.board.board} board, such as ` +
      `${$("custom-start").placeholder}.`;
    error.hidden = false;
    return;
  }
  const turn = takeTurn();
  try {
    const info = await api("moves", { start, goal });
    if (superseded(turn)) return;
    await newGame(parse(info.start), parse(info.goal), info);
  } catch (e) {
    if (superseded(turn)) return;
    // Past the server's timeout the answer still names the boards read.
    if (pastTimeout(e) && e.body && e.body.start) {
      await newGame(parse(e.body.start), parse(e.body.goal), null, null, true);
      return;
    }
    error.textContent = e.status === 422 ? `unsolvable: ${e.message}` : e.message + otherSizeNote(e.message);
    error.hidden = false;
  }
}
// Where the tiles typed fit another board the page serves (16 typed on
// 3x3): which, and where to choose it, as query says to give --board. A
// tile more or less is a slip on this board: no note.
function otherSizeNote(message) {
  const got = /, got (\d+)$/.exec(message);
  const cells = game.rows * game.cols;
  if (!got || Math.abs(Number(got[1]) - cells) <= 1) return "";
  const fit = game.boards.map((b) => b.board).filter((name) => {
    const [rows, cols] = name.split("x").map(Number);
    return rows * cols === Number(got[1]);
  });
  return fit.length ? `; ${got[1]} tiles fit the ${fit.join(" or ")} board: choose it under Size first.` : "";
}
function onKey(event) {
  const t = event.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  // A table's scroll region with the focus scrolls with the arrows.
  if (t instanceof Element && t.closest(".scroll") && event.key.startsWith("Arrow")) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    if (key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
    else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); redo(); }
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (key === "u") { undo(); return; }
  const arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  if (arrows[event.key]) {
    event.preventDefault();
    move(BY_TILE_DIRECTION[arrows[event.key]]).catch(showError);
  } else if (event.key === "h" || event.key === "H") {
    showHint();
  }
}

function showHint() {
  // No distance, no hint (its button is hidden).
  if (withoutFile() || !playing()) return;
  game.hint = true;
  render();
  if (multiTile()) loadSlideHints().catch(showError);
  else if (game.distance === null && game.unknown) loadNearHint().catch(showError);
}

// Where the exact distance took too long (most random 5×5 positions), the
// hint is the first move of a solution within the factor chosen under
// Solutions (1.2 where it asks for the shortest): no move is known to be
// one closer, but this one starts a short way.
async function loadNearHint() {
  const at = text(game.cells);
  const epoch = game.epoch;
  const within = $("within").value || "1.2";
  const answer = await forGame(epoch, api("solve", { start: at, goal: text(game.goal), within }));
  if (answer === undefined || text(game.cells) !== at || !answer.moves) return;
  game.nearHint = { at, move: answer.moves[0], within };
  render();
}
function nearHinted(m) {
  const h = game.nearHint;
  return Boolean(h && h.at === text(game.cells) && h.move === m);
}

// Whether the hint marks the tile the blank's move `m` slides: a step one
// closer, or under the multi-tile metric the first tile of a slide one
// closer (the slide's distances are looked up when the hint is asked).
function hinted(m, answer) {
  if (!multiTile()) return answer.change < 0;
  const h = game.slideHints;
  return Boolean(h && h.at === text(game.cells) && h.moves.has(m));
}
async function loadSlideHints() {
  const at = text(game.cells);
  const epoch = game.epoch;
  const d = game.distance;
  if (d === null || d === 0) return;
  const good = new Set();
  for (const m of "UDLR") {
    for (let cells = apply(game.cells, m); cells; cells = apply(cells, m)) {
      const answer = await forGame(epoch, api("distance", { start: text(cells), goal: text(game.goal) }));
      if (answer === undefined) return;
      if (answer.distance === d - 1) { good.add(m); break; }
    }
  }
  if (epoch !== game.epoch || text(game.cells) !== at) return;
  game.slideHints = { at, moves: good };
  render();
}

function onSwipe() {
  let from = null;
  const board = $("board");
  board.addEventListener("touchstart", (e) => {
    if (e.touches.length === 1) from = [e.touches[0].clientX, e.touches[0].clientY];
  }, { passive: true });
  board.addEventListener("touchend", (e) => {
    if (!from || e.changedTouches.length !== 1) return;
    const dx = e.changedTouches[0].clientX - from[0];
    const dy = e.changedTouches[0].clientY - from[1];
    from = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return; // a tap: the click handles it
    const way = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
    move(BY_TILE_DIRECTION[way]).catch(showError);
  }, { passive: true });
}

async function main() {
  $("board").addEventListener("click", (e) => {
    const tile = e.target.closest(".tile");
    if (tile && tile.dataset.move) move(tile.dataset.move).catch(showError);
    else if (tile && multiTile()) slideTo(Number(tile.dataset.cell)).catch(showError);
  });
  document.addEventListener("keydown", onKey);
  onSwipe();
  $("hint").addEventListener("click", showHint);
  $("show-changes").addEventListener("change", render);
  $("within").addEventListener("change", () => {
    game.plan = null;
    game.shortestChosen = false;
    hideSolution();
  });
  // A new game by the player's own action: the last game's messages go,
  // and any slower action still under way starts nothing.
  const anew = (action) => () => {
    forgetMessages();
    return action().catch(showError);
  };
  $("restart").addEventListener("click", anew(async () => {
    // While another board's first game is on its way, there is none of
    // its own to restart.
    if (!playing()) return;
    takeTurn();
    await newGame(game.start, game.goal, null, game.seeded);
  }));
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("copy-link").addEventListener("click", () => {
    // The board chosen has no game yet: the link would mix the two.
    if (playing()) copy(link(), $("copy-note"));
  });
  $("next-puzzle").addEventListener("click", anew(async () => {
    const s = game.seeded;
    if (s && playing()) await newSeeded(s.distance, s.seed, s.count, s.index + 1);
  }));
  for (const id of ["seed", "count"]) $(id).addEventListener("input", drawSeeded);
  // A size past the limits shows, once typed, the size the set will have
  // (an empty field keeps its placeholder, the default).
  $("count").addEventListener("change", () => {
    const typed = $("count").value.trim();
    if (typed !== "" && typed !== String(setCount())) $("count").value = setCount();
    drawSeeded();
  });
  $("heuristics-panel").addEventListener("toggle", () => loadHeuristics().catch(showError));
  $("show-manhattan").addEventListener("change", render);
  $("compare-run").addEventListener("click", runComparison);
  $("compare-play-button").addEventListener("click", playComparison);
  $("growth-run").addEventListener("click", () => runGrowth().catch(showError));
  $("growth-stop").addEventListener("click", stopGrowth);
  $("growth-measure").addEventListener("change", drawGrowth);
  $("grade").addEventListener("click", gradeMoves);
  $("show-solution").addEventListener("click", () => showSolution().catch(showError));
  $("copy-solution").addEventListener("click", () =>
    copy($("solution-moves").textContent, $("solution-note")));
  $("k").addEventListener("input", () => { showK(); drawSeeded(); });
  $("new-k").addEventListener("click", anew(() => newAt($("k").value)));
  $("hardest").addEventListener("click", anew(async () => {
    // A board chosen while the server was away has no histogram yet.
    if (!game.histogram) await loadHistogram();
    if (!game.histogram) return;
    // K follows, so that the set's worksheet and command are the hardest's.
    $("k").value = game.histogram.max_distance;
    showK();
    return newAt(game.histogram.max_distance);
  }));
  $("new-random").addEventListener("click", anew(() => newRandom()));
  $("custom-set").addEventListener("click", anew(customGame));
  for (const id of ["custom-start", "custom-goal"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") anew(customGame)(); });
  }
  $("solve-step").addEventListener("click", () => stepPressed().catch(showError));
  $("solve-play").addEventListener("click", play);
  $("speed").addEventListener("input", () => { $("speed-out").textContent = $("speed").value; });
  for (const m of ["stm", "mtm"]) {
    $(`metric-${m}`).addEventListener("change", (e) => {
      if (e.target.checked) switchMetric(m).catch(showError);
    });
  }
  $("board-size").addEventListener("change", (e) => anew(() => selectBoard(e.target.value))());
  try {
    const served = await api("boards", {});
    game.boards = served.boards;
    game.defaultBoard = served.default;
    game.timeout = served.timeout;
    $("board-size").replaceChildren(...served.boards.map((b) => {
      const option = document.createElement("option");
      option.value = b.board;
      option.textContent = `${b.board} (${b.rows * b.cols - 1} tiles)`;
      return option;
    }));
    const query = new URLSearchParams(location.search);
    if (!(await restore(query))) {
      const asked = (query.get("board") || "").toLowerCase();
      const metric = query.get("metric");
      if (metric === "stm" || metric === "mtm") game.metric = metric;
      await selectBoard(game.boards.some((b) => b.board === asked) ? asked : served.default);
    }
  } catch (e) {
    showError(e);
  }
}

main();
