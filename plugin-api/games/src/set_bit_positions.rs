//! A lookup table both bitboard games read: where a byte's set bits are. Breakthrough picks the
//! `n`th set bit of a move set with it (`breakthrough/bit_select.rs`), ReversiXT turns a byte of
//! direction flags into the directions (`reversixt/board_targets.rs`).

/// `SET_BIT_POSITIONS[byte][n]`: the position of the `n`th lowest set bit of `byte` (from 0),
/// and 0 where `byte` has fewer than `n + 1` set bits.
pub(crate) static SET_BIT_POSITIONS: [[u8; 8]; 256] = table();

const fn table() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        let mut seen = 0;
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][seen] = bit as u8;
                seen += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::SET_BIT_POSITIONS;

    #[test]
    fn every_byte_lists_its_set_bits_lowest_first_then_zeros() {
        for (byte, positions) in SET_BIT_POSITIONS.iter().enumerate() {
            let set: Vec<u8> = (0..8).filter(|bit| byte & (1 << bit) != 0).collect();
            assert_eq!(&positions[..set.len()], &set[..], "byte {byte:#04x}");
            assert!(
                positions[set.len()..].iter().all(|&p| p == 0),
                "byte {byte:#04x}"
            );
        }
    }
}
