//! Where a database is: the one place that decides it, for the command line,
//! the Python package and the server alike.
//!
//! A database is looked for, in order: at the path given (`--db`), at
//! `$NPUZZLE_DB`, at `data/RxC.db` (`data/RxC-mtm.db` for multi-tile
//! tables) under the current folder, then in the per-user data folder (`$XDG_DATA_HOME/npuzzle` on Linux, or the
//! platform's equivalent). The first two are taken as given, whether or not
//! a file is there; the last two only where the file exists.

use crate::puzzle::metric::Metric;
use crate::puzzle::shape::Shape;
use std::path::{Path, PathBuf};

/// The environment variable that names a database file.
pub const DB_ENV: &str = "NPUZZLE_DB";

/// Where a database path came from, for messages that say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Given explicitly (`--db`, or a path passed to the library).
    Given,
    /// From [`DB_ENV`].
    Env,
    /// `data/RxC.db` under the current folder.
    WorkingDir,
    /// The per-user data folder.
    UserData,
}

impl Origin {
    /// `" (from NPUZZLE_DB)"` when the variable chose the file (the user may
    /// not know it is set), else nothing: what every face adds to the path
    /// in an error about the file.
    pub fn note(self) -> &'static str {
        match self {
            Origin::Env => " (from NPUZZLE_DB)",
            Origin::Given | Origin::WorkingDir | Origin::UserData => "",
        }
    }

    /// What every face advises about a file from here that does not begin
    /// as a database (another program's, or one cut short before its
    /// preamble ends): a path chosen by hand or by [`DB_ENV`] may be the
    /// wrong one, and a file at a default place is in the way of the
    /// database to build there. `given` is how the face names a path passed to it
    /// (`--db`, `path=`), `build` its command that builds the board's
    /// database.
    pub fn foreign_file_advice(self, given: &str, build: &str) -> String {
        match self {
            Origin::Given => format!("is {given} pointing at the right file?"),
            Origin::Env => format!("is {DB_ENV} pointing at the right file?"),
            Origin::WorkingDir | Origin::UserData => format!(
                "it lies where the board's database is looked for, and npuzzle cannot read it as \
                 one: move it away, then build the database with: {build}"
            ),
        }
    }
}

/// A database path and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file.
    pub path: PathBuf,
    /// How it was chosen.
    pub origin: Origin,
}

/// The file name of a board's default database: `RxC.db`, or `RxC-mtm.db`
/// for multi-tile tables, so that both live side by side.
pub fn file_name(shape: Shape, metric: Metric) -> String {
    match metric {
        Metric::SingleTile => format!("{shape}.db"),
        Metric::MultiTile => format!("{shape}-{metric}.db"),
    }
}

/// The per-user data folder (`$XDG_DATA_HOME/npuzzle`, else
/// `~/.local/share/npuzzle` on Linux; the platform's equivalent elsewhere),
/// or `None` where the system has no home folder.
pub fn user_data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "npuzzle").map(|dirs| dirs.data_dir().to_path_buf())
}

/// Where the database for `shape` boards counted in `metric` is, by the
/// order above. When no file exists anywhere, it is where
/// [`default_output`] would build it, so that the caller can say how to
/// make it.
pub fn locate(shape: Shape, metric: Metric, given: Option<&Path>) -> Location {
    if let Some(path) = given {
        return Location {
            path: path.to_path_buf(),
            origin: Origin::Given,
        };
    }
    match env_db() {
        Some(path) => Location {
            path,
            origin: Origin::Env,
        },
        None => locate_unnamed(shape, metric),
    }
}

/// The file [`DB_ENV`] names, where it is set and not empty: the file
/// every lookup without `--db` (or `path=`) opens, whatever the board.
pub fn env_db() -> Option<PathBuf> {
    std::env::var_os(DB_ENV)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

/// Where the database for `shape` boards is when neither a path nor
/// [`DB_ENV`] names one: the last two places of the order above, else where
/// [`default_output`] would build it. Advice to drop `--db` or unset
/// `NPUZZLE_DB` names it.
pub fn locate_unnamed(shape: Shape, metric: Metric) -> Location {
    let local = working_dir_path(shape, metric);
    if local.is_file() {
        return Location {
            path: local,
            origin: Origin::WorkingDir,
        };
    }
    if let Some(dir) = user_data_dir() {
        let path = dir.join(file_name(shape, metric));
        if path.is_file() {
            return Location {
                path,
                origin: Origin::UserData,
            };
        }
    }
    default_output(shape, metric)
}

/// Where `build-db` writes a `shape` database when not told: `data/RxC.db`
/// inside a checkout of npuzzle (or any folder that already has `data/`),
/// else the per-user data folder.
pub fn default_output(shape: Shape, metric: Metric) -> Location {
    let in_checkout = Path::new("data").is_dir() || Path::new("build-db/Cargo.toml").is_file();
    match user_data_dir() {
        Some(dir) if !in_checkout => Location {
            path: dir.join(file_name(shape, metric)),
            origin: Origin::UserData,
        },
        _ => Location {
            path: working_dir_path(shape, metric),
            origin: Origin::WorkingDir,
        },
    }
}

/// The per-user location of a `shape` database, whether or not it exists.
pub fn user_data_path(shape: Shape, metric: Metric) -> Option<PathBuf> {
    Some(user_data_dir()?.join(file_name(shape, metric)))
}

fn working_dir_path(shape: Shape, metric: Metric) -> PathBuf {
    Path::new("data").join(file_name(shape, metric))
}

/// The board and metric a default file name says ([`file_name`]'s inverse):
/// `3x3.db` or `3x3-mtm.db`; `None` for any other name.
pub fn file_name_board(name: &str) -> Option<(Shape, Metric)> {
    let stem = name.strip_suffix(".db")?;
    match stem.rsplit_once('-') {
        Some((board, metric)) => Some((board.parse().ok()?, metric.parse().ok()?)),
        None => Some((stem.parse().ok()?, Metric::SingleTile)),
    }
}

/// A folder [`locate_all`] could not list.
#[derive(Debug, thiserror::Error)]
#[error("cannot list {}: {source}", super::error::shown_path(dir))]
pub struct ListError {
    /// The folder.
    pub dir: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

/// Every database file where [`locate`] looks, in its order:
/// `$NPUZZLE_DB`, then the files named for their board (`4x4.db`,
/// `4x4-mtm.db`) in `data/` under the current folder and in the per-user
/// folder, which every command opens for that board, then the other
/// `*.db` files of those folders (`4x4-663.db`), each folder's by name.
/// So where two files hold one board, the one the commands use comes
/// first. What a server offering every board it finds opens.
pub fn locate_all() -> Result<Vec<Location>, ListError> {
    let mut found = Vec::new();
    if let Some(path) = env_db() {
        found.push(Location {
            path,
            origin: Origin::Env,
        });
    }
    let mut folders = vec![db_files(Path::new("data"), Origin::WorkingDir)?];
    if let Some(dir) = user_data_dir() {
        folders.push(db_files(&dir, Origin::UserData)?);
    }
    let (own, others): (Vec<Location>, Vec<Location>) = folders
        .into_iter()
        .flatten()
        .partition(|l| own_name(&l.path));
    found.extend(own);
    found.extend(others);
    Ok(found)
}

/// Whether `path`'s name is the one [`file_name`] gives its board and
/// metric (`4x4.db`, not `4x4-stm.db` or `4X4.db`).
fn own_name(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str());
    name.and_then(file_name_board)
        .is_some_and(|(shape, metric)| name == Some(file_name(shape, metric).as_str()))
}

/// The `*.db` files in `dir` (none when it does not exist), by name.
fn db_files(dir: &Path, origin: Origin) -> Result<Vec<Location>, ListError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ListError {
                dir: dir.to_path_buf(),
                source,
            })
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "db") && p.is_file())
        .collect();
    paths.sort();
    Ok(paths
        .into_iter()
        .map(|path| Location { path, origin })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_file_name_gives_back_its_board_and_metric() {
        for rows in 2..=6 {
            for cols in 2..=6 {
                let shape = Shape::new(rows, cols).unwrap();
                for metric in [Metric::SingleTile, Metric::MultiTile] {
                    let name = file_name(shape, metric);
                    assert_eq!(file_name_board(&name), Some((shape, metric)), "{name}");
                }
            }
        }
        for other in [
            "3x3",
            "notes.db",
            "3x3-xyz.db",
            "9x9.db",
            "3x3.db.tmp",
            "-mtm.db",
        ] {
            assert_eq!(file_name_board(other), None, "{other}");
        }
    }

    #[test]
    fn files_named_for_their_board_are_told_apart() {
        for (name, own) in [
            ("4x4.db", true),
            ("3x3-mtm.db", true),
            ("4x4-663-all.db", false),
            ("4x4-stm.db", false),
            ("4X4.db", false),
            ("a.db", false),
        ] {
            assert_eq!(
                own_name(Path::new("data").join(name).as_path()),
                own,
                "{name}"
            );
        }
    }
}
