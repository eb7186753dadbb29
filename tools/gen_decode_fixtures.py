#!/usr/bin/env python3
"""Generate the decoding fixtures in feeds/decode/.

Each scenario becomes two files:
  NAME.xml     the feed's bytes (its leading XML comment, in the feed's own encoding,
               says what it tests)
  NAME.expect  the expectation, UTF-8 text, one `Key: value` per line, read by
               tests/decode_fixtures.rs with its own small reader:
      Description: what it tests
      Transport:   local | http            (http: an HTTP response with the Header: lines)
      Header:      Name: value             (repeatable)
      Policy:      recover | feedparser    (default recover)
      Encoding:    the reported encoding
      Rule:        the strict RFC 3023 rule that decided
      Rule-error:  yes | no
      Bozo:        decoding bozo types in order (JSON names), or `none`
      Source:      where the winning encoding came from
      Text-contains: a string the decoded text contains (optional)
      Title:       the feed title after decoding and parsing (optional; feedparser's
                   per-field repair of double-encoded UTF-8 applies under both policies)

Python's codecs only produce the bytes here; the Rust tests never call Python.
Run: python3 tools/gen_decode_fixtures.py   (rewrites feeds/decode/)
"""
import os
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "feeds", "decode")


def doc(title, decl_encoding=None, description="", version_only=False):
    head = ""
    if decl_encoding is not None:
        head = '<?xml version="1.0" encoding="%s"?>\n' % decl_encoding
    elif version_only:
        head = '<?xml version="1.0"?>\n'
    return (head + "<!-- %s -->\n" % description +
            '<rss version="2.0"><channel><title>%s</title>'
            "<item><title>%s</title></item></channel></rss>\n" % (title, title))


def utf32(text, order):
    """UCS-4 in octet order `order` (e.g. '1234' big-endian, '2143')."""
    out = bytearray()
    for ch in text:
        be = ord(ch).to_bytes(4, "big")
        out += bytes(be[int(i) - 1] for i in order)
    return bytes(out)


SCENARIOS = []


def scenario(name, data, description, **expect):
    SCENARIOS.append((name, data, description, expect))


DE = "Grüße aus Köln"
RU = "Новости дня: выставка современного искусства открылась в Москве"
JA = "日本語のニュース"
EL = "Ελληνικά νέα σήμερα από την Αθήνα"
FR = "Ça coûte 5 € “vraiment”"

def add_all():
    d = "rule 1.0: no BOM, no declaration: UTF-8"
    scenario("rule_1_0_no_declaration", doc(DE, description=d).encode("utf-8"), d,
             Encoding="utf-8", Rule="1.0", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.0: a declaration without encoding: UTF-8"
    scenario("rule_1_0_declaration_without_encoding",
             doc(DE, version_only=True, description=d).encode("utf-8"), d,
             Encoding="utf-8", Rule="1.0", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.1: UTF-16LE, no BOM, declared utf-16: the first bytes give the order"
    scenario("rule_1_1_utf16le_declared_utf16", doc(DE, "utf-16", d).encode("utf-16-le"), d,
             Encoding="utf-16le", Rule="1.1", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.1: UTF-16BE, no BOM, declared UTF-16"
    scenario("rule_1_1_utf16be_declared_utf16", doc(DE, "UTF-16", d).encode("utf-16-be"), d,
             Encoding="utf-16be", Rule="1.1", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.2: declared ISO-8859-1, Latin-1 bytes"
    scenario("rule_1_2_declared_latin1", doc(DE, "ISO-8859-1", d).encode("latin-1"), d,
             Encoding="iso-8859-1", Rule="1.2", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.2: declared koi8-r, KOI8-R bytes"
    scenario("rule_1_2_declared_koi8r", doc(RU, "koi8-r", d).encode("koi8-r"), d,
             Encoding="koi8-r", Rule="1.2", Bozo="none", Source="rfc3023", Title=RU)
    d = "rule 1.3 ERROR: UTF-8 BOM but the first bytes are UTF-16LE"
    scenario("rule_1_3_utf8_bom_utf16_bytes",
             b"\xef\xbb\xbf" + doc("x", "utf-16", d).encode("utf-16-le"), d,
             Encoding="utf-8", Rule="1.3", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch, CharacterEncodingUnknown", Source="rfc3023")
    d = "rule 1.4 ERROR: UTF-8 BOM, declared iso-8859-1; the BOM wins"
    data = b"\xef\xbb\xbf" + doc(DE, "iso-8859-1", d).encode("utf-8")
    scenario("rule_1_4_utf8_bom_declared_latin1", data, d, Encoding="utf-8", Rule="1.4",
             **{"Rule-error": "yes"}, Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=DE)
    d = "rule 1.4 under feedparser policy: the declaration wins, mojibake, no bozo"
    scenario("rule_1_4_utf8_bom_declared_latin1_feedparser", data, d, Policy="feedparser",
             Encoding="iso-8859-1", Rule="1.4", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023",
             **{"Text-contains": DE.encode("utf-8").decode("latin-1")}, Title=DE)
    d = "rule 1.4: UTF-8 BOM and a matching declaration"
    scenario("rule_1_4_utf8_bom_declared_utf8",
             b"\xef\xbb\xbf" + doc(DE, "utf-8", d).encode("utf-8"), d,
             Encoding="utf-8", Rule="1.4", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.5 ERROR: UTF-16LE BOM but the first bytes are UTF-16BE"
    scenario("rule_1_5_utf16le_bom_utf16be_bytes",
             b"\xff\xfe" + doc("x", "utf-16", d).encode("utf-16-be"), d,
             Encoding="utf-16le", Rule="1.5", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023")
    d = "rule 1.6 ERROR: UTF-16BE BOM, declared utf-8; the BOM wins"
    scenario("rule_1_6_utf16be_bom_declared_utf8",
             b"\xfe\xff" + doc(DE, "utf-8", d).encode("utf-16-be"), d,
             Encoding="utf-16be", Rule="1.6", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=DE)
    d = "rule 1.6: UTF-16LE BOM, declared utf-16"
    scenario("rule_1_6_utf16le_bom_declared_utf16",
             b"\xff\xfe" + doc(DE, "utf-16", d).encode("utf-16-le"), d,
             Encoding="utf-16le", Rule="1.6", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.7 (extended): UTF-32LE BOM and no declaration"
    scenario("rule_1_7_utf32le_bom_only", b"\xff\xfe\x00\x00" + utf32(doc(JA, description=d), "4321"), d,
             Encoding="utf-32le", Rule="1.7", Bozo="none", Source="rfc3023", Title=JA)
    d = "rule 1.7 (extended) ERROR: UTF-32BE BOM, declared utf-16"
    scenario("rule_1_7_utf32be_bom_declared_utf16",
             b"\x00\x00\xfe\xff" + utf32(doc(JA, "utf-16", d), "1234"), d,
             Encoding="utf-32be", Rule="1.7", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=JA)
    d = "rule 1.7 (extended): UCS-4 2143 BOM"
    scenario("rule_1_7_ucs4_2143_bom", b"\x00\x00\xff\xfe" + utf32(doc(DE, description=d), "2143"), d,
             Encoding="ucs-4-2143", Rule="1.7", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 1.7 (extended): UCS-4 3412 BOM"
    scenario("rule_1_7_ucs4_3412_bom", b"\xfe\xff\x00\x00" + utf32(doc(DE, description=d), "3412"), d,
             Encoding="ucs-4-3412", Rule="1.7", Bozo="none", Source="rfc3023", Title=DE)

    # Appendix F rows, no BOM.
    for order, name, label in (("1234", "ucs4_be", "utf-32be"), ("4321", "ucs4_le", "utf-32le"),
                               ("2143", "ucs4_2143", "ucs-4-2143"), ("3412", "ucs4_3412", "ucs-4-3412")):
        d = "Appendix F: %s first bytes, declared ucs-4" % name
        scenario("appendix_f_%s" % name, utf32(doc(DE, "ucs-4", d), order), d,
                 Encoding=label, Rule="1.1", Bozo="none", Source="rfc3023", Title=DE)
        d = ("Appendix F: %s first bytes and no encoding: rule 1.0 says UTF-8, the chain "
             "reads the family" % name)
        scenario("appendix_f_%s_no_encoding" % name,
                 utf32(doc(DE, version_only=True, description=d), order), d,
                 Encoding=label, Rule="1.0", Bozo="none", Source="rfc3023", Title=DE)
    d = "Appendix F: UTF-16LE first bytes, declared utf-16le"
    scenario("appendix_f_utf16le", doc(EL, "utf-16le", d).encode("utf-16-le"), d,
             Encoding="utf-16le", Rule="1.2", Bozo="none", Source="rfc3023", Title=EL)
    d = "Appendix F: UTF-16BE first bytes, declared utf-16be"
    scenario("appendix_f_utf16be", doc(EL, "utf-16be", d).encode("utf-16-be"), d,
             Encoding="utf-16be", Rule="1.2", Bozo="none", Source="rfc3023", Title=EL)
    d = "Appendix F: '<?xm' in ASCII, declared windows-1252"
    scenario("appendix_f_ascii_declared_cp1252", doc(FR, "windows-1252", d).encode("cp1252"), d,
             Encoding="windows-1252", Rule="1.2", Bozo="none", Source="rfc3023", Title=FR)
    d = "Appendix F: EBCDIC first bytes, declared cp037"
    scenario("appendix_f_ebcdic_cp037", doc("Ærøskøbing", "cp037", d).encode("cp037"), d,
             Encoding="cp037", Rule="1.2", Bozo="none", Source="rfc3023", Title="Ærøskøbing")
    d = "Appendix F: EBCDIC first bytes, declared cp500 (brackets differ from cp037)"
    scenario("appendix_f_ebcdic_cp500", doc("[Ærø]", "cp500", d).encode("cp500"), d,
             Encoding="cp500", Rule="1.2", Bozo="none", Source="rfc3023", Title="[Ærø]")
    d = "Appendix F: EBCDIC first bytes and no encoding: rule 1.0 (UTF-8); the chain reads cp037"
    scenario("appendix_f_ebcdic_no_encoding", doc("Ærø", version_only=True, description=d).encode("cp037"), d,
             Encoding="cp037", Rule="1.0", Bozo="none", Source="rfc3023", Title="Ærø")

    d = "EBCDIC markup without any declaration: '<rss' in cp037 (loose family, read as cp037)"
    scenario("ebcdic_no_declaration", ('<!-- %s -->\n<rss version="2.0"><channel><title>Ærø</title>'
             '<item><title>Ærø</title></item></channel></rss>\n' % d).encode("cp037"), d,
             Encoding="cp037", Rule="1.0", Bozo="none", Source="rfc3023", Title="Ærø")
    d = "euro EBCDIC page under its IANA name IBM01141"
    # cp1141 is cp273 with U+20AC where cp273 has U+00A4 (byte 0x9F).
    scenario("ebcdic_ibm01141", doc("Preis: 15 ¤ für Äpfel", "IBM01141", d).encode("cp273"), d,
             Encoding="ibm01141", Rule="1.2", Bozo="none", Source="rfc3023", Title="Preis: 15 € für Äpfel")

    # HTTP rules.
    d = "rule 2.0: application/rss+xml without charset: the raw rules (declaration)"
    scenario("rule_2_0_application_xml_declaration", doc(DE, "iso-8859-1", d).encode("latin-1"), d,
             Transport="http", Header=["Content-Type: application/rss+xml"],
             Encoding="iso-8859-1", Rule="2.0/1.2", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 2.1: text/xml without charset is us-ascii; an ASCII feed is fine"
    scenario("rule_2_1_text_xml_ascii", doc("plain", "iso-8859-1", d).encode("ascii"), d,
             Transport="http", Header=["Content-Type: text/xml"],
             Encoding="us-ascii", Rule="2.1", Bozo="none", Source="rfc3023", Title="plain")
    d = "rule 2.1: text/xml without charset but UTF-8 bytes: us-ascii fails, declaration wins"
    scenario("rule_2_1_text_xml_utf8_override", doc(DE, "utf-8", d).encode("utf-8"), d,
             Transport="http", Header=["Content-Type: text/xml"],
             Encoding="utf-8", Rule="2.1", Bozo="CharacterEncodingOverride", Source="declared", Title=DE)
    d = "rule 2.2 ERROR: charset=utf-16be with a BOM"
    scenario("rule_2_2_utf16be_charset_with_bom", b"\xfe\xff" + doc(DE, "utf-16", d).encode("utf-16-be"), d,
             Transport="http", Header=["Content-Type: application/xml; charset=utf-16be"],
             Encoding="utf-16be", Rule="2.2", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=DE)
    d = "rule 2.2 (extended) ERROR: charset=utf-32le with a BOM"
    scenario("rule_2_2_utf32le_charset_with_bom", b"\xff\xfe\x00\x00" + utf32(doc(JA, "utf-32", d), "4321"), d,
             Transport="http", Header=["Content-Type: application/rss+xml; charset=UTF-32LE"],
             Encoding="UTF-32LE", Rule="2.2", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=JA)
    d = "rule 2.3: charset=utf-16 with a UTF-16LE BOM"
    scenario("rule_2_3_utf16_charset_bom", b"\xff\xfe" + doc(DE, "utf-16", d).encode("utf-16-le"), d,
             Transport="http", Header=["Content-Type: application/atom+xml; charset=\"utf-16\""],
             Encoding="utf-16", Rule="2.3", Bozo="none", Source="rfc3023", Title=DE)
    d = "rule 2.4 ERROR: charset=utf-16 without a BOM; the first bytes give the order"
    scenario("rule_2_4_utf16_charset_no_bom", doc(DE, "utf-16", d).encode("utf-16-le"), d,
             Transport="http", Header=["Content-Type: text/xml; charset=utf-16"],
             Encoding="utf-16", Rule="2.4", **{"Rule-error": "yes"},
             Bozo="CharacterEncodingMismatch", Source="rfc3023", Title=DE)
    d = "rule 2.5: the HTTP charset overrides the declaration"
    scenario("rule_2_5_charset_overrides_declaration", doc(FR, "utf-8", d).encode("cp1252"), d,
             Transport="http", Header=["Content-Type: text/xml; charset=windows-1252"],
             Encoding="windows-1252", Rule="2.5", Bozo="none", Source="rfc3023", Title=FR)
    d = "rule 2.6: text/plain is not an XML media type"
    scenario("rule_2_6_text_plain", doc(DE, "utf-8", d).encode("utf-8"), d,
             Transport="http", Header=["Content-Type: text/plain; charset=utf-8"],
             Encoding="utf-8", Rule="2.6", **{"Rule-error": "yes"}, Bozo="NonXMLContentType", Source="rfc3023", Title=DE)
    d = "rule 2.6: an HTTP response without Content-Type defaults to iso-8859-1"
    scenario("rule_2_6_missing_content_type", doc(DE, description=d).encode("latin-1"), d,
             Transport="http", Header=["ETag: \"v1\""],
             Encoding="iso-8859-1", Rule="2.6", **{"Rule-error": "yes"}, Bozo="NonXMLContentType", Source="rfc3023", Title=DE)
    d = "rule 2.6: application/octet-stream: declaration or utf-8, flagged"
    scenario("rule_2_6_octet_stream", doc(RU, "windows-1251", d).encode("cp1251"), d,
             Transport="http", Header=["Content-Type: application/octet-stream"],
             Encoding="windows-1251", Rule="2.6", **{"Rule-error": "yes"}, Bozo="NonXMLContentType", Source="rfc3023", Title=RU)

    # Fallback chain and evidence.
    d = "bogus declared encoding: unknown, utf-8 decodes: override"
    scenario("chain_bogus_declaration", doc(DE, "x-no-such-charset", d).encode("utf-8"), d,
             Encoding="utf-8", Rule="1.2", Bozo="CharacterEncodingOverride", Source="detector", Title=DE)
    d = "declared utf-8 but windows-1252 bytes: utf-8 fails, windows-1252 decodes"
    scenario("chain_declared_utf8_is_cp1252", doc(FR, "utf-8", d).encode("cp1252"), d,
             Encoding="windows-1252", Rule="1.2", Bozo="CharacterEncodingOverride", Source="fallback", Title=FR)
    d = "gb2312 is reported and decoded as gb18030"
    scenario("chain_gb2312_is_gb18030", doc("中文新闻", "gb2312", d).encode("gb18030"), d,
             Encoding="gb18030", Rule="1.2", Bozo="none", Source="rfc3023", Title="中文新闻")
    d = "unlabelled KOI8-R: utf-8 fails, chardetng finds KOI8-R"
    scenario("chain_unlabelled_koi8r", doc(RU, description=d).encode("koi8-r"), d,
             Encoding="KOI8-R", Rule="1.0", Bozo="CharacterEncodingOverride", Source="detector", Title=RU)
    d = "unlabelled ISO-2022-JP: utf-8 decodes to escapes, chardetng finds ISO-2022-JP"
    scenario("chain_unlabelled_iso2022jp", doc(JA, description=d).encode("iso2022_jp"), d,
             Encoding="ISO-2022-JP", Rule="1.0", Bozo="CharacterEncodingOverride", Source="detector", Title=JA)
    d = "a declaration after leading whitespace is still read (the strict rules see no '<?xm': 1.0)"
    scenario("chain_whitespace_before_declaration", b"\n  " + doc(DE, "iso-8859-1", d).encode("latin-1"), d,
             Encoding="iso-8859-1", Rule="1.0", Bozo="none", Source="rfc3023", Title=DE)
    d = "binary junk with NUL bytes: nothing decodes cleanly"
    scenario("chain_nul_bytes_unknown", b"<rss>\x00\x00\x00<title>x\x00</title></rss>", d,
             Encoding="utf-8", Rule="1.0", Bozo="CharacterEncodingUnknown", Source="rfc3023")
    d = "evidence: UTF-8 bytes declared iso-8859-1 are read as UTF-8"
    data = doc(DE, "iso-8859-1", d).encode("utf-8")
    scenario("evidence_utf8_declared_latin1", data, d,
             Encoding="utf-8", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence", Title=DE)
    d = "evidence off (feedparser policy): UTF-8 declared iso-8859-1 stays mojibake"
    scenario("evidence_utf8_declared_latin1_feedparser", data, d, Policy="feedparser",
             Encoding="iso-8859-1", Rule="1.2", Bozo="none", Source="rfc3023",
             **{"Text-contains": DE.encode("utf-8").decode("latin-1")}, Title=DE)
    d = "evidence: windows-1251 Russian declared iso-8859-1 is read as windows-1251"
    scenario("evidence_cyrillic_declared_latin1", doc(RU, "iso-8859-1", d).encode("cp1251"), d,
             Encoding="windows-1251", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence", Title=RU)
    d = "evidence: KOI8-R bytes declared windows-1251 are read as KOI8-R"
    scenario("evidence_koi8r_declared_cp1251", doc(RU, "windows-1251", d).encode("koi8-r"), d,
             Encoding="koi8-r", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence", Title=RU)
    d = "plausibility: unlabelled ISO-8859-15 ('c\\xbdur' reads as mojibake in windows-1252)"
    scenario("plausible_unlabelled_latin9", doc("Le cœur de Paris à 15 €", description=d).encode("iso8859_15"), d,
             Encoding="iso-8859-15", Rule="1.0", Bozo="CharacterEncodingOverride", Source="evidence",
             Title="Le cœur de Paris à 15 €")
    d = "plausibility: unlabelled Mac Roman (byte 0x8E reads as a capital Z-caron in windows-1252)"
    scenario("plausible_unlabelled_macroman", doc("Café au lait für München", description=d).encode("mac_roman"), d,
             Encoding="macintosh", Rule="1.0", Bozo="CharacterEncodingOverride", Source="evidence",
             Title="Café au lait für München")
    d = "plausibility: Polish ISO-8859-2 declared ISO-8859-1 (symbols inside words)"
    PL = "Gazeta Krakowska: wiadomości z regionu, źródła i łączność"
    scenario("plausible_polish_declared_latin1", doc(PL, "iso-8859-1", d).encode("iso8859_2"), d,
             Encoding="iso-8859-2", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence", Title=PL)
    d = "plausibility: cp1140 bytes (euro at 0x9F) declared cp037"
    scenario("plausible_ebcdic_euro_twin", doc("Preis: 15 ¤ netto", "cp037", d).encode("cp037"), d,
             Encoding="cp1140", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence",
             Title="Preis: 15 € netto")
    d = "evidence: Czech windows-1250 declared ISO-8859-1 (chardetng names windows-1250)"
    CS = "Pražský deník: zprávy z hlavního města. Vláda schválila ve středu nový zákon o daních."
    scenario("evidence_czech_declared_latin1", doc(CS, "iso-8859-1", d).encode("cp1250"), d,
             Encoding="windows-1250", Rule="1.2", Bozo="CharacterEncodingOverride", Source="evidence", Title=CS)
    d = "evidence: UTF-8 served as application/xml; charset=ISO-8859-1"
    scenario("evidence_utf8_served_latin1", doc(DE, "utf-8", d).encode("utf-8"), d,
             Transport="http", Header=["Content-Type: application/xml; charset=ISO-8859-1"],
             Encoding="utf-8", Rule="2.5", Bozo="CharacterEncodingOverride", Source="evidence", Title=DE)


# Natural text for the recovery classes: a few sentences per language, each an entry.
TEXTS = {
    "ja": ["東京で新しい美術館が開館し、週末には多くの家族連れが訪れました。",
           "気象庁によると、明日は全国的に晴れて気温が上がる見込みです。",
           "地元の商店街では、秋祭りの準備が始まっています。",
           "新しい鉄道路線の建設について、住民説明会が開かれました。",
           "今年の米の収穫量は、昨年をやや上回る見通しです。"],
    "zh": ["北京举办了新的国际展览会，吸引了来自各地的游客。",
           "气象部门预计，明天全国大部分地区天气晴朗。",
           "当地政府宣布将扩建城市公园，增加绿化面积。",
           "新的高速铁路线路将于明年年底正式通车。",
           "今年的粮食产量预计将比去年略有增长。"],
    "tw": ["台北舉辦了新的國際展覽會，吸引了來自各地的遊客。",
           "氣象局預計，明天全台大部分地區天氣晴朗。",
           "地方政府宣布將擴建城市公園，增加綠化面積。",
           "新的捷運路線將於明年年底正式通車。",
           "今年的稻米產量預計將比去年略有增長。"],
    "ko": ["서울에서 새로운 미술관이 문을 열었고 주말에는 많은 가족이 방문했습니다.",
           "기상청은 내일 전국이 대체로 맑고 기온이 오를 것으로 예상했습니다.",
           "지역 상인들은 가을 축제 준비를 시작했습니다.",
           "새 지하철 노선 건설에 대한 주민 설명회가 열렸습니다.",
           "올해 쌀 수확량은 작년보다 조금 늘어날 전망입니다."],
    "de": ["Die Stadtwerke erhöhen zum Jahreswechsel die Gebühren für Fernwärme.",
           "Im Museum für Völkerkunde öffnet eine Ausstellung über Straßenbahnen.",
           "Der Gemeinderat beschließt den Bau einer neuen Grundschule in Süd.",
           "Wetter: Am Wochenende wird es sonnig, nachts gibt es Bodenfrost.",
           "Bürgerinitiative übergibt 5000 Unterschriften gegen die Schließung."],
    "fr": ["La mairie a présenté le nouveau plan de circulation du centre-ville.",
           "Un festival de théâtre réunit des troupes venues de toute la région.",
           "Les élèves du lycée Molière ont visité le musée d’art moderne.",
           "Météo : un week-end ensoleillé, mais des gelées matinales sont prévues.",
           "Le marché de Noël ouvrira ses portes dès la fin du mois."],
    "es": ["El ayuntamiento aprobó ayer la reforma de la plaza mayor.",
           "Los vecinos de Málaga celebran la llegada del otoño con música.",
           "La biblioteca municipal amplía su horario durante los exámenes.",
           "Según la previsión, mañana lloverá en el norte de la península.",
           "El equipo juvenil ganó el campeonato después de una década."],
    "ru": ["В Москве открылась новая выставка современного искусства.",
           "Синоптики обещают тёплую погоду до конца недели.",
           "Городские власти объявили о ремонте центральной библиотеки.",
           "Школьники из Казани победили на олимпиаде по математике.",
           "В парке Горького начали заливать каток к зимнему сезону."],
}

# The label each multi-byte legacy charset is declared with, its Python codec and the
# encoding feed-decoder reports for it (the declared label as written, lower-cased).
LEGACY_CJK = [("shift_jis", "shift_jis", "ja"), ("euc-jp", "euc_jp", "ja"),
              ("gbk", "gbk", "zh"), ("gb18030", "gb18030", "zh"), ("big5", "big5", "tw"),
              ("euc-kr", "euc_kr", "ko")]


def feed(lang, decl=None, description="", title=None):
    """An RSS feed of the language's sentences: one entry each, title and description."""
    texts = TEXTS[lang]
    head = '<?xml version="1.0" encoding="%s"?>\n' % decl if decl else ""
    items = "".join('<item><title>%s</title><description>%s %s</description></item>\n'
                    % (t, t, t) for t in texts)
    return (head + "<!-- %s -->\n" % description +
            '<rss version="2.0"><channel><title>%s</title>\n%s</channel></rss>\n'
            % (title or texts[0], items))


def cut_mid_character(text, encode, keep=1):
    """`text` encoded, cut inside the last non-ASCII character of its last description:
    the bytes before that character and `keep` bytes of it (a truncated download)."""
    last = text.rindex("<description>")
    chars = [i for i in range(last, len(text)) if ord(text[i]) > 0x7f]
    at = chars[len(chars) // 2]
    whole = encode(text[at])
    assert len(whole) > keep, (text[at], whole)
    return encode(text[:at]) + whole[:keep]


def add_recovery():
    # 1. Truncated downloads: every multi-byte charset, labelled, unlabelled, by HTTP.
    for label, codec, lang in LEGACY_CJK:
        d = "truncated download: %s feed cut inside a character; the label is kept" % label
        text = feed(lang, label, d)
        scenario("truncated_%s" % codec, cut_mid_character(text, lambda s: s.encode(codec)), d,
                 Encoding=label, Rule="1.2", Bozo="CharacterDecodingError", Source="rfc3023",
                 **{"Text-contains": TEXTS[lang][3]}, Title=TEXTS[lang][0])
    d = "truncated download under feedparser policy: the label fails, iso-8859-2 wins (mojibake)"
    text = feed("ja", "shift_jis", d)
    scenario("truncated_shift_jis_feedparser",
             cut_mid_character(text, lambda s: s.encode("shift_jis")), d, Policy="feedparser",
             Encoding="iso-8859-2", Rule="1.2", Bozo="CharacterEncodingOverride", Source="fallback",
             **{"Text-contains": TEXTS["ja"][0].encode("shift_jis").decode("iso8859_2")})
    for label, codec, lang, reported in (("shift_jis", "shift_jis", "ja", "SHIFT_JIS"),
                                         ("euc-kr", "euc_kr", "ko", "EUC-KR"),
                                         ("big5", "big5", "tw", "Big5"),
                                         ("gbk", "gbk", "zh", "GB2312")):
        d = "truncated download: unlabelled %s cut inside a character; chardetng finds it" % label
        text = feed(lang, None, d)
        scenario("truncated_unlabelled_%s" % codec,
                 cut_mid_character(text, lambda s: s.encode(codec)), d,
                 Encoding=reported, Rule="1.0",
                 Bozo="CharacterDecodingError, CharacterEncodingOverride", Source="detector",
                 **{"Text-contains": TEXTS[lang][3]}, Title=TEXTS[lang][0])
    d = "truncated download: EUC-JP served with charset=EUC-JP, cut inside a character"
    text = feed("ja", None, d)
    scenario("truncated_http_euc_jp", cut_mid_character(text, lambda s: s.encode("euc_jp")), d,
             Transport="http", Header=["Content-Type: application/rss+xml; charset=EUC-JP"],
             Encoding="EUC-JP", Rule="2.5", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["ja"][3]}, Title=TEXTS["ja"][0])
    d = "truncated download: UTF-8 cut inside a three-byte character"
    text = feed("zh", "utf-8", d)
    scenario("truncated_utf8", cut_mid_character(text, lambda s: s.encode("utf-8"), keep=2), d,
             Encoding="utf-8", Rule="1.2", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["zh"][3]}, Title=TEXTS["zh"][0])
    d = "truncated download: UTF-16LE with a BOM, an odd byte at the end"
    text = feed("ko", "utf-16", d)
    scenario("truncated_utf16le_bom",
             b"\xff\xfe" + cut_mid_character(text, lambda s: s.encode("utf-16-le")), d,
             Encoding="utf-16le", Rule="1.6", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["ko"][3]}, Title=TEXTS["ko"][0])
    d = "truncated download: UTF-16BE without a BOM, declared utf-16, an odd byte at the end"
    text = feed("ru", "utf-16", d)
    scenario("truncated_utf16be_declared",
             cut_mid_character(text, lambda s: s.encode("utf-16-be")), d,
             Encoding="utf-16be", Rule="1.1", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["ru"][3]}, Title=TEXTS["ru"][0])
    d = "truncated download: UTF-32LE with a BOM, three bytes of the last character"
    text = feed("ja", None, d)
    scenario("truncated_utf32le_bom",
             b"\xff\xfe\x00\x00" + cut_mid_character(text, lambda s: utf32(s, "4321"), keep=3), d,
             Encoding="utf-32le", Rule="1.7", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["ja"][3]}, Title=TEXTS["ja"][0])
    d = "truncated download: UTF-32BE without a BOM, declared ucs-4, two bytes of a character"
    text = feed("de", "ucs-4", d)
    scenario("truncated_utf32be_declared",
             cut_mid_character(text, lambda s: utf32(s, "1234"), keep=2), d,
             Encoding="utf-32be", Rule="1.1", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": TEXTS["de"][3]}, Title=TEXTS["de"][0])

    # 2. Lossy UTF-16/UTF-32: the label is kept, each bad unit becomes U+FFFD.
    d = "lossy UTF-16LE: a lone high surrogate in one entry; the rest is kept"
    text = feed("ja", "utf-16", d)
    bad = TEXTS["ja"][2]
    data = b"\xff\xfe" + text.encode("utf-16-le").replace(
        bad.encode("utf-16-le"), bad[:4].encode("utf-16-le") + b"\x3d\xd8" + bad[4:].encode("utf-16-le"), 1)
    scenario("lossy_utf16le_lone_surrogate", data, d,
             Encoding="utf-16le", Rule="1.6", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": bad[:4] + "\ufffd" + bad[4:]}, Title=TEXTS["ja"][0])
    d = "lossy UTF-16BE without a BOM: a lone low surrogate, declared utf-16"
    text = feed("ru", "utf-16", d)
    bad = TEXTS["ru"][1]
    data = text.encode("utf-16-be").replace(
        bad.encode("utf-16-be"), b"\xdc\x01" + bad.encode("utf-16-be"), 1)
    scenario("lossy_utf16be_lone_low_surrogate", data, d,
             Encoding="utf-16be", Rule="1.1", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": "\ufffd" + bad}, Title=TEXTS["ru"][0])
    d = "lossy UTF-32BE with a BOM: a value above U+10FFFF and a surrogate"
    text = feed("zh", None, d)
    bad = TEXTS["zh"][2]
    enc = lambda s: utf32(s, "1234")
    data = b"\x00\x00\xfe\xff" + enc(text).replace(
        enc(bad), enc(bad[:3]) + b"\x00\x11\x00\x00" + enc(bad[3:6]) + b"\x00\x00\xd8\x00" + enc(bad[6:]), 1)
    scenario("lossy_utf32be_out_of_range", data, d,
             Encoding="utf-32be", Rule="1.7", Bozo="CharacterDecodingError", Source="rfc3023",
             **{"Text-contains": bad[:3] + "\ufffd" + bad[3:6] + "\ufffd" + bad[6:]},
             Title=TEXTS["zh"][0])

    # 3. Mixed documents: UTF-8 with entries pasted in windows-1252, at any share.
    def mixed(lang_utf8, lang_1252, n_utf8, n_1252, decl):
        u = TEXTS[lang_utf8]
        w = TEXTS[lang_1252]
        parts = []
        for i in range(max(n_utf8, n_1252)):
            if i < n_utf8:
                parts.append(('<item><title>%s</title><description>%s “%s”</description></item>\n'
                              % (u[i % 5], u[(i + 1) % 5], u[(i + 2) % 5][:20])).encode("utf-8"))
            if i < n_1252:
                parts.append(('<item><title>%s</title><description>“%s” – %s…</description></item>\n'
                              % (w[i % 5], w[(i + 1) % 5], w[(i + 2) % 5])).encode("cp1252"))
        head = ('<?xml version="1.0" encoding="%s"?>\n' % decl) if decl else ""
        return (head + '<rss version="2.0"><channel><title>%s</title>\n' % u[0]).encode("utf-8") \
            + b"".join(parts) + b"</channel></rss>\n"
    for name, lu, lw, nu, nw, decl, what in (
            ("mixed_utf8_mostly_cp1252", "de", "fr", 2, 10, "utf-8", "mostly windows-1252 entries"),
            ("mixed_utf8_few_cp1252", "fr", "es", 10, 1, "utf-8", "one windows-1252 entry"),
            ("mixed_utf8_half_cp1252", "es", "de", 5, 5, "UTF-8", "half the entries windows-1252"),
            ("mixed_unlabelled", "ru", "fr", 4, 6, None, "Russian UTF-8, French windows-1252, no declaration")):
        d = "mixed document: UTF-8 with %s (valid UTF-8 kept, invalid runs read as windows-1252)" % what
        data = mixed(lu, lw, nu, nw, decl)
        scenario(name, data, d, Encoding="utf-8", Rule="1.2" if decl else "1.0",
                 Bozo="CharacterDecodingError", Source="rfc3023",
                 **{"Text-contains": "“%s” – %s…" % (TEXTS[lw][1], TEXTS[lw][2])},
                 Title=TEXTS[lu][0])

    # 4. Double-encoded UTF-8 (UTF-8 bytes read as windows-1252 and encoded again): undone
    #    over the whole document, or not at all.
    def double(text):
        return "".join(bytes([b]).decode("cp1252", "strict") if b not in (0x81, 0x8d, 0x8f, 0x90, 0x9d)
                       else chr(b) for b in text.encode("utf-8"))
    for name, lang in (("double_encoded_fr", "fr"), ("double_encoded_de", "de"), ("double_encoded_ru", "ru")):
        d = "double-encoded UTF-8 throughout (%s, with windows-1252 marks): undone everywhere" % lang
        text = feed(lang, "utf-8", d)
        body = text[text.index("<rss"):]
        data = (text[:text.index("<rss")] + double(body)).encode("utf-8")
        scenario(name, data, d, Encoding="utf-8", Rule="1.2", Bozo="DoubleEncodedText",
                 Source="rfc3023", **{"Text-contains": TEXTS[lang][2]}, Title=TEXTS[lang][0])
    d = "double-encoded UTF-8 in some entries only: left as published (never half repaired)"
    text = feed("fr", "utf-8", d)
    data = text.replace(TEXTS["fr"][2], double(TEXTS["fr"][2])).encode("utf-8")
    scenario("double_encoded_partial", data, d, Encoding="utf-8", Rule="1.2", Bozo="none",
             Source="rfc3023", **{"Text-contains": double(TEXTS["fr"][2])}, Title=TEXTS["fr"][0])
    d = "double-encoded UTF-8 under feedparser policy: the document is left as published"
    text = feed("fr", "utf-8", d)
    data = double(text).encode("utf-8")
    scenario("double_encoded_fr_feedparser", data, d, Policy="feedparser", Encoding="utf-8",
             Rule="1.2", Bozo="none", Source="rfc3023",
             **{"Text-contains": double(TEXTS["fr"][2])})

    # 5. A CJK charset under another CJK label: the label decodes, the text is wrong;
    #    chardetng (on plenty of text) and the script of the reading decide.
    for real, codec, lang, label, reported in (
            ("shift_jis", "shift_jis", "ja", "gbk", "shift_jis"),
            ("big5", "big5", "tw", "gb2312", "big5"),
            ("big5", "big5", "tw", "gb18030", "big5"),
            ("euc-kr", "euc_kr", "ko", "euc-jp", "euc-kr"),
            ("euc-jp", "euc_jp", "ja", "euc-kr", "euc-jp"),
            ("gbk", "gbk", "zh", "big5", "GB2312")):
        d = "%s bytes labelled %s: the reading is replaced" % (real, label)
        # GBK bytes fail strict Big5 here: chardetng's candidate decodes them.
        scenario("cjk_%s_labelled_%s" % (codec, label.replace("-", "")),
                 feed(lang, label, d).encode(codec), d,
                 Encoding=reported, Rule="1.2", Bozo="CharacterEncodingOverride",
                 Source="detector" if reported == "GB2312" else "evidence",
                 Title=TEXTS[lang][0])
    # A correct EUC-KR label on short Korean (Hangul, or Hanja) is never overridden.
    for i, title in enumerate(("서울 날씨", "韓國 經濟 뉴스", "大韓民國 政府 發表", "國會 本會議 通過")):
        d = "guard: a correct euc-kr label on a short title (chardetng guesses otherwise)"
        scenario("guard_short_euc_kr_%d" % i, doc(title, "euc-kr", d).encode("euc_kr"), d,
                 Encoding="euc-kr", Rule="1.2", Bozo="none", Source="rfc3023", Title=title)

    # 6. Sibling single-byte pages (a Windows code page and its ISO 8859 part).
    SIB = {
        "el": ["Ένας άνθρωπος ήρθε στην Αθήνα το πρωί.",
               "Άρχισε η συνεδρίαση της Βουλής για τον προϋπολογισμό.",
               "Ό,τι είπε ο υπουργός δεν ήταν σωστό, «σοβαρό» λάθος."],
        "cs": ["Pražský deník: zprávy z hlavního města.",
               "Vláda schválila ve středu nový zákon o daních, důležitý krok.",
               "Škola v Řevnicích získala ocenění za žákovské projekty."],
        "pl": ["Gazeta Krakowska: wiadomości z regionu.",
               "Żółte światło dla budowy metra, ważna decyzja.",
               "Ulewa zalała piwnice w Nowej Hucie."],
        "he": ["חדשות היום: הממשלה אישרה את התקציב.",
               "גשם כבד צפוי בצפון הארץ.",
               "בית הספר זכה בפרס."],
        "tr": ["İstanbul'da yağmur etkili oldu, Boğaz'da vapur seferleri iptal edildi.",
               "Kapalıçarşı'da esnaf şikâyetçi: müşteri sayısı düştü.",
               "Öğrenciler sınav sonuçlarını öğrendi."],
    }

    def sib_doc(lang, label, d, n=3):
        texts = SIB[lang][:n]
        head = '<?xml version="1.0" encoding="%s"?>\n<!-- %s -->\n' % (label, d)
        items = "".join("<item><title>%s</title><description>%s</description></item>" % (t, t)
                        for t in texts)
        return head + '<rss version="2.0"><channel><title>%s</title>%s</channel></rss>\n' % (texts[0], items)
    for name, lang, codec, label, reported, source, n, why in (
            ("sibling_polish_cp1250_labelled_latin2", "pl", "cp1250", "iso-8859-2", "windows-1250",
             "evidence", 1, "bytes 0x80-0x9F are C1 controls in ISO-8859-2"),
            ("sibling_polish_latin2_labelled_cp1250", "pl", "iso8859_2", "windows-1250", "iso-8859-2",
             "evidence", 1, "a pilcrow inside a word"),
            ("sibling_greek_latin7_labelled_cp1253", "el", "iso8859_7", "windows-1253", "iso-8859-7",
             "evidence", 2, "a pilcrow before a letter"),
            ("sibling_czech_latin2_labelled_cp1250", "cs", "iso8859_2", "windows-1250", "iso-8859-2",
             "evidence", 3, "chardetng tells the siblings apart where they differ"),
            ("sibling_turkish_latin5_labelled_cp1252", "tr", "iso8859_9", "windows-1252", "windows-1254",
             "evidence", 3, "chardetng names Turkish")):
        d = "sibling code pages: %s bytes labelled %s (%s)" % (codec, label, why)
        scenario(name, sib_doc(lang, label, d, n).encode(codec), d, Encoding=reported, Rule="1.2",
                 Bozo="CharacterEncodingOverride", Source=source, Title=SIB[lang][0])
    for lang, codecs in (("el", ("cp1253", "iso8859_7")), ("cs", ("cp1250", "iso8859_2")),
                         ("pl", ("cp1250", "iso8859_2")), ("he", ("cp1255", "iso8859_8")),
                         ("tr", ("cp1254", "iso8859_9"))):
        for codec in codecs:
            label = {"cp1253": "windows-1253", "iso8859_7": "iso-8859-7", "cp1250": "windows-1250",
                     "iso8859_2": "iso-8859-2", "cp1255": "windows-1255", "iso8859_8": "iso-8859-8",
                     "cp1254": "windows-1254", "iso8859_9": "iso-8859-9"}[codec]
            for n in (1, 3):
                d = "guard: a correct %s label on %s text (%d entries)" % (label, lang, n)
                scenario("guard_sibling_%s_%s_%d" % (lang, codec, n), sib_doc(lang, label, d, n).encode(codec), d,
                         Encoding=label, Rule="1.2", Bozo="none", Source="rfc3023", Title=SIB[lang][0])

    # Guards: correct labels on natural (and short) text are never overridden.
    for label, codec, lang in LEGACY_CJK:
        d = "guard: a correct %s label on a complete feed" % label
        scenario("guard_%s" % codec, feed(lang, label, d).encode(codec), d,
                 Encoding=label, Rule="1.2", Bozo="none", Source="rfc3023", Title=TEXTS[lang][0])
        d = "guard: a correct %s label on a one-line title" % label
        short = TEXTS[lang][1][:12].strip()
        scenario("guard_short_%s" % codec, doc(short, label, d).encode(codec), d,
                 Encoding=label, Rule="1.2", Bozo="none", Source="rfc3023", Title=short)


def main():
    add_all()
    add_recovery()
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith((".xml", ".expect")):
            os.remove(os.path.join(OUT, f))
    for name, data, description, expect in SCENARIOS:
        with open(os.path.join(OUT, name + ".xml"), "wb") as f:
            f.write(data)
        lines = ["Description: " + description]
        lines.append("Transport: " + expect.pop("Transport", "local"))
        for h in expect.pop("Header", []):
            lines.append("Header: " + h)
        lines.append("Policy: " + expect.pop("Policy", "recover"))
        expect.setdefault("Rule-error", "no")
        for key in ("Encoding", "Rule", "Rule-error", "Bozo", "Source", "Text-contains", "Title"):
            if key in expect:
                lines.append("%s: %s" % (key, expect.pop(key)))
        assert not expect, (name, expect)
        with open(os.path.join(OUT, name + ".expect"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    print("wrote %d scenarios to %s" % (len(SCENARIOS), os.path.normpath(OUT)))


if __name__ == "__main__":
    sys.exit(main())
