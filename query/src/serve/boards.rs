//! Which databases the server answers from: the files given with `--db`,
//! or every database found in the command line's lookup order
//! (`$NPUZZLE_DB`, then `data/*.db` under the current folder, then the
//! per-user folder), the first file of each board size and metric winning
//! (`data/3x3.db` and `data/3x3-mtm.db` are both served).

use super::kind::Db;
use npuzzle::files::{shell_path, shown_path};
use npuzzle::{files::Location, files::Origin, Metric, Shape};
use std::path::{Path, PathBuf};

/// One database served.
pub struct Served {
    /// Its board size.
    pub shape: Shape,
    /// The opened file, of either kind.
    pub db: Db,
    /// Where it is (printed at start, never sent to a client).
    pub path: PathBuf,
}

impl Served {
    /// How its distances count moves.
    pub fn metric(&self) -> Metric {
        self.db.metric()
    }
}

/// Every database served, one per board size and metric, smallest first;
/// the board served with no file, if any; and the board the page starts on.
pub struct Boards {
    served: Vec<Served>,
    without_file: Option<Shape>,
    default: Shape,
}

impl Boards {
    /// Databases already opened, and `without_file`: a board no database
    /// can be built for, named by `--board`, answered only within a factor
    /// of the shortest (linear conflicts need no file). `default` is the
    /// page's first board: `without_file` where given, else the first
    /// served when `default` is not one of them.
    pub fn new(
        mut served: Vec<Served>,
        without_file: Option<Shape>,
        default: Option<Shape>,
    ) -> Boards {
        served.sort_by_key(|s| (s.shape.cells(), s.shape.rows(), s.metric().code()));
        let default = without_file
            .or(default.filter(|d| served.iter().any(|s| s.shape == *d)))
            .or_else(|| {
                let nine = served.iter().find(|s| s.shape == Shape::THREE_BY_THREE);
                nine.or(served.first()).map(|s| s.shape)
            })
            .unwrap_or(Shape::THREE_BY_THREE);
        Boards {
            served,
            without_file,
            default,
        }
    }

    /// The board served with no file, if any.
    pub fn without_file(&self) -> Option<Shape> {
        self.without_file
    }

    /// The database for `shape` boards counted in `metric`, if one is
    /// served.
    pub fn get(&self, shape: Shape, metric: Metric) -> Option<&Db> {
        self.served
            .iter()
            .find(|s| s.shape == shape && s.metric() == metric)
            .map(|s| &s.db)
    }

    /// Every database served.
    pub fn iter(&self) -> impl Iterator<Item = &Served> {
        self.served.iter()
    }

    /// The board the page starts on.
    pub fn default_shape(&self) -> Shape {
        self.default
    }
}

/// The databases to serve: `given` when any, else all found. `board`
/// (`--board`) is the page's first board, and must be among them, unless
/// no database can be built for it: then it is served with none.
pub fn discover(given: &[PathBuf], board: Option<Shape>) -> anyhow::Result<Boards> {
    let mut served: Vec<Served> = Vec::new();
    if !given.is_empty() {
        for path in given {
            let location = Location {
                path: path.clone(),
                origin: Origin::Given,
            };
            let db = crate::open_database(&location, Shape::THREE_BY_THREE, None, None)?;
            let same = |s: &&Served| s.shape == db.shape() && s.metric() == db.metric();
            if let Some(other) = served.iter().find(same) {
                // The same file (or a link to it) named twice.
                let file = |p: &Path| p.canonicalize().ok();
                if file(&other.path).is_some() && file(&other.path) == file(path) {
                    anyhow::bail!(
                        "--db {} is given twice (as {}): give each file once",
                        shown_path(path),
                        shown_path(&other.path)
                    );
                }
                anyhow::bail!(
                    "{} and {} both hold {} boards counted in {} moves: give one --db per board \
                     size and metric",
                    shown_path(&other.path),
                    shown_path(path),
                    db.shape(),
                    db.metric().words()
                );
            }
            served.push(Served {
                shape: db.shape(),
                db,
                path: path.clone(),
            });
        }
    } else {
        for location in npuzzle::files::locate_all()? {
            // Advice to rebuild a bad file names its board only where its
            // name says it (`data/4x4.db`), never a guess that would
            // overwrite it with another board's.
            let named = location
                .path
                .file_name()
                .and_then(|name| name.to_str().and_then(npuzzle::files::file_name_board));
            let unnamed = Location {
                origin: Origin::Given,
                ..location.clone()
            };
            let db = match named {
                Some((shape, metric)) => crate::open_database(&location, shape, None, Some(metric)),
                None => crate::open_database(&unnamed, Shape::THREE_BY_THREE, None, None),
            };
            let db = match db {
                Ok(db) => db,
                // One bad file in a folder should not hide the good ones.
                Err(e) if location.origin != Origin::Env => {
                    let said = format!("{e:#}");
                    npuzzle::eprintln_or_drop!(
                        "query: warning: skipping {}: {said}{}",
                        shown_path(&location.path),
                        crate::open::install_note(&said)
                    );
                    continue;
                }
                Err(e) => return Err(e),
            };
            if served
                .iter()
                .any(|s| s.shape == db.shape() && s.metric() == db.metric())
            {
                continue;
            }
            served.push(Served {
                shape: db.shape(),
                db,
                path: location.path,
            });
        }
    }
    // A board no database can be built for is served with none.
    let without_file = board.filter(|&shape| {
        !served.iter().any(|s| s.shape == shape)
            && npuzzle::tables::unbuildable(shape, Metric::SingleTile).is_some()
    });
    if without_file.is_none() {
        check_served(&served, board, !given.is_empty())?;
    }
    Ok(Boards::new(served, without_file, board))
}

/// Refuses to serve nothing, or a `--board` with no database among those
/// found, with the command that builds one, or, where `--db` named the
/// files (`given_db`) and the board's own file is there, with that file
/// to add (a board none can be built for is served without one, and never
/// comes here).
fn check_served(served: &[Served], board: Option<Shape>, given_db: bool) -> anyhow::Result<()> {
    let advice = |shape: Shape| {
        format!(
            "build one with: {}",
            crate::build_command(
                &npuzzle::files::default_output(shape, Metric::SingleTile).path,
                shape,
                Metric::SingleTile
            )
        )
    };
    if served.is_empty() {
        anyhow::bail!(
            "no database found (looked for data/*.db under the current folder{}); {}",
            npuzzle::files::user_data_dir()
                .map(|d| format!(" and *.db in {}", shown_path(&d)))
                .unwrap_or_default(),
            advice(board.unwrap_or(Shape::THREE_BY_THREE))
        );
    }
    match board {
        Some(shape) if !served.iter().any(|s| s.shape == shape) => {
            let own = npuzzle::files::locate_unnamed(shape, Metric::SingleTile).path;
            match given_db && own.is_file() {
                true => anyhow::bail!(
                    "no {shape} database is served (--board): --db names every file served; \
                     add --db {}",
                    shell_path(&own)
                ),
                false => {
                    anyhow::bail!("no {shape} database is served (--board); {}", advice(shape))
                }
            }
        }
        _ => Ok(()),
    }
}
