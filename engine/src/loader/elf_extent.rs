//! How long an ELF file must be to be whole: its header says where its program headers,
//! section headers and segments lie, and a file cut short (a build being copied in place) ends
//! before the last of them. The hot-swap intake uses it so that it never takes a half-written
//! library, whatever the timing of the writer; the loader, so that no process ever maps one
//! (touching a mapped page past the end of its file is a SIGBUS).
//!
//! Field offsets are those of the ELF specification (System V ABI, "ELF Header" and "Program
//! Header"); both classes and both byte orders are read.

/// Where the header fields lie for one ELF class.
struct Layout {
    phoff: u64,
    shoff: u64,
    phentsize: u64,
    phnum: u64,
    shentsize: u64,
    shnum: u64,
    /// The size of a program header, and where `p_offset` and `p_filesz` lie inside one.
    program_header: usize,
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
    program_header: 0x20,
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
    program_header: 0x38,
    p_offset: 0x08,
    p_filesz: 0x20,
    word: 8,
};

/// Why a file is not the whole ELF file its header describes.
#[derive(Debug, thiserror::Error)]
pub enum ExtentError {
    /// No ELF magic number: not a library of any kind.
    #[error("the file does not start with the ELF magic number")]
    NotElf,
    #[error("a damaged ELF header: {0}")]
    Damaged(HeaderDamage),
    /// The file ends inside its own headers, or before where its header places them.
    #[error("cut short: {length} of the at least {needed} bytes its ELF headers describe")]
    HeadersCutShort { length: u64, needed: u64 },
    /// The file ends before the last of the segments or sections its header describes.
    #[error("cut short: {length} of the {claimed} bytes its ELF header describes")]
    CutShort { length: u64, claimed: u64 },
    /// The file could not be read where its headers lie.
    #[error("cannot read its ELF headers: {0}")]
    Unreadable(#[source] std::io::Error),
}

/// What is wrong with a header that no writer, however slow, would make whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderDamage {
    #[error("unknown ELF class {0}")]
    Class(u8),
    #[error("unknown ELF byte order {0}")]
    ByteOrder(u8),
    /// The dynamic linker takes no other size either.
    #[error("program headers of {size} bytes, not {expected}")]
    ProgramHeaderSize { size: u64, expected: u64 },
    /// Past a file's largest size (a signed 64-bit `off_t`), whatever the file's length.
    #[error("it places data at byte {0}, past the end of any file")]
    PastAnyFile(u64),
}

/// `Ok` when `bytes` hold the whole ELF file their header describes; otherwise why not.
pub fn check_complete(bytes: &[u8]) -> Result<(), ExtentError> {
    let length = bytes.len() as u64;
    let claimed = claimed_length(length, &mut |at, into| {
        // In bounds: `claimed_length` reads nothing past `length`.
        let start = at as usize;
        into.copy_from_slice(&bytes[start..start + into.len()]);
        Ok(())
    })?;
    within(length, claimed)
}

/// [`check_complete`] for an opened file of `length` bytes, reading only its headers (a
/// library is megabytes, its headers a few hundred bytes).
pub fn check_file(file: &std::fs::File, length: u64) -> Result<(), ExtentError> {
    use std::os::unix::fs::FileExt;
    let claimed = claimed_length(length, &mut |at, into| file.read_exact_at(into, at))?;
    within(length, claimed)
}

fn within(length: u64, claimed: u64) -> Result<(), ExtentError> {
    if length < claimed {
        return Err(ExtentError::CutShort { length, claimed });
    }
    Ok(())
}

/// Fills the buffer with the file's bytes from an offset (never past the file's length).
type ReadAt<'a> = dyn FnMut(u64, &mut [u8]) -> std::io::Result<()> + 'a;

/// The number of bytes the ELF file of `length` bytes, read through `read_at`, claims to span.
fn claimed_length(length: u64, read_at: &mut ReadAt<'_>) -> Result<u64, ExtentError> {
    let mut read = |at: u64, len: u64| -> Result<Vec<u8>, ExtentError> {
        let end = within_any_file(at.saturating_add(len))?;
        if end > length {
            return Err(ExtentError::HeadersCutShort {
                length,
                needed: end,
            });
        }
        // At most the file's length, and never more than a program header table's (below).
        let mut bytes = vec![0u8; len as usize];
        read_at(at, &mut bytes).map_err(ExtentError::Unreadable)?;
        Ok(bytes)
    };
    if length < 4 || read(0, 4)? != b"\x7fELF" {
        return Err(ExtentError::NotElf);
    }
    let ident = read(4, 2)?;
    let layout = match ident[0] {
        1 => &ELF32,
        2 => &ELF64,
        other => return Err(ExtentError::Damaged(HeaderDamage::Class(other))),
    };
    let little = match ident[1] {
        1 => true,
        2 => false,
        other => return Err(ExtentError::Damaged(HeaderDamage::ByteOrder(other))),
    };
    let mut field = |at: u64, len: usize| read(at, len as u64).map(|f| decode(&f, little));
    let word = layout.word;
    let phoff = field(layout.phoff, word)?;
    let shoff = field(layout.shoff, word)?;
    let phentsize = field(layout.phentsize, 2)?;
    let phnum = field(layout.phnum, 2)?;
    let shentsize = field(layout.shentsize, 2)?;
    let shnum = field(layout.shnum, 2)?;
    let mut end = shoff.saturating_add(shentsize.saturating_mul(shnum));
    if phnum == 0 {
        return within_any_file(end);
    }
    // The dynamic linker takes no other size either; it also bounds the table read below.
    if phentsize != layout.program_header as u64 {
        return Err(ExtentError::Damaged(HeaderDamage::ProgramHeaderSize {
            size: phentsize,
            expected: layout.program_header as u64,
        }));
    }
    let table = read(phoff, phentsize * phnum)?;
    end = end.max(phoff + phentsize * phnum);
    for header in table.chunks_exact(layout.program_header) {
        let offset = decode(&header[layout.p_offset..][..word], little);
        let size = decode(&header[layout.p_filesz..][..word], little);
        end = end.max(offset.saturating_add(size));
    }
    within_any_file(end)
}

/// `end`, unless it lies past the end of any file (a file's size is a signed 64-bit `off_t`):
/// then the header that gave it is damaged, whatever the file's length.
fn within_any_file(end: u64) -> Result<u64, ExtentError> {
    if end > i64::MAX as u64 {
        return Err(ExtentError::Damaged(HeaderDamage::PastAnyFile(end)));
    }
    Ok(end)
}

/// The unsigned number in `field`, in the file's byte order.
fn decode(field: &[u8], little: bool) -> u64 {
    let shift_in = |value: u64, byte: &u8| (value << 8) | u64::from(*byte);
    if little {
        field.iter().rev().fold(0, shift_in)
    } else {
        field.iter().fold(0, shift_in)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn this_executable() -> Vec<u8> {
        std::fs::read(std::env::current_exe().unwrap()).unwrap()
    }

    /// `bytes` as a file on disk, checked by [`check_file`].
    fn check_on_disk(bytes: &[u8]) -> Result<(), ExtentError> {
        let path = std::env::temp_dir().join(format!("agon-extent-{}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let checked = check_file(&file, bytes.len() as u64);
        std::fs::remove_file(&path).unwrap();
        checked
    }

    #[test]
    fn a_whole_file_is_complete_and_every_cut_is_not() {
        let bytes = this_executable();
        check_complete(&bytes).unwrap();
        check_on_disk(&bytes).unwrap();
        for cut in [0, 3, 5, 20, 64, 1000, bytes.len() / 2, bytes.len() - 1] {
            let in_memory = check_complete(&bytes[..cut]);
            assert!(
                in_memory.is_err(),
                "a file cut at {cut} of {} bytes passed",
                bytes.len()
            );
            assert_eq!(
                format!("{:?}", check_on_disk(&bytes[..cut])),
                format!("{in_memory:?}"),
                "cut at {cut}"
            );
        }
        let half = bytes.len() / 2;
        match check_complete(&bytes[..half]) {
            Err(ExtentError::CutShort { length, claimed }) => {
                assert_eq!(length, half as u64);
                assert!(claimed <= bytes.len() as u64 && claimed > half as u64);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nonsense_headers_give_errors_not_panics() {
        let header = this_executable()[..64].to_vec();
        let with_phoff = |phoff: u64| {
            let mut bytes = header.clone();
            bytes[0x20..0x28].copy_from_slice(&phoff.to_le_bytes());
            check_complete(&bytes)
        };
        assert!(matches!(
            with_phoff(1 << 40),
            Err(ExtentError::HeadersCutShort { .. })
        ));
        assert!(matches!(
            with_phoff(u64::MAX),
            Err(ExtentError::Damaged(HeaderDamage::PastAnyFile(_)))
        ));
        let mut far_sections = this_executable();
        far_sections[0x28..0x30].copy_from_slice(&(u64::MAX - 1).to_le_bytes()); // shoff
        assert!(matches!(
            check_complete(&far_sections),
            Err(ExtentError::Damaged(HeaderDamage::PastAnyFile(_)))
        ));
        let mut odd_entries = this_executable();
        odd_entries[0x36..0x38].copy_from_slice(&7u16.to_le_bytes()); // phentsize
        assert!(matches!(
            check_complete(&odd_entries),
            Err(ExtentError::Damaged(HeaderDamage::ProgramHeaderSize {
                size: 7,
                expected: 0x38
            }))
        ));
        assert!(matches!(
            check_complete(b"\x7fELF\x09\x01"),
            Err(ExtentError::Damaged(HeaderDamage::Class(9)))
        ));
        assert!(matches!(
            check_complete(b"\x7fELF\x01\x03"),
            Err(ExtentError::Damaged(HeaderDamage::ByteOrder(3)))
        ));
        assert!(matches!(check_complete(b"MZ"), Err(ExtentError::NotElf)));
        assert!(matches!(check_complete(b""), Err(ExtentError::NotElf)));
    }
}
