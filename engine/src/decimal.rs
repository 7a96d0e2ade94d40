//! Decimal digits written into a fixed buffer: for signal handlers (the host's SIGSYS report,
//! the engine's crash evidence), which may neither allocate nor lock nor use `format!`.

/// Most characters an `i32` takes: a sign and ten digits.
pub const I32_WIDTH: usize = 11;

/// Writes `number` in decimal into `out` from `at`, returning the position after it. `out` must
/// have [`I32_WIDTH`] bytes free from `at`.
pub fn write_i32(number: i32, out: &mut [u8], at: usize) -> usize {
    let mut len = at;
    if number < 0 {
        out[len] = b'-';
        len += 1;
    }
    // Widened first: the magnitude of i32::MIN does not fit an i32.
    let mut magnitude = (number as i64).unsigned_abs();
    let mut digits = [0u8; I32_WIDTH];
    let mut count = 0;
    loop {
        digits[count] = b'0' + (magnitude % 10) as u8;
        count += 1;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    for &digit in digits[..count].iter().rev() {
        out[len] = digit;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_as_written() {
        for number in [0, 7, -1, 11, 4096, i32::MAX, i32::MIN] {
            let mut out = [0u8; 2 + I32_WIDTH];
            let end = write_i32(number, &mut out, 2);
            let text = std::str::from_utf8(&out[2..end]).unwrap();
            assert_eq!(text.parse::<i32>().unwrap(), number);
        }
    }
}
