//! The embedded font, and a bitmap backend that draws text with it where
//! its metrics say (working around plotters 0.3.7's glyph placement).

use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};
use std::sync::OnceLock;

/// The family name every text style asks for. Registering the embedded font
/// under plotters' own default name covers the labels plotters styles by
/// itself (tick labels, legend), and SVG viewers know it as a generic family.
pub(super) const FONT_FAMILY: &str = "sans-serif";

/// DejaVu Sans (see `assets/DejaVuSans-LICENSE.txt`), embedded so that PNG
/// text needs nothing from the system.
pub(super) static FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

/// Registers the embedded font with plotters, once per process. plotters
/// keeps registered fonts in a global table, so every later chart, on any
/// thread, finds it.
pub(super) fn register_font() -> Result<(), &'static str> {
    static REGISTERED: OnceLock<Result<(), &'static str>> = OnceLock::new();
    *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT)
            .map_err(|_| "the embedded font DejaVuSans.ttf could not be read")
    })
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
pub(super) struct ExactText<'a>(pub(super) BitMapBackend<'a>);

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

    // draw_path, draw_circle and fill_polygon keep the trait's defaults:
    // they rasterise through draw_line and draw_pixel, exactly as
    // BitMapBackend's own (which are those same defaults) do.

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
