//! The arguments of `pml serve`, and the parsing of a size such as `200MB`.

use clap::Args;

/// Arguments of `pml serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on. Anything but a loopback address (127.0.0.1,
    /// ::1, localhost) lets other machines reach the page (a warning says so);
    /// the token still guards it.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on (0: a free one, printed in the URL).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// The largest upload accepted, in bytes or with a unit (200MB, 1.5GB, 64k,
    /// 10MiB); a larger one is refused with HTTP 413.
    #[arg(long, value_name = "SIZE", default_value = "200MB", value_parser = byte_size)]
    pub max_upload: u64,
    /// Seconds each design may run before it returns the best certified
    /// mechanism and bound so far; the report's trade-off curve then gets as
    /// long again (20 s at most).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        allow_hyphen_values = true
    )]
    pub time_limit: f64,
    /// Designs (and privatised files) computed at once; more are refused with
    /// HTTP 503 until one finishes.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Seconds an upload may send no byte before it is dropped with HTTP 408:
    /// stalled clients cannot hold the 4 upload slots.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        allow_hyphen_values = true
    )]
    pub upload_idle: f64,
    /// Seconds a connection may take to send a request's headers (or may sit
    /// idle between requests) before it is closed, so that half-open
    /// connections cannot hold the server's file descriptors.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        allow_hyphen_values = true
    )]
    pub header_timeout: f64,
    /// Connections served at once; more wait in the system's queue until one
    /// closes.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(8..=65_536))]
    pub max_connections: u32,
}

/// Parses a size: a number of bytes, or a number with a unit: k/kB (1000),
/// M/MB, G/GB, or KiB/MiB/GiB (1024), in any case.
pub fn byte_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1_000,
        "m" | "mb" => 1_000_000,
        "g" | "gb" => 1_000_000_000,
        "ki" | "kib" => 1 << 10,
        "mi" | "mib" => 1 << 20,
        "gi" | "gib" => 1 << 30,
        _ => return Err(size_error(t)),
    };
    let value: f64 = number.parse().map_err(|_| size_error(t))?;
    let bytes = value * scale as f64;
    if !(1.0..=1e15).contains(&bytes) {
        return Err(format!(
            "{t:?} is outside 1 byte to 1 PB; give a size such as 200MB"
        ));
    }
    Ok(bytes as u64)
}

/// A size for people: `200 MB`, `1 kB`, `512 bytes`.
pub fn show_size(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        1_000_000_000.. => format!("{} GB", b / 1e9),
        1_000_000.. => format!("{} MB", b / 1e6),
        1_000.. => format!("{} kB", b / 1e3),
        _ => format!("{bytes} bytes"),
    }
}

fn size_error(t: &str) -> String {
    format!("{t:?} is not a size; give bytes or a number with a unit: 200MB, 1k, 10MiB")
}

#[cfg(test)]
mod tests {
    use super::byte_size;

    #[test]
    fn sizes_with_and_without_units() {
        assert_eq!(byte_size("200MB"), Ok(200_000_000));
        assert_eq!(byte_size("1k"), Ok(1_000));
        assert_eq!(byte_size("4096"), Ok(4_096));
        assert_eq!(byte_size("10MiB"), Ok(10 << 20));
        assert_eq!(byte_size("1.5 GB"), Ok(1_500_000_000));
        assert!(byte_size("0").is_err());
        assert!(byte_size("ten").is_err());
        assert!(byte_size("5 parsecs").is_err());
        assert!(byte_size("-1k").is_err());
        assert_eq!(super::show_size(200_000_000), "200 MB");
        assert_eq!(super::show_size(1_000), "1 kB");
    }
}
