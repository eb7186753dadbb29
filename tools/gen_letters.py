#!/usr/bin/env python3
"""Generates src/decode/letters/data.rs: the alphabets and letter pairs of the languages
that the European single-byte code pages serve, for the letter-plausibility model
(src/decode/letters.rs).

Run from the crate root (needs `pip install wordfreq==3.1.1`):

    python3 tools/gen_letters.py > src/decode/letters/data.rs && cargo fmt

Facts used (no code is copied from anywhere):

* The alphabets below, written out by hand: the letters outside ASCII that each language
  writes (lower case), and those of them a code page may lack and still serve the
  language (French written in ISO-8859-1 spells `oe` for `œ`).
* How often each pair of letters occurs inside the words of each language: counted over
  the 50,000 most frequent words of the wordfreq 3.1.1 frequency lists (whose data are
  CC BY-SA 4.0), each word weighted by its frequency, leaving out words more frequent in
  English than in the language (loans such as `hey` or `online`). Only the resulting
  facts are kept: which pairs occur at all, and which occur often.

Where wordfreq has no list (Estonian, Belarusian) only the alphabet is written out and
every pair of its letters counts as plausible. Serbian Cyrillic is counted from the
Serbo-Croatian (Latin) list, transliterated letter by letter. wordfreq folds case the
Unicode way, so German `ß` comes back as `ss` and Greek final `ς` as `σ`; both are put
back (every `ss` of a German word also counts as `ß`; a Greek `σ` ending a word is `ς`).

A pair is two letters side by side inside a word, or a letter at the start (`^x`) or the
end (`x$`) of a word, written grouped by first letter (`ącd$` is `ąc`, `ąd` and `ą$`); pairs are counted on lower-case letters and only where at least
one letter is outside ASCII, or both are ASCII letters (or an ASCII letter and a word
boundary) of a Latin-script language.

Thresholds (share of all counted words in which the pair occurs, weighted by frequency):
a pair with a letter outside ASCII is plausible from 2 in a million, a pair of ASCII
letters from 5 in 100,000 (loanwords and names put nearly every ASCII pair in a list at
some low frequency); a pair is common from 1 in 10,000; a letter is a word on its own
(`à`, `è`, `í`, `в`) from 6 in 10,000.
"""

import sys

try:
    import wordfreq
except ImportError:  # pragma: no cover - a tool, not a test
    sys.exit("gen_letters.py needs wordfreq: pip install wordfreq==3.1.1")

WORDS = 50_000
PLAUSIBLE = 2e-6
PLAUSIBLE_ASCII = 5e-5
COMMON = 1e-4
ALONE = 6e-4

GREEK = "αάβγδεέζηήθιίϊΐκλμνξοόπρσςτυύϋΰφχψωώ"
RUSSIAN = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"

# code, wordfreq list (None: no list), letters outside ASCII (lower case), loan letters
LANGUAGES = [
    ("fr", "fr", "àâæçèéêëîïôœùûüÿ", "æœÿ"),
    ("de", "de", "äöüß", ""),
    ("es", "es", "áéíñóúü", ""),
    ("pt", "pt", "àáâãçéêíóôõú", ""),
    ("it", "it", "àèéìíîòóùú", ""),
    ("ca", "ca", "àçèéíïòóúü", ""),
    ("nl", "nl", "áèéëíïóöúü", ""),
    ("sv", "sv", "åäéö", ""),
    ("da", "da", "åæéø", ""),
    ("nb", "nb", "åæéòóôø", "òóô"),
    ("fi", "fi", "äåöšž", "šž"),
    ("is", "is", "áæðéíóöúýþ", ""),
    ("et", None, "äõöüšž", ""),
    ("pl", "pl", "ąćęłńóśźż", ""),
    ("cs", "cs", "áčďéěíňóřšťúůýž", ""),
    ("sk", "sk", "áäčďéíĺľňóôŕšťúýž", ""),
    ("hu", "hu", "áéíóöőúüű", ""),
    ("sl", "sl", "čćđšž", "ćđ"),
    ("hr", "sh", "čćđšž", ""),
    ("ro", "ro", "ăâîşţ", ""),
    ("tr", "tr", "âçğıîöşüû", "âîû"),
    ("lt", "lt", "ąčęėįšūųž", ""),
    ("lv", "lv", "āčēģīķļņšūž", ""),
    ("el", "el", GREEK, "ΐΰ"),
    ("ru", "ru", RUSSIAN, ""),
    ("uk", "uk", "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя", ""),
    ("be", None, "абвгдеёжзійклмнопрстуўфхцчшыьэюя", ""),
    ("bg", "bg", "абвгдежзийклмнопрстуфхцчшщъьюя", ""),
    ("sr", "sh", "абвгдђежзијклљмнњопрстћуфхцчџш", ""),
    ("mk", "mk", "абвгдѓежзѕијклљмнњопрстќуфхцчџш", ""),
]

SH_TO_SR = {
    "a": "а", "b": "б", "v": "в", "g": "г", "d": "д", "đ": "ђ", "e": "е", "ž": "ж",
    "z": "з", "i": "и", "j": "ј", "k": "к", "l": "л", "m": "м", "n": "н", "o": "о",
    "p": "п", "r": "р", "s": "с", "t": "т", "ć": "ћ", "u": "у", "f": "ф", "h": "х",
    "c": "ц", "č": "ч", "š": "ш",
}
SH_DIGRAPHS = {"lj": "љ", "nj": "њ", "dž": "џ"}


def to_serbian_cyrillic(word):
    out, i = [], 0
    while i < len(word):
        if word[i : i + 2] in SH_DIGRAPHS:
            out.append(SH_DIGRAPHS[word[i : i + 2]])
            i += 2
        elif word[i] in SH_TO_SR:
            out.append(SH_TO_SR[word[i]])
            i += 1
        else:
            return None
        continue
    return "".join(out)


def words(code, source, letters):
    """(word, frequency) pairs of the language's frequent words, spelled in its alphabet."""
    latin = all(ord(c) < 0x250 for c in letters)
    allowed = set(letters) | (set("abcdefghijklmnopqrstuvwxyz") if latin else set())
    for w in wordfreq.top_n_list(source, WORDS):
        f = wordfreq.word_frequency(w, source)
        # English words in other languages' lists (`hey`, `online`) are loans, not the
        # language's spelling.
        if source != "en" and wordfreq.word_frequency(w, "en") > f:
            continue
        if code == "sr":
            w = to_serbian_cyrillic(w)
            if w is None:
                continue
        w = w.replace("ș", "ş").replace("ț", "ţ")
        if code == "el" and w.endswith("σ"):
            w = w[:-1] + "ς"
        if not w or any(c not in allowed for c in w):
            continue
        yield w, f
        if code == "de" and "ss" in w:
            yield w.replace("ss", "ß"), f


def counts(code, source, letters):
    pairs, alone, total = {}, {}, 0.0
    for w, f in words(code, source, letters):
        total += f
        if len(w) == 1:
            if ord(w) >= 0x80:
                alone[w] = alone.get(w, 0.0) + f
            continue
        s = "^" + w + "$"
        for a, b in zip(s, s[1:]):
            pairs[a + b] = pairs.get(a + b, 0.0) + f
    return {k: v / total for k, v in pairs.items()}, {k: v / total for k, v in alone.items()}


def grouped(pairs):
    """Pairs written by first letter: `ąc ąd ą$` is `ącd$`; groups space-separated."""
    groups = {}
    for p in pairs:
        groups.setdefault(p[0], []).append(p[1])
    return " ".join(a + "".join(bs) for a, bs in sorted(groups.items()))


def rust_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    out = []
    w = out.append
    w("// @generated by tools/gen_letters.py — do not edit by hand.")
    w("// Regenerate: python3 tools/gen_letters.py > src/decode/letters/data.rs && cargo fmt")
    w("// Facts: hand-written alphabets, and letter pairs counted over the wordfreq 3.1.1")
    w("// frequency lists (CC BY-SA 4.0 data; only which pairs occur, and how often, is kept).")
    w("")
    w("use super::Language;")
    w("")
    w("/// Every language the model knows, Latin script first, then Greek, then Cyrillic.")
    w("pub(super) const LANGUAGES: &[Language] = &[")
    for code, source, letters, loan in LANGUAGES:
        letters = "".join(sorted(set(letters)))
        if source is None:
            common = rare = alone = ""
        else:
            pairs, singles = counts(code, source, letters)
            common_l, rare_l = [], []
            for k in sorted(pairs):
                v = pairs[k]
                ascii_pair = all(ord(c) < 0x80 for c in k)
                if v < (PLAUSIBLE_ASCII if ascii_pair else PLAUSIBLE):
                    continue
                (common_l if v >= COMMON else rare_l).append(k)
            common, rare = grouped(common_l), grouped(rare_l)
            alone = "".join(sorted(k for k, v in singles.items() if v >= ALONE))
        w("    Language {")
        w(f"        code: {rust_str(code)},")
        w(f"        letters: {rust_str(letters)},")
        w(f"        loan: {rust_str(loan)},")
        w(f"        counted: {'true' if source else 'false'},")
        w(f"        common: {rust_str(common)},")
        w(f"        rare: {rust_str(rare)},")
        w(f"        alone: {rust_str(alone)},")
        w("    },")
    w("];")
    print("\n".join(out))


if __name__ == "__main__":
    main()
