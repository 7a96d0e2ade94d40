//! How long an ELF file must be to be whole: its header says where its program headers,
//! section headers and segments lie, and a file cut short (a build being copied in place) ends
//! before the last of them. The hot-swap intake uses it so that it never takes a half-written
//! library, whatever the timing of the writer.
//!
//! Field offsets are those of the ELF specification (System V ABI, "ELF Header" and "Program
//! Header"); both classes and both byte orders are read.

/// Where the header fields lie for one ELF class.
struct Layout {
    phoff: usize,
    shoff: usize,
    phentsize: usize,
    phnum: usize,
    shentsize: usize,
    shnum: usize,
    /// Offsets of `p_offset` and `p_filesz` inside a program header.
    p_offset: usize,
    p_filesz: usize,
    word: usize,
}

const ELF32: Layout = Layout {
    phoff: 0x1c,
    shoff: 0x20,
    phentsize: 0x2a,
    phnum: 0x2c,
    shentsize: 0x2e,
    shnum: 0x30,
    p_offset: 0x04,
    p_filesz: 0x10,
    word: 4,
};

const ELF64: Layout = Layout {
    phoff: 0x20,
    shoff: 0x28,
    phentsize: 0x36,
    phnum: 0x38,
    shentsize: 0x3a,
    shnum: 0x3c,
    p_offset: 0x08,
    p_filesz: 0x20,
    word: 8,
};

/// The number of bytes the ELF file starting with `bytes` claims to span, or why the bytes do
/// not tell (too short to hold the headers, not ELF).
pub fn claimed_length(bytes: &[u8]) -> Result<u64, String> {
    if !bytes.starts_with(b"\x7fELF") {
        return Err("not an ELF file".into());
    }
    let layout = match bytes.get(4) {
        Some(1) => &ELF32,
        Some(2) => &ELF64,
        Some(other) => return Err(format!("unknown ELF class {other}")),
        None => return Err("shorter than an ELF header".into()),
    };
    let little = match bytes.get(5) {
        Some(1) => true,
        Some(2) => false,
        Some(other) => return Err(format!("unknown ELF byte order {other}")),
        None => return Err("shorter than an ELF header".into()),
    };
    let read = |at: usize, len: usize| -> Result<u64, String> {
        let field = at
            .checked_add(len)
            .and_then(|end| bytes.get(at..end))
            .ok_or_else(|| format!("cut short inside the ELF headers (at byte {at})"))?;
        let mut value = 0u64;
        for i in 0..len {
            let byte = if little { field[len - 1 - i] } else { field[i] };
            value = (value << 8) | u64::from(byte);
        }
        Ok(value)
    };
    let word = layout.word;
    let phoff = read(layout.phoff, word)?;
    let shoff = read(layout.shoff, word)?;
    let phentsize = read(layout.phentsize, 2)?;
    let phnum = read(layout.phnum, 2)?;
    let shentsize = read(layout.shentsize, 2)?;
    let shnum = read(layout.shnum, 2)?;
    let mut end = shoff
        .saturating_add(shentsize.saturating_mul(shnum))
        .max(phoff.saturating_add(phentsize.saturating_mul(phnum)));
    for i in 0..phnum {
        let header = usize::try_from(phoff.saturating_add(i.saturating_mul(phentsize)))
            .map_err(|_| "program header offset out of range".to_string())?;
        let offset = read(header.saturating_add(layout.p_offset), word)?;
        let size = read(header.saturating_add(layout.p_filesz), word)?;
        end = end.max(offset.saturating_add(size));
    }
    Ok(end)
}

/// `Ok` when `bytes` hold the whole ELF file their header describes; otherwise how much is
/// missing.
pub fn check_complete(bytes: &[u8]) -> Result<(), String> {
    let claimed = claimed_length(bytes)?;
    if (bytes.len() as u64) < claimed {
        return Err(format!(
            "cut short: {} of the {claimed} bytes its ELF header describes",
            bytes.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn this_executable() -> Vec<u8> {
        std::fs::read(std::env::current_exe().unwrap()).unwrap()
    }

    #[test]
    fn a_whole_file_is_complete_and_every_cut_is_not() {
        let bytes = this_executable();
        check_complete(&bytes).unwrap();
        let claimed = claimed_length(&bytes).unwrap();
        assert!(claimed <= bytes.len() as u64 && claimed > bytes.len() as u64 / 2);
        for cut in [0, 3, 20, 64, 1000, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                check_complete(&bytes[..cut]).is_err(),
                "a file cut at {cut} of {} bytes passed",
                bytes.len()
            );
        }
    }

    #[test]
    fn nonsense_headers_give_errors_not_panics() {
        let mut bytes = this_executable()[..64].to_vec();
        bytes[0x20..0x28].copy_from_slice(&u64::MAX.to_le_bytes()); // phoff
        assert!(check_complete(&bytes).is_err());
        assert!(check_complete(b"\x7fELF\x09").is_err());
        assert!(check_complete(b"MZ").is_err());
    }
}
