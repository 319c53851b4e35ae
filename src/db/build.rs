//! Building a database file of either kind: which tables, and writing each
//! as it is done.

use crate::db::error::WriteError;
use crate::db::format::write::Writer;
use crate::pattern::{
    build_pattern_table_toward, table_search, Partition, PatternError, UNREACHED,
};
use crate::puzzle::metric::Metric;
use crate::puzzle::shape::{Shape, ShapeError};
use crate::puzzle::symmetry::{self, Symmetry};
use crate::table::generate::{build_each, BuildProgress, LIST_SEARCH_MAX_CELLS};
use crate::table::path_table;
use std::path::Path;
use std::time::{Duration, Instant};

/// Boards up to this many cells get a table for every goal by default.
pub const ALL_GOALS_MAX_CELLS: usize = 10;

/// Boards up to this many cells get path tables by default: the 3×3
/// board's take 1.45 MB each.
pub const DEFAULT_PATHS_MAX_CELLS: usize = 9;

/// Boards up to this many cells can have path tables (the list search
/// fills them): 2×5's take 14.5 MB each, and a 12-cell board's would take
/// 1.9 GB.
pub const PATHS_MAX_CELLS: usize = LIST_SEARCH_MAX_CELLS;

/// The goal blank cells whose tables answer every goal: one per class of
/// cells under the board's symmetries (3 for 3×3, 4 for 3×4, 3 for 2×6),
/// each the highest-numbered cell of its class, so the default goal's
/// corner (the last cell) is one of them.
pub fn all_goals(shape: Shape) -> Vec<usize> {
    // Each class lists its cells in increasing order.
    let mut blanks: Vec<usize> = symmetry::classes(shape)
        .iter()
        .filter_map(|class| class.last().copied())
        .collect();
    blanks.sort_unstable_by(|a, b| b.cmp(a));
    blanks
}

/// The tables built when none are asked for: every goal ([`all_goals`]) on
/// boards of up to [`ALL_GOALS_MAX_CELLS`] cells, where tables are small;
/// only the default goal's (blank in the last cell) beyond.
pub fn default_blanks(shape: Shape) -> Vec<usize> {
    if shape.cells() <= ALL_GOALS_MAX_CELLS {
        all_goals(shape)
    } else {
        vec![shape.cells() - 1]
    }
}

/// The goal blank cells asked for, each once, in the order first asked:
/// the order of the file's tables, the same from every face for the same
/// request.
pub fn distinct_blanks(asked: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut blanks: Vec<usize> = Vec::new();
    for cell in asked {
        if !blanks.contains(&cell) {
            blanks.push(cell);
        }
    }
    blanks
}

/// Why `build-db` builds no database for `shape` in `metric` when not told
/// a partition, or `None` where it builds one: complete tables up to 12
/// cells, else the board's default pattern partition (single-tile moves
/// only). Boards without one (6×6, 3×6 …) have no database; `solve
/// --within` needs none.
pub fn unbuildable(shape: Shape, metric: Metric) -> Option<String> {
    let max = crate::puzzle::shape::MAX_TABLE_CELLS;
    if shape.cells() <= max {
        return None;
    }
    match metric {
        Metric::SingleTile if Partition::default_for(shape).is_some() => None,
        Metric::SingleTile => {
            // The boards past complete tables that have a default: those
            // with complete tables (3x3 …) take a partition only if named.
            let past: Vec<String> = Partition::boards()
                .into_iter()
                .filter(|b| b.parse::<Shape>().is_ok_and(|s| s.cells() > max))
                .collect();
            Some(format!(
                "no database can be built for {shape} boards: complete tables stop at {max} \
                 cells, and it has no pattern database partition (boards past {max} cells \
                 with one: {})",
                past.join(", ")
            ))
        }
        Metric::MultiTile => Some(format!(
            "no multi-tile database can be built for {shape} boards: complete tables stop at \
             {max} cells, and pattern databases count single-tile moves"
        )),
    }
}

/// Whether `build-db` adds path tables ([`crate::table::path_table`]) when not
/// told: to single-tile tables of boards of up to [`DEFAULT_PATHS_MAX_CELLS`]
/// cells. Multi-tile tables have none: a path word holds single-tile
/// moves, and a solution cut after 32 of them could stop inside a slide.
pub fn default_paths(shape: Shape, metric: Metric) -> bool {
    metric == Metric::SingleTile && shape.cells() <= DEFAULT_PATHS_MAX_CELLS
}

/// What to build: complete tables or a pattern database, and toward which
/// goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// One complete table per goal blank cell, each with its path table
    /// when `paths` is set (single-tile tables of boards of up to
    /// [`PATHS_MAX_CELLS`] cells).
    Complete {
        /// The board (up to 12 cells).
        shape: Shape,
        /// The tables' goal blank cells, distinct, in file order.
        blanks: Vec<usize>,
        /// How the tables count moves.
        metric: Metric,
        /// Whether to add path tables.
        paths: bool,
    },
    /// One set of the partition's tables per goal blank cell, each toward
    /// the canonical goal with the blank there (tiles in order around it):
    /// [`all_goals`] gives one cell per class, which answers every goal.
    Patterns {
        /// The patterns, and with them the board.
        partition: Partition,
        /// The sets' goal blank cells, in distinct classes, in file order.
        goal_blanks: Vec<usize>,
    },
}

impl Plan {
    /// The board.
    pub fn shape(&self) -> Shape {
        match self {
            Plan::Complete { shape, .. } => *shape,
            Plan::Patterns { partition, .. } => partition.shape(),
        }
    }

    /// How the tables count moves (pattern tables: single tiles).
    pub fn metric(&self) -> Metric {
        match self {
            Plan::Complete { metric, .. } => *metric,
            Plan::Patterns { .. } => Metric::SingleTile,
        }
    }

    /// The goal blank cells, one per table or set, in file order.
    pub fn goal_blanks(&self) -> &[usize] {
        match self {
            Plan::Complete { blanks, .. } => blanks,
            Plan::Patterns { goal_blanks, .. } => goal_blanks,
        }
    }

    /// Entries over all tables the plan builds: what progress counts to.
    pub fn entries(&self) -> u64 {
        match self {
            Plan::Complete { shape, blanks, .. } => shape.table_positions() * blanks.len() as u64,
            Plan::Patterns {
                partition,
                goal_blanks,
            } => {
                let cells = partition.shape().cells();
                planned_tables(partition, goal_blanks)
                    .iter()
                    .filter(|t| t.same_as.is_none())
                    .map(|t| t.placements(cells))
                    .sum()
            }
        }
    }

    /// Tables the plan builds.
    pub fn tables(&self) -> usize {
        match self {
            Plan::Complete { blanks, .. } => blanks.len(),
            Plan::Patterns {
                partition,
                goal_blanks,
            } => planned_tables(partition, goal_blanks)
                .iter()
                .filter(|t| t.same_as.is_none())
                .count(),
        }
    }
}

/// One table of a pattern database, as planned.
struct PlannedTable {
    goal_blank: usize,
    tiles: Vec<u8>,
    /// The earlier table (its index in file order) whose search this one
    /// repeats: the same goal cells and goal blank region, so the same
    /// bytes, stored once.
    same_as: Option<usize>,
}

impl PlannedTable {
    /// Its entries on a board of `cells` cells: the placements of its tiles.
    fn placements(&self, cells: usize) -> u64 {
        let (cells, tiles) = (cells as u64, self.tiles.len() as u64);
        (cells - tiles + 1..=cells).product()
    }
}

/// A pattern database's tables in file order: each set's stored patterns
/// ([`Partition::stored_patterns`]). Sets whose goal blanks share a
/// pattern's region (the 4×4 corner, edge and centre sets of `7-8` all
/// have tiles 1–8 in the top half) repeat that pattern's table.
fn planned_tables(partition: &Partition, goal_blanks: &[usize]) -> Vec<PlannedTable> {
    let shape = partition.shape();
    let mut searches = Vec::new();
    let mut tables = Vec::new();
    for &goal_blank in goal_blanks {
        for tiles in partition.stored_patterns(goal_blank) {
            let search = table_search(shape, goal_blank, &tiles);
            let same_as = searches.iter().position(|s| *s == search);
            searches.push(search);
            tables.push(PlannedTable {
                goal_blank,
                tiles,
                same_as,
            });
        }
    }
    tables
}

/// What a finished build made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The goal blank cells, one per complete table or per set of pattern
    /// tables, in file order.
    pub goal_blanks: Vec<usize>,
    /// Entries over all tables stored: positions, or placements.
    pub entries: u64,
    /// Pattern tables that repeat an earlier set's table and are stored
    /// once, with it (counted in `max_distances`, not in `entries`).
    pub repeated: usize,
    /// Each table's largest distance, in file order.
    pub max_distances: Vec<u8>,
    /// Bytes written.
    pub bytes: u64,
    /// Time spent searching (the rest is writing).
    pub searching: Duration,
}

impl Built {
    /// The largest distance of any table.
    pub fn max_distance(&self) -> u8 {
        self.max_distances.iter().copied().max().unwrap_or(0)
    }
}

/// A database could not be built. Problems with the plan are found before
/// any table is searched.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Complete tables asked for a board past 12 cells.
    #[error("{0}")]
    Board(#[source] ShapeError),
    /// No goal blank cell to build tables for.
    #[error("no goal blank cell given: a database needs at least one table")]
    NoGoalBlanks,
    /// A goal blank cell the board does not have.
    #[error("the goal's blank cell {blank} is not on a board of {cells} cells")]
    GoalBlankOutside {
        /// The cell given.
        blank: usize,
        /// Cells of the board.
        cells: usize,
    },
    /// A goal blank cell given twice.
    #[error("goal blank cell {0} is given twice")]
    RepeatedGoalBlank(usize),
    /// Two sets of pattern tables whose goal blank cells a symmetry
    /// relates: the file would hold a set that is never read, and opening
    /// refuses that.
    #[error("goal blank cells {} and {} are in the same class (a reflection or rotation relates them); one set serves both", .0, .1)]
    GoalBlanksSameClass(usize, usize),
    /// Path tables asked for on a board too large for them.
    #[error(
        "path tables stop at {PATHS_MAX_CELLS} cells; a {shape} board's would take {:.1} GB per \
         table ({:.0} positions of 8 bytes). Its tables solve move by move.",
        shape.positions_approx() * 8.0 / 1e9,
        shape.positions_approx()
    )]
    PathsTooLarge {
        /// The board.
        shape: Shape,
    },
    /// Path tables asked for beside multi-tile tables.
    #[error(
        "path tables hold single-tile solutions; multi-tile tables have none (a solution cut \
         after 32 single-tile moves could stop inside a slide). Multi-tile tables solve move by \
         move."
    )]
    MultiTilePaths,
    /// A pattern table cannot be built.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// The file could not be written; the previous one, if any, is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The path holds a database of another board, or counting moves
    /// another way, which the build would replace.
    #[error("{}", replaces_another(path, *held, *building))]
    ReplacesAnother {
        /// The path written to.
        path: std::path::PathBuf,
        /// The board and metric of the database there.
        held: (Shape, Metric),
        /// Those of the database being built.
        building: (Shape, Metric),
    },
}

/// [`BuildError::ReplacesAnother`]'s message: the metrics are named where
/// they are what differs.
fn replaces_another(path: &Path, held: (Shape, Metric), building: (Shape, Metric)) -> String {
    let said = |(shape, metric): (Shape, Metric)| match held.1 == building.1 {
        true => format!("{shape}"),
        false => format!("{shape} ({} moves)", metric.words()),
    };
    format!(
        "{} holds a {} database, which this {} build would replace: remove it first, or choose \
         another name",
        crate::db::error::shown_path(path),
        said(held),
        said(building)
    )
}

/// Refuses to replace a database of another board or metric at `path`
/// (through a link too): a 3x3 build over `data/4x4.db` would lose the
/// 15-puzzle's tables. A file that does not open as a database is left to
/// the writer's own rules (a damaged or old database is replaced).
fn refuse_replacing_another(path: &Path, plan: &Plan) -> Result<(), BuildError> {
    let Ok(there) = crate::db::database::Database::open(path) else {
        return Ok(());
    };
    let (held, building) = (
        (there.shape(), there.metric()),
        (plan.shape(), plan.metric()),
    );
    match held == building {
        true => Ok(()),
        false => Err(BuildError::ReplacesAnother {
            path: path.to_path_buf(),
            held,
            building,
        }),
    }
}

/// Builds what `plan` says and writes it to `path`, replacing it
/// atomically. Each table is written to the file as soon as it is built
/// and then dropped, so memory holds one table (or one pattern table's
/// search: 3 bytes per placement, 1.5 GB for 7-8's 8-tile pattern) at a
/// time, and a smaller pattern table's search beside the larger table
/// before it while that is written; small boards' complete tables are
/// built side by side. `on_progress(i, progress)` hears each distance of
/// table `i`, counted in the order the tables are built: complete tables
/// in file order, pattern tables the largest first.
pub fn build(
    path: &Path,
    plan: &Plan,
    on_progress: &(dyn Fn(usize, BuildProgress) + Sync),
) -> Result<Built, BuildError> {
    check_plan(plan)?;
    refuse_replacing_another(path, plan)?;
    let mut built = Built {
        goal_blanks: plan.goal_blanks().to_vec(),
        entries: 0,
        repeated: 0,
        max_distances: Vec::new(),
        bytes: 0,
        searching: Duration::ZERO,
    };
    let writer = match plan {
        Plan::Complete {
            shape,
            blanks,
            metric,
            paths,
        } => build_complete(
            path,
            *shape,
            blanks,
            *metric,
            *paths,
            on_progress,
            &mut built,
        )?,
        Plan::Patterns {
            partition,
            goal_blanks,
        } => build_patterns(path, partition, goal_blanks, on_progress, &mut built)?,
    };
    let header = writer.header();
    for (t, repeat) in header.tables.iter().zip(header.repeats()) {
        if repeat.is_none() {
            built.entries += t.entries;
        }
        built.max_distances.push(t.max_distance);
    }
    built.bytes = writer.finish()?;
    Ok(built)
}

fn build_complete<'a>(
    path: &'a Path,
    shape: Shape,
    blanks: &[usize],
    metric: Metric,
    paths: bool,
    on_progress: &(dyn Fn(usize, BuildProgress) + Sync),
    built: &mut Built,
) -> Result<Writer<'a>, BuildError> {
    let started = Instant::now();
    let mut writer = Writer::create(path, shape, metric, None)?;
    let positions = shape.table_positions();
    let words = paths.then_some(positions * path_table::WORD_BYTES as u64);
    let sections = blanks.iter().flat_map(|_| [Some(positions), words]);
    writer.set_aside(sections.flatten())?;
    let mut writing = Duration::ZERO;
    build_each(shape, blanks, metric, paths, on_progress, |table| {
        let appending = Instant::now();
        writer.append_table(&table)?;
        writing += appending.elapsed();
        Ok::<(), WriteError>(())
    })?;
    built.searching = started.elapsed() - writing;
    Ok(writer)
}

fn build_patterns<'a>(
    path: &'a Path,
    partition: &Partition,
    goal_blanks: &[usize],
    on_progress: &(dyn Fn(usize, BuildProgress) + Sync),
    built: &mut Built,
) -> Result<Writer<'a>, BuildError> {
    let shape = partition.shape();
    let mut writer = Writer::create(path, shape, Metric::SingleTile, Some(partition))?;
    let plan = planned_tables(partition, goal_blanks);
    let mut searches = Vec::new();
    for table in &plan {
        let (blank, tiles) = (table.goal_blank, &table.tiles);
        if let Some(earlier) = table.same_as {
            writer.append_repeat(blank, tiles, earlier);
            built.repeated += 1;
            continue;
        }
        let entries = table.placements(shape.cells());
        searches.push((writer.reserve(blank, tiles, entries), entries));
    }
    writer.set_aside([])?;
    // The largest tables first, so that each smaller search hides the
    // writing of the table before it (a 7-8 build's 8-tile table takes
    // seconds to reach the disk). A search as large as the table being
    // written waits for it: a table is held beside smaller searches only.
    searches.sort_by_key(|&(_, entries)| std::cmp::Reverse(entries));
    let mut last = None;
    for (index, &(table, entries)) in searches.iter().enumerate() {
        if last == Some(entries) {
            writer.wait()?;
        }
        last = Some(entries);
        // The writer numbers tables as the plan does, one each.
        let (blank, tiles) = (plan[table].goal_blank, &plan[table].tiles);
        let started = Instant::now();
        let entries = build_pattern_table_toward(shape, blank, tiles, &|p| on_progress(index, p))?;
        built.searching += started.elapsed();
        let counts = pattern_counts(&entries);
        writer.fill(table, entries, &counts)?;
    }
    Ok(writer)
}

/// A pattern table's entries at each distance, 0 to its largest; entries
/// never reached ([`UNREACHED`]) are left out.
fn pattern_counts(entries: &[u8]) -> Vec<u64> {
    let mut histogram = [0u64; 256];
    for &e in entries {
        histogram[e as usize] += 1;
    }
    let max = (0..UNREACHED as usize)
        .rev()
        .find(|&e| histogram[e] > 0)
        .unwrap_or(0);
    histogram[..=max].to_vec()
}

/// Refuses, before any table is built, what a file could not hold: no goal
/// blank, one off the board or given twice, two sets of pattern tables in
/// the same class (the header check at open would refuse the file), and
/// complete tables or path tables on boards too large for them.
fn check_plan(plan: &Plan) -> Result<(), BuildError> {
    let shape = plan.shape();
    let blanks = plan.goal_blanks();
    if let Plan::Complete { paths, metric, .. } = plan {
        shape.check_complete_tables().map_err(BuildError::Board)?;
        if *paths && shape.cells() > PATHS_MAX_CELLS {
            return Err(BuildError::PathsTooLarge { shape });
        }
        if *paths && *metric != Metric::SingleTile {
            return Err(BuildError::MultiTilePaths);
        }
    }
    if blanks.is_empty() {
        return Err(BuildError::NoGoalBlanks);
    }
    for (i, &blank) in blanks.iter().enumerate() {
        if blank >= shape.cells() {
            let cells = shape.cells();
            return Err(BuildError::GoalBlankOutside { blank, cells });
        }
        if blanks[..i].contains(&blank) {
            return Err(BuildError::RepeatedGoalBlank(blank));
        }
        let same_class = |&&e: &&usize| Symmetry::mapping(shape, e, blank).is_some();
        if let (Plan::Patterns { .. }, Some(&earlier)) = (plan, blanks[..i].iter().find(same_class))
        {
            return Err(BuildError::GoalBlanksSameClass(earlier, blank));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_asked_twice_are_kept_once_in_the_order_first_asked() {
        assert_eq!(distinct_blanks([8, 0, 8, 4, 0]), [8, 0, 4]);
        assert_eq!(distinct_blanks([0, 8]), [0, 8]);
        assert!(distinct_blanks([]).is_empty());
    }

    #[test]
    fn every_goal_takes_one_table_per_class() {
        for (size, expected) in [
            ("2x2", vec![3]),
            ("3x3", vec![8, 7, 4]),
            ("3x4", vec![11, 10, 7, 6]),
            ("2x6", vec![11, 10, 9]),
            ("2x5", vec![9, 8, 7]),
        ] {
            let shape: Shape = size.parse().unwrap();
            assert_eq!(all_goals(shape), expected, "{size}");
        }
        assert_eq!(default_blanks("3x3".parse().unwrap()), vec![8, 7, 4]);
        assert_eq!(default_blanks("4x3".parse().unwrap()), vec![11]);
    }

    #[test]
    fn plans_a_file_cannot_hold_are_refused_before_any_work() {
        let shape = Shape::THREE_BY_THREE;
        let partition = Partition::named(shape, "4-4").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.db");
        let refused = |plan: Plan| {
            let started = Instant::now();
            let err = build(&path, &plan, &|_, _| {}).unwrap_err();
            assert!(!path.exists(), "{plan:?}");
            assert!(started.elapsed() < Duration::from_secs(1), "{plan:?}");
            err.to_string()
        };
        let patterns = |goal_blanks: &[usize]| Plan::Patterns {
            partition: partition.clone(),
            goal_blanks: goal_blanks.to_vec(),
        };
        let complete = |shape: Shape, blanks: &[usize], paths| Plan::Complete {
            shape,
            blanks: blanks.to_vec(),
            metric: Metric::SingleTile,
            paths,
        };
        let multi_tile_paths = Plan::Complete {
            shape,
            blanks: vec![8],
            metric: Metric::MultiTile,
            paths: true,
        };
        assert!(refused(multi_tile_paths).contains("multi-tile tables have none"));
        assert!(refused(patterns(&[])).contains("no goal blank cell"));
        assert!(refused(patterns(&[8, 9])).contains("cell 9 is not on a board of 9 cells"));
        // Corners 8 and 0 are one class; the check runs before set 0 is built.
        assert!(refused(patterns(&[8, 0])).contains("cells 8 and 0 are in the same class"));
        assert!(refused(complete(shape, &[8, 7, 8], true)).contains("cell 8 is given twice"));
        assert!(refused(complete(shape, &[], true)).contains("no goal blank cell"));
        let big = Shape::new(4, 4).unwrap();
        assert!(refused(complete(big, &[15], false)).contains("4x4"));
        let twelve = Shape::new(3, 4).unwrap();
        assert!(refused(complete(twelve, &[11], true)).contains("path tables stop at 10"));

        // Complete tables of cells in one class are allowed: each is read.
        build(&path, &complete(shape, &[8, 0], false), &|_, _| {}).unwrap();
        let built = build(&path, &patterns(&[8, 7, 4]), &|_, _| {}).unwrap();
        assert_eq!(built.goal_blanks, [8, 7, 4]);
        // The centre's two patterns are a half turn of each other: one table.
        assert_eq!(built.max_distances.len(), 5);
        // Tiles 1–4 fill the top four cells toward every one of these
        // blanks, whose region below them is the same: one table for the
        // three sets.
        assert_eq!(built.repeated, 2);
        assert_eq!(built.entries, 3 * 9 * 8 * 7 * 6);
        assert!(path.exists());
    }

    #[test]
    fn pattern_counts_leave_out_entries_never_reached() {
        assert_eq!(pattern_counts(&[0, 2, 2, UNREACHED, 1]), [1, 1, 2]);
        assert_eq!(pattern_counts(&[0, UNREACHED]), [1]);
    }
}
