//! Charts of what a database knows: how many positions lie at each distance
//! from the goal ([`histogram`]), how close heuristics come to the true
//! distance ([`heuristics`]), and how the textbook searches' work grows with
//! the distance ([`search_costs`]).
//!
//! A chart is an SVG or a PNG, chosen by the file's extension. Text is drawn
//! with DejaVu Sans, embedded in the binary: plotters' `ab_glyph` feature
//! rasterises it in pure Rust, so a PNG gets legible labels on a machine with
//! no fonts installed (plotters' default `ttf` feature would look for system
//! fonts, and is off on purpose). An SVG names the family `sans-serif` and
//! lets the viewer pick the glyphs.
//!
//! Like the database, a chart is written atomically: into a temporary file
//! in the target's folder, flushed, then renamed over it, so an old chart is
//! never replaced by half of a new one. It carries npuzzle's mark (an SVG's
//! first line, a PNG's `Software` text), and replaces only a file that does.
//!
//! ```ignore
//! use std::path::Path;
//! use crate::plot::{histogram, ChartFile, Series};
//! use npuzzle::Metric;
//!
//! // Started before the work, so a path that cannot take a chart costs nothing.
//! let file = ChartFile::start(Path::new("histogram.png"))?;
//! let counts = [1u64, 2, 4, 8, 16, 20, 39, 62];
//! let series = [Series::from_counts("blank at row 3, column 3", &counts)];
//! histogram(file, "8-puzzle", Metric::SingleTile, &series, true)?;
//! # Ok::<(), crate::plot::PlotError>(())
//! ```

mod axis;
mod draw;
mod font;

use draw::draw;
use font::{register_font, ExactText};
use npuzzle::io::{Replacement, Writes, PNG_MARK, SVG_MARK};
use npuzzle::Metric;
use npuzzle::{files::shown_path, files::ReplaceError, rules::excerpt};
use plotters::prelude::*;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// Width and height of every chart, in pixels (PNG) or user units (SVG):
/// wide enough for the 32 bars of the 8-puzzle with room for their labels.
pub const SIZE: (u32, u32) = (1000, 600);

/// One named curve (or set of bars): `values[d]` belongs to distance `d`.
///
/// A value that is not finite (a mean over no positions is `NaN`) is not
/// drawn, and neither is a count of zero on a logarithmic axis; a line is
/// broken there rather than drawn through a made-up point.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Shown in the legend when a chart has several series.
    pub label: String,
    /// One value per distance, from distance 0.
    pub values: Vec<f64>,
}

impl Series {
    /// A series from values indexed by distance.
    pub fn new(label: impl Into<String>, values: Vec<f64>) -> Self {
        Series {
            label: label.into(),
            values,
        }
    }

    /// A series from position counts, as a database header stores them.
    /// Counts up to 2^53 convert exactly, far beyond any supported board.
    pub fn from_counts(label: impl Into<String>, counts: &[u64]) -> Self {
        Series::new(label, counts.iter().map(|&c| c as f64).collect())
    }
}
/// The file formats a chart can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics, text kept as text.
    Svg,
    /// A `SIZE` bitmap with the text rasterised from the embedded font.
    Png,
}

impl Format {
    /// The extensions accepted, in the words error messages use.
    pub const ACCEPTED: &'static str = ".svg or .png";

    /// The format a path's extension asks for, in any letter case.
    pub fn from_path(path: &Path) -> Result<Format, PlotError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        // `.svg` alone is a name with no extension, to the file system.
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase());
        if let Some(extension @ ("svg" | "png")) = name.as_deref().and_then(|n| n.strip_prefix('.'))
        {
            return Err(PlotError::NoName {
                path: path.to_path_buf(),
                extension: extension.to_string(),
            });
        }
        match extension.to_ascii_lowercase().as_str() {
            "svg" => Ok(Format::Svg),
            "png" => Ok(Format::Png),
            _ => Err(PlotError::UnsupportedExtension {
                path: path.to_path_buf(),
                extension,
            }),
        }
    }

    /// The extension of a file in this format, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
}

/// A chart could not be drawn or written. Any previous file at the path is
/// left as it was.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The path's extension names no format this module writes.
    #[error(
        "cannot write the chart {}: {}; use {}",
        shown_path(path),
        describe_extension(extension),
        Format::ACCEPTED
    )]
    UnsupportedExtension {
        /// The chart asked for.
        path: PathBuf,
        /// Its extension as given (empty when it has none).
        extension: String,
    },
    /// A name that is only the extension (`.svg`).
    #[error(
        "cannot write the chart {}: give a name before .{extension}, as chart.{extension}",
        shown_path(path)
    )]
    NoName {
        /// The chart asked for.
        path: PathBuf,
        /// The extension it names.
        extension: String,
    },
    /// There is nothing to draw.
    #[error("cannot draw the chart {}: {reason}", shown_path(path))]
    NoData {
        /// The chart asked for.
        path: PathBuf,
        /// What is missing.
        reason: &'static str,
    },
    /// The drawing library failed; its message says why.
    #[error("cannot draw the chart {}: {message}", shown_path(path))]
    Draw {
        /// The chart asked for.
        path: PathBuf,
        /// What plotters (or the PNG encoder beneath it) said.
        message: String,
    },
    /// The file could not be written or put in place.
    #[error("cannot write the chart {}", shown_path(path))]
    Write {
        /// The chart asked for.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: ReplaceError,
    },
}

fn describe_extension(extension: &str) -> String {
    if extension.is_empty() {
        "it has no extension to tell the format".to_string()
    } else {
        format!("unsupported extension \".{}\"", excerpt(extension, 20))
    }
}

/// Draws how many positions lie at each distance from the goal: x is the
/// distance in moves of `metric`, y the number of positions (`log` puts y on a
/// logarithmic scale, where the few positions near the goal and at the far
/// end stay visible beside the tens of thousands in the middle).
///
/// One series is drawn as bars. Several series (one per goal blank cell, as
/// `query histogram --all-blanks` gives) are drawn as lines with markers, one
/// colour each, named in a legend, so their shapes can be compared.
///
/// The format is the one `file` was started for; the file is replaced
/// atomically.
pub fn histogram(
    file: ChartFile,
    title: &str,
    metric: Metric,
    series: &[Series],
    log: bool,
) -> Result<(), PlotError> {
    let chart = Chart::Histogram {
        title,
        metric,
        series,
        log,
    };
    file.draw(&chart)
}

/// Draws the mean value of each heuristic against the true distance `h*`,
/// for `h*` from 0 to `max_distance`: one line per series, where
/// `values[d]` is the heuristic's mean over the positions at distance `d`.
/// The diagonal `h = h*`, which no admissible heuristic crosses, is drawn
/// dashed in grey as the reference, labelled "true distance"; the gap below
/// it is what each heuristic leaves to search.
///
/// The format is the one `file` was started for; the file is replaced
/// atomically.
pub fn heuristics(
    file: ChartFile,
    title: &str,
    series: &[Series],
    max_distance: usize,
) -> Result<(), PlotError> {
    let chart = Chart::Heuristics {
        title,
        series,
        max_distance,
    };
    file.draw(&chart)
}

/// A chart's file, started before the work it will draw, so that a path
/// that cannot take a chart is refused before any work: its format is
/// known, and a temporary file waits beside it (removed if the chart is
/// never drawn).
pub struct ChartFile {
    path: PathBuf,
    format: Format,
    temp: Replacement,
}

impl ChartFile {
    /// Checks `path`'s format and that a chart may be written there.
    pub fn start(path: &Path) -> Result<ChartFile, PlotError> {
        let format = Format::from_path(path)?;
        let temp = Replacement::start(path, &format!(".{}", format.extension()), Writes::Document)
            .map_err(|source| PlotError::Write {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(ChartFile {
            path: path.to_path_buf(),
            format,
            temp,
        })
    }

    /// Draws `chart` into the temporary file, flushes it and renames it over
    /// the path.
    fn draw(self, chart: &Chart) -> Result<(), PlotError> {
        let path = &self.path;
        if let Some(reason) = chart.missing() {
            return Err(PlotError::NoData {
                path: path.to_path_buf(),
                reason,
            });
        }
        let draw_err = |message: String| PlotError::Draw {
            path: path.to_path_buf(),
            message,
        };
        register_font().map_err(|m| draw_err(m.to_string()))?;
        let io_err = |io: std::io::Error| PlotError::Write {
            path: path.to_path_buf(),
            source: io.into(),
        };
        match self.format {
            Format::Svg => {
                let mut svg = String::new();
                {
                    let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
                    draw(&root, chart)
                        .and_then(|()| root.present())
                        .map_err(|e| draw_err(e.to_string()))?;
                }
                let marked = format!("{SVG_MARK}\n{svg}");
                self.temp
                    .file()
                    .write_all(marked.as_bytes())
                    .map_err(io_err)?;
            }
            Format::Png => {
                // Drawn into memory and encoded here, so that a failed write
                // is reported as the I/O error it is.
                let mut pixels = vec![0; SIZE.0 as usize * SIZE.1 as usize * 3];
                {
                    let root = ExactText(BitMapBackend::with_buffer(&mut pixels, SIZE))
                        .into_drawing_area();
                    draw(&root, chart)
                        .and_then(|()| root.present())
                        .map_err(|e| draw_err(e.to_string()))?;
                }
                write_png(self.temp.file(), &pixels).map_err(io_err)?;
            }
        }
        self.temp.commit().map_err(io_err)
    }
}

/// Draws the positions each search expanded, on average, at each distance of
/// `distances` (`values[d]` for distance `d`): one line per series, on a
/// logarithmic axis, where a search that multiplies its work by the same
/// factor with each move draws a straight line. `max_nodes`, the expansions
/// after which every search stops, is drawn dashed in grey: a line that runs
/// along it is held down by the limit, not by its search.
///
/// The format is the one `file` was started for; the file is replaced
/// atomically.
pub fn search_costs(
    file: ChartFile,
    title: &str,
    series: &[Series],
    distances: RangeInclusive<u32>,
    max_nodes: u64,
) -> Result<(), PlotError> {
    let chart = Chart::SearchCosts {
        title,
        series,
        distances,
        max_nodes,
    };
    file.draw(&chart)
}

/// What to draw, so one generic function can draw it on either backend.
enum Chart<'a> {
    Histogram {
        title: &'a str,
        metric: Metric,
        series: &'a [Series],
        log: bool,
    },
    Heuristics {
        title: &'a str,
        series: &'a [Series],
        max_distance: usize,
    },
    SearchCosts {
        title: &'a str,
        series: &'a [Series],
        distances: RangeInclusive<u32>,
        max_nodes: u64,
    },
}

impl Chart<'_> {
    /// Why this chart cannot be drawn, if it cannot.
    fn missing(&self) -> Option<&'static str> {
        let series = match self {
            Chart::Histogram { series, .. }
            | Chart::Heuristics { series, .. }
            | Chart::SearchCosts { series, .. } => series,
        };
        if series.is_empty() {
            Some("no series given")
        } else if series.iter().all(|s| s.values.is_empty()) {
            Some("every series is empty")
        } else {
            None
        }
    }
}

/// Encodes `pixels`, RGB rows of the chart's size, as a PNG.
fn write_png(file: &std::fs::File, pixels: &[u8]) -> std::io::Result<()> {
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    // Right after the header, where a later chart looks for it.
    let (keyword, text) = PNG_MARK;
    encoder
        .add_text_chunk(keyword.to_string(), text.to_string())
        .map_err(std::io::Error::other)?;
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_are_matched_in_any_case() {
        assert_eq!(Format::from_path(Path::new("a.SVG")).unwrap(), Format::Svg);
        assert_eq!(
            Format::from_path(Path::new("x/a.Png")).unwrap(),
            Format::Png
        );
        assert!(Format::from_path(Path::new("a")).is_err());
        // An extension alone is told to take a name.
        let err = Format::from_path(Path::new("x/.Png"))
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with(": give a name before .png, as chart.png"),
            "{err}"
        );
    }
}

#[cfg(test)]
mod read_back;
