//! The line a host leaves on its stderr when the seccomp filter refuses a system call, just
//! before it dies of SIGSYS: `agon-host: seccomp refused system call NUMBER`. The host writes it
//! from its SIGSYS handler ([`super::sigsys_handler`]), so [`write_line`] neither allocates nor
//! locks; the engine reads the number back with [`last_refused_call`] to name the call in the
//! fault's detail.
//!
//! The bot shares that stderr and can print the same words. That is harmless: the host's death
//! by SIGSYS decides the fault's cause (`refused_syscall`), and the line only ever chooses which
//! call the detail names. The last well-formed line counts, since the host writes its own just
//! before it dies.

/// What the line starts with; the call's number follows, then a newline.
pub const MARKER: &str = "agon-host: seccomp refused system call ";

/// The longest line: the marker, a sign, the ten digits of an `i32` and the newline.
pub const LINE_CAPACITY: usize = MARKER.len() + crate::decimal::I32_WIDTH + 1;

/// Writes the line for call `number` into `line` and returns its length. Async-signal-safe:
/// no allocation, no lock, no formatting machinery.
pub fn write_line(number: i32, line: &mut [u8; LINE_CAPACITY]) -> usize {
    line[..MARKER.len()].copy_from_slice(MARKER.as_bytes());
    let len = crate::decimal::write_i32(number, line, MARKER.len());
    line[len] = b'\n';
    len + 1
}

/// The number in the last well-formed refusal line of `stderr`, if any. Anything else after
/// the marker (letters, a number out of an `int`'s range or not written as the host writes it)
/// makes that line not count; nothing in `stderr` can make this panic.
pub fn last_refused_call(stderr: &str) -> Option<i32> {
    stderr
        .rmatch_indices(MARKER)
        .find_map(|(at, _)| number_at_line_start(&stderr[at + MARKER.len()..]))
}

/// The `int` that `text` holds up to its first newline (or its end), written exactly as
/// [`write_line`] writes it: no sign but a minus, no leading zero, nothing else.
fn number_at_line_start(text: &str) -> Option<i32> {
    let line = text.split('\n').next().unwrap_or_default();
    // Longer cannot be an `int`; not parsed at all.
    if line.len() > crate::decimal::I32_WIDTH {
        return None;
    }
    let number: i32 = line.parse().ok()?;
    (number.to_string() == line).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(number: i32) -> String {
        let mut line = [0u8; LINE_CAPACITY];
        let len = write_line(number, &mut line);
        String::from_utf8(line[..len].to_vec()).unwrap()
    }

    #[test]
    fn a_formatted_line_reads_back_as_its_number() {
        for number in [0, 7, 56, 435, -1, i32::MAX, i32::MIN] {
            let line = formatted(number);
            assert_eq!(line, format!("{MARKER}{number}\n"));
            assert_eq!(last_refused_call(&line), Some(number), "{line:?}");
        }
    }

    #[test]
    fn the_last_well_formed_line_counts() {
        let stderr = format!(
            "thinking...\n{MARKER}41\npartial output{MARKER}56\n{MARKER}not a number\n{MARKER}"
        );
        assert_eq!(last_refused_call(&stderr), Some(56));
        // A line cut short at the end of the capture still counts if its number is whole.
        assert_eq!(last_refused_call(&format!("x\n{MARKER}59")), Some(59));
    }

    /// Random text made of the line's own pieces and of what could break a parser.
    #[test]
    fn random_text_never_panics_and_names_only_what_follows_a_marker() {
        use rand::{Rng, SeedableRng};
        let pieces = [
            MARKER,
            MARKER,
            "-",
            "0",
            "7",
            "56",
            "\n",
            "\r",
            " ",
            "é",
            "\u{0}",
            "x",
            "2147483647",
            "2147483648",
            "99999999999",
            "agon-host: ",
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        for _ in 0..20_000 {
            let len = rng.random_range(0..12);
            let text: String = (0..len)
                .map(|_| pieces[rng.random_range(0..pieces.len())])
                .collect();
            if let Some(number) = last_refused_call(&text) {
                assert!(text.contains(&format!("{MARKER}{number}")), "{text:?}");
            }
        }
    }

    #[test]
    fn hostile_text_never_panics_and_names_nothing() {
        let long_digits = "9".repeat(100_000);
        let hostile = [
            String::new(),
            MARKER.to_string(),
            format!("{MARKER}\n"),
            format!("{MARKER}-"),
            format!("{MARKER}--5\n"),
            format!("{MARKER}-0\n"),
            format!("{MARKER}056\n"),
            format!("{MARKER}+5\n"),
            format!("{MARKER} 5\n"),
            format!("{MARKER}5 \n"),
            format!("{MARKER}5\r\n"),
            format!("{MARKER}0x38\n"),
            format!("{MARKER}2147483648\n"),
            format!("{MARKER}-2147483649\n"),
            format!("{MARKER}99999999999\n"),
            format!("{MARKER}{long_digits}"),
            format!("{MARKER}٣\n"),
            format!("{MARKER}\u{0}\u{1b}[2J"),
            "agon-host: seccomp refused system call".to_string(),
            MARKER.repeat(10_000),
            "\u{fffd}".repeat(1000) + MARKER + "\u{fffd}",
        ];
        for text in hostile {
            assert_eq!(
                last_refused_call(&text),
                None,
                "{:?}",
                &text[..text.len().min(80)]
            );
        }
    }
}
