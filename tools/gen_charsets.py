#!/usr/bin/env python3
"""Generates src/charset/tables.rs: the single-byte decode tables and the label table.

Run from the crate root:

    python3 tools/gen_charsets.py > src/charset/tables.rs && cargo fmt

Facts used (no code is copied from anywhere):

* Python's own codecs: ``bytes([b]).decode(codec)`` for every byte of every single-byte
  code page Python ships, and ``encodings.aliases.aliases`` for the label table.
* glibc's charmaps (``/usr/share/i18n/charmaps/*.gz``) for the code pages Python lacks
  (TCVN 5712, VISCII, EBCDIC 1047/277/…), and glibc's ``gconv-modules`` alias lines for
  more labels (IANA-style names such as ``csISOLatin1``, ``MS-ANSI``, ``WINBALTRIM``).
* encoding_rs's WHATWG label list (read out of its ``lib.rs`` in the cargo registry),
  re-targeted where the XML/IANA meaning differs from the WHATWG one.

Each charset also gets the facts the decoder judges readings by (``Facts``): its script
(the Unicode script most of its non-ASCII letters belong to), EBCDIC (the letter A at
0xC1), the euro twin of an EBCDIC page, whether 0x80-0x9F hold text, and which pages put
the Russian letters at the same bytes — all read off the tables — plus two policy lists
written out below: the Western defaults and the Windows/ISO sibling pairs.

Label priority: explicit entries below > Python > glibc > WHATWG. Conflicts are printed
to stderr for review.
"""

import codecs
import glob
import gzip
import os
import re
import subprocess
import sys
import encodings.aliases
import unicodedata

# ---------------------------------------------------------------------------
# Label normalisation: Python's encodings.normalize_encoding on the lower-cased label,
# restricted to ASCII (the Rust side rejects non-ASCII labels).


def norm(label):
    out = []
    punct = False
    for c in label.strip().lower():
        if (c.isascii() and c.isalnum()) or c == ".":
            if punct and out:
                out.append("_")
            out.append(c)
            punct = False
        else:
            punct = True
    return "".join(out)


# ---------------------------------------------------------------------------
# Single-byte code pages.

# Python single-byte codecs (module name -> canonical name used by this crate).
PY_TABLES = {}
for mod in [
    "cp037", "cp1006", "cp1026", "cp1125", "cp1140", "cp1250", "cp1251", "cp1252",
    "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "cp273", "cp424",
    "cp437", "cp500", "cp720", "cp737", "cp775", "cp850", "cp852", "cp855", "cp856",
    "cp857", "cp858", "cp860", "cp861", "cp862", "cp863", "cp864", "cp865", "cp866",
    "cp869", "cp874", "cp875", "hp_roman8", "iso8859_10", "iso8859_11", "iso8859_13",
    "iso8859_14", "iso8859_15", "iso8859_16", "iso8859_2", "iso8859_3", "iso8859_4",
    "iso8859_5", "iso8859_6", "iso8859_7", "iso8859_8", "iso8859_9", "koi8_r", "koi8_t",
    "koi8_u", "kz1048", "mac_arabic", "mac_croatian", "mac_cyrillic", "mac_farsi",
    "mac_greek", "mac_iceland", "mac_latin2", "mac_roman", "mac_romanian", "mac_turkish",
    "palmos", "ptcp154", "tis_620",
]:
    name = codecs.lookup(mod).name
    m = re.fullmatch(r"cp(125\d|874)", name)
    if m:
        name = "windows-" + m.group(1)
    m = re.fullmatch(r"iso8859-(\d+)", name)
    if m:
        name = "iso-8859-" + m.group(1)
    if name == "mac-roman":
        name = "macintosh"
    PY_TABLES[mod] = name

# glibc charmaps for code pages Python lacks: charmap file -> canonical name.
GLIBC_TABLES = {
    "IBM1047": "cp1047",
    "IBM277": "cp277",
    "IBM278": "cp278",
    "IBM280": "cp280",
    "IBM284": "cp284",
    "IBM285": "cp285",
    "IBM297": "cp297",
    "IBM870": "cp870",
    "IBM871": "cp871",
    "TCVN5712-1": "tcvn5712-1",
    "VISCII": "viscii",
    "KOI8-RU": "koi8-ru",
    "MAC-UK": "mac-ukrainian",
}

# glibc iconv modules for code pages with neither a Python codec nor a charmap file here:
# the euro-updated EBCDIC pages (each its base page with U+20AC at 0x9F).
ICONV_TABLES = {f"IBM{n}": f"cp{n}" for n in range(1141, 1150)}

# IANA names of the euro EBCDIC pages (IBM0114x, CCSID0114x, CP0114x, ebcdic-…+euro).
EURO_EBCDIC = {
    1140: ["ebcdic-us-37+euro"], 1141: ["ebcdic-de-273+euro"],
    1142: ["ebcdic-dk-277+euro", "ebcdic-no-277+euro"],
    1143: ["ebcdic-fi-278+euro", "ebcdic-se-278+euro"], 1144: ["ebcdic-it-280+euro"],
    1145: ["ebcdic-es-284+euro"], 1146: ["ebcdic-gb-285+euro"], 1147: ["ebcdic-fr-297+euro"],
    1148: ["ebcdic-international-500+euro"], 1149: ["ebcdic-is-871+euro"],
}


# Candidate encoding_rs partners: the page is decoded by encoding_rs, after a scan for
# the bytes this table leaves undefined. tests/charset_tables.rs proves every partner
# agrees with the table on every defined byte.
WHATWG_PARTNER = {
    "windows-1250": "WINDOWS_1250", "windows-1251": "WINDOWS_1251",
    "windows-1252": "WINDOWS_1252", "windows-1253": "WINDOWS_1253",
    "windows-1254": "WINDOWS_1254", "windows-1255": "WINDOWS_1255",
    "windows-1256": "WINDOWS_1256", "windows-1257": "WINDOWS_1257",
    "windows-1258": "WINDOWS_1258", "windows-874": "WINDOWS_874",
    "iso-8859-2": "ISO_8859_2", "iso-8859-3": "ISO_8859_3", "iso-8859-4": "ISO_8859_4",
    "iso-8859-5": "ISO_8859_5", "iso-8859-6": "ISO_8859_6", "iso-8859-7": "ISO_8859_7",
    "iso-8859-8": "ISO_8859_8", "iso-8859-10": "ISO_8859_10",
    "iso-8859-13": "ISO_8859_13", "iso-8859-14": "ISO_8859_14",
    "iso-8859-15": "ISO_8859_15", "iso-8859-16": "ISO_8859_16",
    "koi8-r": "KOI8_R", "cp866": "IBM866", "macintosh": "MACINTOSH",
}
# WHATWG encodings without an exact table: the nearest Python code page. (WHATWG's KOI8-U
# is KOI8-RU, with Ў/ў at 0xAE/0xBE; x-mac-cyrillic has € at 0xFF.)
WHATWG_NEAREST = {"KOI8_U": "koi8-u", "X_MAC_CYRILLIC": "mac-cyrillic"}


def python_table(mod):
    table = []
    for b in range(256):
        try:
            s = bytes([b]).decode(mod)
        except UnicodeDecodeError:
            table.append(None)
            continue
        assert len(s) == 1, (mod, b, s)
        table.append(ord(s))
    return table


def glibc_table(charmap):
    table = [None] * 256
    aliases = []
    path = f"/usr/share/i18n/charmaps/{charmap}.gz"
    with gzip.open(path, "rt", encoding="latin-1") as f:
        in_map = False
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"% alias (\S+)", line)
            if m:
                aliases.append(m.group(1))
            if line.startswith("CHARMAP"):
                in_map = True
                continue
            if line.startswith("END CHARMAP"):
                break
            if not in_map:
                continue
            m = re.match(r"<U([0-9A-Fa-f]{4,8})>\s+/x([0-9a-fA-F]{2})\s", line + " ")
            if not m:
                continue
            b = int(m.group(2), 16)
            if table[b] is None:
                table[b] = int(m.group(1), 16)
    return table, aliases


def iconv_table(name):
    """Each byte decoded alone by glibc's iconv; None where iconv rejects it."""
    table = [None] * 256
    for b in range(256):
        r = subprocess.run(["iconv", "-f", name, "-t", "UTF-32BE"], input=bytes([b]),
                           capture_output=True)
        if r.returncode == 0 and len(r.stdout) == 4:
            table[b] = int.from_bytes(r.stdout, "big")
    return table


TABLES = []  # (name, table, source)
GLIBC_ALIASES = {}  # canonical -> charmap alias comments
for mod, name in PY_TABLES.items():
    TABLES.append((name, python_table(mod), f"Python codec {mod}"))
for charmap, name in GLIBC_TABLES.items():
    t, al = glibc_table(charmap)
    TABLES.append((name, t, f"glibc charmap {charmap}"))
    GLIBC_ALIASES[name] = [charmap] + al
for module, name in ICONV_TABLES.items():
    TABLES.append((name, iconv_table(module), f"glibc iconv {module}"))
    GLIBC_ALIASES[name] = [module]
TABLES.sort(key=lambda t: t[0])

for name, table, _ in TABLES:
    for v in table:
        assert v is None or (v < 0xD800 or 0xE000 <= v < 0xFFFF), (name, hex(v))

TABLE_INDEX = {name: i for i, (name, _, _) in enumerate(TABLES)}

# ---------------------------------------------------------------------------
# Charset ids: "K:CONST" (a Charset const), "T:name" (a table), "W:ENC" (encoding_rs).

KCONST = {
    "utf-8": "UTF_8", "utf-16be": "UTF_16BE", "utf-16le": "UTF_16LE", "utf-16": "UTF_16",
    "utf-32be": "UTF_32BE", "utf-32le": "UTF_32LE", "utf-32": "UTF_32",
    "ucs-4-2143": "UCS_4_2143", "ucs-4-3412": "UCS_4_3412", "us-ascii": "US_ASCII",
    "iso-8859-1": "ISO_8859_1",
}
CJK = {
    "shift_jis": "SHIFT_JIS", "euc-jp": "EUC_JP", "iso-2022-jp": "ISO_2022_JP",
    "euc-kr": "EUC_KR", "gbk": "GBK", "gb18030": "GB18030", "big5": "BIG5",
}


def cid(name):
    """Charset id for a canonical name."""
    if name in KCONST:
        return "K:" + KCONST[name]
    if name in CJK:
        return "W:" + CJK[name]
    if name in TABLE_INDEX:
        return "T:" + name
    raise KeyError(name)


ALL = [cid(n) for n in KCONST] + [cid(n) for n in CJK] + [cid(n) for n, _, _ in TABLES]

KCONST_UNICODE = ["utf-8", "utf-16be", "utf-16le", "utf-16", "utf-32be", "utf-32le",
                  "utf-32", "ucs-4-2143", "ucs-4-3412"]

# ---------------------------------------------------------------------------
# Facts about each charset, for the decoder's judgement (detect, chain). Derived from the
# code pages' own byte tables wherever the tables can tell; never from their names.

SCRIPT_OF_UNICODE_NAME = {"LATIN": "Latin", "CYRILLIC": "Cyrillic", "GREEK": "Greek",
                          "HEBREW": "Hebrew", "ARABIC": "Arabic", "THAI": "Thai"}


def table_script(table):
    """The script most of a page's non-ASCII letters belong to (by their Unicode names);
    an EBCDIC page's A-Z sit above 0x7F but are ASCII characters, so they do not count."""
    counts = {}
    for v in table:
        if v is None or v < 0x80 or not unicodedata.category(chr(v)).startswith("L"):
            continue
        script = SCRIPT_OF_UNICODE_NAME.get(unicodedata.name(chr(v), "").split(" ")[0])
        if script:
            counts[script] = counts.get(script, 0) + 1
    return max(counts, key=counts.get) if counts else "Other"


def is_ebcdic(table):
    """EBCDIC puts the Latin capital letter A at byte 0xC1 and the digit zero at 0xF0."""
    return table[0xC1] == ord("A") and table[0xF0] == ord("0")


# The charsets that are not tables: Unicode, ASCII and Latin-1, and the CJK decoders.
OTHER_SCRIPT = {
    **{name: "Unicode" for name in KCONST_UNICODE},
    "us-ascii": "Latin", "iso-8859-1": "Latin",
    "shift_jis": "Japanese", "euc-jp": "Japanese", "iso-2022-jp": "Japanese",
    "euc-kr": "Korean", "gbk": "ChineseSimplified", "gb18030": "ChineseSimplified",
    "big5": "ChineseTraditional",
}

# The Western European defaults a feed gets when nobody chose a charset (what CMSs and
# servers write by default): a policy fact, not a property of the bytes.
WESTERN = {"windows-1252", "iso-8859-1", "iso-8859-15"}

# The Windows code page and the ISO 8859 part (or TIS-620) that serve the same languages
# (checked below: same script; the Windows page has text where the ISO part has C1
# controls). Most pairs share most bytes; windows-1251 and ISO-8859-5 do not.
SIBLINGS = [
    ("windows-1252", "iso-8859-1"), ("windows-1250", "iso-8859-2"),
    ("windows-1251", "iso-8859-5"), ("windows-1253", "iso-8859-7"),
    ("windows-1254", "iso-8859-9"), ("windows-1255", "iso-8859-8"),
    ("windows-1256", "iso-8859-6"), ("windows-1257", "iso-8859-13"),
    ("windows-874", "tis-620"),
]
SIBLING = {}
for w_, i_ in SIBLINGS:
    SIBLING[w_], SIBLING[i_] = i_, w_


def latin1_table():
    return list(range(256))


def table_of(name):
    if name == "iso-8859-1":
        return latin1_table()
    return TABLE_BY_NAME[name]


TABLE_BY_NAME = {name: table for name, table, _ in TABLES}


def c1_text(table):
    """Bytes 0x80-0x9F hold text (the Windows pages' punctuation), not C1 controls."""
    return any(v is not None and not 0x80 <= v <= 0x9F for v in table[0x80:0xA0])


for w_, i_ in SIBLINGS:
    wt, it = table_of(w_), table_of(i_)
    assert table_script(wt) == table_script(it), (w_, i_)
    assert c1_text(wt) and not c1_text(it), (w_, i_)


def euro_twin(name, table):
    """The EBCDIC page that is this one with the euro sign where this one has the currency
    sign (IBM's euro update: cp037 -> cp1140 ... cp871 -> cp1149), allowing the two or
    three other bytes in which glibc's and IBM's tables of the same page differ."""
    if not is_ebcdic(table) or 0xA4 not in table:
        return None
    at = table.index(0xA4)
    twins = [other for other, t, _ in TABLES
             if other != name and is_ebcdic(t) and t[at] == 0x20AC and 0x20AC not in table
             and sum(t[b] != table[b] for b in range(256)) <= 3]
    assert len(twins) <= 1, (name, twins)
    return twins[0] if twins else None


RUSSIAN = [chr(c) for c in range(0x410, 0x450)] + ["\u0401", "\u0451"]


def russian_layout(table):
    """The bytes of the 66 Russian letters, when the page has them all: pages with the same
    layout read Russian text alike (KOI8-R/U/RU/T; windows-1251, KZ-1048 and PT154;
    CP866 and CP1125; Mac Cyrillic and Mac Ukrainian)."""
    where = {v: b for b, v in enumerate(table) if v is not None}
    if not all(ord(c) in where for c in RUSSIAN):
        return None
    return tuple(where[ord(c)] for c in RUSSIAN)


LAYOUTS = []  # distinct Russian layouts; a page's layout id is its index + 1 (0 = none)


def layout_id(table):
    lay = russian_layout(table)
    if lay is None:
        return 0
    if lay not in LAYOUTS:
        LAYOUTS.append(lay)
    return LAYOUTS.index(lay) + 1


# Python codec module -> our canonical name, for the modules that are not tables.
PY_CODEC = {
    "ascii": "us-ascii", "latin_1": "iso-8859-1", "utf_8": "utf-8", "utf_16": "utf-16",
    "utf_16_be": "utf-16be", "utf_16_le": "utf-16le", "utf_32": "utf-32",
    "utf_32_be": "utf-32be", "utf_32_le": "utf-32le",
    # CJK: encoding_rs decoders, which implement the Microsoft/WHATWG supersets.
    "shift_jis": "shift_jis", "cp932": "shift_jis", "shift_jis_2004": "shift_jis",
    "shift_jisx0213": "shift_jis", "euc_jp": "euc-jp", "euc_jis_2004": "euc-jp",
    "euc_jisx0213": "euc-jp", "iso2022_jp": "iso-2022-jp", "iso2022_jp_1": "iso-2022-jp",
    "iso2022_jp_2": "iso-2022-jp", "iso2022_jp_2004": "iso-2022-jp",
    "iso2022_jp_3": "iso-2022-jp", "iso2022_jp_ext": "iso-2022-jp",
    "euc_kr": "euc-kr", "cp949": "euc-kr", "gb2312": "gb18030", "gbk": "gbk",
    "gb18030": "gb18030", "big5": "big5", "big5hkscs": "big5", "cp950": "big5",
    # Windows' "ANSI code page" (mbcs/dbcs): windows-1252 on Western systems.
    "mbcs": "windows-1252",
}
for mod, name in PY_TABLES.items():
    PY_CODEC[mod] = name
# Deliberately absent (None): hz, iso2022_kr, johab, utf_7 and the bytes-to-bytes codecs.

# Explicit labels (highest priority): canonical names, UCS-4 orders, XML-sense UTF-16.
EXPLICIT = {
    "unicode": "utf-16", "ucs-2": "utf-16", "iso-10646-ucs-2": "utf-16", "csunicode": "utf-16",
    "unicodefeff": "utf-16", "ucs-2be": "utf-16be", "ucs-2le": "utf-16le",
    "unicodefffe": "utf-16be", "ucs-4": "utf-32", "iso-10646-ucs-4": "utf-32",
    "csucs4": "utf-32", "ucs4": "utf-32", "ucs-4be": "utf-32be", "ucs-4le": "utf-32le",
    "utf-32be": "utf-32be", "utf-32le": "utf-32le", "utf-16be": "utf-16be",
    "utf-16le": "utf-16le", "ucs-4-2143": "ucs-4-2143", "ucs-4-3412": "ucs-4-3412",
    "iso-10646/ucs4/": "utf-32", "iso-10646/ucs2/": "utf-16", "iso-10646/utf8/": "utf-8",
    "sjis": "shift_jis", "windows-31j": "shift_jis", "cswindows31j": "shift_jis",
    "uhc": "euc-kr", "euc-cn": "gb18030", "dbcs": "windows-1252", "mac": "macintosh",
    "macroman": "macintosh", "mac-roman": "macintosh", "csmacintosh": "macintosh",
    "tcvn": "tcvn5712-1", "tcvn-5712": "tcvn5712-1", "tcvn5712-1:1993": "tcvn5712-1",
    "csviscii": "viscii", "viscii1.1-1": "viscii", "mac-ukrainian": "mac-ukrainian",
    "x-mac-ukrainian": "mac-ukrainian", "koi8-ru": "koi8-ru",
    "x-mac-cyrillic": "mac-cyrillic",
    "gb2312": "gb18030", "cp936": "gbk", "ms936": "gbk", "windows-936": "gbk",
    "x-gbk": "gbk", "big5-hkscs": "big5", "x-sjis": "shift_jis", "ms_kanji": "shift_jis",
    "csshiftjis": "shift_jis", "x-euc-jp": "euc-jp", "ks_c_5601-1987": "euc-kr",
    "csiso2022jp": "iso-2022-jp",
}
for name in list(KCONST) + list(CJK) + [n for n, _, _ in TABLES]:
    EXPLICIT[name] = name
for n, iana in EURO_EBCDIC.items():
    for lab in [f"ibm0{n}", f"ccsid0{n}", f"cp0{n}", f"ibm{n}", f"ibm-{n}", f"csibm{n}", *iana]:
        EXPLICIT.setdefault(lab, f"cp{n}")
for name in [*GLIBC_TABLES.values(), *ICONV_TABLES.values()]:
    if name.startswith("cp"):
        n = name[2:]
        for lab in (n, "ibm" + n, "ibm-" + n, "csibm" + n, "ebcdic-" + n):
            EXPLICIT.setdefault(lab, name)

LABELS = {}  # key -> (cid, source)
CONFLICTS = []


def add(label, target_cid, source):
    key = norm(label)
    if not key:
        return
    if key in LABELS:
        if LABELS[key][0] != target_cid:
            CONFLICTS.append((label, key, LABELS[key], (target_cid, source)))
        return
    LABELS[key] = (target_cid, source)


for lab, name in EXPLICIT.items():
    add(lab, cid(name), "explicit")
for mod, name in PY_CODEC.items():
    add(mod, cid(name), "python")
for alias, mod in sorted(encodings.aliases.aliases.items()):
    if mod in PY_CODEC:
        add(alias, cid(PY_CODEC[mod]), "python")
for name, als in GLIBC_ALIASES.items():
    for a in als:
        add(a, cid(name), "glibc charmap")


def resolve(label):
    key = norm(label)
    hit = LABELS.get(key) or LABELS.get(key.replace(".", "_"))
    return hit[0] if hit else None


# glibc gconv aliases: "alias FROM// TO//", kept when TO resolves already.
gconv = ["/usr/lib/x86_64-linux-gnu/gconv/gconv-modules"] + sorted(
    glob.glob("/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.d/*.conf"))
for path in gconv:
    if not os.path.exists(path):
        continue
    for line in open(path, encoding="latin-1"):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "alias":
            src, dst = parts[1].rstrip("/"), parts[2].rstrip("/")
            if "/" in parts[1].rstrip("/"):
                continue
            t = resolve(dst)
            if t:
                add(src, t, "glibc gconv")

# WHATWG labels from encoding_rs, re-targeted to XML/IANA meaning.
er = sorted(glob.glob(os.path.expanduser(
    "~/.cargo/registry/src/*/encoding_rs-0.8.*/src/lib.rs")))[-1]
src = open(er, encoding="utf-8").read()
labels = re.findall(r'"([^"]+)"', re.search(
    r"static LABELS_SORTED: \[&'static str; \d+\] = \[(.*?)\];", src, re.S).group(1))
encs = re.findall(r"&(\w+)_INIT", re.search(
    r"static ENCODINGS_IN_LABEL_SORT: \[&'static Encoding; \d+\] = \[(.*?)\];",
    src, re.S).group(1))
assert len(labels) == len(encs)
WHATWG_TO = {v: k for k, v in WHATWG_PARTNER.items()}
WHATWG_TO.update({v: k for k, v in CJK.items()})
WHATWG_TO.update(WHATWG_NEAREST)
WHATWG_TO.update({"UTF_8": "utf-8", "UTF_16BE": "utf-16be", "UTF_16LE": "utf-16le",
                  "ISO_8859_8_I": "iso-8859-8"})
WHATWG_LEFT = []
for lab, enc in zip(labels, encs):
    if resolve(lab) is not None:
        continue
    if enc in ("REPLACEMENT", "X_USER_DEFINED"):
        continue
    target = WHATWG_TO[enc]
    # WHATWG folds these IANA charsets into Windows code pages; XML does not.
    if enc == "WINDOWS_1252" and re.search(r"8859|latin|l1", lab):
        target = "iso-8859-1"
    elif enc == "WINDOWS_1252" and "ascii" in lab:
        target = "us-ascii"
    elif enc == "WINDOWS_1254" and re.search(r"8859|latin|l5", lab):
        target = "iso-8859-9"
    elif enc == "WINDOWS_874" and re.search(r"8859|tis", lab):
        target = "iso-8859-11"
    elif enc == "UTF_16LE" and lab in ("utf-16", "unicode", "ucs-2"):
        target = "utf-16"
    add(lab, cid(target), "whatwg")
    WHATWG_LEFT.append((lab, enc, target))

for c in CONFLICTS:
    print("conflict (kept first):", c, file=sys.stderr)
for w in WHATWG_LEFT:
    print("whatwg label:", w, file=sys.stderr)

# ---------------------------------------------------------------------------
# Emit Rust.


def rust(c):
    kind, v = c.split(":", 1)
    if kind == "K":
        return f"Charset::{v}"
    if kind == "W":
        return f"Charset(Repr::Whatwg(encoding_rs::{v}))"
    return f"Charset(Repr::Table({TABLE_INDEX[v]}))"


def const_name(name):
    return "T_" + re.sub(r"[^A-Z0-9]", "_", name.upper())


def opt_charset(name):
    return f"Some({rust(cid(name))})" if name else "None"


def facts_rust(name, table):
    if table is None:
        script = OTHER_SCRIPT[name]
        twin, c1, layout = None, False, 0
    else:
        script = table_script(table)
        twin, c1, layout = euro_twin(name, table), c1_text(table), layout_id(table)
    return (f"Facts {{ script: Script::{script}, western: {str(name in WESTERN).lower()}, "
            f"sibling: {opt_charset(SIBLING.get(name))}, euro_twin: {opt_charset(twin)}, "
            f"c1_text: {str(c1).lower()}, russian_layout: {layout} }}")


out = []
w = out.append
w("// @generated by tools/gen_charsets.py — do not edit by hand.")
w("// Regenerate: python3 tools/gen_charsets.py > src/charset/tables.rs && cargo fmt")
w("// Facts from Python's codecs (single-byte tables, aliases), glibc's charmaps and")
w("// gconv-modules aliases, and encoding_rs's WHATWG label list.")
w("")
w("use super::{Charset, Facts, Repr, Script, Table};")
w("")
for i, (name, _, _) in enumerate(TABLES):
    w(f"/// Index of `{name}` in [`TABLES`].")
    w("#[allow(dead_code)]")
    w(f"pub(super) const {const_name(name)}: u16 = {i};")
w("")
w("/// Undefined byte in a table.")
w("pub(super) const UNDEF: u16 = 0xFFFF;")
w("")
w(f"/// Every single-byte table ({len(TABLES)}).")
w(f"pub(super) static TABLES: [Table; {len(TABLES)}] = [")
for name, table, source in TABLES:
    ascii_identity = all(table[b] == b for b in range(128))
    ascii_compat = all(table[b] == b for b in [9, 10, 13] + list(range(0x20, 0x7F)))
    partner = WHATWG_PARTNER.get(name)
    holes = 0
    if partner:
        assert ascii_identity, name
        for b in range(128, 256):
            if table[b] is None:
                holes |= 1 << (b - 128)
    whatwg = f"Some(encoding_rs::{partner})" if partner else "None"
    vals = ", ".join("0xFFFF" if v is None else f"0x{v:04X}" for v in table)
    w(f"    // {source}")
    w(f"    Table {{ name: \"{name}\", whatwg: {whatwg}, holes: 0x{holes:032X}, "
      f"ascii_identity: {str(ascii_identity).lower()}, "
      f"ascii_compatible: {str(ascii_compat).lower()}, "
      f"ebcdic: {str(is_ebcdic(table)).lower()}, facts: {facts_rust(name, table)}, "
      f"map: [{vals}] }},")
w("];")
w("")
other = [n for n in list(KCONST) + list(CJK)]
w(f"/// The facts of the charsets that are not tables ({len(other)}).")
w(f"pub(super) static OTHER_FACTS: [(Charset, Facts); {len(other)}] = [")
for n in other:
    w(f"    ({rust(cid(n))}, {facts_rust(n, None)}),")
w("];")
w("")
keys = sorted(LABELS)
w(f"/// Every label ({len(keys)}), normalised (see `normalize`), sorted for binary search.")
w(f"pub(super) static LABELS: [(&str, Charset); {len(keys)}] = [")
for k in keys:
    w(f"    (\"{k}\", {rust(LABELS[k][0])}),")
w("];")
w("")
w(f"/// Every distinct charset ({len(ALL)}).")
w(f"pub(super) static ALL: [Charset; {len(ALL)}] = [")
for c in ALL:
    w(f"    {rust(c)},")
w("];")
w("")
w("/// The charset for an encoding_rs encoding, by its WHATWG name.")
w("pub(super) fn for_whatwg_name(name: &str) -> Option<Charset> {")
w("    Some(match name {")
NAMES = {"UTF_8": "UTF-8", "UTF_16BE": "UTF-16BE", "UTF_16LE": "UTF-16LE",
         "SHIFT_JIS": "Shift_JIS", "EUC_JP": "EUC-JP", "ISO_2022_JP": "ISO-2022-JP",
         "EUC_KR": "EUC-KR", "GBK": "GBK", "GB18030": "gb18030", "BIG5": "Big5",
         "ISO_8859_8_I": "ISO-8859-8-I", "IBM866": "IBM866", "KOI8_R": "KOI8-R",
         "KOI8_U": "KOI8-U", "MACINTOSH": "macintosh", "X_MAC_CYRILLIC": "x-mac-cyrillic"}
for enc, target in sorted(WHATWG_TO.items()):
    wname = NAMES.get(enc) or enc.replace("_", "-").lower().replace("iso-", "ISO-")
    w(f"        \"{wname}\" => {rust(cid(target))},")
w("        _ => return None,")
w("    })")
w("}")
print("\n".join(out))
print(f"{len(TABLES)} tables, {len(keys)} labels, {len(ALL)} charsets", file=sys.stderr)
