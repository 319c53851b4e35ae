//! Drawing a chart on any backend: title, axes, bars, lines and legend.

use super::axis::{linear_range, log_range, tick_label};
use super::font::FONT_FAMILY;
use super::{Chart, Series};
use npuzzle::Metric;
use plotters::coord::ranged1d::{SegmentedCoord, ValueFormatter};
use plotters::coord::types::{RangedCoordf64, RangedCoordi32};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::ops::RangeInclusive;

/// Tableau 10: ten hues that stay distinct from each other on white, enough
/// for one series per table of every file but 12-cell ones built with
/// `--every-blank`, whose last two tables take the first two hues again.
pub(super) const PALETTE: [RGBColor; 10] = [
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
pub(super) const REFERENCE: RGBColor = RGBColor(150, 150, 150);

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

pub(super) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    match *chart {
        Chart::Histogram {
            title,
            metric,
            series,
            log,
        } => {
            let root = titled(root, title)?;
            let x_desc = match metric {
                Metric::SingleTile => "distance (moves)",
                Metric::MultiTile => "distance (multi-tile moves)",
            };
            if log {
                let range = log_range(series);
                let y: LogCoord<f64> = range.clone().log_scale().into();
                let chart = histogram_axes(&root, series, y, x_desc, true)?;
                draw_counts(chart, series, range.start)
            } else {
                let range = linear_range(series);
                let y: RangedCoordf64 = range.clone().into();
                let chart = histogram_axes(&root, series, y, x_desc, false)?;
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
        Chart::SearchCosts {
            title,
            series,
            ref distances,
            max_nodes,
        } => {
            let root = titled(root, title)?;
            draw_search_costs(&root, series, distances, max_nodes as f64)
        }
    }
}

/// Draws the title across the top and returns the area below it, with a
/// margin above so it does not crowd the edge. A title too wide for the
/// chart at the usual size (a 4×4 goal is 37 characters) is drawn smaller,
/// down to [`SMALLEST_TITLE`], rather than cut off at both edges.
pub(super) fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let room = root.dim_in_pixel().0.saturating_sub(2 * TITLE_SIDES);
    let mut size = TITLE_SIZE;
    while size > SMALLEST_TITLE {
        let (width, _) = root.estimate_text_size(title, &(FONT_FAMILY, size).into())?;
        if width <= room {
            break;
        }
        size -= 1;
    }
    root.margin(8, 0, 0, 0).titled(title, (FONT_FAMILY, size))
}

/// A title's usual size, in pixels.
const TITLE_SIZE: u32 = 28;

/// The smallest a long title is drawn.
const SMALLEST_TITLE: u32 = 14;

/// Room kept clear on either side of a title, in pixels.
const TITLE_SIDES: u32 = 10;

/// The x axis of a histogram: one segment per distance, labelled at its
/// centre, so a bar sits over its distance's label.
type DistanceAxis = SegmentedCoord<RangedCoordi32>;

/// A histogram's chart, axes drawn, ready for its series.
type Axes<'a, DB, Y> = ChartContext<'a, DB, Cartesian2d<DistanceAxis, Y>>;

pub(super) fn histogram_axes<'a, DB, Y>(
    root: &'a DrawingArea<DB, Shift>,
    series: &[Series],
    y: Y,
    x_desc: &str,
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
    // Counts are whole numbers: on a small linear axis, one label per
    // whole number rather than plotters' fractional steps.
    let highest = series
        .iter()
        .flat_map(|s| &s.values)
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let y_labels = if !log && highest < 10.0 {
        highest as usize + 1
    } else {
        10
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(distances.min(40))
        .y_labels(y_labels)
        .y_max_light_lines(if log { 10 } else { 4 })
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(d) | SegmentValue::Exact(d) => d.to_string(),
            SegmentValue::Last => String::new(),
        })
        .y_label_formatter(&|v| tick_label(*v))
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style((FONT_FAMILY, 15))
        .axis_desc_style((FONT_FAMILY, 18))
        .draw()?;
    Ok(chart)
}

/// Draws one series as bars down to `base`, or several as lines.
pub(super) fn draw_counts<'a, DB, Y>(
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
pub(super) fn drawable(v: f64, base: f64) -> bool {
    v.is_finite() && (base <= 0.0 || v > 0.0)
}

pub(super) fn draw_heuristics<DB: DrawingBackend>(
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

pub(super) fn draw_search_costs<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Series],
    distances: &RangeInclusive<u32>,
    max_nodes: f64,
) -> DrawResult<DB> {
    let (first, last) = (*distances.start() as i32, *distances.end() as i32);
    let y = log_range(series);
    let y = y.start.min(0.5)..y.end.max(max_nodes * 1.5);
    // Eight lines cross the whole chart: their legend goes beside it.
    let (plot, beside) = root.split_horizontally(root.dim_in_pixel().0 - LEGEND_WIDTH);
    let mut chart = ChartBuilder::on(&plot)
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(100)
        .build_cartesian_2d(first..last.max(first + 1), y.log_scale())?;
    chart
        .configure_mesh()
        .x_labels(((last - first) as usize + 1).min(40))
        .x_max_light_lines(1)
        .y_labels(10)
        .y_label_formatter(&|v| tick_label(*v))
        .x_desc("distance from the goal (moves)")
        .y_desc("positions expanded, mean (log scale)")
        .label_style((FONT_FAMILY, 15))
        .axis_desc_style((FONT_FAMILY, 18))
        .draw()?;

    let reference = REFERENCE.stroke_width(2);
    let limit = [(first, max_nodes), (last.max(first + 1), max_nodes)];
    chart.draw_series(DashedLineSeries::new(limit, 10, 6, reference))?;
    for (i, s) in series.iter().enumerate() {
        let points = (first..=last).map(|d| {
            let value = s.values.get(d as usize).copied();
            (d, value.filter(|&v| drawable(v, 1.0)))
        });
        draw_line(&mut chart, i, &s.label, points)?;
    }
    // The legend: a chart of its own, with no axes, whose series are the
    // entries and nothing else.
    let mut key = ChartBuilder::on(&beside)
        .margin_top(30)
        .build_cartesian_2d(0..1, 0.0..1.0)?;
    key.draw_series(std::iter::empty::<PathElement<(i32, f64)>>())?
        .label(format!("limit: {}", tick_label(max_nodes)))
        .legend(move |(x, y)| DashedPathElement::new(vec![(x, y), (x + 24, y)], 6, 4, reference));
    for (i, s) in series.iter().enumerate() {
        draw_line(&mut key, i, &s.label, std::iter::empty())?;
    }
    legend(&mut key)
}

/// The room to the right of a chart whose legend is drawn beside it.
const LEGEND_WIDTH: u32 = 230;

/// Draws series `index` as a line with markers, broken wherever a point is
/// missing, and registers its legend entry (drawn even if every point is
/// missing, so the legend still accounts for the series).
pub(super) fn draw_line<'a, DB, X, Y, I>(
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
pub(super) const MARKERS: usize = 3;

pub(super) fn legend<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
) -> DrawResult<DB>
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
