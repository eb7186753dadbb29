//! chardetng, fed a bounded prefix, and the script family of a charset (used to decide
//! whether a guess contradicts a label strongly enough to override it).

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

use crate::charset::Script;

/// Bytes fed to chardetng per step (small: feeding stops soon after enough evidence).
const CHUNK: usize = 512;

/// chardetng's guess for `bytes`, looking at no more than `limit` bytes and stopping
/// early once `enough` non-ASCII bytes were fed (past that the guess no longer changes in
/// practice, and feeding more only costs time); `None` when that prefix is
/// pure ASCII without ISO-2022 escapes (chardetng would only echo its default).
/// Returns the guess and the number of non-ASCII bytes fed.
///
/// chardetng is fed the [words](words) of the prefix that hold a non-ASCII byte, not
/// the markup and ASCII prose between them: it runs every byte through each of its 27
/// candidates (several hundred instructions a byte), and a feed's prefix is mostly tags.
pub(crate) fn guess(
    bytes: &[u8],
    limit: usize,
    enough: usize,
    tld: Option<&[u8]>,
) -> Option<(&'static encoding_rs::Encoding, usize)> {
    let prefix = &bytes[..bytes.len().min(limit)];
    let first = encoding_rs::Encoding::ascii_valid_up_to(prefix);
    let esc = memchr::memchr(0x1B, &prefix[..first]).is_some();
    if first == prefix.len() && !esc {
        return None;
    }
    // Where feeding stops: whole chunks until enough evidence, as the guess has always
    // been taken (the chunk size only bounds the overshoot).
    let mut non_ascii = 0;
    let mut fed = 0;
    while fed < prefix.len() && non_ascii < enough {
        let end = (fed + CHUNK).min(prefix.len());
        non_ascii += prefix[fed..end].iter().filter(|&&b| b >= 0x80).count();
        fed = end;
    }
    let seen = &prefix[..fed];
    let mut det = EncodingDetector::new(Iso2022JpDetection::Allow);
    // Never `last`: a document cut short mid-character (a truncated download) must
    // not disqualify its own encoding; the chain reads such a tail as truncation.
    // (`seen` always reaches past the leading ASCII, where `esc` looked.)
    if memchr::memchr(0x1B, seen).is_some() {
        // ISO-2022-JP is all ASCII bytes: its escapes and what they shift belong together.
        det.feed(seen, false);
    } else {
        det.feed(&words(seen), false);
    }
    Some((
        refine(det.guess(tld, Utf8Detection::Allow), seen),
        non_ascii,
    ))
}

/// The words of `bytes` that hold a non-ASCII byte, spaced apart: a word is
/// a run of bytes between ASCII whitespace, controls, `<` and `>`.
///
/// chardetng scores a byte only against its neighbour and tracks letter case within a
/// word; a space, a control and markup punctuation are all "not a letter" to it, and a
/// pair of ASCII bytes scores nothing in any candidate. So the words around non-ASCII
/// bytes, apart, carry every score the whole text does (a test holds the guesses equal).
/// No multi-byte charset it knows has a lead or trail byte at or below 0x20 or at `<` or
/// `>` (Shift_JIS, Big5 and GBK trail bytes start at 0x40, GB18030's four-byte forms
/// use digits), so no character is cut.
fn words(bytes: &[u8]) -> Vec<u8> {
    let delimiter = |b: u8| b <= b' ' || b == b'<' || b == b'>';
    let mut out = Vec::with_capacity(bytes.len() / 2);
    let mut at = 0;
    while let Some(skip) = bytes[at..].iter().position(|&b| b >= 0x80) {
        let hit = at + skip;
        let start = bytes[at..hit]
            .iter()
            .rposition(|&b| delimiter(b))
            .map_or(at, |p| at + p + 1);
        let end = bytes[hit..]
            .iter()
            .position(|&b| delimiter(b))
            .map_or(bytes.len(), |p| hit + p);
        out.extend_from_slice(&bytes[start..end]);
        // A word the prefix cuts short may end mid-character: no space after it.
        if end < bytes.len() {
            out.push(b' ');
        }
        at = end;
    }
    out
}

/// The bytes at which KOI8-U and KOI8-R differ (Ukrainian letters vs box drawing).
const KOI8_U_ONLY: [u8; 8] = [0xA4, 0xA6, 0xA7, 0xAD, 0xB4, 0xB6, 0xB7, 0xBD];

/// A chardetng guess refined for reporting: KOI8-U on bytes that never touch the
/// positions where it differs from KOI8-R decodes exactly as KOI8-R, the far more common
/// label (and the one chardet reports).
fn refine(guess: &'static encoding_rs::Encoding, bytes: &[u8]) -> &'static encoding_rs::Encoding {
    if guess == encoding_rs::KOI8_U && !bytes.iter().any(|b| KOI8_U_ONLY.contains(b)) {
        encoding_rs::KOI8_R
    } else {
        guess
    }
}

/// The name chardet (and so feedparser) reports for a chardetng guess.
pub(crate) fn chardet_name(e: &'static encoding_rs::Encoding) -> &'static str {
    use encoding_rs::*;
    match e {
        e if e == BIG5 => "Big5",
        e if e == EUC_JP => "EUC-JP",
        e if e == EUC_KR => "EUC-KR",
        e if e == GBK => "GB2312",
        e if e == GB18030 => "GB18030",
        e if e == SHIFT_JIS => "SHIFT_JIS",
        e if e == ISO_2022_JP => "ISO-2022-JP",
        e if e == KOI8_R => "KOI8-R",
        e if e == KOI8_U => "KOI8-U",
        e if e == IBM866 => "IBM866",
        e if e == X_MAC_CYRILLIC => "MacCyrillic",
        e if e == WINDOWS_874 => "TIS-620",
        e if e == WINDOWS_1252 => "Windows-1252",
        e if e == UTF_8 => "utf-8",
        e => e.name(),
    }
}

/// Whether `text` reads as natural text of a Korean or Japanese charset's script, from
/// its East Asian characters: Korean prose is mostly Hangul syllables with hardly any
/// standalone jamo, Japanese prose
/// always has kana and next to no halfwidth katakana (the mark of Chinese or Korean
/// bytes read as Shift_JIS). `None` for other scripts, or with fewer than four such
/// characters to judge.
pub(crate) fn cjk_plausible(text: &str, script: Script) -> Option<bool> {
    if !matches!(script, Script::Korean | Script::Japanese) {
        return None;
    }
    let (mut hangul, mut han, mut kana, mut halfwidth) = (0usize, 0usize, 0usize, 0usize);
    let mut jamo = 0usize;
    // Every character counted here takes three bytes in UTF-8: read those from the
    // bytes, skipping ASCII runs, rather than decoding every character.
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(skip) = bytes[at..].iter().position(|&b| b >= 0x80) {
        at += skip;
        let lead = bytes[at];
        let width = match lead {
            0xF0.. => 4,
            0xE0.. => 3,
            _ => 2,
        };
        if width == 3
            && let Some(&[b1, b2]) = bytes.get(at + 1..at + 3)
        {
            let c =
                (u32::from(lead & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F);
            match c {
                0xAC00..=0xD7A3 => hangul += 1,
                // Standalone jamo: what Japanese kana become when read as EUC-KR.
                0x3131..=0x318E => jamo += 1,
                0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0xF900..=0xFAFF => han += 1,
                0x3041..=0x30FF => kana += 1,
                0xFF61..=0xFF9F => halfwidth += 1,
                _ => {}
            }
        }
        at += width;
    }
    let total = hangul + han + kana + halfwidth + jamo;
    if total < 4 {
        return None;
    }
    Some(match script {
        Script::Korean => hangul * 2 >= total && jamo * 20 < total,
        _ => hangul == 0 && kana * 10 >= total && halfwidth * 10 < total,
    })
}

/// The writing system of a letter, for spotting words that mix them.
fn letter_script(c: char) -> u8 {
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => 1,
        0x370..=0x3FF | 0x1F00..=0x1FFF => 2,
        0x400..=0x52F => 3,
        0x590..=0x5FF => 4,
        0x600..=0x6FF | 0x750..=0x77F => 5,
        0xE00..=0xE7F => 6,
        _ => 0,
    }
}

/// Combining marks and the letters of abugidas and abjads whose vowel and tone signs
/// `char::is_alphabetic` does not cover: they belong inside words.
fn word_char(c: char) -> bool {
    alpha(c)
        || matches!(c as u32, 0x300..=0x36F | 0x483..=0x489 | 0x591..=0x5C7 | 0x610..=0x61A
            | 0x64B..=0x65F | 0x670 | 0x6D6..=0x6ED | 0xE00..=0xE7F | 0x1DC0..=0x1DFF)
}

/// What [`marks`] counts in a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Marks {
    /// Marks of mojibake, counted over non-ASCII characters: C1 controls and `¤`; a
    /// symbol between two letters (`wiadomo¶ci`, `c½ur`); a capital after a lower-case
    /// letter (`CafŽ`) or inside a word (`MŸnchner`); a word mixing Latin, Greek,
    /// Cyrillic, Hebrew, Arabic or Thai letters (`انâاçرة`). Apostrophes, soft hyphens and
    /// middle dots are fine.
    pub anomalies: usize,
    /// Letters outside ASCII.
    pub non_ascii_letters: usize,
    /// ASCII letters right before or after a non-ASCII letter.
    pub ascii_neighbours: usize,
}

impl Marks {
    /// True when the text looks wrong or foreign to a Latin reading: some marks of
    /// mojibake, or words made of non-ASCII letters only (`Íîâîñòè`, which is what
    /// Cyrillic or Greek bytes read through a Latin code page look like; Latin-script
    /// prose puts ASCII letters around its accented ones: `déjà`).
    pub(crate) fn suspicious(self) -> bool {
        self.anomalies > 0
            || (self.non_ascii_letters >= 4 && self.ascii_neighbours * 4 < self.non_ascii_letters)
    }
}

/// `char::is_alphabetic` with the Latin-1 and common Latin Extended range answered
/// without a table lookup (the hot case here).
fn alpha(c: char) -> bool {
    match c as u32 {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0xD6 | 0xD8..=0xF6 | 0xF8..=0x24F => true,
        0..=0xBF => matches!(c, 'ª' | 'µ' | 'º'),
        _ => c.is_alphabetic(),
    }
}

/// What [`marks`] reads of a character, each answer the standard library's: bits
/// [`ALPHA`], [`WORD`], [`UPPER`], [`LOWER`].
#[derive(Clone, Copy)]
struct Traits(u8);

const ALPHA: u8 = 1;
const WORD: u8 = 2;
const UPPER: u8 = 4;
const LOWER: u8 = 8;

impl Traits {
    fn of(c: char) -> Self {
        let bit = |on: bool, bit: u8| if on { bit } else { 0 };
        Traits(
            bit(alpha(c), ALPHA)
                | bit(word_char(c), WORD)
                | bit(c.is_uppercase(), UPPER)
                | bit(c.is_lowercase(), LOWER),
        )
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// [`Traits`] of the characters a text repeats, looked up in a small direct-mapped table
/// instead of the standard library's Unicode tables (a text uses a few dozen non-ASCII
/// characters, each judged with its two neighbours).
struct TraitCache([(char, Traits); 64]);

impl TraitCache {
    fn new() -> Self {
        TraitCache([('\0', Traits::of('\0')); 64])
    }

    #[inline(always)]
    fn get(&mut self, c: char) -> Traits {
        if c.is_ascii() {
            let letter = if c.is_ascii_alphabetic() {
                ALPHA | WORD
            } else {
                0
            };
            let case = if c.is_ascii_uppercase() {
                UPPER
            } else if c.is_ascii_lowercase() {
                LOWER
            } else {
                0
            };
            return Traits(letter | case);
        }
        let slot = &mut self.0[c as usize % 64];
        if slot.0 != c {
            *slot = (c, Traits::of(c));
        }
        slot.1
    }
}

/// The [`Marks`] of a decoded text, in one pass that skips ASCII runs. With
/// `c1_as_cp1252`, C1 controls count as the windows-1252 characters they stand for (the
/// parser reads them so).
pub(crate) fn marks(text: &str, c1_as_cp1252: bool) -> Marks {
    let read = |c: char| match c {
        '\u{80}'..='\u{9F}' if c1_as_cp1252 => {
            let byte = [c as u32 as u8];
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&byte)
                .0
                .chars()
                .next()
                .unwrap_or(c)
        }
        c => c,
    };
    let bytes = text.as_bytes();
    let mut marks = Marks::default();
    let mut traits = TraitCache::new();
    // The last non-ASCII character judged (as read): the next one's neighbour when no
    // ASCII byte stands between them.
    let mut last = ' ';
    let mut at = 0;
    // Only non-ASCII characters are judged: skip ASCII runs (a SIMD scan).
    loop {
        let start = at + encoding_rs::Encoding::ascii_valid_up_to(&bytes[at..]);
        let Some(raw) = text[start..].chars().next() else {
            break;
        };
        at = start + raw.len_utf8();
        let prev = match start.checked_sub(1).map(|i| bytes[i]) {
            None => ' ',
            Some(b) if b.is_ascii() => char::from(b),
            // Every non-ASCII character is judged, in order: the one before is the last.
            Some(_) => last,
        };
        let next = match bytes.get(at) {
            None => ' ',
            Some(&b) if b.is_ascii() => char::from(b),
            Some(_) => text[at..].chars().next().map_or(' ', read),
        };
        let cur = read(raw);
        last = cur;
        let (p, n, c) = (traits.get(prev), traits.get(next), traits.get(cur));
        let odd = match cur {
            '\u{80}'..='\u{9F}' | '¤' => true,
            // A pilcrow touching a letter (`¶ρχισε`, `wiadomo¶ci`): a letter's byte read
            // through a sibling code page.
            '¶' => p.has(ALPHA) || n.has(ALPHA),
            '’' | '‘' | '·' | '\u{AD}' | '‐' | '‑' => false,
            _ if !c.has(WORD) => p.has(ALPHA) && n.has(ALPHA),
            _ if c.has(UPPER) => p.has(LOWER) || (p.has(ALPHA) && n.has(LOWER)),
            _ => {
                let (a, b) = (letter_script(prev), letter_script(cur));
                p.has(ALPHA) && a != 0 && b != 0 && a != b
            }
        };
        marks.anomalies += usize::from(odd);
        if c.has(ALPHA) {
            marks.non_ascii_letters += 1;
            marks.ascii_neighbours +=
                usize::from(prev.is_ascii_alphabetic()) + usize::from(next.is_ascii_alphabetic());
        }
    }
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn koi8_u_without_ukrainian_letters_is_koi8_r() {
        let (russian, _, _) = encoding_rs::KOI8_R.encode("Новости дня");
        assert_eq!(refine(encoding_rs::KOI8_U, &russian), encoding_rs::KOI8_R);
        let (ukrainian, _, _) = encoding_rs::KOI8_U.encode("Україна і світ");
        assert_eq!(refine(encoding_rs::KOI8_U, &ukrainian), encoding_rs::KOI8_U);
        assert_eq!(refine(encoding_rs::BIG5, &russian), encoding_rs::BIG5);
    }

    fn anomalies(text: &str, c1_as_cp1252: bool) -> usize {
        marks(text, c1_as_cp1252).anomalies
    }

    #[test]
    fn anomalies_mark_mojibake_not_natural_text() {
        for natural in [
            "Zażółć gęślą jaźń; don’t; l·lengua; Tin tức Hà Nội",
            "Новости дня; Ελληνικά νέα; חדשות היום; أخبار اليوم; ข่าววันนี้",
            "McDonald's; São Paulo; 15 € und ½ Liter",
        ] {
            assert_eq!(anomalies(natural, false), 0, "{natural}");
        }
        assert_eq!(anomalies("wiadomo¶ci", false), 1);
        assert_eq!(anomalies("c½ur à 15 ¤", false), 2);
        assert_eq!(anomalies("MŸnchner; CafŽ", false), 2);
        assert_eq!(anomalies("انâاçرة", false), 4); // every switch of script counts
        assert_eq!(anomalies("don\u{92}t", false), 1);
        assert_eq!(anomalies("\u{93}don\u{92}t\u{94} cost \u{80}5", true), 0);
    }

    /// `marks` as first written: every neighbour decoded from the text, every trait
    /// asked of the standard library.
    fn marks_plain(text: &str, c1_as_cp1252: bool) -> Marks {
        let read = |c: char| match c {
            '\u{80}'..='\u{9F}' if c1_as_cp1252 => {
                let byte = [c as u32 as u8];
                let decoded = encoding_rs::WINDOWS_1252
                    .decode_without_bom_handling(&byte)
                    .0;
                decoded.chars().next().unwrap_or(c)
            }
            c => c,
        };
        let mut marks = Marks::default();
        for (start, raw) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
            let at = start + raw.len_utf8();
            let prev = text[..start].chars().next_back().map_or(' ', read);
            let next = text[at..].chars().next().map_or(' ', read);
            let cur = read(raw);
            let odd = match cur {
                '\u{80}'..='\u{9F}' | '¤' => true,
                '¶' => alpha(prev) || alpha(next),
                '’' | '‘' | '·' | '\u{AD}' | '‐' | '‑' => false,
                c if !word_char(c) => alpha(prev) && alpha(next),
                c if c.is_uppercase() => {
                    prev.is_lowercase() || (alpha(prev) && next.is_lowercase())
                }
                c => {
                    let (a, b) = (letter_script(prev), letter_script(c));
                    alpha(prev) && a != 0 && b != 0 && a != b
                }
            };
            marks.anomalies += usize::from(odd);
            if alpha(cur) {
                marks.non_ascii_letters += 1;
                marks.ascii_neighbours += usize::from(prev.is_ascii_alphabetic())
                    + usize::from(next.is_ascii_alphabetic());
            }
        }
        marks
    }

    #[test]
    fn marks_agree_with_the_plain_reading() {
        // Characters of every kind the rules tell apart, some sharing a cache slot
        // (`é` U+E9 and `©` U+A9, `Ж` U+416 and `V` U+56 are 64 apart).
        let pool: Vec<char> = "aZ q.,;'\"<>& \n\t0éÉàÀßøŒœŸž©®™¤¶’‘·\u{AD}‐‑–—…€“”«»¿¡µªº½²\
            \u{80}\u{81}\u{8A}\u{92}\u{9C}\u{9F}ЖжДдΑαΩωאבاب\u{64B}ขก\u{E31}\u{301}한日ǅ\u{1E9E}ﬁ"
            .chars()
            .collect();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(12);
            let text: String = (0..len).map(|_| pool[next(pool.len())]).collect();
            for c1 in [false, true] {
                assert_eq!(marks(&text, c1), marks_plain(&text, c1), "{text:?} {c1}");
            }
        }
        for text in [
            "Zażółć gęślą jaźń; don’t; l·lengua; Tin tức Hà Nội",
            "Новости дня; Ελληνικά νέα; חדשות היום; أخبار اليوم; ข่าววันนี้",
            "MŸnchner; CafŽ; wiadomo¶ci; c½ur à 15 ¤; انâاçرة",
        ] {
            for c1 in [false, true] {
                assert_eq!(marks(text, c1), marks_plain(text, c1), "{text}");
            }
        }
    }

    #[test]
    fn foreign_letters_are_suspicious_to_a_latin_reading() {
        let (cyrillic, _, _) = encoding_rs::WINDOWS_1251.encode("Новости дня в Москве");
        let as_latin1 = encoding_rs::WINDOWS_1252.decode(&cyrillic).0;
        assert!(marks(&as_latin1, false).suspicious(), "{as_latin1}");
        assert!(!marks("Ça coûte 5 €, déjà vu à Besançon", false).suspicious());
        let with_markup =
            format!("<rss version='2.0'><channel><title>{as_latin1}</title></channel></rss>");
        assert!(marks(&with_markup, false).suspicious());
    }

    /// chardetng fed every byte of the prefix `guess` reads, chunk by chunk.
    pub(crate) fn guess_whole(
        bytes: &[u8],
        limit: usize,
        enough: usize,
    ) -> Option<(&'static str, usize)> {
        let prefix = &bytes[..bytes.len().min(limit)];
        if prefix.is_ascii() && memchr::memchr(0x1B, prefix).is_none() {
            return None;
        }
        let mut det = EncodingDetector::new(Iso2022JpDetection::Allow);
        let (mut non_ascii, mut fed) = (0, 0);
        while fed < prefix.len() && non_ascii < enough {
            let end = (fed + CHUNK).min(prefix.len());
            non_ascii += prefix[fed..end].iter().filter(|&&b| b >= 0x80).count();
            det.feed(&prefix[fed..end], false);
            fed = end;
        }
        Some((
            refine(det.guess(None, Utf8Detection::Allow), &prefix[..fed]).name(),
            non_ascii,
        ))
    }

    /// Prose of many scripts, for documents in every charset that writes it.
    const PROSE: &[&str] = &[
        "Le président a annoncé mercredi une réforme des retraites; « C’est très beau », dit-elle.",
        "In München öffnet am Montag eine neue Bücherei; die Straßenbahn fährt wieder.",
        "El niño pidió una canción en la estación de Logroño, ¿verdad? ¡Sí!",
        "Zażółć gęślą jaźń: Przyjaciel z Łodzi przyjechał wczoraj do Wrocławia.",
        "Příliš žluťoučký kůň úpěl ďábelské ódy v Brně a Ostravě.",
        "İstanbul’da yağmur: Çarşamba günü şiddetli fırtına bekleniyor, ağaçlar devrildi.",
        "Lietuvos krepšininkai laimėjo; Rīgā šodien līst, Tallinnas öö on külm.",
        "Новости дня: в Москве открылась новая выставка современного искусства.",
        "Україна і світ: їжачок з’їв ґудзик на подвір’ї.",
        "Ελληνικά νέα: Η Αθήνα φιλοξενεί το φεστιβάλ του καλοκαιριού.",
        "חדשות היום: ראש הממשלה נפגש עם שר האוצר בירושלים.",
        "أخبار اليوم: افتتاح معرض الكتاب الدولي في القاهرة.",
        "ข่าววันนี้: กรุงเทพมหานครเตรียมจัดงานลอยกระทง",
        "Tin tức Hà Nội: Thủ tướng chủ trì phiên họp Chính phủ thường kỳ.",
        "東京都は新しい公園を開きました。週末には多くの家族が訪れています。",
        "北京市今天举行新闻发布会，介绍城市交通建设的最新进展。",
        "臺北市政府宣布，明年將擴大公共運輸的服務範圍與班次。",
        "서울시는 내일부터 새로운 버스 노선을 운행한다고 밝혔습니다.",
    ];

    /// Every charset of encoding_rs with an encoder of its own (UTF-16 aside).
    const CHARSETS: &[&encoding_rs::Encoding] = &[
        encoding_rs::WINDOWS_1250,
        encoding_rs::WINDOWS_1251,
        encoding_rs::WINDOWS_1252,
        encoding_rs::WINDOWS_1253,
        encoding_rs::WINDOWS_1254,
        encoding_rs::WINDOWS_1255,
        encoding_rs::WINDOWS_1256,
        encoding_rs::WINDOWS_1257,
        encoding_rs::WINDOWS_1258,
        encoding_rs::WINDOWS_874,
        encoding_rs::ISO_8859_2,
        encoding_rs::ISO_8859_5,
        encoding_rs::ISO_8859_7,
        encoding_rs::ISO_8859_8,
        encoding_rs::ISO_8859_13,
        encoding_rs::ISO_8859_15,
        encoding_rs::KOI8_R,
        encoding_rs::KOI8_U,
        encoding_rs::IBM866,
        encoding_rs::SHIFT_JIS,
        encoding_rs::EUC_JP,
        encoding_rs::ISO_2022_JP,
        encoding_rs::GBK,
        encoding_rs::GB18030,
        encoding_rs::BIG5,
        encoding_rs::EUC_KR,
        encoding_rs::UTF_8,
    ];

    #[test]
    fn the_words_give_the_guess_of_the_whole_prefix() {
        let mut checked = 0;
        for (i, prose) in PROSE.iter().enumerate() {
            for &charset in CHARSETS {
                let (bytes, _, unmappable) = charset.encode(prose);
                if unmappable {
                    continue;
                }
                // A feed's shape: markup, ASCII prose and URLs between the text, the
                // text in titles, escaped markup and attributes, cut at several points.
                let mut doc = b"<?xml version='1.0'?><rss version='2.0'><channel>".to_vec();
                for n in 0..6 {
                    doc.extend_from_slice(b"<item><title>");
                    doc.extend_from_slice(&bytes);
                    doc.extend_from_slice(b"</title>\n<link>http://example.com/a?b=1&amp;c</link>");
                    doc.extend_from_slice(b"<description>&lt;p&gt;Read more: ");
                    doc.extend_from_slice(&bytes[..bytes.len() / (n + 1)]);
                    doc.extend_from_slice(
                        b" and the PDF (2 MB) in ALLCAPS.&lt;/p&gt;</description>",
                    );
                    doc.extend_from_slice(b"<category domain=\"");
                    doc.extend_from_slice(&bytes[..bytes.len() / 3]);
                    doc.extend_from_slice(b"\">x</category></item>\r\n\t");
                }
                for (limit, enough) in [
                    (doc.len(), usize::MAX),
                    (1024, 128),
                    (700 + i, 64),
                    (97, 16),
                ] {
                    let words = guess(&doc, limit, enough, None).map(|(g, n)| (g.name(), n));
                    assert_eq!(
                        words,
                        guess_whole(&doc, limit, enough),
                        "{prose} in {} to {limit}",
                        charset.name()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn alpha_agrees_with_unicode() {
        for c in (0..0x3000).filter_map(char::from_u32) {
            assert_eq!(alpha(c), c.is_alphabetic(), "{c:?}");
        }
    }

    #[test]
    fn cjk_plausibility_reads_characters_from_their_bytes() {
        // The verdict from characters decoded one by one.
        let by_chars = |text: &str, script: Script| {
            let count = |r: &[std::ops::RangeInclusive<u32>]| {
                text.chars()
                    .filter(|&c| r.iter().any(|r| r.contains(&(c as u32))))
                    .count()
            };
            let hangul = count(&[0xAC00..=0xD7A3]);
            let jamo = count(&[0x3131..=0x318E]);
            let han = count(&[0x4E00..=0x9FFF, 0x3400..=0x4DBF, 0xF900..=0xFAFF]);
            let kana = count(&[0x3041..=0x30FF]);
            let halfwidth = count(&[0xFF61..=0xFF9F]);
            let total = hangul + han + kana + halfwidth + jamo;
            (total >= 4).then(|| match script {
                Script::Korean => hangul * 2 >= total && jamo * 20 < total,
                _ => hangul == 0 && kana * 10 >= total && halfwidth * 10 < total,
            })
        };
        let texts = [
            "서울시는 내일부터 새로운 버스 노선을 운행한다고 밝혔습니다.",
            "東京都は新しい公園を開きました。週末には多くの家族が訪れています。",
            "北京市今天举行新闻发布会 ｱｲｳｴｵ ｶｷｸ",
            "ㄱㄴㄷㄹㅁㅂ 한국 ㅅㅇ",
            "é😀日本語🎉ｶﾀｶﾅ café ひらがな ñ",
            "ascii only",
        ];
        for text in texts {
            for script in [Script::Korean, Script::Japanese] {
                assert_eq!(
                    cjk_plausible(text, script),
                    by_chars(text, script),
                    "{text}"
                );
            }
        }
        assert_eq!(cjk_plausible(texts[0], Script::Korean), Some(true));
        assert_eq!(cjk_plausible(texts[1], Script::Japanese), Some(true));
        assert_eq!(cjk_plausible(texts[2], Script::Japanese), Some(false));
    }

    #[test]
    fn ascii_only_gives_no_guess() {
        assert_eq!(
            guess(b"<rss><title>plain</title></rss>", 1024, 512, None),
            None
        );
    }

    #[test]
    fn cyrillic_is_recognised_and_bounded() {
        let text =
            "Новости дня: в Москве открылась новая выставка современного искусства. ".repeat(4);
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
        let (g, n) = guess(&bytes, 64, 512, None).unwrap();
        assert_eq!(g, encoding_rs::WINDOWS_1251);
        assert!(n <= 64, "looked past the limit: {n}");
        let long = bytes.repeat(200);
        let (_, n) = guess(&long, usize::MAX, 512, None).unwrap();
        assert!(n < 512 + CHUNK, "kept feeding after enough evidence: {n}");
        assert_eq!(
            crate::charset::Charset::for_encoding(g).script(),
            Script::Cyrillic
        );
    }

    #[test]
    fn iso_2022_jp_escapes_count_as_evidence() {
        let (bytes, _, _) = encoding_rs::ISO_2022_JP.encode("<title>日本語のニュース</title>");
        let (g, _) = guess(&bytes, 4096, 512, Some(b"jp")).unwrap();
        assert_eq!(g, encoding_rs::ISO_2022_JP);
    }
}
