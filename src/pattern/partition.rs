//! Partitions: the board's tiles split into disjoint patterns, so that the
//! patterns' distances add up to a lower bound on the moves needed.
//!
//! Tiles are numbered as in the default goal: 1, 2, … row by row, the blank
//! in the last cell. The named 15-puzzle partitions are the literature's,
//! whose goal has the blank top-left (`0 1 2 … 15`); a half turn takes that
//! goal to ours (their tile `j` is our tile `16 - j`), so each group here
//! is theirs turned around and keeps its shape relative to the blank.

use super::error::PatternError;
use super::placement::MAX_PATTERN_CELLS;
use crate::puzzle::shape::Shape;

/// Tiles split into disjoint patterns, on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    shape: Shape,
    patterns: Vec<Vec<u8>>,
}

/// A named partition: rows, columns, name, and its patterns.
type Named = (usize, usize, &'static str, &'static [&'static [u8]]);

/// The named partitions of each board.
const NAMED: &[Named] = &[
    // Korf & Felner (2002): their {1,2,3}, {4,5,8,9,12,13}, {6,7,10,11,14,15}.
    (
        4,
        4,
        "6-6-3",
        &[&[3, 4, 7, 8, 11, 12], &[1, 2, 5, 6, 9, 10], &[13, 14, 15]],
    ),
    // Korf & Felner (2002), Felner, Korf & Hanan (2004): their {1..7} (the
    // blank's two rows) and {8..15}.
    (
        4,
        4,
        "7-8",
        &[&[9, 10, 11, 12, 13, 14, 15], &[1, 2, 3, 4, 5, 6, 7, 8]],
    ),
    // Left and right of a 3×5 board; top and bottom of a 5×3 board.
    (
        3,
        5,
        "7-7",
        &[&[1, 2, 3, 6, 7, 11, 12], &[4, 5, 8, 9, 10, 13, 14]],
    ),
    (
        5,
        3,
        "7-7",
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14]],
    ),
    // A second partition of each, so that IDA* lengths can be checked
    // against another heuristic: two 2×3 blocks (as 3×4's 6-5) and the
    // two tiles left over, beside the goal blank. Its 6-tile tables build
    // in seconds where 7-7's take a minute or more.
    (
        3,
        5,
        "6-6-2",
        &[&[1, 2, 6, 7, 11, 12], &[3, 4, 8, 9, 13, 14], &[5, 10]],
    ),
    (
        5,
        3,
        "6-6-2",
        &[&[1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11, 12], &[13, 14]],
    ),
    // Two 2×3 blocks of a 3×4 board; top and bottom of a 4×3 board.
    (3, 4, "6-5", &[&[1, 2, 5, 6, 9, 10], &[3, 4, 7, 8, 11]]),
    (4, 3, "6-5", &[&[1, 2, 3, 4, 5, 6], &[7, 8, 9, 10, 11]]),
    // The 24-puzzle: Korf & Felner (2002), their {1,5,6,10,11,12} (around
    // the blank), {2,3,4,7,8,9}, {15,16,17,20,21,22} and {13,14,18,19,23,24}
    // (three 2×3 blocks, each a quarter or half turn of another), turned a
    // half turn (their tile j is our 25 - j).
    (
        5,
        5,
        "6-6-6-6",
        &[
            &[13, 14, 15, 19, 20, 24],
            &[16, 17, 18, 21, 22, 23],
            &[3, 4, 5, 8, 9, 10],
            &[1, 2, 6, 7, 11, 12],
        ],
    ),
    // Six blocks of four: tables of 303,600 entries that build in a
    // second, for trying a 5×5 board out and for tests.
    (
        5,
        5,
        "4-4-4-4-4-4",
        &[
            &[1, 2, 6, 7],
            &[3, 4, 8, 9],
            &[5, 10, 15, 20],
            &[11, 12, 16, 17],
            &[13, 14, 18, 19],
            &[21, 22, 23, 24],
        ],
    ),
    // 4×5: two 2×3 blocks on the left and the blank's two columns; 5×4 is
    // its transpose. See docs/guide.md for the measurements behind them.
    (
        4,
        5,
        "6-6-7",
        &[
            &[1, 2, 3, 6, 7, 8],
            &[11, 12, 13, 16, 17, 18],
            &[4, 5, 9, 10, 14, 15, 19],
        ],
    ),
    (
        5,
        4,
        "6-6-7",
        &[
            &[1, 2, 5, 6, 9, 10],
            &[3, 4, 7, 8, 11, 12],
            &[13, 14, 15, 16, 17, 18, 19],
        ],
    ),
    // Smaller ones of each, as 5×5's 4-4-4-4-4-4.
    (
        4,
        5,
        "5-5-5-4",
        &[
            &[1, 2, 6, 7, 11],
            &[3, 4, 5, 8, 9],
            &[12, 13, 16, 17, 18],
            &[10, 14, 15, 19],
        ],
    ),
    (
        5,
        4,
        "5-5-5-4",
        &[
            &[1, 2, 5, 6, 9],
            &[3, 4, 7, 8, 11],
            &[10, 13, 14, 17, 18],
            &[12, 15, 16, 19],
        ],
    ),
    // The 8-puzzle: top and bottom.
    (3, 3, "4-4", &[&[1, 2, 3, 4], &[5, 6, 7, 8]]),
];

impl Partition {
    /// A partition of `shape`'s tiles into `patterns`, checked: every tile
    /// on the board, none twice, no pattern empty. Tiles left out of every
    /// pattern are allowed; they add nothing to the heuristic.
    pub fn new(shape: Shape, patterns: Vec<Vec<u8>>) -> Result<Partition, PatternError> {
        let max = shape.cells() - 1;
        let mut seen = [false; MAX_PATTERN_CELLS];
        for (index, pattern) in patterns.iter().enumerate() {
            if pattern.is_empty() {
                return Err(PatternError::EmptyPattern { index });
            }
            for &tile in pattern {
                if tile == 0 || tile as usize > max {
                    return Err(PatternError::TileOutOfRange {
                        tile: tile as usize,
                        shape,
                        max,
                    });
                }
                if std::mem::replace(&mut seen[tile as usize], true) {
                    return Err(PatternError::TileTwice { tile });
                }
            }
        }
        Ok(Partition { shape, patterns })
    }

    /// The partition called `name` (such as `7-8` or `6-6-3`) on `shape`.
    pub fn named(shape: Shape, name: &str) -> Result<Partition, PatternError> {
        let wanted = name.trim();
        NAMED
            .iter()
            .find(|&&(r, c, n, _)| (r, c) == (shape.rows(), shape.cols()) && n == wanted)
            .map(|&(_, _, _, patterns)| Partition {
                shape,
                patterns: patterns.iter().map(|p| p.to_vec()).collect(),
            })
            .ok_or_else(|| PatternError::UnknownPartition {
                // The name as given, cut short: a message is no place for a huge argument.
                name: crate::puzzle::parse::excerpt(wanted, 40).into_owned(),
                shape,
                known: match Partition::names(shape).join(", ") {
                    names if names.is_empty() => format!(
                        "none (boards with named partitions: {})",
                        Partition::boards().join(", ")
                    ),
                    names => names,
                },
            })
    }

    /// The board's default partition: the named one with the largest
    /// patterns (7-8 on 4×4), or `None` for a board without named ones.
    pub fn default_for(shape: Shape) -> Option<Partition> {
        let largest = NAMED
            .iter()
            .filter(|&&(r, c, _, _)| (r, c) == (shape.rows(), shape.cols()))
            .max_by_key(|&&(_, _, _, patterns)| patterns.iter().map(|p| p.len()).max())?;
        Partition::named(shape, largest.2).ok()
    }

    /// The names [`Partition::named`] knows for `shape`.
    pub fn names(shape: Shape) -> Vec<&'static str> {
        NAMED
            .iter()
            .filter(|&&(r, c, _, _)| (r, c) == (shape.rows(), shape.cols()))
            .map(|&(_, _, name, _)| name)
            .collect()
    }

    /// The boards with named partitions (`RxC`), each once, in the
    /// order of the named partitions.
    pub fn boards() -> Vec<String> {
        let mut boards: Vec<String> = Vec::new();
        for &(rows, cols, _, _) in NAMED {
            let board = format!("{rows}x{cols}");
            if !boards.contains(&board) {
                boards.push(board);
            }
        }
        boards
    }

    /// The board.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The patterns, each a list of tiles.
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// Whether this is its board's default partition, the strongest
    /// `build-db` builds for it.
    pub fn is_default(&self) -> bool {
        Partition::default_for(self.shape()).as_ref() == Some(self)
    }

    /// The name of this partition (`7-8`, `6-6-3`, …) when it is one of
    /// the board's named partitions, pattern for pattern and tile for tile
    /// in the same order; `custom` otherwise. Files store the patterns, not
    /// a name, so the name cannot disagree with the tables.
    pub fn name(&self) -> &'static str {
        NAMED
            .iter()
            .find(|&&(r, c, _, patterns)| {
                (r, c) == (self.shape.rows(), self.shape.cols())
                    && patterns
                        .iter()
                        .copied()
                        .eq(self.patterns.iter().map(Vec::as_slice))
            })
            .map_or("custom", |&(_, _, name, _)| name)
    }

    /// The patterns with a table of their own toward the canonical goal
    /// with the blank in `goal_blank`, in order: the others read an
    /// earlier pattern's table through a reflection or rotation of the
    /// board that takes their goal onto its goal (on 5×5's 6-6-6-6, the
    /// three 2×3 blocks share one table). Last, if it has one, the pattern
    /// of the second lookup that no table serves (see
    /// [`PatternDb::uses_second_lookup`]). These are the tables
    /// that are built and stored.
    ///
    /// [`PatternDb::uses_second_lookup`]: super::PatternDb::uses_second_lookup
    pub fn stored_patterns(&self, goal_blank: usize) -> Vec<Vec<u8>> {
        let shared = self.shared_patterns(goal_blank);
        let second = super::second::second_partition(self.shape, goal_blank, &self.patterns);
        match second.and_then(|s| s.extra) {
            None => shared,
            // With as many tables as patterns, the layout would read as one
            // with a table for every pattern: that is the one written.
            Some(extra) if shared.len() + 1 == self.patterns.len() => {
                let mut every = self.patterns.clone();
                every.push(extra);
                every
            }
            Some(extra) => {
                let mut stored = shared;
                stored.push(extra);
                stored
            }
        }
    }

    /// [`Partition::stored_patterns`] without the second lookup's own
    /// table: those of files written before the second lookup had one.
    pub(crate) fn shared_patterns(&self, goal_blank: usize) -> Vec<Vec<u8>> {
        super::share::stored(self.shape, goal_blank, &self.patterns)
    }

    /// The pattern that holds `tile`, if any.
    pub fn pattern_of(&self, tile: u8) -> Option<usize> {
        self.patterns.iter().position(|p| p.contains(&tile))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_partitions_cover_every_tile_once() {
        for &(rows, cols, name, _) in NAMED {
            let shape = Shape::new(rows, cols).unwrap();
            let partition = Partition::named(shape, name).unwrap();
            // Re-checked by the constructor.
            let checked = Partition::new(shape, partition.patterns().to_vec()).unwrap();
            let mut tiles: Vec<u8> = checked.patterns().concat();
            tiles.sort_unstable();
            assert_eq!(
                tiles,
                (1..shape.cells() as u8).collect::<Vec<_>>(),
                "{name}"
            );
            let sizes: Vec<String> = checked
                .patterns()
                .iter()
                .map(|p| p.len().to_string())
                .collect();
            assert_eq!(sizes.join("-"), name);
        }
    }

    #[test]
    fn a_partition_is_named_by_its_patterns() {
        for &(rows, cols, name, _) in NAMED {
            let shape = Shape::new(rows, cols).unwrap();
            assert_eq!(Partition::named(shape, name).unwrap().name(), name);
        }
        let shape = Shape::THREE_BY_THREE;
        let custom = |patterns: Vec<Vec<u8>>| Partition::new(shape, patterns).unwrap().name();
        assert_eq!(custom(vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]), "4-4");
        // The same tiles in another order, or the patterns swapped, are
        // other tables: not 4-4.
        assert_eq!(custom(vec![vec![2, 1, 3, 4], vec![5, 6, 7, 8]]), "custom");
        assert_eq!(custom(vec![vec![5, 6, 7, 8], vec![1, 2, 3, 4]]), "custom");
        assert_eq!(custom(vec![vec![1, 2, 3, 4]]), "custom");
        // 3x4's 6-5 tiles on a 4x3 board are not 4x3's 6-5.
        let shape = Shape::new(4, 3).unwrap();
        let other = Partition::new(shape, vec![vec![1, 2, 5, 6, 9, 10], vec![3, 4, 7, 8, 11]]);
        assert_eq!(other.unwrap().name(), "custom");
    }

    #[test]
    fn defaults_have_the_largest_patterns() {
        let name = |rows, cols| {
            let shape = Shape::new(rows, cols).unwrap();
            Partition::default_for(shape).map(|p| {
                let sizes: Vec<String> = p.patterns().iter().map(|p| p.len().to_string()).collect();
                sizes.join("-")
            })
        };
        assert_eq!(name(4, 4).as_deref(), Some("7-8"));
        assert_eq!(name(3, 5).as_deref(), Some("7-7"));
        assert_eq!(name(5, 3).as_deref(), Some("7-7"));
        assert_eq!(name(3, 3).as_deref(), Some("4-4"));
        assert_eq!(name(5, 5).as_deref(), Some("6-6-6-6"));
        assert_eq!(name(4, 5).as_deref(), Some("6-6-7"));
        assert_eq!(name(5, 4).as_deref(), Some("6-6-7"));
        assert_eq!(name(2, 2), None);
        let four = Shape::new(4, 4).unwrap();
        assert!(Partition::named(four, "7-8").unwrap().is_default());
        assert!(!Partition::named(four, "6-6-3").unwrap().is_default());
    }

    #[test]
    fn bad_partitions_are_refused() {
        let shape = Shape::THREE_BY_THREE;
        assert_eq!(
            Partition::new(shape, vec![vec![1, 2], vec![2, 3]]),
            Err(PatternError::TileTwice { tile: 2 })
        );
        assert!(matches!(
            Partition::new(shape, vec![vec![1, 9]]),
            Err(PatternError::TileOutOfRange { tile: 9, .. })
        ));
        let err = Partition::named(shape, "5-5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no partition named \"5-5\" for a 3x3 board; known: 4-4"
        );
        let err = Partition::named(Shape::new(2, 3).unwrap(), "4-4").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no partition named \"4-4\" for a 2x3 board; known: none (boards with named \
             partitions: 4x4, 3x5, 5x3, 3x4, 4x3, 5x5, 4x5, 5x4, 3x3)"
        );
    }
}
