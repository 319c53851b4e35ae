//! Charts: both kinds, both formats, checked by reading the files back (SVG
//! as XML, PNG decoded to pixels) rather than by eye.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use super::{search_costs, ChartFile, Format, PlotError, Series, SIZE};
use npuzzle::files::ReplaceError;
use npuzzle::Metric;

/// Draws a histogram into `path` as the commands do: the file started,
/// then drawn.
fn histogram(
    path: &Path,
    title: &str,
    metric: Metric,
    series: &[Series],
    log: bool,
) -> Result<(), PlotError> {
    super::histogram(ChartFile::start(path)?, title, metric, series, log)
}

/// Draws a chart of heuristics into `path` as the commands do.
fn heuristics(
    path: &Path,
    title: &str,
    series: &[Series],
    max_distance: usize,
) -> Result<(), PlotError> {
    super::heuristics(ChartFile::start(path)?, title, series, max_distance)
}

/// Positions of the 8-puzzle at each distance from 123456780 (OEIS A089473).
const EIGHT_PUZZLE: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
    16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// The colours the module draws series in, in order (Tableau 10).
const PALETTE: [[u8; 3]; 10] = [
    [31, 119, 180],
    [255, 127, 14],
    [44, 160, 44],
    [214, 39, 40],
    [148, 103, 189],
    [140, 86, 75],
    [227, 119, 194],
    [127, 127, 127],
    [188, 189, 34],
    [23, 190, 207],
];

/// Height of the band at the top of a PNG that holds the title.
const TITLE_BAND: usize = 45;

fn one_series() -> Vec<Series> {
    vec![Series::from_counts(
        "blank at row 3, column 3",
        &EIGHT_PUZZLE,
    )]
}

/// Nine curves, one per goal blank cell, each a shifted copy of the real
/// one (the shapes only need to differ for the chart to be a real overlay).
fn nine_series() -> Vec<Series> {
    (0..9)
        .map(|blank| {
            let mut counts = EIGHT_PUZZLE.to_vec();
            counts.rotate_right(blank % 3);
            Series::from_counts(
                format!("blank at row {}, column {}", blank / 3 + 1, blank % 3 + 1),
                &counts,
            )
        })
        .collect()
}

/// Mean heuristic values by true distance, shaped like the real ones: all
/// below the diagonal, misplaced tiles lowest, and none known at distance 30.
fn heuristic_series() -> Vec<Series> {
    let line = |slope: f64| -> Vec<f64> {
        (0..=31)
            .map(|d| if d == 30 { f64::NAN } else { slope * d as f64 })
            .collect()
    };
    vec![
        Series::new("misplaced tiles", line(0.35)),
        Series::new("Manhattan distance", line(0.6)),
        Series::new("linear conflict", line(0.75)),
    ]
}

/// Every text node of an SVG, after checking that it parses and has an
/// `<svg>` root of the chart's size.
fn svg_texts(path: &Path) -> Vec<String> {
    let source = fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&source).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some(SIZE.0.to_string().as_str()));
    assert_eq!(root.attribute("height"), Some(SIZE.1.to_string().as_str()));
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

fn assert_svg_has(path: &Path, expected: &[&str]) {
    let texts = svg_texts(path);
    for text in expected {
        assert!(
            texts.iter().any(|t| t == text),
            "{text:?} is not a text of {}: {texts:?}",
            path.display()
        );
    }
}

/// A decoded PNG: width, height, RGB pixels row by row.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Image {
    fn read(path: &Path) -> Image {
        let decoder = png::Decoder::new(fs::File::open(path).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let rgb = buf[..info.buffer_size()]
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        Image {
            width: info.width as usize,
            height: info.height as usize,
            rgb,
        }
    }

    fn colours(&self) -> HashSet<[u8; 3]> {
        self.rgb.iter().copied().collect()
    }

    /// Pixels of rows `rows` dark enough to be text (or an axis).
    fn dark_in_rows(&self, rows: std::ops::Range<usize>) -> usize {
        rows.flat_map(|y| &self.rgb[y * self.width..(y + 1) * self.width])
            .filter(|[r, g, b]| u32::from(*r) + u32::from(*g) + u32::from(*b) < 3 * 100)
            .count()
    }
}

/// The checks every PNG chart must pass: the chart's size, more than a
/// handful of colours, and a title that was really drawn.
fn assert_png_chart(path: &Path) -> Image {
    let image = Image::read(path);
    assert_eq!(
        (image.width, image.height),
        (SIZE.0 as usize, SIZE.1 as usize)
    );
    let colours = image.colours();
    assert!(colours.len() > 10, "only {} colours", colours.len());
    let title = image.dark_in_rows(0..TITLE_BAND);
    assert!(title > 200, "only {title} dark pixels where the title is");
    assert_eq!(
        image.dark_in_rows(0..1),
        0,
        "the title touches the top edge"
    );
    image
}

fn assert_non_empty(path: &Path) {
    assert!(fs::metadata(path).unwrap().len() > 0);
}

/// Draws a histogram of `series` titled `title` into `dir/NAME`, which
/// must then hold something.
fn drawn_histogram(
    dir: &Path,
    name: &str,
    title: &str,
    series: &[Series],
    log: bool,
) -> std::path::PathBuf {
    let path = dir.join(name);
    histogram(&path, title, Metric::SingleTile, series, log).unwrap();
    assert_non_empty(&path);
    path
}

/// Draws the 8-puzzle histogram (one series, bars) into `dir/NAME`.
fn eight_puzzle_histogram(dir: &Path, name: &str) -> std::path::PathBuf {
    let title = "8-puzzle: positions by distance";
    drawn_histogram(dir, name, title, &one_series(), false)
}

/// Each SVG chart has its title, its axis labels and (for the heuristics)
/// its legend, as text a reader can select.
#[test]
fn svg_charts_have_their_title_axis_labels_and_legend() {
    let dir = tempfile::tempdir().unwrap();
    type Draw = fn(&Path, &str) -> std::path::PathBuf;
    let charts: [(Draw, &str, &[&str]); 2] = [
        (
            eight_puzzle_histogram,
            "h.svg",
            &[
                "8-puzzle: positions by distance",
                "distance (moves)",
                "positions",
                "31",
                "20,000",
            ],
        ),
        (
            eight_puzzle_heuristics,
            "heuristics.svg",
            &[
                "heuristics on the 8-puzzle",
                "true distance (moves)",
                "mean heuristic value",
                "true distance",
                "misplaced tiles",
                "Manhattan distance",
                "linear conflict",
            ],
        ),
    ];
    for (draw, name, texts) in charts {
        assert_svg_has(&draw(dir.path(), name), texts);
    }
}

#[test]
fn histogram_png_has_its_size_bars_and_drawn_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = eight_puzzle_histogram(dir.path(), "h.png");
    let image = assert_png_chart(&path);
    // One series is drawn as bars in the first colour.
    let bar = image.rgb.iter().filter(|p| **p == PALETTE[0]).count();
    assert!(bar > 10_000, "only {bar} bar pixels");
}

#[test]
fn an_empty_title_leaves_the_title_band_blank() {
    // The control for the title check above: the dark pixels there are text.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("untitled.png");
    histogram(&path, "", Metric::SingleTile, &one_series(), false).unwrap();
    assert_eq!(Image::read(&path).dark_in_rows(0..TITLE_BAND), 0);
}

#[test]
fn log_histogram_with_zero_counts_draws_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let mut counts = EIGHT_PUZZLE.to_vec();
    counts[3] = 0;
    counts.push(0);
    let series = [Series::from_counts("with gaps", &counts)];
    let svg = drawn_histogram(dir.path(), "log.svg", "log scale", &series, true);
    assert_svg_has(
        &svg,
        &[
            "log scale",
            "distance (moves)",
            "positions (log scale)",
            "1",
            "10,000",
        ],
    );
    let png = drawn_histogram(dir.path(), "log.png", "log scale", &series, true);
    assert_png_chart(&png);
}

#[test]
fn all_zero_counts_on_a_log_scale_still_draw() {
    let dir = tempfile::tempdir().unwrap();
    let zeros = [Series::from_counts("zero", &[0; 5])];
    let path = drawn_histogram(dir.path(), "zeros.png", "nothing yet", &zeros, true);
    assert_png_chart(&path);
}

#[test]
fn overlay_draws_every_series_in_its_own_colour_with_a_legend() {
    let dir = tempfile::tempdir().unwrap();
    let series = nine_series();
    let title = "every goal blank cell";
    let svg = drawn_histogram(dir.path(), "all.svg", title, &series, true);
    let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    assert_svg_has(&svg, &labels);
    assert_svg_has(&svg, &["every goal blank cell", "positions (log scale)"]);

    let png = drawn_histogram(dir.path(), "all.png", title, &series, true);
    let colours = assert_png_chart(&png).colours();
    for (i, colour) in PALETTE.iter().take(series.len()).enumerate() {
        assert!(
            colours.contains(colour),
            "series {i}'s colour {colour:?} is missing"
        );
    }
}

/// Draws the 8-puzzle heuristics chart into `dir/NAME`.
fn eight_puzzle_heuristics(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    heuristics(&path, "heuristics on the 8-puzzle", &heuristic_series(), 31).unwrap();
    assert_non_empty(&path);
    path
}

#[test]
fn heuristics_png_has_its_size_lines_and_drawn_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = eight_puzzle_heuristics(dir.path(), "heuristics.png");
    let colours = assert_png_chart(&path).colours();
    for colour in &PALETTE[..3] {
        assert!(colours.contains(colour), "colour {colour:?} is missing");
    }
    // The grey of the dashed h = h* line.
    assert!(colours.contains(&[150, 150, 150]));
}

/// The points of the SVG's polylines drawn in `colour` (`#1F77B4`), in
/// pixels.
fn polylines_in(path: &Path, colour: &str) -> Vec<Vec<(f64, f64)>> {
    let source = fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&source).unwrap();
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(colour));
    lines
        .map(|n| {
            let points = n.attribute("points").unwrap().split_whitespace();
            let xy = points.map(|p| p.split_once(',').unwrap());
            xy.map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                .collect()
        })
        .collect()
}

#[test]
fn search_costs_draw_each_search_on_a_log_scale_with_the_limit_and_a_legend() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("costs.svg");
    // Tenfold a move, and twofold: straight lines on a log scale. Nothing
    // below the first distance is drawn.
    let tenfold = Series::new("bfs", vec![f64::NAN, 1.0, 10.0, 100.0, 1e3, 1e4]);
    let twofold = Series::new("astar-manhattan", vec![f64::NAN, 1.0, 2.0, 4.0, 8.0, 16.0]);
    search_costs(
        ChartFile::start(&path).unwrap(),
        "searches on 3x3",
        &[tenfold, twofold],
        1..=5,
        100_000,
    )
    .unwrap();
    assert_svg_has(
        &path,
        &[
            "searches on 3x3",
            "distance from the goal (moves)",
            "positions expanded, mean (log scale)",
            "limit: 100,000",
            "bfs",
            "astar-manhattan",
            "10,000",
        ],
    );
    let [tenfold, twofold] = [&PALETTE[0], &PALETTE[1]]
        .map(|[r, g, b]| polylines_in(&path, &format!("#{r:02X}{g:02X}{b:02X}")));
    // Each colour draws its line, then its swatch in the legend.
    assert_eq!(tenfold.len(), 2, "{tenfold:?}");
    assert_eq!(twofold.len(), 2, "{twofold:?}");
    let (tenfold, twofold) = (&tenfold[0], &twofold[0]);
    assert_eq!(tenfold.len(), 5);
    // Equal steps across and up (y grows downwards), a pixel's rounding
    // apart; both start at 1, and tenfold climbs log2(10) times as fast.
    let steps = |line: &[(f64, f64)]| -> Vec<(f64, f64)> {
        line.windows(2)
            .map(|w| (w[1].0 - w[0].0, w[0].1 - w[1].1))
            .collect()
    };
    let (up10, up2) = (steps(tenfold), steps(twofold));
    for (dx, dy) in up10.iter().chain(&up2) {
        assert!((dx - up10[0].0).abs() <= 1.0, "{up10:?} {up2:?}");
        assert!(*dy > 0.0, "{up10:?} {up2:?}");
    }
    for (dx, dy) in &up10 {
        assert!((dy - up10[0].1).abs() <= 1.0, "{dx} {up10:?}");
    }
    assert_eq!(tenfold[0], twofold[0]);
    let ratio = up10[0].1 / up2[0].1;
    assert!((ratio - 10f64.log2()).abs() < 0.1, "{ratio}");
}

#[test]
fn search_costs_png_has_its_size_lines_and_the_grey_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("costs.png");
    let line = Series::new("bfs", vec![f64::NAN, 1.0, 10.0, 100.0]);
    search_costs(
        ChartFile::start(&path).unwrap(),
        "searches",
        &[line],
        1..=3,
        1000,
    )
    .unwrap();
    let colours = assert_png_chart(&path).colours();
    assert!(colours.contains(&PALETTE[0]));
    assert!(colours.contains(&[150, 150, 150]));
}

/// The font size of the SVG text element that reads `text`.
fn svg_font_size(path: &Path, text: &str) -> f64 {
    let source = fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&source).unwrap();
    let node = (doc.descendants())
        .find(|n| n.has_tag_name("text") && n.text().map(str::trim) == Some(text))
        .unwrap_or_else(|| panic!("no text {text:?}"));
    node.attribute("font-size").unwrap().parse().unwrap()
}

/// A title too wide for the chart at the usual size (a 4×4 goal in it) is
/// drawn smaller, whole; a short one keeps the usual size.
#[test]
fn a_long_title_is_drawn_smaller_not_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let short = "8-puzzle";
    let long = "4x4: the textbook searches toward 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0, up to \
                10 positions a distance";
    let (a, b) = (dir.path().join("short.svg"), dir.path().join("long.svg"));
    histogram(&a, short, Metric::SingleTile, &one_series(), false).unwrap();
    histogram(&b, long, Metric::SingleTile, &one_series(), false).unwrap();
    let (usual, smaller) = (svg_font_size(&a, short), svg_font_size(&b, long));
    assert!(smaller < usual * 0.9, "{smaller} against {usual}");
    // Roughly: at most the chart's width over its characters, in the
    // glyphs' average width of about half the size.
    let fits = SIZE.0 as f64 / (long.chars().count() as f64 * 0.45);
    assert!(smaller <= fits, "{smaller} > {fits}");
}

#[test]
fn extensions_are_case_insensitive() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("UPPER.PNG");
    histogram(&png, "upper case", Metric::SingleTile, &one_series(), false).unwrap();
    assert_png_chart(&png);
    let svg = dir.path().join("Mixed.Svg");
    heuristics(&svg, "mixed case", &heuristic_series(), 31).unwrap();
    assert_svg_has(&svg, &["mixed case"]);
}

#[test]
fn jpg_is_refused_by_name_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.jpg");
    let err = histogram(&path, "t", Metric::SingleTile, &one_series(), false).unwrap_err();
    match &err {
        PlotError::UnsupportedExtension { extension, .. } => assert_eq!(extension, "jpg"),
        other => panic!("expected an unsupported extension, got {other:?}"),
    }
    let message = err.to_string();
    for part in [".jpg", ".svg", ".png", "chart.jpg"] {
        assert!(
            message.contains(part),
            "{message:?} does not mention {part}"
        );
    }
    assert!(matches!(
        heuristics(&path, "t", &heuristic_series(), 31),
        Err(PlotError::UnsupportedExtension { .. })
    ));
    assert!(matches!(
        Format::from_path(Path::new("no-extension")),
        Err(PlotError::UnsupportedExtension { extension, .. }) if extension.is_empty()
    ));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A missing folder is said, not made: a misspelt one would otherwise
/// appear wherever the typo put it.
#[test]
fn missing_folders_are_named_not_made() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("not-here").join("nor-here");
    for name in ["h.png", "h.svg"] {
        let err = histogram(
            &missing.join(name),
            "t",
            Metric::SingleTile,
            &one_series(),
            false,
        )
        .unwrap_err();
        let message = std::error::Error::source(&err).unwrap().to_string();
        assert!(message.ends_with("nor-here does not exist"), "{message}");
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_file_where_a_folder_should_be_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, b"not a folder").unwrap();
    for path in [file.join("h.png"), file.join("deeper").join("h.svg")] {
        let err = histogram(&path, "t", Metric::SingleTile, &one_series(), false).unwrap_err();
        let PlotError::Write {
            source: ReplaceError::NotAFolder(named),
            ..
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(named, &file);
        let message = std::error::Error::source(&err).unwrap().to_string();
        assert!(message.ends_with("a-file is not a folder"), "{message}");
    }
    assert_eq!(fs::read(&file).unwrap(), b"not a folder");
}

#[test]
fn nothing_to_draw_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.svg");
    let err = histogram(&path, "t", Metric::SingleTile, &[], false).unwrap_err();
    assert!(matches!(err, PlotError::NoData { .. }), "{err:?}");
    let err = heuristics(&path, "t", &[Series::new("h", vec![])], 31).unwrap_err();
    assert!(matches!(err, PlotError::NoData { .. }), "{err:?}");
    assert!(!path.exists());
}

#[test]
fn a_chart_replaces_the_old_one_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.svg");
    let old = format!("{}\nold", npuzzle::io::SVG_MARK);
    fs::write(&path, &old).unwrap();
    // A refused chart leaves the old file as it was.
    assert!(histogram(&path, "t", Metric::SingleTile, &[], false).is_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), old);

    histogram(&path, "first", Metric::SingleTile, &one_series(), false).unwrap();
    assert_svg_has(&path, &["first"]);
    histogram(&path, "second", Metric::SingleTile, &one_series(), true).unwrap();
    assert_svg_has(&path, &["second"]);
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["chart.svg"]);
}

#[cfg(unix)]
#[test]
fn a_chart_is_readable_by_everyone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chart.png");
    histogram(&path, "t", Metric::SingleTile, &one_series(), false).unwrap();
    let mode = fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o444, 0o444, "mode {mode:o}");
}

#[test]
fn the_smallest_inputs_still_draw() {
    // The goal alone (distance 0), and a heuristic chart with no distance
    // past 0: degenerate axes must not panic.
    let dir = tempfile::tempdir().unwrap();
    for log in [false, true] {
        let path = dir.path().join(format!("goal-only-{log}.png"));
        histogram(
            &path,
            "goal only",
            Metric::SingleTile,
            &[Series::from_counts("goal", &[1])],
            log,
        )
        .unwrap();
        assert_png_chart(&path);
    }
    let path = dir.path().join("h0.svg");
    heuristics(&path, "distance 0", &[Series::new("h", vec![0.0])], 0).unwrap();
    assert_svg_has(&path, &["distance 0", "true distance"]);
}

/// The 2×2 board's counts (at most 2 positions per distance): the count
/// axis is labelled with whole numbers only.
#[test]
fn small_counts_get_whole_number_ticks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.svg");
    let series = [Series::from_counts("2x2", &[1, 2, 2, 2, 2, 2, 1])];
    histogram(&path, "2x2", Metric::SingleTile, &series, false).unwrap();
    let labels: Vec<f64> = svg_texts(&path)
        .iter()
        .filter_map(|t| t.parse::<f64>().ok())
        .collect();
    assert!(labels.contains(&2.0), "{labels:?}");
    assert!(labels.iter().all(|v| v.fract() == 0.0), "{labels:?}");
}
