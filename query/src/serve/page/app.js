// npuzzle's page: a client of the JSON API, which answers every question
// (distances, moves, solutions, random positions); the page only draws.
"use strict";

const $ = (id) => document.getElementById(id);

const game = {
  boards: [],      // from /api/boards
  board: null,     // the chosen entry of `boards`
  rows: 3,
  cols: 3,
  goal: [],        // cells, row by row, 0 the blank
  start: [],       // the game's first position
  cells: [],       // the position on the board
  startDistance: null,
  distance: null,  // of `cells`, once known
  info: null,      // /api/moves for `cells`, once known
  history: [],     // {move, tile, slides, before, after, solver}
  histogram: null, // /api/histogram for the goal
  hint: false,
  playing: null,   // the timer of solve playback
  pending: 0,      // requests under way
  epoch: 0,        // bumped by each new game: late answers of old games are dropped
  plan: null,      // {at, moves}: the rest of the solver's last solution, from position `at`
  movesRequest: null, // the AbortController of the /api/moves under way
  searchingTimer: null,
  timeout: null,   // seconds a search may take on the server
};

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
  "The server is not answering: is query serve still running? Your next move tries again.";

async function api(path, params, signal) {
  const query = new URLSearchParams({ board: game.board ? game.board.board : "3x3", ...params });
  game.pending++;
  setBusy();
  try {
    let response;
    try {
      response = await fetch(`/api/${path}?${query}`, signal ? { signal } : {});
    } catch (e) {
      throw e.name === "AbortError" ? e : new Error(NOT_ANSWERING);
    }
    let body = null;
    try { body = await response.json(); } catch (_) { /* not JSON */ }
    if (!response.ok) throw new ApiError(response.status, body);
    // The server answers again: whatever the banner said is over.
    showError(null);
    return body;
  } finally {
    game.pending--;
    setBusy();
  }
}
function setBusy() {
  const busy = game.pending > 0;
  document.body.dataset.busy = busy ? "1" : "0";
  if (busy && !game.searchingTimer) {
    game.searchingTimer = setTimeout(() => { $("searching").hidden = false; }, SEARCHING_AFTER_MS);
  } else if (!busy) {
    clearTimeout(game.searchingTimer);
    game.searchingTimer = null;
    $("searching").hidden = true;
  }
}
function showError(e) {
  const box = $("error");
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
// A tile slides the way the blank does not: the arrow (or swipe) names the tile's way.
const BY_TILE_DIRECTION = { up: "D", down: "U", left: "R", right: "L" };

// ---- a game ----
// `known` is the start's /api/moves answer where the caller has it already
// (on a pattern board each costs up to four searches).
async function newGame(start, goal, known = null) {
  stopPlaying();
  const epoch = ++game.epoch;
  const goalChanged = text(goal) !== text(game.goal);
  const info = known ?? await api("moves", { start: text(start), goal: text(goal) });
  if (epoch !== game.epoch) return;
  game.goal = goal;
  game.start = start;
  game.cells = start;
  game.info = info;
  game.distance = info.distance;
  game.startDistance = info.distance;
  game.history = [];
  game.hint = false;
  game.plan = null;
  if (complete() && (goalChanged || !game.histogram)) await loadHistogram();
  render();
}

// Whether the board is served by complete tables (every distance known, so
// puzzles at K moves and the histogram), rather than by pattern databases.
function complete() {
  return !game.board || game.board.kind === "complete";
}

async function loadHistogram() {
  game.histogram = await api("histogram", { goal: text(game.goal) });
  const k = $("k");
  k.max = game.histogram.max_distance;
  if (Number(k.value) > game.histogram.max_distance) k.value = game.histogram.max_distance;
  showK();
}

// Makes a blank move, shows it at once, then asks for the new distances.
async function move(letter, solver = false) {
  const next = apply(game.cells, letter);
  if (!next) return false;
  const epoch = game.epoch;
  const before = game.distance;
  const entry = {
    move: letter,
    tile: game.cells[target(game.cells, letter)],
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
  game.cells = next;
  game.info = null;
  game.distance = entry.after;
  game.hint = false;
  render();
  // A search for the position left behind is no longer wanted.
  if (game.movesRequest) game.movesRequest.abort();
  const request = new AbortController();
  game.movesRequest = request;
  try {
    const info = await api("moves", { start: text(next), goal: text(game.goal) }, request.signal);
    if (epoch !== game.epoch) return true;
    entry.after = info.distance;
    if (text(game.cells) === text(next)) {
      game.info = info;
      game.distance = info.distance;
      render();
      await learnMissedDistances(epoch);
    }
  } catch (e) {
    if (e.name !== "AbortError") showError(e);
  } finally {
    if (game.movesRequest === request) game.movesRequest = null;
  }
  return true;
}

// The distances of earlier moves that never got one (made while the server
// was away, or left behind by a quicker move): the report needs them all.
async function learnMissedDistances(epoch) {
  let learnt = false;
  for (const h of game.history.slice()) {
    if (h.after !== null) continue;
    const answer = await api("distance", { start: h.board, goal: text(game.goal) });
    if (epoch !== game.epoch) return;
    h.after = answer.distance;
    learnt = true;
  }
  if (learnt) render();
}

// ---- drawing ----
function render() {
  const board = $("board");
  board.style.setProperty("--cols", game.cols);
  board.style.setProperty("--rows", game.rows);
  const moves = {};
  if (game.info) for (const m of game.info.moves) moves[m.move] = m;
  const showChanges = $("show-changes").checked;
  const tiles = [];
  game.cells.forEach((tile, cell) => {
    if (tile === 0) {
      const gap = document.createElement("div");
      gap.className = "gap";
      gap.setAttribute("aria-hidden", "true");
      tiles.push(gap);
      return;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tile";
    button.textContent = tile;
    button.dataset.tile = tile;
    button.dataset.cell = cell;
    const m = moveFor(cell);
    if (m) {
      button.dataset.move = m;
      button.classList.add("movable");
      const answer = moves[m];
      let label = `tile ${tile}, slides ${{ U: "down", D: "up", L: "right", R: "left" }[m]}`;
      if (answer && game.hint && answer.change < 0) {
        button.classList.add("hint");
        label += ", one step closer";
      }
      if (answer && showChanges) {
        const badge = document.createElement("span");
        badge.className = "change " + (answer.change < 0 ? "closer" : "farther");
        badge.textContent = answer.change < 0 ? "−1" : "+1";
        button.appendChild(badge);
        label += answer.change < 0 ? ", one closer" : ", one farther";
      }
      button.setAttribute("aria-label", label);
    } else {
      button.tabIndex = -1;
      button.setAttribute("aria-label", `tile ${tile}`);
    }
    tiles.push(button);
  });
  board.replaceChildren(...tiles);

  $("distance").textContent = game.distance === null ? "…" : game.distance;
  $("move-count").textContent = game.history.length;
  $("position").textContent = text(game.cells);
  $("goal-text").textContent = text(game.goal);
  drawTrace();
  drawHistogram();
  drawReport();
}

function drawTrace() {
  const svg = $("trace");
  const points = [game.startDistance, ...game.history.map((h) => h.after)].filter((d) => d !== null);
  // From the lowest distance seen to the highest, so that every step shows.
  const low = Math.max(0, Math.min(...points) - 1), high = Math.max(...points) + 1;
  const w = 300, h = 60, pad = 4;
  const dx = points.length > 1 ? (w - 2 * pad) / (points.length - 1) : 0;
  const y = (d) => h - pad - ((d - low) / (high - low)) * (h - 2 * pad);
  const xy = points.map((d, i) => `${(pad + i * dx).toFixed(1)},${y(d).toFixed(1)}`);
  svg.innerHTML = "";
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", xy.join(" "));
  line.setAttribute("class", "trace-line");
  svg.appendChild(line);
  svg.setAttribute("aria-label", "distance after each move: " + points.join(", "));
}

function drawHistogram() {
  const svg = $("histogram");
  const hist = game.histogram;
  svg.innerHTML = "";
  if (!hist) return;
  const counts = hist.counts;
  const top = Math.max(...counts);
  const w = 320, h = 110, bw = w / counts.length;
  const ns = "http://www.w3.org/2000/svg";
  counts.forEach((c, d) => {
    const bar = document.createElementNS(ns, "rect");
    const bh = c === 0 ? 0 : Math.max(1, (c / top) * (h - 12));
    bar.setAttribute("x", (d * bw + 0.5).toFixed(1));
    bar.setAttribute("width", Math.max(1, bw - 1).toFixed(1));
    bar.setAttribute("y", (h - bh).toFixed(1));
    bar.setAttribute("height", bh.toFixed(1));
    bar.setAttribute("class", d === game.distance ? "bar current" : "bar");
    bar.dataset.distance = d;
    const title = document.createElementNS(ns, "title");
    title.textContent = `${c} positions at distance ${d}`;
    bar.appendChild(title);
    svg.appendChild(bar);
  });
  for (const [d, anchor] of [[0, "start"], [counts.length - 1, "end"]]) {
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", anchor === "start" ? 1 : w - 1);
    label.setAttribute("y", 120);
    label.setAttribute("text-anchor", anchor);
    label.textContent = d;
    svg.appendChild(label);
  }
  const note = $("histogram-note");
  if (game.distance !== null && game.distance < counts.length) {
    const share = (100 * counts[game.distance] / hist.positions).toPrecision(2);
    note.textContent = `You are at distance ${game.distance}, with ${counts[game.distance]} ` +
      `of the ${hist.positions} positions (${share}%). The farthest lie at ${hist.max_distance}.`;
  }
}

function drawReport() {
  const report = $("report");
  const done = game.distance === 0 && game.history.length > 0 &&
    game.history.every((h) => h.after !== null);
  report.hidden = !done;
  if (!done) return;
  const made = game.history.length;
  const optimum = game.startDistance;
  const farther = [];
  let before = game.startDistance;
  game.history.forEach((h, i) => {
    if (h.after > before) farther.push({ i: i + 1, ...h });
    before = h.after;
  });
  const bySolver = game.history.filter((h) => h.solver).length;
  report.dataset.moves = made;
  report.dataset.optimum = optimum;
  report.dataset.farther = farther.length;
  const dir = { U: "down", D: "up", L: "right", R: "left" };
  const items = farther.map((f) =>
    `<li>move ${f.i}: tile ${f.tile} ${dir[f.move]} (${f.after - 1} → ${f.after})</li>`).join("");
  report.innerHTML =
    `<h2>Solved</h2>` +
    `<p>You took <strong id="report-moves">${made}</strong> moves; the fewest possible from ` +
    `the start was <strong id="report-optimum">${optimum}</strong>` +
    (made === optimum ? ": a perfect game." : `, so ${made - optimum} were extra.`) +
    (bySolver ? ` (${bySolver} of them played by the solver.)` : "") + `</p>` +
    (farther.length
      ? `<p>${farther.length} move${farther.length === 1 ? "" : "s"} took you farther away:</p><ul id="report-farther">${items}</ul>`
      : `<p id="report-farther">No move took you farther away.</p>`);
}

// ---- solving ----
// One move of an optimal solution. The solution is kept while the game
// follows it: on a pattern board each one is a search.
async function solveStep() {
  if (game.distance === 0) { stopPlaying(); return false; }
  const at = text(game.cells);
  if (!game.plan || game.plan.at !== at) {
    const epoch = game.epoch;
    const answer = await api("solve", { start: at, goal: text(game.goal) });
    if (epoch !== game.epoch || text(game.cells) !== at) return false;
    if (!answer.moves) { stopPlaying(); return false; }
    game.plan = { at, moves: answer.moves };
  }
  const letter = game.plan.moves[0];
  const rest = game.plan.moves.slice(1);
  const after = apply(game.cells, letter);
  game.plan = rest && after ? { at: text(after), moves: rest } : null;
  return move(letter, true);
}
function stopPlaying() {
  if (game.playing) clearTimeout(game.playing);
  game.playing = null;
  $("solve-play").textContent = "Play";
  $("solve-play").setAttribute("aria-pressed", "false");
}
function play() {
  if (game.playing) { stopPlaying(); return; }
  $("solve-play").textContent = "Pause";
  $("solve-play").setAttribute("aria-pressed", "true");
  const tick = async () => {
    try {
      if (!(await solveStep()) || game.distance === 0) { stopPlaying(); return; }
    } catch (e) { showError(e); stopPlaying(); return; }
    if (game.playing) game.playing = setTimeout(tick, 1000 / Number($("speed").value));
  };
  game.playing = setTimeout(tick, 0);
}

// ---- controls ----
function showK() {
  $("k-out").textContent = $("k").value;
  $("k-button").textContent = $("k").value;
}

async function newAt(k) {
  const drawn = await api("random", { distance: k, goal: text(game.goal) });
  await newGame(parse(drawn.positions[0].start), game.goal);
}

// A position drawn uniformly from all that reach the goal: what a pattern
// board offers, since puzzles at exactly K moves need complete tables.
async function newRandom() {
  const drawn = await api("random", { goal: text(game.goal) });
  await newGame(parse(drawn.positions[0].start), game.goal);
}

async function selectBoard(name) {
  game.board = game.boards.find((b) => b.board === name);
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
  $("k-controls").hidden = !full;
  $("histogram-card").hidden = !full;
  $("random-controls").hidden = full;
  if (!full) {
    $("random-note").textContent =
      `A new puzzle is drawn uniformly from all ${game.board.positions.toLocaleString("en")} ` +
      `positions that reach the goal. Puzzles of exactly K moves, the hardest position and ` +
      `the histogram need every position's distance, which only complete tables hold; ` +
      `${name} is answered by an optimal search over pattern databases ` +
      `(${game.board.partition}), so each distance is a search, stopped after ${game.timeout} s.`;
    await newRandom();
    return;
  }
  await loadHistogram();
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
  try {
    const info = await api("moves", { start, goal });
    await newGame(parse(info.start), parse(info.goal), info);
  } catch (e) {
    error.textContent = e.status === 422 ? `unsolvable: ${e.message}` : e.message;
    error.hidden = false;
  }
}
function onKey(event) {
  const t = event.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  if (arrows[event.key]) {
    event.preventDefault();
    move(BY_TILE_DIRECTION[arrows[event.key]]).catch(showError);
  } else if (event.key === "h" || event.key === "H") {
    showHint();
  }
}

function showHint() {
  game.hint = true;
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
  });
  document.addEventListener("keydown", onKey);
  onSwipe();
  $("hint").addEventListener("click", showHint);
  $("show-changes").addEventListener("change", render);
  $("restart").addEventListener("click", () => newGame(game.start, game.goal).catch(showError));
  $("k").addEventListener("input", showK);
  $("new-k").addEventListener("click", () => newAt($("k").value).catch(showError));
  $("hardest").addEventListener("click", () =>
    newAt(game.histogram.max_distance).catch(showError));
  $("new-random").addEventListener("click", () => newRandom().catch(showError));
  $("custom-set").addEventListener("click", customGame);
  for (const id of ["custom-start", "custom-goal"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") customGame(); });
  }
  $("solve-step").addEventListener("click", () => { stopPlaying(); solveStep().catch(showError); });
  $("solve-play").addEventListener("click", play);
  $("speed").addEventListener("input", () => { $("speed-out").textContent = $("speed").value; });
  $("board-size").addEventListener("change", (e) => selectBoard(e.target.value).catch(showError));
  try {
    const served = await api("boards", {});
    game.boards = served.boards;
    game.timeout = served.timeout;
    $("board-size").replaceChildren(...served.boards.map((b) => {
      const option = document.createElement("option");
      option.value = b.board;
      option.textContent = `${b.board} (${b.rows * b.cols - 1} tiles)`;
      return option;
    }));
    await selectBoard(served.default);
  } catch (e) {
    showError(e);
  }
}

main();
