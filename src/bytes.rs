//! Byte searches for short spans, where a call into `memchr` costs more than the search.

/// The first of three bytes in `b`, like `memchr3`, which it calls only past the first
/// eight bytes: texts between references or tags and the names of references are often
/// shorter than that, and a word-at-a-time test costs less than the call. (Pass a byte
/// twice to look for two.)
pub(crate) fn find3(x: u8, y: u8, z: u8, b: &[u8]) -> Option<usize> {
    if let Some(word) = b.first_chunk::<8>() {
        if let Some(i) = first_in_word(word, [x, y, z]) {
            return Some(i);
        }
        return memchr::memchr3(x, y, z, &b[8..]).map(|i| i + 8);
    }
    b.iter().position(|&c| c == x || c == y || c == z)
}

/// The first of four bytes in `b`, eight bytes at a time to the end (no call into
/// `memchr`, which has no search for four): for short spans such as attribute values.
pub(crate) fn find4(needles: [u8; 4], b: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(word) = b.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        if let Some(i) = first_in_word(word, needles) {
            return Some(at + i);
        }
        at += 8;
    }
    b[at..]
        .iter()
        .position(|c| needles.contains(c))
        .map(|i| at + i)
}

/// The position in `word` of its first byte among `needles`, testing the eight bytes at
/// once.
#[inline]
fn first_in_word<const N: usize>(word: &[u8; 8], needles: [u8; N]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let w = u64::from_le_bytes(*word);
    let bits = needles.into_iter().fold(0, |bits, n| {
        let v = w ^ (ONES * u64::from(n));
        bits | v.wrapping_sub(ONES) & !v & HIGH
    });
    // The lowest flagged byte is exact: a borrow only runs towards higher ones.
    (bits != 0).then(|| (bits.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{find3, find4};

    /// A xorshift generator of numbers below `n`, from `seed`, for the crate's tests.
    pub(crate) fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).unwrap()
        }
    }

    #[test]
    fn find3_finds_what_memchr3_finds() {
        let mut next = below(0x2545_f491_4f6c_dd1d);
        // Bytes next to the needles (a borrow could flag a neighbour), high bytes, NUL.
        const ALPHABET: &[u8] = b"<&];:=\\%'a\x00\x80\xff";
        for _ in 0..20_000 {
            let len = next(24);
            let b: Vec<u8> = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
            for (x, y, z) in [(b'<', b'&', b']'), (b';', b'&', b'<')] {
                assert_eq!(find3(x, y, z, &b), memchr::memchr3(x, y, z, &b), "{b:?}");
            }
        }
    }

    #[test]
    fn find4_finds_the_first_of_its_bytes() {
        let mut next = below(0x9e37_79b9_7f4a_7c15);
        const ALPHABET: &[u8] = b"<>\"&=;:'a\x00\x80\xff";
        for _ in 0..20_000 {
            let len = next(40);
            let b: Vec<u8> = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
            for needles in [*b"<>\"&", *b";:=a", *b"\x00\x80\xff<"] {
                let expected = b.iter().position(|c| needles.contains(c));
                assert_eq!(find4(needles, &b), expected, "{b:?} {needles:?}");
            }
        }
    }
}
