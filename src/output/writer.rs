//! A JSON writer for `serde` values that gives exactly `serde_json`'s compact output,
//! with a faster string escape.
//!
//! Why hand-written: feeds are mostly text, and writing the contract is mostly escaping
//! strings. `serde_json` tests every byte of a string against its escape table, and
//! that loop cannot be replaced through its `Formatter` hooks. This writer looks at eight
//! bytes at a time and only goes byte by byte in a block that holds a byte to escape (a
//! control character, `"` or `\`); everything else (numbers, the structure of maps and
//! sequences) is written the way `serde_json` writes it, numbers by `serde_json` itself.
//! The tests compare both writers' bytes on the corpus shapes and on random strings.

use std::io::Write;

use serde::Serialize;
use serde::ser::{self, Impossible};

/// Result of writing.
type Result<T = ()> = std::result::Result<T, serde_json::Error>;

/// Writes `value` as compact JSON, the bytes `serde_json::to_writer` writes.
///
/// # Errors
///
/// The writer's error, or a value `serde_json` cannot write either (a map key that is
/// not a string, a number or a boolean).
pub fn to_writer<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result {
    value.serialize(&mut Json {
        w: writer,
        plain_key: false,
    })
}

/// A map key that needs no escape (one of the model's literal keys): this writer copies
/// it as it is, without looking at its bytes; any other serializer sees the string
/// itself (it is a newtype struct of it).
pub(crate) struct PlainKey<'a>(pub(crate) &'a str);

/// The newtype name [`PlainKey`] is recognised by, compared by address (no string
/// comparison per key).
static PLAIN_KEY: &str = "$feed_decoder::PlainKey";

impl Serialize for PlainKey<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        debug_assert!(self.0.bytes().all(|c| ESCAPE[usize::from(c)] == 0));
        s.serialize_newtype_struct(PLAIN_KEY, self.0)
    }
}

/// The serializer.
struct Json<W> {
    w: W,
    /// The map key being written is a [`PlainKey`].
    plain_key: bool,
}

fn io(e: std::io::Error) -> serde_json::Error {
    serde_json::Error::io(e)
}

impl<W: Write> Json<W> {
    fn raw(&mut self, s: &[u8]) -> Result {
        self.w.write_all(s).map_err(io)
    }

    /// A number (or anything else) exactly as `serde_json` writes it.
    fn like_serde_json<T: Serialize>(&mut self, v: T) -> Result {
        serde_json::to_writer(&mut self.w, &v)
    }

    /// A string, quoted and escaped (see [`write_string`]).
    #[inline]
    fn string(&mut self, s: &str) -> Result {
        write_string(&mut self.w, s).map_err(io)
    }
}

/// Writes `s` as a JSON string, quoted and escaped. Short ones without a byte to escape
/// (most keys and many values) are written at once, without the word-at-a-time loop's
/// setup.
#[inline]
pub(crate) fn write_string<W: Write + ?Sized>(w: &mut W, s: &str) -> std::io::Result<()> {
    if s.len() <= 12 && s.bytes().all(|c| ESCAPE[usize::from(c)] == 0) {
        w.write_all(b"\"")?;
        w.write_all(s.as_bytes())?;
        return w.write_all(b"\"");
    }
    long_string(w, s)
}

fn long_string<W: Write + ?Sized>(w: &mut W, s: &str) -> std::io::Result<()> {
    if (REPEATED..=MAX_REPEATED).contains(&s.len()) {
        return repeatable_string(w, s);
    }
    w.write_all(b"\"")?;
    escape_into(w, s)?;
    w.write_all(b"\"")
}

/// A long string, escaped once when it comes twice in a row among the long ones (a
/// summary and its `summary_detail.value`, which the contract writes one after the
/// other): the last long string and its escaped form are kept, and an equal one is
/// copied out instead of escaped again.
#[inline(never)]
fn repeatable_string<W: Write + ?Sized>(w: &mut W, s: &str) -> std::io::Result<()> {
    LAST_LONG.with(|last| {
        let mut last = last.borrow_mut();
        let (source, escaped) = &mut *last;
        if source.as_slice() != s.as_bytes() {
            source.clear();
            source.extend_from_slice(s.as_bytes());
            escaped.clear();
            escaped.push(b'"');
            escape_into(escaped, s)?;
            escaped.push(b'"');
        }
        w.write_all(escaped)
    })
}

/// Strings at least this long go through [`Json::repeatable_string`]...
const REPEATED: usize = 256;

/// ...and at most this long (the copies kept stay small).
const MAX_REPEATED: usize = 1 << 16;

thread_local! {
    /// The last long string written on this thread and its escaped, quoted form.
    static LAST_LONG: std::cell::RefCell<(Vec<u8>, Vec<u8>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Bytes that need an escape: 0 none, `u` a `\u00XX` escape, else the letter of a short
/// one (`serde_json`'s table).
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// The high bit of each of the eight bytes of `x` (read little-endian) that is below
/// 0x20, `"` or `\\`, and possibly of bytes after such a byte: the lowest set bit is
/// always a byte that needs an escape (a borrow only runs towards higher bytes).
#[inline]
fn escape_bits(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v;
    let below_space = x.wrapping_sub(ONES * 0x20) & !x;
    (below_space | zero_in(x ^ (ONES * u64::from(b'"'))) | zero_in(x ^ (ONES * u64::from(b'\\'))))
        & HIGH
}

/// Writes `b[*copied..at]` and then the escape of the byte at `at`.
fn write_escape<W: Write + ?Sized>(
    w: &mut W,
    b: &[u8],
    copied: &mut usize,
    at: usize,
) -> std::io::Result<()> {
    let c = b[at];
    let e = ESCAPE[usize::from(c)];
    w.write_all(&b[*copied..at])?;
    *copied = at + 1;
    if e == b'u' {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        w.write_all(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(c >> 4)],
            HEX[usize::from(c & 0xf)],
        ])
    } else {
        w.write_all(&[b'\\', e])
    }
}

/// Writes `s` escaped as in a JSON string (without the quotes): eight bytes at a time,
/// jumping straight to the first byte of a word that needs an escape.
fn escape_into<W: Write + ?Sized>(w: &mut W, s: &str) -> std::io::Result<()> {
    let b = s.as_bytes();
    let mut copied = 0;
    let mut i = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        let bits = escape_bits(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if bits == 0 {
            i += 8;
            // Long runs without an escape go sixteen bytes per test.
            while let Some(pair) = b.get(i..i + 16) {
                let lo = u64::from_le_bytes(pair[..8].try_into().expect("eight bytes"));
                let hi = u64::from_le_bytes(pair[8..].try_into().expect("eight bytes"));
                if escape_bits(lo) | escape_bits(hi) != 0 {
                    break;
                }
                i += 16;
            }
            continue;
        }
        let at = i + (bits.trailing_zeros() / 8) as usize;
        write_escape(w, b, &mut copied, at)?;
        i = at + 1;
    }
    for at in i..b.len() {
        if ESCAPE[usize::from(b[at])] != 0 {
            write_escape(w, b, &mut copied, at)?;
        }
    }
    w.write_all(&b[copied..])
}

/// A map, sequence or struct being written: whether the next item is the first.
struct Compound<'a, W> {
    ser: &'a mut Json<W>,
    first: bool,
    /// The closing bytes (`}` or `]`, and one more `}` for a variant).
    close: &'static [u8],
}

impl<W: Write> Compound<'_, W> {
    fn comma(&mut self) -> Result {
        if self.first {
            self.first = false;
            Ok(())
        } else {
            self.ser.raw(b",")
        }
    }

    fn done(self) -> Result {
        self.ser.raw(self.close)
    }
}

/// `serialize_*` methods that all hand their value to `self.$how`.
macro_rules! numbers {
    ($how:ident: $($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result {
                self.$how(v)
            }
        )*
    };
}

/// A compound trait whose items go the way of a sequence's elements (`$method(v)`) or
/// of a map's entries (`key`: `serialize_field(key, v)`).
macro_rules! forward {
    ($trait:ident, key) => {
        impl<W: Write> ser::$trait for Compound<'_, W> {
            type Ok = ();
            type Error = serde_json::Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result {
                ser::SerializeMap::serialize_entry(self, key, v)
            }
            fn end(self) -> Result {
                self.done()
            }
        }
    };
    ($trait:ident, $method:ident) => {
        impl<W: Write> ser::$trait for Compound<'_, W> {
            type Ok = ();
            type Error = serde_json::Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
                ser::SerializeSeq::serialize_element(self, v)
            }
            fn end(self) -> Result {
                self.done()
            }
        }
    };
}

impl<'a, W: Write> ser::Serializer for &'a mut Json<W> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    fn serialize_bool(self, v: bool) -> Result {
        self.raw(if v { b"true" } else { b"false" })
    }
    numbers!(like_serde_json: serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64));
    fn serialize_char(self, v: char) -> Result {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result {
        self.string(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        self.like_serde_json(v)
    }
    fn serialize_none(self) -> Result {
        self.raw(b"null")
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.raw(b"null")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.raw(b"null")
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result {
        self.raw(b"{")?;
        self.string(variant)?;
        self.raw(b":")?;
        v.serialize(&mut *self)?;
        self.raw(b"}")
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, W>> {
        compound(self, None, b"[", b"]")
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, W>> {
        compound(self, Some(variant), b"[", b"]}")
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, W>> {
        compound(self, None, b"{", b"}")
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, W>> {
        compound(self, Some(variant), b"{", b"}}")
    }
}

/// Opens a sequence or map (inside `{"variant":` for an enum variant); `close` ends it.
fn compound<'a, W: Write>(
    ser: &'a mut Json<W>,
    variant: Option<&str>,
    open: &[u8],
    close: &'static [u8],
) -> Result<Compound<'a, W>> {
    if let Some(v) = variant {
        ser.raw(b"{")?;
        ser.string(v)?;
        ser.raw(b":")?;
    }
    ser.raw(open)?;
    Ok(Compound {
        ser,
        first: true,
        close,
    })
}

impl<W: Write> ser::SerializeSeq for Compound<'_, W> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        self.comma()?;
        v.serialize(&mut *self.ser)
    }
    fn end(self) -> Result {
        self.done()
    }
}

// Tuples write as sequences.
forward!(SerializeTuple, serialize_element);
forward!(SerializeTupleStruct, serialize_field);
forward!(SerializeTupleVariant, serialize_field);

impl<W: Write> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result {
        self.comma()?;
        k.serialize(MapKey {
            ser: &mut *self.ser,
        })
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        self.ser.raw(b":")?;
        v.serialize(&mut *self.ser)
    }
    fn end(self) -> Result {
        self.done()
    }
}

// Structs write as maps.
forward!(SerializeStruct, key);
forward!(SerializeStructVariant, key);

/// A map key: a string as it is; a number or boolean quoted (as `serde_json` does);
/// anything else an error.
struct MapKey<'a, W> {
    ser: &'a mut Json<W>,
}

impl<W: Write> MapKey<'_, W> {
    fn quoted(self, v: impl Serialize) -> Result {
        self.ser.raw(b"\"")?;
        self.ser.like_serde_json(v)?;
        self.ser.raw(b"\"")
    }
}

fn key_error() -> serde_json::Error {
    ser::Error::custom("key must be a string")
}

impl<W: Write> ser::Serializer for MapKey<'_, W> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Impossible<(), serde_json::Error>;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;

    fn serialize_str(self, v: &str) -> Result {
        if std::mem::take(&mut self.ser.plain_key) {
            self.ser.raw(b"\"")?;
            self.ser.raw(v.as_bytes())?;
            return self.ser.raw(b"\"");
        }
        self.ser.string(v)
    }
    fn serialize_char(self, v: char) -> Result {
        self.ser.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.ser.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, v: &T) -> Result {
        // Only a `PlainKey` holds this very name; it holds a string.
        self.ser.plain_key = std::ptr::eq(name, PLAIN_KEY);
        v.serialize(self)
    }
    numbers!(quoted: serialize_bool(bool), serialize_i8(i8), serialize_i16(i16),
        serialize_i32(i32), serialize_i64(i64), serialize_i128(i128), serialize_u8(u8),
        serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_u128(u128));
    fn serialize_f32(self, v: f32) -> Result {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(key_error())
        }
    }
    fn serialize_f64(self, v: f64) -> Result {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(key_error())
        }
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(key_error())
    }
    fn serialize_none(self) -> Result {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result {
        Err(key_error())
    }
    fn serialize_unit(self) -> Result {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(key_error())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(key_error())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(key_error())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Keys of a map: plain ones (the model's literals) and ones to escape, in turn.
    struct Keys<'a>(&'a [(&'a str, bool)]);

    impl Serialize for Keys<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(None)?;
            for &(k, plain) in self.0 {
                if plain {
                    m.serialize_entry(&PlainKey(k), k)?;
                } else {
                    m.serialize_entry(k, k)?;
                }
            }
            m.end()
        }
    }

    #[test]
    fn long_strings_written_again_are_the_same_bytes() {
        let mut next = crate::bytes::tests::below(0x0dd1_ce5e_ed00_b1e5);
        const PIECES: &[&str] = &["a", "\"", "\\", "\n", "é", "\u{1}", "<p>", " "];
        let long = |next: &mut dyn FnMut(usize) -> usize, n: usize| -> String {
            (0..n).map(|_| PIECES[next(PIECES.len())]).collect()
        };
        for _ in 0..300 {
            // Around the bounds of the strings kept, repeated in a row and not, equal
            // strings that are different objects.
            let lens = [
                REPEATED / 2,
                REPEATED,
                REPEATED + 7,
                3 * REPEATED,
                MAX_REPEATED + 1,
            ];
            let (la, lb) = (lens[next(lens.len())], lens[next(lens.len())]);
            let a = long(&mut next, la);
            let b = long(&mut next, lb);
            let a2 = a.clone();
            let values = json!([a, a2, b, a, b, b, "short", a]);
            let (ours, theirs) = both(&values);
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn plain_keys_are_written_as_serde_json_writes_them() {
        let keys = [
            ("title", true),
            ("a\"b", false),
            ("summary_detail", true),
            ("new\nline", false),
            ("published_parsed", true),
            ("x", false),
        ];
        let (ours, theirs) = both(&Keys(&keys));
        assert_eq!(ours, theirs);
        // After a plain key, a key to escape is escaped (the mark does not linger).
        assert!(ours.contains(r#""a\"b":"a\"b""#), "{ours}");
    }

    fn both<T: Serialize + ?Sized>(v: &T) -> (String, String) {
        let mut ours = Vec::new();
        to_writer(&mut ours, v).expect("ours");
        let theirs = serde_json::to_vec(v).expect("serde_json");
        (
            String::from_utf8(ours).unwrap(),
            String::from_utf8(theirs).unwrap(),
        )
    }

    #[test]
    fn runs_of_escapes_at_any_offset_escape_as_serde_json_does() {
        // Several bytes needing an escape in one eight-byte word, next to each other and
        // apart, at every alignment.
        const ALPHABET: &[char] = &['a', '"', '\\', '\n', '\u{1}', '\u{1f}', ' ', 'é', '€', '<'];
        let mut next = crate::bytes::tests::below(0x9e37_79b9);
        for _ in 0..3000 {
            let len = next(40);
            let s: String = (0..len).map(|_| ALPHABET[next(ALPHABET.len())]).collect();
            let (ours, theirs) = both(&s);
            assert_eq!(ours, theirs, "{s:?}");
        }
    }

    #[test]
    fn every_byte_value_escapes_as_serde_json_escapes_it() {
        // Each ASCII byte (and a multi-byte character) at every offset of a 24-byte
        // string, so that it lands in every lane of a block and in the tail.
        let pad = "abcdefghijklmnopqrstuvwx";
        for c in (0u8..0x80)
            .map(char::from)
            .chain(['é', '€', '\u{2028}', '😀'])
        {
            for at in 0..=pad.len() {
                let s = format!("{}{c}{}", &pad[..at], &pad[at..]);
                let (ours, theirs) = both(&s);
                assert_eq!(ours, theirs, "{c:?} at {at}");
            }
        }
    }

    #[test]
    fn random_strings_and_values_match_serde_json() {
        // A small deterministic generator over a byte alphabet rich in escapes.
        let alphabet: Vec<char> = "ab\"\\\n\t\r\u{1}\u{1f} é€/<>&'\u{7f}".chars().collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 40) as usize;
            let s: String = (0..len)
                .map(|k| alphabet[((x >> (k % 50)) as usize + k * 7) % alphabet.len()])
                .collect();
            let (ours, theirs) = both(&s);
            assert_eq!(ours, theirs, "{s:?}");
        }
        let v = json!({
            "a": [1, -2, 3.5, 1e300, 0.1, null, true, false, "x\u{0}y"],
            "nested": {"k": {"z": [], "y": {}}, "": "empty key"},
            "f": 1.0, "big": u64::MAX, "neg": i64::MIN,
        });
        let (ours, theirs) = both(&v);
        assert_eq!(ours, theirs);
    }

    #[test]
    fn the_contract_matches_serde_json_on_a_parsed_feed() {
        let feed = b"<?xml version='1.0'?><rss version='2.0'><channel><title>T \"q\" \\</title>\
            <item><title>a\tb</title><description>&lt;p&gt;x&lt;/p&gt;</description>\
            <pubDate>Thu, 01 Jan 2004 19:48:21 GMT</pubDate><category>c</category>\
            <enclosure url='http://e/a.mp3' length='10' type='audio/mpeg'/></item>\
            </channel></rss>";
        let parsed = crate::parse(feed, &crate::Transport::Local);
        let (ours, theirs) = both(&parsed);
        assert_eq!(ours, theirs);
    }

    #[test]
    fn every_serde_shape_matches_serde_json() {
        #[derive(Serialize)]
        enum E {
            Unit,
            Newtype(u8),
            Tuple(i32, &'static str),
            Struct { a: Option<bool>, b: Vec<char> },
        }
        #[derive(Serialize)]
        struct S<'a> {
            e: Vec<E>,
            t: (u8, f32),
            unit: (),
            bytes: &'a [u8],
            keys: std::collections::BTreeMap<i64, bool>,
        }
        let v = S {
            e: vec![
                E::Unit,
                E::Newtype(7),
                E::Tuple(-1, "t\n"),
                E::Struct {
                    a: None,
                    b: vec!['"', 'é'],
                },
            ],
            t: (1, 0.5),
            unit: (),
            bytes: b"ab",
            keys: [(-3, true), (4, false)].into_iter().collect(),
        };
        let (ours, theirs) = both(&v);
        assert_eq!(ours, theirs);
    }

    #[test]
    fn write_errors_come_back() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let e = to_writer(Full, &json!({"a": "b"})).expect_err("a write error");
        assert_eq!(e.io_error_kind(), Some(std::io::ErrorKind::BrokenPipe));
    }
}
