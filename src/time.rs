//! Durations and dates as rate-limit headers and the CLI write them, without a date crate (so the core stays small
//! and builds for wasm32): Go-style durations and plain seconds ([`parse_duration_ms`]), RFC 3339 timestamps and
//! the three HTTP-date forms of RFC 9110. Every result is in milliseconds; no clock is read.

use std::fmt;

/// Why a duration could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationError {
    /// Nothing (or only spaces) was given.
    Empty,
    /// A character that is neither a digit, a `.` nor a unit, at this byte offset.
    Unexpected(usize),
    /// A number with no unit after it, in a duration that has units elsewhere (`1m30`).
    MissingUnit,
    /// A unit that is not one of `h`, `m`, `s`, `ms`, `us`/`µs`, `ns`.
    UnknownUnit,
    /// A negative duration.
    Negative,
    /// Longer than `u64::MAX` milliseconds.
    Overflow,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::Empty => f.write_str("empty duration"),
            DurationError::Unexpected(at) => write!(f, "unexpected character at byte {at}"),
            DurationError::MissingUnit => {
                f.write_str("a number without a unit (h, m, s, ms, us, ns)")
            }
            DurationError::UnknownUnit => {
                f.write_str("unknown unit (expected h, m, s, ms, us or ns)")
            }
            DurationError::Negative => f.write_str("negative duration"),
            DurationError::Overflow => f.write_str("duration too long"),
        }
    }
}

impl std::error::Error for DurationError {}

/// Parses a duration as rate-limit headers write it, into milliseconds, rounded up (a wait is never shortened).
///
/// Accepts Go-style durations (`1s`, `20ms`, `577ms`, `5.94s`, `6m0s`, `2m59.56s`, `1m0.363142857s`, `1h2m`,
/// `250us`, `10ns`) and plain seconds (`6`, `0.5`). Fractions are exact: `5.94s` is 5940 ms.
///
/// ```
/// use llm_preflight::parse_duration_ms;
/// assert_eq!(parse_duration_ms("5.94s"), Ok(5940));
/// assert_eq!(parse_duration_ms("2m59.56s"), Ok(179_560));
/// assert_eq!(parse_duration_ms("1m0.363142857s"), Ok(60_364));
/// assert_eq!(parse_duration_ms("6"), Ok(6000));
/// assert!(parse_duration_ms("soon").is_err());
/// ```
pub fn parse_duration_ms(s: &str) -> Result<u64, DurationError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(DurationError::Empty);
    }
    if s.starts_with('-') {
        return Err(DurationError::Negative);
    }
    let s = s.strip_prefix('+').unwrap_or(s);
    // Plain seconds.
    if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        let ns = parse_decimal_scaled(s, 1_000_000_000).ok_or_else(|| decimal_error(s, 0))?;
        // Beyond u64::MAX milliseconds is an overflow here too, as with units (not saturated to u64::MAX).
        return u64::try_from(ns.div_ceil(1_000_000)).map_err(|_| DurationError::Overflow);
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut total_ns: u128 = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        if i == start {
            return Err(DurationError::Unexpected(i));
        }
        let num = &s[start..i];
        let ustart = i;
        while i < bytes.len() && !(bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let unit = &s[ustart..i];
        let scale: u128 = match unit {
            "" => return Err(DurationError::MissingUnit),
            "h" => 3_600_000_000_000,
            "m" => 60_000_000_000,
            "s" => 1_000_000_000,
            "ms" => 1_000_000,
            "us" | "µs" | "μs" => 1_000,
            "ns" => 1,
            _ => {
                if unit.chars().all(|c| c.is_alphabetic()) {
                    return Err(DurationError::UnknownUnit);
                }
                let off = unit
                    .char_indices()
                    .find(|(_, c)| !c.is_alphabetic())
                    .map_or(0, |(o, _)| o);
                return Err(DurationError::Unexpected(ustart + off));
            }
        };
        let v = parse_decimal_scaled(num, scale).ok_or_else(|| decimal_error(num, start))?;
        total_ns = total_ns.checked_add(v).ok_or(DurationError::Overflow)?;
    }
    let ms = total_ns.div_ceil(1_000_000);
    u64::try_from(ms).map_err(|_| DurationError::Overflow)
}

/// Why `digits[.digits]` did not parse: too long a well-formed number overflows, anything else is unexpected.
fn decimal_error(num: &str, at: usize) -> DurationError {
    let well_formed =
        num.bytes().filter(|b| *b == b'.').count() <= 1 && num.bytes().any(|b| b.is_ascii_digit());
    if well_formed {
        DurationError::Overflow
    } else {
        DurationError::Unexpected(at)
    }
}

/// `digits[.digits]` times `scale`, exactly, as u128. None when not that shape or absurdly long.
pub(crate) fn parse_decimal_scaled(v: &str, scale: u128) -> Option<u128> {
    let (int, frac) = match v.split_once('.') {
        Some((i, f)) => (i, f),
        None => (v, ""),
    };
    if (int.is_empty() && frac.is_empty()) || int.len() > 20 || frac.len() > 30 {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if v.contains('.') && frac.is_empty() && int.is_empty() {
        return None;
    }
    let mut total: u128 = 0;
    for b in int.bytes() {
        total = total.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    total = total.checked_mul(scale)?;
    // The fraction: digits beyond the scale's resolution are rounded up.
    let mut unit = scale;
    let mut rest_nonzero = false;
    for b in frac.bytes() {
        if unit >= 10 {
            unit /= 10;
            total = total.checked_add(u128::from(b - b'0') * unit)?;
        } else if b != b'0' {
            rest_nonzero = true;
        }
    }
    if rest_nonzero {
        total += 1;
    }
    Some(total)
}

// ---------------------------------------------------------------------------------------------------------------
// Dates. Written here (no date crate) so the core stays small and builds for wasm32.

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
                29
            } else {
                28
            }
        }
    }
}

/// Unix milliseconds of a UTC civil time, validating every field (a leap second 60 is accepted as 59.999).
fn civil_ms(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32, frac_ms: u32) -> Option<i128> {
    if !(1..=12).contains(&mo) || d == 0 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 60
    {
        return None;
    }
    let (s, frac_ms) = if s == 60 { (59, 999) } else { (s, frac_ms) };
    let days = i128::from(days_from_civil(y, mo, d));
    Some(
        ((days * 24 + i128::from(h)) * 60 + i128::from(mi)) * 60_000
            + i128::from(s) * 1000
            + i128::from(frac_ms),
    )
}

fn digits(s: &str, n: usize) -> Option<u32> {
    if s.len() != n || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `HH:MM:SS` into its parts.
fn hms(s: &str) -> Option<(u32, u32, u32)> {
    let mut it = s.split(':');
    let h = digits(it.next()?, 2)?;
    let m = digits(it.next()?, 2)?;
    let sec = digits(it.next()?, 2)?;
    if it.next().is_some() {
        return None;
    }
    Some((h, m, sec))
}

/// Parses an RFC 3339 timestamp (`2024-03-13T18:31:10Z`, `2024-03-13T18:31:10.123456+02:00`) into Unix
/// milliseconds (fractions rounded up). `None` when it is not one.
pub fn parse_rfc3339_ms(s: &str) -> Option<i128> {
    let s = s.trim();
    if !s.is_ascii() || s.len() < 20 || s.len() > 64 {
        return None;
    }
    let b = s.as_bytes();
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let y = i64::from(digits(&s[0..4], 4)?);
    let mo = digits(&s[5..7], 2)?;
    let d = digits(&s[8..10], 2)?;
    let (h, mi, sec) = hms(&s[11..19])?;
    let mut rest = &s[19..];
    let mut frac_ms = 0u32;
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        let ns = parse_decimal_scaled(&format!("0.{}", &r[..n]), 1000)?;
        frac_ms = u32::try_from(ns).ok()?;
        rest = &r[n..];
    }
    let offset_min: i64 = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (oh, om) = rest[1..].split_once(':')?;
            let (oh, om) = (digits(oh, 2)?, digits(om, 2)?);
            if oh > 23 || om > 59 {
                return None;
            }
            sign * i64::from(oh * 60 + om)
        }
    };
    let ms = civil_ms(y, mo, d, h, mi, sec, 0)?;
    Some(ms + i128::from(frac_ms) - i128::from(offset_min) * 60_000)
}

fn month_of(s: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let l = s.to_ascii_lowercase();
    MONTHS.iter().position(|m| *m == l).map(|i| i as u32 + 1)
}

fn is_day_name(s: &str, long: bool) -> bool {
    const SHORT: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
    const LONG: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let l = s.to_ascii_lowercase();
    if long {
        LONG.contains(&l.as_str())
    } else {
        SHORT.contains(&l.as_str())
    }
}

/// Parses an HTTP-date (RFC 9110 §5.6.7) into Unix milliseconds: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// and the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994` forms. A
/// two-digit RFC 850 year that would lie more than 50 years after `now_ms` is taken to be in the past century,
/// as RFC 9110 asks. `None` when it is none of these.
pub fn parse_http_date_ms(s: &str, now_ms: u64) -> Option<i128> {
    let s = s.trim();
    if !s.is_ascii() || s.len() > 64 {
        return None;
    }
    let parts: Vec<&str> = s.split_ascii_whitespace().collect();
    match parts.as_slice() {
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        [day, dd, mon, yyyy, t, "GMT"]
            if day.ends_with(',') && is_day_name(&day[..day.len() - 1], false) =>
        {
            let d = digits(dd, 2)?;
            let mo = month_of(mon)?;
            let y = i64::from(digits(yyyy, 4)?);
            let (h, mi, sec) = hms(t)?;
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        [day, date, t, "GMT"] if day.ends_with(',') && is_day_name(&day[..day.len() - 1], true) => {
            let mut it = date.split('-');
            let d = digits(it.next()?, 2)?;
            let mo = month_of(it.next()?)?;
            let yy = i64::from(digits(it.next()?, 2)?);
            if it.next().is_some() {
                return None;
            }
            let (h, mi, sec) = hms(t)?;
            let now_year = 1970 + i64::try_from(now_ms / 31_556_952_000).ok()?;
            let mut y = (now_year / 100) * 100 + yy;
            if y > now_year + 50 {
                y -= 100;
            }
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        // asctime: Sun Nov  6 08:49:37 1994
        [day, mon, d, t, yyyy] if is_day_name(day, false) => {
            let mo = month_of(mon)?;
            let d: u32 = if d.len() <= 2 && d.bytes().all(|b| b.is_ascii_digit()) {
                d.parse().ok()?
            } else {
                return None;
            };
            let y = i64::from(digits(yyyy, 4)?);
            let (h, mi, sec) = hms(t)?;
            civil_ms(y, mo, d, h, mi, sec, 0)
        }
        _ => None,
    }
}

/// `YYYY-MM-DDTHH:00Z` for a Unix millisecond time.
pub fn iso_hour(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let hour = ms.rem_euclid(86_400_000) / 3_600_000;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}T{hour:02}:00Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_ms(1970, 1, 1, 0, 0, 0, 0), Some(0));
        assert_eq!(civil_ms(1994, 11, 6, 8, 49, 37, 0), Some(784_111_777_000));
        assert_eq!(civil_ms(2024, 2, 30, 0, 0, 0, 0), None);
        assert_eq!(civil_ms(2000, 2, 29, 0, 0, 0, 0), Some(951_782_400_000));
    }
}
