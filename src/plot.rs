//! Charts of what a database knows: how many positions lie at each distance
//! from the goal ([`histogram`]), and how close heuristics come to the true
//! distance ([`heuristics`]).
//!
//! A chart is an SVG or a PNG, chosen by the file's extension. Text is drawn
//! with DejaVu Sans, embedded in the library: plotters' `ab_glyph` feature
//! rasterises it in pure Rust, so a PNG gets legible labels on a machine with
//! no fonts installed (plotters' default `ttf` feature would look for system
//! fonts, and is off on purpose). An SVG names the family `sans-serif` and
//! lets the viewer pick the glyphs.
//!
//! Like the database, a chart is written atomically: into a temporary file
//! in the target's folder, flushed, then renamed over it, so an old chart is
//! never replaced by half of a new one.
//!
//! ```no_run
//! use std::path::Path;
//! use npuzzle::plot::{histogram, Series};
//!
//! let counts = [1u64, 2, 4, 8, 16, 20, 39, 62];
//! let series = [Series::from_counts("blank at row 3, column 3", &counts)];
//! histogram(Path::new("histogram.png"), "8-puzzle", &series, true)?;
//! # Ok::<(), npuzzle::plot::PlotError>(())
//! ```

use crate::replace::{ReplaceError, Replacement};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::{RangedCoordf64, RangedCoordi32};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};

/// Width and height of every chart, in pixels (PNG) or user units (SVG):
/// wide enough for the 32 bars of the 8-puzzle with room for their labels.
pub const SIZE: (u32, u32) = (1000, 600);

/// The family name every text style asks for. Registering the embedded font
/// under plotters' own default name covers the labels plotters styles by
/// itself (tick labels, legend), and SVG viewers know it as a generic family.
const FONT_FAMILY: &str = "sans-serif";

/// DejaVu Sans (see `assets/DejaVuSans-LICENSE.txt`), embedded so that PNG
/// text needs nothing from the system.
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// Tableau 10: ten hues that stay distinct from each other on white, enough
/// for one series per table of every file but 12-cell ones built with
/// `--every-blank`, whose last two tables take the first two hues again.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Grey of the `h = h*` reference line, lighter than any palette colour so
/// the heuristics stand out against it.
const REFERENCE: RGBColor = RGBColor(150, 150, 150);

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

    /// The format a path's extension asks for, in any letter case. Callers
    /// can check this before a long computation whose result is to be drawn.
    pub fn from_path(path: &Path) -> Result<Format, PlotError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
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
        path.display(),
        describe_extension(extension),
        Format::ACCEPTED
    )]
    UnsupportedExtension {
        /// The chart asked for.
        path: PathBuf,
        /// Its extension as given (empty when it has none).
        extension: String,
    },
    /// There is nothing to draw.
    #[error("cannot draw the chart {}: {reason}", path.display())]
    NoData {
        /// The chart asked for.
        path: PathBuf,
        /// What is missing.
        reason: &'static str,
    },
    /// The drawing library failed; its message says why.
    #[error("cannot draw the chart {}: {message}", path.display())]
    Draw {
        /// The chart asked for.
        path: PathBuf,
        /// What plotters (or the PNG encoder beneath it) said.
        message: String,
    },
    /// The folder to write into is missing.
    #[error("cannot write the chart {}: the folder {} does not exist", path.display(), dir.display())]
    NoFolder {
        /// The chart asked for.
        path: PathBuf,
        /// Its folder.
        dir: PathBuf,
    },
    /// The system refused a step of the write.
    #[error("cannot write the chart {}: {io}", path.display())]
    Io {
        /// The chart asked for.
        path: PathBuf,
        /// What the system said.
        io: std::io::Error,
    },
}

fn describe_extension(extension: &str) -> String {
    if extension.is_empty() {
        "it has no extension to tell the format".to_string()
    } else {
        format!("unsupported extension \".{extension}\"")
    }
}

/// Draws how many positions lie at each distance from the goal: x is the
/// distance in moves, y the number of positions (`log` puts y on a
/// logarithmic scale, where the few positions near the goal and at the far
/// end stay visible beside the tens of thousands in the middle).
///
/// One series is drawn as bars. Several series (one per goal blank cell, as
/// `query histogram --all-blanks` gives) are drawn as lines with markers, one
/// colour each, named in a legend, so their shapes can be compared.
///
/// The format follows the extension of `path` (see [`Format::from_path`]);
/// the file is replaced atomically.
pub fn histogram(path: &Path, title: &str, series: &[Series], log: bool) -> Result<(), PlotError> {
    let chart = Chart::Histogram { title, series, log };
    render(path, &chart)
}

/// Draws the mean value of each heuristic against the true distance `h*`,
/// for `h*` from 0 to `max_distance`: one line per series, where
/// `values[d]` is the heuristic's mean over the positions at distance `d`.
/// The diagonal `h = h*`, which no admissible heuristic crosses, is drawn
/// dashed in grey as the reference, labelled "true distance"; the gap below
/// it is what each heuristic leaves to search.
///
/// The format follows the extension of `path` (see [`Format::from_path`]);
/// the file is replaced atomically.
pub fn heuristics(
    path: &Path,
    title: &str,
    series: &[Series],
    max_distance: usize,
) -> Result<(), PlotError> {
    let chart = Chart::Heuristics {
        title,
        series,
        max_distance,
    };
    render(path, &chart)
}

/// What to draw, so one generic function can draw it on either backend.
enum Chart<'a> {
    Histogram {
        title: &'a str,
        series: &'a [Series],
        log: bool,
    },
    Heuristics {
        title: &'a str,
        series: &'a [Series],
        max_distance: usize,
    },
}

impl Chart<'_> {
    /// Why this chart cannot be drawn, if it cannot.
    fn missing(&self) -> Option<&'static str> {
        let series = match self {
            Chart::Histogram { series, .. } | Chart::Heuristics { series, .. } => series,
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

/// Registers the embedded font with plotters, once per process. plotters
/// keeps registered fonts in a global table, so every later chart, on any
/// thread, finds it.
fn register_font() -> Result<(), &'static str> {
    static REGISTERED: OnceLock<Result<(), &'static str>> = OnceLock::new();
    *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT)
            .map_err(|_| "the embedded font DejaVuSans.ttf could not be read")
    })
}

/// Checks everything that can be checked, draws into a temporary file beside
/// `path`, flushes it and renames it over `path`.
fn render(path: &Path, chart: &Chart) -> Result<(), PlotError> {
    let format = Format::from_path(path)?;
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

    let replace_err = |e| match e {
        ReplaceError::NoFolder(dir) => PlotError::NoFolder {
            path: path.to_path_buf(),
            dir,
        },
        ReplaceError::Io(io) => PlotError::Io {
            path: path.to_path_buf(),
            io,
        },
    };
    let io_err = |io: io::Error| replace_err(io.into());
    // The PNG encoder picks its format from the file name, so the temporary
    // file carries the real extension.
    let temp =
        Replacement::start(path, &format!(".{}", format.extension())).map_err(replace_err)?;

    match format {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
                draw(&root, chart)
                    .and_then(|()| root.present())
                    .map_err(|e| draw_err(e.to_string()))?;
            }
            temp.file().write_all(svg.as_bytes()).map_err(io_err)?;
        }
        Format::Png => {
            // The bitmap backend writes the file itself, by name, when the
            // drawing is presented.
            let root = ExactText(BitMapBackend::new(temp.path(), SIZE)).into_drawing_area();
            draw(&root, chart)
                .and_then(|()| root.present())
                .map_err(|e| draw_err(e.to_string()))?;
        }
    }
    temp.commit().map_err(io_err)
}

/// A bitmap backend that places each glyph where its font says.
///
/// plotters 0.3.7 rasterises text through `ab_glyph` but drops every
/// glyph's left side bearing and rounds the pen down to whole pixels, so a
/// space before a glyph with a wide bearing ("row 1") all but vanishes and
/// letters touch ("column"); it also puts the baseline at half the font
/// size, which lets capitals rise above the text's box. This backend draws
/// text itself with the same embedded font: each glyph at its exact pen
/// position (advances and kerning), outlined at that sub-pixel offset with
/// its bearing, on a baseline that splits plotters' box as the font splits
/// ascent and descent. The box itself, which the chart's layout was
/// computed from, is plotters' own. Everything else goes straight to the
/// bitmap backend.
struct ExactText<'a>(BitMapBackend<'a>);

type BitmapError = DrawingErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

impl DrawingBackend for ExactText<'_> {
    type ErrorType = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), BitmapError> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), BitmapError> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), BitmapError> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), BitmapError> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), BitmapError> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), BitmapError> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), BitmapError> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: plotters_backend::BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), BitmapError> {
        self.0.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), BitmapError> {
        self.0.blit_bitmap(pos, size, src)
    }

    /// plotters' own `draw_text`, with each glyph at its exact pen position
    /// plus its bearing, and the baseline placed by the font's ascent.
    fn draw_text<T: plotters_backend::BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), BitmapError> {
        use ab_glyph::{Font, ScaleFont};
        use plotters_backend::text_anchor::{HPos, VPos};

        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        static PARSED: OnceLock<ab_glyph::FontRef<'static>> = OnceLock::new();
        let font = PARSED.get_or_init(|| {
            ab_glyph::FontRef::try_from_slice(FONT).expect("checked at registration")
        });
        let size = style.size() as f32;
        let font = font.as_scaled(size);
        // Anchor with plotters' own box, which the chart's layout assumed.
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (width, height) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -width,
            HPos::Center => -width / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -height / 2,
            VPos::Bottom => -height,
        };
        // The baseline splits the box as the font splits ascent and descent.
        let baseline = height as f32 * font.ascent() / (font.ascent() - font.descent());
        let transform = style.transform();
        let (w, h) = self.get_size();
        let mut pen = 0f32;
        let mut previous = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = previous {
                pen += font.kern(p, id);
            }
            previous = Some(id);
            let glyph = id.with_scale_and_position(font.scale(), ab_glyph::point(pen, baseline));
            pen += font.h_advance(id);
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let mut pixels = Vec::new();
            outline.draw(|x, y, coverage| pixels.push((x, y, coverage)));
            for (x, y, coverage) in pixels {
                let x = bounds.min.x as i32 + x as i32;
                let y = bounds.min.y as i32 + y as i32;
                let (x, y) = transform.transform(x + dx - min_x, y + dy - min_y);
                let (x, y) = (pos.0 + x, pos.1 + y);
                if x >= 0 && x < w as i32 && y >= 0 && y < h as i32 && coverage > 0.0 {
                    let alpha = color.alpha * f64::from(coverage.min(1.0));
                    self.draw_pixel(
                        (x, y),
                        BackendColor {
                            alpha,
                            rgb: color.rgb,
                        },
                    )?;
                }
            }
        }
        Ok(())
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    match *chart {
        Chart::Histogram { title, series, log } => {
            let root = titled(root, title)?;
            if log {
                let range = log_range(series);
                let y: LogCoord<f64> = range.clone().log_scale().into();
                let chart = histogram_axes(&root, series, y, true)?;
                draw_counts(chart, series, range.start)
            } else {
                let range = linear_range(series);
                let y: RangedCoordf64 = range.clone().into();
                let chart = histogram_axes(&root, series, y, false)?;
                draw_counts(chart, series, range.start)
            }
        }
        Chart::Heuristics {
            title,
            series,
            max_distance,
        } => {
            let root = titled(root, title)?;
            draw_heuristics(&root, series, max_distance)
        }
    }
}

/// Draws the title across the top and returns the area below it, with a
/// margin above so it does not crowd the edge.
fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.margin(8, 0, 0, 0).titled(title, (FONT_FAMILY, 28))
}

/// The x axis of a histogram: one segment per distance, labelled at its
/// centre, so a bar sits over its distance's label.
type DistanceAxis = SegmentedCoord<RangedCoordi32>;

/// A histogram's chart, axes drawn, ready for its series.
type Axes<'a, DB, Y> = ChartContext<'a, DB, Cartesian2d<DistanceAxis, Y>>;

fn histogram_axes<'a, DB, Y>(
    root: &'a DrawingArea<DB, Shift>,
    series: &[Series],
    y: Y,
    log: bool,
) -> Result<Axes<'a, DB, Y>, DrawingAreaErrorKind<DB::ErrorType>>
where
    DB: DrawingBackend + 'a,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let distances = series.iter().map(|s| s.values.len()).max().unwrap_or(1);
    let last = distances.saturating_sub(1) as i32;
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d((0..last).into_segmented(), y)?;
    let y_desc = if log {
        "positions (log scale)"
    } else {
        "positions"
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(distances.min(40))
        .y_max_light_lines(if log { 10 } else { 4 })
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(d) | SegmentValue::Exact(d) => d.to_string(),
            SegmentValue::Last => String::new(),
        })
        .y_label_formatter(&|v| tick_label(*v))
        .x_desc("distance (moves)")
        .y_desc(y_desc)
        .label_style((FONT_FAMILY, 15))
        .axis_desc_style((FONT_FAMILY, 18))
        .draw()?;
    Ok(chart)
}

/// Draws one series as bars down to `base`, or several as lines.
fn draw_counts<'a, DB, Y>(
    mut chart: Axes<'a, DB, Y>,
    series: &[Series],
    base: f64,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    Y: Ranged<ValueType = f64>,
{
    if let [only] = series {
        let bars = only
            .values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| drawable(v, base))
            .map(|(d, &v)| {
                let d = d as i32;
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(d), base),
                        (SegmentValue::Exact(d + 1), v),
                    ],
                    PALETTE[0].filled(),
                );
                bar.set_margin(0, 0, 2, 2);
                bar
            });
        chart.draw_series(bars)?;
        return Ok(());
    }
    for (i, s) in series.iter().enumerate() {
        let points = s.values.iter().enumerate().map(|(d, &v)| {
            (
                SegmentValue::CenterOf(d as i32),
                Some(v).filter(|&v| drawable(v, base)),
            )
        });
        draw_line(&mut chart, i, &s.label, points)?;
    }
    legend(&mut chart)
}

/// Whether a value can be placed on an axis whose lowest value is `base`
/// (the base is above zero exactly when the axis is logarithmic).
fn drawable(v: f64, base: f64) -> bool {
    v.is_finite() && (base <= 0.0 || v > 0.0)
}

fn draw_heuristics<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    max_distance: usize,
) -> DrawResult<DB> {
    let max = max_distance.max(1) as i32;
    let highest = series
        .iter()
        .flat_map(|s| s.values.iter().take(max_distance + 1))
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::from(max), f64::max);
    let lowest = series
        .iter()
        .flat_map(|s| s.values.iter().take(max_distance + 1))
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::min);
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0..max, lowest..highest * 1.05)?;
    chart
        .configure_mesh()
        .x_labels((max as usize + 1).min(40))
        .x_max_light_lines(1)
        .y_max_light_lines(4)
        .y_label_formatter(&|v| tick_label(*v))
        .x_desc("true distance (moves)")
        .y_desc("mean heuristic value")
        .label_style((FONT_FAMILY, 15))
        .axis_desc_style((FONT_FAMILY, 18))
        .draw()?;

    let reference = REFERENCE.stroke_width(2);
    chart
        .draw_series(DashedLineSeries::new(
            [(0, 0.0), (max, f64::from(max))],
            10,
            6,
            reference,
        ))?
        .label("true distance")
        .legend(move |(x, y)| DashedPathElement::new(vec![(x, y), (x + 24, y)], 6, 4, reference));
    for (i, s) in series.iter().enumerate() {
        let points = s
            .values
            .iter()
            .take(max_distance + 1)
            .enumerate()
            .map(|(d, &v)| (d as i32, Some(v).filter(|v| v.is_finite())));
        draw_line(&mut chart, i, &s.label, points)?;
    }
    legend(&mut chart)
}

/// Draws series `index` as a line with markers, broken wherever a point is
/// missing, and registers its legend entry (drawn even if every point is
/// missing, so the legend still accounts for the series).
fn draw_line<'a, DB, X, Y, I>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    index: usize,
    label: &str,
    points: I,
) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    X: Ranged,
    X::ValueType: Clone + 'static,
    Y: Ranged<ValueType = f64>,
    I: Iterator<Item = (X::ValueType, Option<f64>)>,
{
    let colour = PALETTE[index % PALETTE.len()];
    let line = colour.stroke_width(2);
    let shape = index % MARKERS;
    let mut runs: Vec<Vec<(X::ValueType, f64)>> = vec![Vec::new()];
    for (x, v) in points {
        match v {
            Some(v) => runs.last_mut().expect("never empty").push((x, v)),
            None if runs.last().is_some_and(|r| !r.is_empty()) => runs.push(Vec::new()),
            None => {}
        }
    }
    let fill = colour.filled();
    let entry = chart
        .draw_series(std::iter::empty::<PathElement<(X::ValueType, f64)>>())?
        .label(label);
    let swatch = move |(x, y)| EmptyElement::at((x, y)) + PathElement::new([(0, 0), (24, 0)], line);
    // Each shape is its own element type, hence one arm per shape here and
    // below rather than a shared helper.
    match shape {
        0 => entry.legend(move |c| swatch(c) + Circle::new((12, 0), 4, fill)),
        1 => entry.legend(move |c| swatch(c) + TriangleMarker::new((12, 0), 5, fill)),
        _ => entry.legend(move |c| swatch(c) + Rectangle::new([(8, -4), (16, 4)], fill)),
    };
    for run in runs {
        chart.draw_series(LineSeries::new(run.iter().cloned(), line))?;
        let at = run.into_iter();
        match shape {
            0 => chart.draw_series(at.map(|p| Circle::new(p, 4, fill)))?,
            1 => chart.draw_series(at.map(|p| TriangleMarker::new(p, 5, fill)))?,
            _ => chart.draw_series(
                at.map(|p| EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], fill)),
            )?,
        };
    }
    Ok(())
}

/// How many marker shapes (circle, triangle, square) series cycle through,
/// so that series whose colours are hard to tell apart still differ in shape.
const MARKERS: usize = 3;

fn legend<'a, DB, X, Y>(chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>) -> DrawResult<DB>
where
    DB: DrawingBackend + 'a,
    X: Ranged,
    Y: Ranged,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .margin(12)
        .label_font((FONT_FAMILY, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
}

/// The y range of a linear count axis: from zero to a little above the
/// highest value, so the tallest bar does not touch the frame.
fn linear_range(series: &[Series]) -> Range<f64> {
    let finite = || {
        series
            .iter()
            .flat_map(|s| &s.values)
            .filter(|v| v.is_finite())
    };
    let high = finite().copied().fold(0.0, f64::max);
    let low = finite().copied().fold(0.0, f64::min);
    let high = if high > low { high } else { low + 1.0 };
    low..high * 1.05
}

/// The y range of a logarithmic count axis: from half the smallest positive
/// value (so a bar of height 1 is still a bar, not a line on the frame) to a
/// little above the highest value. Zero counts are not drawn at all: they
/// have no place on a log scale.
fn log_range(series: &[Series]) -> Range<f64> {
    let positive = || {
        series
            .iter()
            .flat_map(|s| &s.values)
            .copied()
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let low = positive().fold(f64::INFINITY, f64::min);
    let high = positive().fold(0.0, f64::max);
    if !low.is_finite() {
        return 0.5..10.0;
    }
    let low = low / 2.0;
    let high = if high > low { high * 1.5 } else { low * 10.0 };
    low..high
}

/// A tick label: whole numbers with thousands separators (counts reach the
/// hundreds of thousands), fractions to two decimals without trailing zeros.
fn tick_label(v: f64) -> String {
    let rounded = v.round();
    if (v - rounded).abs() < 1e-9 * v.abs().max(1.0) && rounded.abs() < 1e15 {
        let digits = format!("{}", rounded.abs() as u64);
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if rounded < 0.0 {
            out.insert(0, '-');
        }
        out
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_group_thousands_and_trim_fractions() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(24047.0), "24,047");
        assert_eq!(tick_label(1_000_000.0), "1,000,000");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(-3.0), "-3");
    }

    #[test]
    fn log_range_starts_below_the_smallest_positive_count() {
        let s = [Series::new("a", vec![0.0, 1.0, 2.0, 24047.0])];
        let r = log_range(&s);
        assert_eq!(r.start, 0.5);
        assert!(r.end > 24047.0);
    }

    #[test]
    fn extensions_are_matched_in_any_case() {
        assert_eq!(Format::from_path(Path::new("a.SVG")).unwrap(), Format::Svg);
        assert_eq!(
            Format::from_path(Path::new("x/a.Png")).unwrap(),
            Format::Png
        );
        assert!(Format::from_path(Path::new("a")).is_err());
    }
}
