//! The answers the package returns: a [`PySolution`] (shortest, or within
//! a factor), a [`PySolvability`] and a [`PyCheck`], each frozen, compared
//! and hashed by value, and pickled as its fields.

use crate::board::{wrap, PyBoard};
use crate::database::json_dict;
use crate::errors;
use npuzzle::analysis::Graded;
use npuzzle::io::{Answer, Nodes, WithinBound};
use npuzzle::rules::{move_string, solvability};
use npuzzle::{Board, Metric, Move, Shape};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A solution: the shortest, or with `within=` one proved within that
/// factor of it. True even when it has no move (the start is the goal), so
/// that `if s` tells a solution from the None of an unsolvable position.
///
/// >>> s = npuzzle.solve("123468750")
/// >>> s.moves, s.distance, s.tiles
/// ('ULDR', 4, [8, 6, 5, 8])
#[pyclass(module = "npuzzle", name = "Solution", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PySolution {
    start: Board,
    goal: Board,
    /// Single-tile moves; under the multi-tile metric its slides are its runs.
    moves: Vec<Move>,
    metric: Metric,
    /// Nodes searched; None when looked up.
    nodes: Option<Nodes>,
    /// For a solution found with `within=`: W and the lower bound it proves.
    within: Option<WithinBound>,
}

impl PySolution {
    /// The shortest solution `moves` from `start` to `goal`, counted in
    /// `metric`, with the nodes searched for it (None when looked up).
    pub fn shortest(
        (start, goal): (Board, Board),
        moves: Vec<Move>,
        metric: Metric,
        nodes: Option<Nodes>,
    ) -> PySolution {
        PySolution {
            start,
            goal,
            moves,
            metric,
            nodes,
            within: None,
        }
    }

    /// A solution found within a weight of the shortest
    /// ([`npuzzle::bounded::answer_within`]), with the lower bound that proves it.
    pub fn found_within(answer: Answer) -> PySolution {
        PySolution {
            start: answer.start,
            goal: answer.goal,
            moves: answer.moves.unwrap_or_default(),
            metric: answer.metric,
            nodes: answer.nodes,
            within: answer.within,
        }
    }

    /// The moves as `moves` gives them.
    pub fn move_string(&self) -> String {
        self.metric.notation(&self.moves)
    }
}

#[pymethods]
impl PySolution {
    /// The blank's moves, as the command line writes them (`U`, `D`, `L`,
    /// `R`; under the multi-tile metric, slides such as `U3 L R2`).
    ///
    /// >>> npuzzle.solve("123456708").moves
    /// 'R'
    #[getter]
    fn moves(&self) -> String {
        self.move_string()
    }

    /// The same moves one tile at a time (`UUULRR` for `U3 L R2`), as
    /// `Board.apply` and other tools replay them.
    ///
    /// >>> npuzzle.solve("123456708").single_tile_moves
    /// 'R'
    #[getter]
    fn single_tile_moves(&self) -> String {
        move_string(&self.moves)
    }

    /// The number of moves, counted in the database's metric: the fewest
    /// there are. For a solution found with `within=`, None unless its
    /// lower bound proves it shortest.
    ///
    /// >>> npuzzle.solve("867254301").distance
    /// 31
    #[getter]
    fn distance(&self) -> Option<usize> {
        let length = self.length();
        match &self.within {
            Some(w) if w.lower_bound as usize != length => None,
            _ => Some(length),
        }
    }

    /// The number of moves, counted in the database's metric.
    ///
    /// >>> npuzzle.solve("867254301").length
    /// 31
    #[getter]
    fn length(&self) -> usize {
        self.metric.length(&self.moves)
    }

    /// No solution is shorter: the length itself for an exact answer; for
    /// one found with `within=`, what the search proved.
    ///
    /// >>> npuzzle.solve("867254301", within=1.5).lower_bound <= 31
    /// True
    #[getter]
    fn lower_bound(&self) -> usize {
        self.within
            .as_ref()
            .map_or(self.length(), |w| w.lower_bound as usize)
    }

    /// The W of `within=` (the solution is at most W times the shortest),
    /// or None for an exact answer.
    ///
    /// >>> npuzzle.solve("867254301", within=1.5).within
    /// 1.5
    #[getter]
    fn within(&self) -> Option<f64> {
        self.within.as_ref().map(WithinBound::weight)
    }

    /// The heuristic a `within=` search was guided by, as `to_dict()`
    /// names it ("linear-conflict", or "patterns 7-8" with the pattern
    /// file's partition), or None for an exact answer.
    ///
    /// >>> npuzzle.solve("867254301", within=1.5).heuristic
    /// 'linear-conflict'
    #[getter]
    fn heuristic(&self) -> Option<&str> {
        self.within.as_ref().map(|w| w.heuristic.as_str())
    }

    /// How the moves are counted: "stm" (one tile per move) or "mtm".
    ///
    /// >>> npuzzle.solve("123456708").metric
    /// 'stm'
    #[getter]
    fn metric(&self) -> &'static str {
        self.metric.name()
    }

    /// Nodes the search generated to find and prove it (pattern
    /// databases); 0 for a lookup in complete tables.
    ///
    /// >>> npuzzle.solve("123456708").nodes
    /// 0
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes.map_or(0, |n| n.generated)
    }

    /// Nodes the search expanded (those whose children it generated); 0
    /// for a lookup in complete tables.
    ///
    /// >>> npuzzle.solve("123456708").nodes_expanded
    /// 0
    #[getter]
    fn nodes_expanded(&self) -> u64 {
        self.nodes.map_or(0, |n| n.expanded)
    }

    /// The tile that slides at each move. Under the multi-tile metric, a
    /// move that slides several tiles gives one entry each, in order, as
    /// `single_tile_moves` spells them: the list is then longer than the
    /// distance.
    ///
    /// >>> npuzzle.solve("123456708").tiles
    /// [8]
    #[getter]
    fn tiles(&self) -> Vec<u32> {
        let mut board = self.start;
        self.moves
            .iter()
            .map(|&m| {
                let tile = board.tile_moved_by(m).map_or(0, u32::from);
                board = board.apply(m).unwrap_or(board);
                tile
            })
            .collect()
    }

    /// The start.
    ///
    /// >>> npuzzle.solve("123456708").start
    /// Board("123/456/708")
    #[getter]
    fn start(&self) -> PyBoard {
        wrap(self.start)
    }

    /// The goal.
    ///
    /// >>> npuzzle.solve("123456708").goal
    /// Board("123/456/780")
    #[getter]
    fn goal(&self) -> PyBoard {
        wrap(self.goal)
    }

    /// Every board on the way, the start and the goal included: one after
    /// each move `len` counts (under the multi-tile metric, after each
    /// slide of `moves`), so `len(boards()) == len(solution) + 1`.
    ///
    /// >>> npuzzle.solve("123456708").boards()
    /// [Board("123/456/708"), Board("123/456/780")]
    fn boards(&self) -> Vec<PyBoard> {
        let mut board = self.start;
        let mut out = vec![wrap(board)];
        let moves: Vec<(Move, usize)> = match self.metric {
            Metric::SingleTile => self.moves.iter().map(|&m| (m, 1)).collect(),
            Metric::MultiTile => npuzzle::rules::slides(&self.moves).collect(),
        };
        for (m, tiles) in moves {
            for _ in 0..tiles {
                board = board.apply(m).unwrap_or(board);
            }
            out.push(wrap(board));
        }
        out
    }

    /// The command line's JSON answer (`query solve --json`) as a dict,
    /// with `nodes` and `nodes_expanded` when it was searched for.
    ///
    /// >>> npuzzle.solve("123456708").to_dict()
    /// {'start': '123456708', 'goal': '123456780', 'solvable': True, 'distance': 1, 'moves': 'R'}
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        // The library's answer, through its JSON: the same fields as every
        // other face, by construction.
        let mut answer = Answer::new(self.start, self.goal, Ok(self.moves.clone()), self.nodes)
            .counted_in(self.metric);
        if let Some(within) = &self.within {
            answer = answer.bounded(within.clone());
        }
        json_dict(py, &answer)
    }

    fn __len__(&self) -> usize {
        self.length()
    }

    /// True, even with no move: without it, a solution of length 0 would
    /// be false, as its `len` is 0.
    fn __bool__(&self) -> bool {
        true
    }

    fn __str__(&self) -> String {
        self.moves()
    }

    /// Pickled as its fields, for multiprocessing, Dask and joblib.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (SolutionState,))> {
        let this = slf.get();
        let state = (
            this.start.to_string(),
            this.goal.to_string(),
            this.start.shape().to_string(),
            move_string(&this.moves),
            this.metric.code(),
            this.nodes.map(|n| (n.generated, n.expanded)),
            this.within
                .as_ref()
                .map(|w| (w.weight_thousandths, w.lower_bound, w.heuristic.clone())),
        );
        Ok((slf.get_type().getattr("_unpickle")?, (state,)))
    }

    #[classmethod]
    fn _unpickle(cls: &Bound<'_, pyo3::types::PyType>, state: SolutionState) -> PyResult<Self> {
        let (start, goal, shape, moves, metric, nodes, within) = state;
        let bad = || errors::argument_type(cls.py(), "not the state of a pickled Solution");
        let shape: Shape = shape.parse().map_err(|_| bad())?;
        let board = |text: &str| npuzzle::parse_board(text, shape).map_err(|_| bad());
        let moves = moves
            .chars()
            .map(|c| Move::from_letter(c).ok_or_else(bad))
            .collect::<PyResult<Vec<Move>>>()?;
        let (start, goal) = (board(&start)?, board(&goal)?);
        // Only a state a solution gives: moves that take the start to the
        // goal, no more expanded nodes than generated, and W of 1 or more.
        let sound = start.replay(&moves) == Some(goal)
            && nodes.is_none_or(|(generated, expanded)| expanded <= generated)
            && within
                .as_ref()
                .is_none_or(|(w, bound, _)| *w >= 1000 && *bound as usize <= moves.len());
        if !sound {
            return Err(bad());
        }
        Ok(PySolution {
            start,
            goal,
            moves,
            metric: Metric::from_code(metric).ok_or_else(bad)?,
            nodes: nodes.map(|(generated, expanded)| Nodes {
                generated,
                expanded,
            }),
            within: within.map(|(weight_thousandths, lower_bound, heuristic)| WithinBound {
                weight_thousandths,
                lower_bound,
                heuristic,
            }),
        })
    }

    fn __repr__(&self) -> String {
        match self.within() {
            None => format!(
                "Solution(start=\"{}\", moves=\"{}\", distance={})",
                self.start,
                self.moves(),
                self.length()
            ),
            Some(w) => format!(
                "Solution(start=\"{}\", moves=\"{}\", length={}, lower_bound={}, within={w})",
                self.start,
                self.moves(),
                self.length(),
                self.lower_bound()
            ),
        }
    }
}

/// A pickled [`PySolution`]: start, goal, board, single-tile moves, metric
/// code, nodes (generated, expanded) and within (W in thousandths, lower
/// bound, heuristic).
type SolutionState = (
    String,
    String,
    String,
    String,
    u8,
    Option<(u64, u64)>,
    Option<(u32, u32, String)>,
);

/// Whether a start can reach a goal; true in a boolean context when it can.
///
/// >>> v = npuzzle.solvable("213456780")
/// >>> bool(v), v.reason[:30]
/// (False, 'the start has 1 tile inversion')
#[pyclass(module = "npuzzle", name = "Solvability", frozen, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct PySolvability {
    /// True when the start can reach the goal.
    #[pyo3(get)]
    solvable: bool,
    /// Why it cannot, as the command line says it; None when it can.
    #[pyo3(get)]
    reason: Option<String>,
    /// The parity test's verdict with the numbers it rests on, either way,
    /// as `query solvable` says it.
    #[pyo3(get)]
    explanation: String,
}

impl PySolvability {
    /// Whether `start` can reach `goal`, by the permutation-parity rule.
    pub fn of(start: &Board, goal: &Board) -> PySolvability {
        let parity = solvability::Parity::of(start, goal);
        let explanation = parity.to_string();
        let solvable = parity.solvable();
        PySolvability {
            solvable,
            reason: (!solvable).then(|| explanation.clone()),
            explanation,
        }
    }
}

/// A [`PySolvability`] pickled: whether solvable, the reason, the explanation.
type SolvabilityState = (bool, Option<String>, String);

#[pymethods]
impl PySolvability {
    fn __bool__(&self) -> bool {
        self.solvable
    }

    fn __repr__(&self) -> String {
        match &self.reason {
            None => "Solvability(solvable=True)".to_string(),
            Some(r) => format!("Solvability(solvable=False, reason={r:?})"),
        }
    }

    /// Pickled as its fields, for multiprocessing, Dask and joblib.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (SolvabilityState,))> {
        let this = slf.get();
        let state = (this.solvable, this.reason.clone(), this.explanation.clone());
        Ok((slf.get_type().getattr("_unpickle")?, (state,)))
    }

    #[classmethod]
    fn _unpickle(_cls: &Bound<'_, pyo3::types::PyType>, state: SolvabilityState) -> Self {
        let (solvable, reason, explanation) = state;
        PySolvability {
            solvable,
            reason,
            explanation,
        }
    }
}

/// A solution checked against the optimum, for grading.
///
/// >>> c = npuzzle.check("123468750", "ULDRLR")
/// >>> c.legal, c.reaches_goal, c.optimal, c.excess
/// (True, True, 4, 2)
#[pyclass(module = "npuzzle", name = "Check", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyCheck {
    /// Every move stays on the board.
    legal: bool,
    /// The 1-based number of the first move that leaves the board, if any.
    illegal_move: Option<usize>,
    /// The moves end on the goal (the legal ones, all of them).
    reaches_goal: bool,
    /// Moves given.
    length: usize,
    /// The fewest moves from the start to the goal.
    optimal: u32,
    /// How many moves longer than optimal, when they reach the goal.
    excess: Option<u32>,
    /// Where the moves end (before the first illegal one).
    end: PyBoard,
    /// The fewest moves from where they end to the goal (0 when they reach it).
    remaining: u32,
    /// The 1-based numbers of the legal moves that went one step farther
    /// from the goal.
    away: Vec<usize>,
    /// The moves miss the goal as written, but reach it with each letter
    /// turned the other way: the ways the tiles slide were likely written.
    reversed_reaches_goal: bool,
    /// The number of the move after which the moves first stand on the
    /// goal (0 when the start is the goal), or None: below `length`, the
    /// moves after it were not needed.
    goal_reached_after: Option<usize>,
}

impl PyCheck {
    /// The library's grading, as the package gives it.
    pub fn of(graded: Graded) -> PyCheck {
        PyCheck {
            legal: graded.legal,
            illegal_move: graded.illegal_move,
            reaches_goal: graded.reaches_goal,
            length: graded.length,
            optimal: graded.optimal,
            excess: graded.excess,
            end: wrap(graded.end),
            remaining: graded.remaining,
            away: graded.away,
            reversed_reaches_goal: graded.reversed_reaches_goal,
            goal_reached_after: graded.goal_reached_after,
        }
    }
}

#[pymethods]
impl PyCheck {
    /// Legal, reaching the goal, and as short as can be.
    ///
    /// >>> npuzzle.check("123468750", "ULDR").is_optimal
    /// True
    #[getter]
    fn is_optimal(&self) -> bool {
        self.legal && self.excess == Some(0)
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<u32>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Check(legal={}, illegal_move={}, reaches_goal={}, length={}, optimal={}, \
             excess={}, remaining={})",
            py_bool(self.legal),
            self.illegal_move
                .map_or("None".to_string(), |v| v.to_string()),
            py_bool(self.reaches_goal),
            self.length,
            self.optimal,
            opt(self.excess),
            self.remaining
        )
    }

    /// The fields as a dict (the page's `/api/check` answers the same, with
    /// `start`, `goal` and `moves` beside them).
    ///
    /// >>> npuzzle.check("123468750", "ULDR").to_dict()["optimal"]
    /// 4
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("legal", self.legal)?;
        dict.set_item("illegal_move", self.illegal_move)?;
        dict.set_item("reaches_goal", self.reaches_goal)?;
        dict.set_item("length", self.length)?;
        dict.set_item("optimal", self.optimal)?;
        dict.set_item("excess", self.excess)?;
        dict.set_item("end", self.end.board.to_string())?;
        dict.set_item("remaining", self.remaining)?;
        dict.set_item("away", self.away.clone())?;
        dict.set_item("reversed_reaches_goal", self.reversed_reaches_goal)?;
        dict.set_item("goal_reached_after", self.goal_reached_after)?;
        Ok(dict)
    }

    /// Pickled as its fields, for multiprocessing, Dask and joblib.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (CheckState,))> {
        let c = slf.get().clone();
        let state = (
            c.legal,
            c.illegal_move,
            c.reaches_goal,
            c.length,
            c.optimal,
            c.excess,
            (c.end.board.to_string(), c.end.board.shape().to_string()),
            c.remaining,
            c.away,
            c.reversed_reaches_goal,
            c.goal_reached_after,
        );
        Ok((slf.get_type().getattr("_unpickle")?, (state,)))
    }

    #[classmethod]
    fn _unpickle(cls: &Bound<'_, pyo3::types::PyType>, state: CheckState) -> PyResult<Self> {
        let (
            legal,
            illegal_move,
            reaches_goal,
            length,
            optimal,
            excess,
            end,
            remaining,
            away,
            reversed_reaches_goal,
            goal_reached_after,
        ) = state;
        let bad = || errors::argument_type(cls.py(), "not the state of a pickled Check");
        let shape: Shape = end.1.parse().map_err(|_| bad())?;
        let end = wrap(npuzzle::parse_board(&end.0, shape).map_err(|_| bad())?);
        Ok(PyCheck {
            legal,
            illegal_move,
            reaches_goal,
            length,
            optimal,
            excess,
            end,
            remaining,
            away,
            reversed_reaches_goal,
            goal_reached_after,
        })
    }
}

/// A pickled [`PyCheck`]: its fields in order, the end as its text and
/// board size.
type CheckState = (
    bool,
    Option<usize>,
    bool,
    usize,
    u32,
    Option<u32>,
    (String, String),
    u32,
    Vec<usize>,
    bool,
    Option<usize>,
);

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}
