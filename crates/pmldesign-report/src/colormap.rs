//! Viridis (perceptually uniform, readable by colour-blind readers) as a small
//! table of nine stops, interpolated linearly.

/// Viridis at 0, 1/8, ..., 1 (matplotlib's values, rounded to bytes).
const VIRIDIS: [[u8; 3]; 9] = [
    [68, 1, 84],
    [71, 45, 123],
    [59, 82, 139],
    [44, 114, 142],
    [33, 145, 140],
    [40, 174, 128],
    [94, 201, 98],
    [173, 220, 48],
    [253, 231, 37],
];

/// The colour of `t` in [0, 1] (clamped; NaN is 0) as RGB bytes.
pub fn viridis(t: f64) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |k: usize| (a[k] as f64 + f * (b[k] as f64 - a[k] as f64)).round() as u8;
    [mix(0), mix(1), mix(2)]
}

/// The colour of `t` as `#rrggbb`.
pub fn hex(t: f64) -> String {
    let [r, g, b] = viridis(t);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Whether text on the colour of `t` should be dark (the light end of viridis).
pub fn dark_text(t: f64) -> bool {
    t > 0.6
}

/// Series colours for line charts: viridis stops far enough apart to tell apart.
pub const SERIES: [&str; 4] = ["#440154", "#21918c", "#3b528b", "#5ec962"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle() {
        assert_eq!(hex(0.0), "#440154");
        assert_eq!(hex(1.0), "#fde725");
        assert_eq!(hex(0.5), "#21918c");
        assert_eq!(hex(f64::NAN), "#440154");
        assert_eq!(hex(2.0), "#fde725");
    }
}
