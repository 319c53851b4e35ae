//! How moves are counted: one tile at a time (the single-tile metric, STM)
//! or one slide of a whole row or column segment at a time (the multi-tile
//! metric, MTM, in which `UUU` is one move).
//!
//! Solutions are always carried as single-tile moves, so every answer
//! replays with the same [`Board::replay`](crate::Board::replay). Under
//! MTM an optimal solution never makes two slides in a row in the same
//! direction (they would merge into one, a shorter solution), so its slides
//! are exactly the runs of equal letters of its single-tile string:
//! [`slides`] recovers them, and [`slide_notation`] writes them as the
//! speedcubing community does, `U3 L R2`.

use crate::puzzle::board::Move;
use crate::puzzle::shape::{Shape, MAX_TABLE_CELLS};
use std::fmt;

/// A multi-tile question about a board past [`MAX_TABLE_CELLS`] cells:
/// complete tables stop there, and pattern databases count single-tile
/// moves. Each face adds the flag or argument that asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "multi-tile tables are built for boards of up to {MAX_TABLE_CELLS} cells; a {shape} board \
     has {} and is answered in single-tile moves only (npuzzle builds no multi-tile pattern \
     databases)",
    shape.cells()
)]
pub struct NoMultiTileTables {
    /// The board asked about.
    pub shape: Shape,
}

/// How a move is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Metric {
    /// One move slides one tile: what the literature on the 8- and
    /// 15-puzzle counts, and npuzzle's default.
    #[default]
    SingleTile,
    /// One move slides 1 to k tiles in a line toward the blank.
    MultiTile,
}

impl Metric {
    /// Both metrics, single-tile first.
    pub const ALL: [Metric; 2] = [Metric::SingleTile, Metric::MultiTile];

    /// The short name used on the command line, in files' names and in
    /// JSON: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::SingleTile => "stm",
            Metric::MultiTile => "mtm",
        }
    }

    /// Whether tables in this metric exist for `shape`: single-tile ones on
    /// every board, multi-tile ones up to [`MAX_TABLE_CELLS`] cells.
    pub fn check_tables(self, shape: Shape) -> Result<(), NoMultiTileTables> {
        match self {
            Metric::MultiTile if shape.cells() > MAX_TABLE_CELLS => {
                Err(NoMultiTileTables { shape })
            }
            _ => Ok(()),
        }
    }

    /// The metric in words, as messages write it: `single-tile` or
    /// `multi-tile` (moves).
    pub fn words(self) -> &'static str {
        match self {
            Metric::SingleTile => "single-tile",
            Metric::MultiTile => "multi-tile",
        }
    }

    /// The metric's byte in a database header.
    pub fn code(self) -> u8 {
        match self {
            Metric::SingleTile => 0,
            Metric::MultiTile => 1,
        }
    }

    /// The metric a header's byte names, if any.
    pub fn from_code(code: u8) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.code() == code)
    }

    /// The most tiles one move slides on `shape`: 1 under STM, the longer
    /// side minus one under MTM.
    pub fn longest_slide(self, shape: Shape) -> usize {
        match self {
            Metric::SingleTile => 1,
            Metric::MultiTile => shape.rows().max(shape.cols()) - 1,
        }
    }

    /// How many moves a solution given as single-tile moves counts in this
    /// metric, when it is optimal in this metric (see [`slides`]).
    pub fn length(self, moves: &[Move]) -> usize {
        match self {
            Metric::SingleTile => moves.len(),
            Metric::MultiTile => slides(moves).count(),
        }
    }

    /// A solution's moves in this metric, each as its direction and the
    /// tiles it moves: one at a time under STM, its [`slides`] under MTM.
    pub fn moves_of(self, moves: &[Move]) -> impl Iterator<Item = (Move, usize)> + '_ {
        let multi = self == Metric::MultiTile;
        moves
            .chunk_by(move |a, b| multi && a == b)
            .map(|run| (run[0], run.len()))
    }

    /// A solution's moves as this metric writes them: `ULDR` under STM,
    /// `U3 L R2` under MTM.
    pub fn notation(self, moves: &[Move]) -> String {
        match self {
            Metric::SingleTile => crate::puzzle::board::move_string(moves),
            Metric::MultiTile => slide_notation(moves),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A metric name that is neither `stm` nor `mtm`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown metric {0:?}: expected stm (single-tile moves) or mtm (multi-tile moves)")]
pub struct MetricError(pub String);

impl std::str::FromStr for Metric {
    type Err = MetricError;

    fn from_str(s: &str) -> Result<Metric, MetricError> {
        match s.to_ascii_lowercase().as_str() {
            "stm" => Ok(Metric::SingleTile),
            "mtm" => Ok(Metric::MultiTile),
            _ => Err(MetricError(
                crate::puzzle::parse::excerpt(s, 20).into_owned(),
            )),
        }
    }
}

/// The runs of equal moves in `moves`, each as its direction and length:
/// a multi-tile solution's slides.
pub fn slides(moves: &[Move]) -> impl Iterator<Item = (Move, usize)> + '_ {
    moves.chunk_by(|a, b| a == b).map(|run| (run[0], run.len()))
}

/// Writes slides as `U3 L R2`: the blank's direction, then how many tiles
/// slide when more than one.
pub fn slide_notation(moves: &[Move]) -> String {
    let mut out = String::with_capacity(moves.len() * 2);
    for (i, (m, count)) in slides(moves).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(m.letter());
        if count > 1 {
            out.push_str(&count.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(s: &str) -> Vec<Move> {
        s.chars().map(|c| Move::from_letter(c).unwrap()).collect()
    }

    #[test]
    fn runs_are_slides() {
        let m = moves("UUULRR");
        assert_eq!(slide_notation(&m), "U3 L R2");
        assert_eq!(Metric::MultiTile.length(&m), 3);
        assert_eq!(Metric::SingleTile.length(&m), 6);
        assert_eq!(Metric::SingleTile.notation(&m), "UUULRR");
        assert_eq!(Metric::SingleTile.moves_of(&m).count(), 6);
        assert_eq!(
            Metric::MultiTile.moves_of(&m).collect::<Vec<_>>(),
            [(Move::Up, 3), (Move::Left, 1), (Move::Right, 2)]
        );
        assert_eq!(slide_notation(&[]), "");
    }

    #[test]
    fn names_and_codes_round_trip() {
        for m in Metric::ALL {
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
            assert_eq!(Metric::from_code(m.code()), Some(m));
        }
        assert_eq!("MTM".parse::<Metric>(), Ok(Metric::MultiTile));
        assert!("xtm".parse::<Metric>().is_err());
        assert_eq!(Metric::from_code(2), None);
    }

    #[test]
    fn the_longest_slide_is_the_longer_side_less_one() {
        let shape = |s: &str| s.parse::<Shape>().unwrap();
        assert_eq!(Metric::MultiTile.longest_slide(shape("3x3")), 2);
        assert_eq!(Metric::MultiTile.longest_slide(shape("2x6")), 5);
        assert_eq!(Metric::MultiTile.longest_slide(shape("6x2")), 5);
        assert_eq!(Metric::SingleTile.longest_slide(shape("6x2")), 1);
    }
}
