#!/usr/bin/env python3
"""Robustness self-evaluation: generate a synthetic multi-encoding feed corpus and score
feed-decoder (and feedparser, as the reference) on how much of the true text they recover.

The corpus approximates the project's held-out evaluation: feeds in ~40 encodings and 19
language variants, correctly labelled, labelled only by HTTP, unlabelled, mislabelled,
served with wrong media types, with BOM conflicts, in EBCDIC, and with malformed markup,
in RSS 2.0 and Atom. Everything is generated from a seed (default 1); the same seed gives
the same bytes. Nothing is written into the repository unless --keep points there.

Scoring (per field: the feed title, every entry title and every entry summary):
  * titles: exact string match after stripping surrounding whitespace;
  * summaries: text content. Both sides are normalised the same way: tags are removed
    (`<...>`), then HTML entities unescaped (html.unescape), then every run of
    whitespace (including U+00A0) becomes one space and the ends are stripped. So
    `&lt;p&gt;Café&lt;/p&gt;` in escaped HTML, `<p>Café</p>` sanitized HTML and the plain
    text `Café` all count as the same text; a wrong character anywhere does not.
  A missing entry or field counts as a miss. "field %" = fields recovered / fields;
  "feed %" = cases whose every field was recovered.

Usage:
  tools/robustness.py                       # build corpus in a temp dir, score both tools
  tools/robustness.py --only koi8           # only case ids containing 'koi8'
  tools/robustness.py --no-ref --jobs 2     # feed-decoder only
  tools/robustness.py --keep /tmp/corpus    # keep the corpus (bytes + manifest.json)
  tools/robustness.py --json-report r.json  # full per-case results as JSON
  tools/robustness.py --self-test           # check the generator, run no tool
  tools/robustness.py --list                # print the case ids

Case ids are SCENARIO/VARIANT/LANG/ENCODING/FORMAT, e.g.
`mislabelled/decl-utf8/ru/koi8-r/atom`. The corpus manifest (manifest.json in the
corpus directory) gives, per case: file, headers ([] = a local file), expected texts,
the encoding the bytes are really in, and the format.

Only the Python standard library is used.
"""
import argparse
import concurrent.futures
import hashlib
import html
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from xml.sax.saxutils import escape as xml_escape

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_CMD = os.path.join(ROOT, "target", "release", "feed-decoder") + " --json"
DEFAULT_REF = "/work/fpvenv/bin/python /work/shared/tools/feedparser_cli.py"

# ---------------------------------------------------------------------------
# Texts: (feed title, [(entry title, entry summary), ...]) per language.

TEXTS = {
    "en": ("The Riverside Courier", [
        ("Riverside Café reopens after £2m refit",
         "The café on Mill Street welcomed its first customers on Monday. "
         "The owners say the new menu keeps all the old favourites."),
        ("Council approves “naïve art” festival for June",
         "Artists from twelve countries will exhibit in the old market hall. "
         "Entry is free for residents."),
        ("Rail line closed for weekend repairs",
         "Replacement buses will run every 20 minutes — a day ticket costs €5 or £4."),
    ]),
    "fr": ("Le Journal de Lyon : actualités régionales", [
        ("La fête des Lumières attire des visiteurs record",
         "Près de deux millions de personnes ont arpenté les rues illuminées ce week-end. "
         "Les hôtels affichent complet."),
        ("Grève des transports : le métro perturbé jeudi",
         "Seule une rame sur deux circulera entre 6 h et 20 h. "
         "La préfecture conseille le télétravail."),
        ("Un boulanger élu « meilleur ouvrier de France »",
         "Âgé de 34 ans, il a créé sa première baguette à l’âge de douze ans, avec tout son cœur."),
    ]),
    "de": ("Münchner Nachrichten: Stadt und Region", [
        ("Straßenbahn fährt wieder bis zum Olympiapark",
         "Nach drei Monaten Bauzeit ist die Strecke ab Montag wieder geöffnet. "
         "Die Fahrgäste müssen sich auf geänderte Abfahrtszeiten einstellen."),
        ("Große Nachfrage nach Übernachtungen zum Oktoberfest",
         "Viele Hotels melden schon jetzt eine Auslastung von über 90 Prozent. Eine Maß kostet „über 15 €“."),
        ("Bürgermeister eröffnet neue Bücherei in Schwabing",
         "Die Bibliothek bietet mehr als 40.000 Medien und einen Lesegarten für Kinder."),
    ]),
    "es": ("El Diario de Sevilla: noticias de Andalucía", [
        ("La Feria de Abril bate su récord de visitantes",
         "Más de un millón de personas pasaron por el recinto ferial. "
         "El ayuntamiento ampliará el horario del metro."),
        ("¿Subirá el precio del aceite de oliva este otoño?",
         "Los agricultores advierten que la sequía reducirá la cosecha en un 30 %… y el litro ya cuesta 9 €."),
        ("Un niño de once años gana el campeonato de ajedrez",
         "El joven jugador sevillano venció a rivales de toda España."),
    ]),
    "pt": ("Notícias de Lisboa: o dia na capital", [
        ("Elétrico 28 volta a circular após obras",
         "A linha histórica reabriu na manhã de sábado. Os moradores da Graça celebraram o regresso."),
        ("Preço da habitação sobe pelo sexto mês consecutivo",
         "Os dados do instituto de estatística mostram um aumento de 2,3 % em relação a março – o metro quadrado custa 5.000 €."),
        ("Festival de fado enche a praça do Comércio",
         "Milhares de pessoas assistiram aos concertos gratuitos à beira do Tejo."),
    ]),
    "pl": ("Gazeta Krakowska: wiadomości z regionu", [
        ("Nowy most na Wiśle otwarty dla pieszych",
         "Kładka łączy Kazimierz z Podgórzem. Spacer zajmuje teraz tylko pięć minut."),
        ("Żółte światło dla budowy metra w Krakowie",
         "Radni zgodzili się na przygotowanie dokumentacji. "
         "Pierwsze pociągi mogłyby ruszyć za dziesięć lat."),
        ("Ulewa zalała piwnice w Nowej Hucie",
         "Strażacy interweniowali ponad czterdzieści razy w ciągu jednej nocy."),
    ]),
    "cs": ("Pražský deník: zprávy z hlavního města", [
        ("Karlův most čeká rozsáhlá oprava",
         "Práce potrvají dva roky a most zůstane po celou dobu otevřený pro chodce."),
        ("Tramvaje na Smíchově jezdí odklonem",
         "Kvůli výměně kolejí nepojedou linky 4 a 5 až do neděle. Dopravní podnik posílí autobusy."),
        ("Žáci z Řevnic vyhráli soutěž v programování",
         "Čtyřčlenný tým porazil třicet škol z celé republiky."),
    ]),
    "tr": ("İstanbul Haber: Şehirden son gelişmeler", [
        ("Boğaz'da yeni vapur seferleri başlıyor",
         "Üsküdar ile Beşiktaş arasında her on beş dakikada bir sefer yapılacak."),
        ("Kapalıçarşı'da esnaf yağmurdan şikâyetçi",
         "Çatıdaki onarım çalışmaları gecikince bazı dükkânları su bastı."),
        ("Öğrenciler için ücretsiz müze günü",
         "Öğrenci kartını gösteren herkes çarşamba günleri müzelere ücretsiz girebilecek."),
    ]),
    "ru": ("Новости Петербурга: главное за день", [
        ("На Невском проспекте открылась новая библиотека",
         "В читальном зале поместится сто человек. Вход свободный для всех жителей города."),
        ("Мосты разведут по новому графику",
         "С понедельника Дворцовый мост будет разводиться на полчаса позже. "
         "Водителей просят планировать поездки заранее."),
        ("Школьники из Выборга победили на олимпиаде по физике",
         "Команда из пяти человек набрала больше всех баллов. Ещё два ученика получили дипломы."),
    ]),
    "uk": ("Київські новини: головне за тиждень", [
        ("У Києві відкрили новий парк на Оболоні",
         "Парк має дитячий майданчик і велосипедні доріжки. Мешканці давно чекали на це."),
        ("Ґрунтові дороги в області відремонтують до осені",
         "Обласна адміністрація виділила кошти на ремонт ста кілометрів доріг."),
        ("Їжа з місцевих ферм з'являється в школах",
         "Учні отримуватимуть свіжі овочі та молоко щодня. Європейські експерти схвалили план."),
    ]),
    "el": ("Αθηναϊκά Νέα: ειδήσεις από την πόλη", [
        ("Νέος σταθμός του μετρό ανοίγει στον Πειραιά",
         "Ο σταθμός θα εξυπηρετεί περίπου είκοσι χιλιάδες επιβάτες την ημέρα."),
        ("Καύσωνας: κλειστή η Ακρόπολη τις μεσημεριανές ώρες",
         "Το υπουργείο Πολιτισμού συνιστά στους επισκέπτες να έρθουν νωρίς το πρωί."),
        ("Ψαράδες της Ύδρας γιορτάζουν την καλή σοδειά",
         "Η φετινή αλιευτική περίοδος ήταν η καλύτερη της δεκαετίας."),
    ]),
    "he": ("חדשות ירושלים: עדכונים מהעיר", [
        ("הרכבת הקלה מגיעה לשכונות חדשות",
         "הקו החדש יחבר את מרכז העיר לשכונות הדרום. הנסיעה תימשך כעשרים דקות."),
        ("פסטיבל האור חוזר לעיר העתיקה",
         "מיצגי אור יוצגו על החומות במשך שבוע שלם."),
        ("תלמידים זכו בתחרות רובוטיקה ארצית",
         "הקבוצה בנתה רובוט שממיין פסולת למחזור."),
    ]),
    "ar": ("أخبار القاهرة: آخر المستجدات", [
        ("افتتاح خط جديد لمترو الأنفاق",
         "يربط الخط الجديد وسط المدينة بالأحياء الشرقية. ويتوقع أن يخدم آلاف الركاب يوميا."),
        ("معرض الكتاب يستقبل زواره هذا الأسبوع",
         "يشارك في المعرض أكثر من ألف ناشر من عشرين دولة."),
        ("ارتفاع درجات الحرارة في نهاية الأسبوع",
         "تنصح الأرصاد المواطنين بشرب الماء وتجنب الشمس وقت الظهيرة."),
    ]),
    "th": ("ข่าวเชียงใหม่: ข่าวสารประจำวัน", [
        ("เทศกาลดอกไม้เริ่มต้นแล้วในตัวเมือง",
         "นักท่องเที่ยวจำนวนมากเดินทางมาชมขบวนรถดอกไม้ในวันเสาร์"),
        ("ฝนตกหนักทำให้ถนนหลายสายน้ำท่วม",
         "เจ้าหน้าที่แนะนำให้ประชาชนหลีกเลี่ยงเส้นทางริมแม่น้ำปิง"),
        ("นักเรียนไทยคว้ารางวัลคณิตศาสตร์โอลิมปิก",
         "ทีมนักเรียนได้รับเหรียญทองสองเหรียญและเหรียญเงินหนึ่งเหรียญ"),
    ]),
    "vi": ("Tin tức Hà Nội: điểm tin trong ngày", [
        ("Hồ Gươm đón hàng nghìn du khách dịp cuối tuần",
         "Phố đi bộ quanh hồ mở cửa từ chiều thứ Sáu đến tối Chủ nhật."),
        ("Giá xăng giảm lần thứ ba liên tiếp",
         "Mỗi lít xăng rẻ hơn khoảng năm trăm đồng so với tuần trước."),
        ("Học sinh Việt Nam giành huy chương vàng Olympic Toán",
         "Đội tuyển gồm sáu thành viên và tất cả đều đoạt huy chương."),
    ]),
    "ja": ("東京ニュース：今日の主な出来事", [
        ("新しい美術館が上野にオープン",
         "開館初日には三千人以上が訪れました。入場は来月まで無料です。"),
        ("台風の接近で新幹線が一部運休",
         "鉄道会社は、明日の朝まで運転を見合わせると発表しました。"),
        ("小学生が考えた防災アプリが受賞",
         "地域の避難所を地図で表示する仕組みが高く評価されました。"),
    ]),
    "zh-hans": ("上海新闻：今日要闻", [
        ("地铁新线路正式开通运营",
         "新线路连接浦东机场和市中心，全程只需四十分钟。"),
        ("本周末将迎来强降雨天气",
         "气象部门提醒市民出行注意安全，尽量减少外出。"),
        ("中学生机器人比赛在复旦大学举行",
         "来自全国的两百多支队伍参加了比赛。"),
    ]),
    "zh-hant": ("台北新聞：今日焦點", [
        ("捷運新路線今天正式通車",
         "新路線連接市中心與北投，全程只要二十五分鐘。"),
        ("颱風來襲，學校停課一天",
         "氣象局提醒民眾做好防颱準備，避免前往海邊。"),
        ("夜市美食節吸引大批遊客",
         "今年共有一百多個攤位參加，遊客可以品嚐各地小吃。"),
    ]),
    "ko": ("서울 뉴스: 오늘의 주요 소식", [
        ("한강에 새로운 보행자 다리 개통",
         "다리는 여의도와 용산을 연결합니다. 시민들은 걸어서 십 분이면 건널 수 있습니다."),
        ("주말에 전국적으로 비 소식",
         "기상청은 일요일 오후부터 많은 비가 내릴 것이라고 예보했습니다."),
        ("고등학생들이 만든 앱이 대상 수상",
         "학생들은 노인을 위한 병원 예약 앱을 개발했습니다."),
    ]),
}

# ---------------------------------------------------------------------------
# Encodings: key -> (label written in declarations/charset, Python codec, BOM bytes, family)
# The label is the IANA/WHATWG name a real publisher would write (a few of them, such
# as windows-874 and IBM01140, are not known to Python's codec registry).

ENCODINGS = {
    "utf-8":        ("UTF-8", "utf-8", b"", "unicode"),
    "utf-16":       ("UTF-16", "utf-16-le", b"\xff\xfe", "unicode"),
    "utf-16le":     ("UTF-16LE", "utf-16-le", b"", "unicode"),
    "utf-16be":     ("UTF-16BE", "utf-16-be", b"", "unicode"),
    "utf-32":       ("UTF-32", "utf-32-le", b"\xff\xfe\x00\x00", "unicode"),
    "windows-1250": ("windows-1250", "cp1250", b"", "central-european"),
    "iso-8859-2":   ("ISO-8859-2", "iso8859-2", b"", "central-european"),
    "windows-1251": ("windows-1251", "cp1251", b"", "cyrillic"),
    "koi8-r":       ("KOI8-R", "koi8-r", b"", "cyrillic"),
    "koi8-u":       ("KOI8-U", "koi8-u", b"", "cyrillic"),
    "ibm866":       ("IBM866", "cp866", b"", "cyrillic"),
    "iso-8859-5":   ("ISO-8859-5", "iso8859-5", b"", "cyrillic"),
    "windows-1252": ("windows-1252", "cp1252", b"", "western"),
    "iso-8859-1":   ("ISO-8859-1", "iso8859-1", b"", "western"),
    "iso-8859-15":  ("ISO-8859-15", "iso8859-15", b"", "western"),
    "macintosh":    ("macintosh", "mac-roman", b"", "western"),
    "windows-1253": ("windows-1253", "cp1253", b"", "greek"),
    "iso-8859-7":   ("ISO-8859-7", "iso8859-7", b"", "greek"),
    "windows-1254": ("windows-1254", "cp1254", b"", "turkish"),
    "iso-8859-9":   ("ISO-8859-9", "iso8859-9", b"", "turkish"),
    "windows-1255": ("windows-1255", "cp1255", b"", "hebrew"),
    "iso-8859-8":   ("ISO-8859-8", "iso8859-8", b"", "hebrew"),
    "windows-1256": ("windows-1256", "cp1256", b"", "arabic"),
    "iso-8859-6":   ("ISO-8859-6", "iso8859-6", b"", "arabic"),
    "tis-620":      ("TIS-620", "tis-620", b"", "thai"),
    "windows-874":  ("windows-874", "cp874", b"", "thai"),
    "windows-1258": ("windows-1258", "cp1258", b"", "vietnamese"),
    "shift_jis":    ("Shift_JIS", "shift_jis", b"", "japanese"),
    "euc-jp":       ("EUC-JP", "euc_jp", b"", "japanese"),
    "iso-2022-jp":  ("ISO-2022-JP", "iso2022_jp", b"", "japanese"),
    "gb2312":       ("GB2312", "gb2312", b"", "chinese"),
    "gbk":          ("GBK", "gbk", b"", "chinese"),
    "gb18030":      ("GB18030", "gb18030", b"", "chinese"),
    "big5":         ("Big5", "big5", b"", "chinese"),
    "euc-kr":       ("EUC-KR", "euc_kr", b"", "korean"),
    "ibm037":       ("IBM037", "cp037", b"", "ebcdic"),
    "ibm500":       ("IBM500", "cp500", b"", "ebcdic"),
    "ibm01140":     ("IBM01140", "cp1140", b"", "ebcdic"),
}

# The encodings natural for each language (the first legacy one is its "primary" legacy
# encoding, used for BOM conflicts and for legacy labels on UTF-8 bytes).
LANG_ENCODINGS = {
    "en": ["utf-8", "utf-16le", "utf-16be", "utf-32", "windows-1252", "iso-8859-1",
           "macintosh", "ibm037"],
    "fr": ["utf-8", "utf-16", "windows-1252", "iso-8859-1", "iso-8859-15", "ibm500",
           "ibm01140"],
    "de": ["utf-8", "windows-1252", "iso-8859-15", "macintosh", "ibm01140"],
    "es": ["utf-8", "windows-1252", "iso-8859-1", "ibm037"],
    "pt": ["utf-8", "windows-1252", "iso-8859-1", "ibm500"],
    "pl": ["utf-8", "utf-16", "windows-1250", "iso-8859-2"],
    "cs": ["utf-8", "windows-1250", "iso-8859-2"],
    "tr": ["utf-8", "windows-1254", "iso-8859-9"],
    "ru": ["utf-8", "utf-16le", "windows-1251", "koi8-r", "ibm866", "iso-8859-5"],
    "uk": ["utf-8", "windows-1251", "koi8-u"],
    "el": ["utf-8", "windows-1253", "iso-8859-7"],
    "he": ["utf-8", "windows-1255", "iso-8859-8"],
    "ar": ["utf-8", "utf-16be", "windows-1256", "iso-8859-6"],
    "th": ["utf-8", "tis-620", "windows-874"],
    "vi": ["utf-8", "utf-16", "windows-1258"],
    "ja": ["utf-8", "utf-16", "shift_jis", "euc-jp", "iso-2022-jp"],
    "zh-hans": ["utf-8", "utf-16le", "gb2312", "gbk", "gb18030"],
    "zh-hant": ["utf-8", "big5"],
    "ko": ["utf-8", "utf-32", "euc-kr"],
}

# A wrong but plausible declared label for legacy bytes (mislabelled/decl-wrong).
WRONG_LEGACY = {
    "windows-1252": "ISO-8859-1", "iso-8859-1": "US-ASCII", "iso-8859-15": "ISO-8859-1",
    "macintosh": "ISO-8859-1", "windows-1250": "ISO-8859-1", "iso-8859-2": "ISO-8859-1",
    "windows-1251": "ISO-8859-1", "koi8-r": "windows-1251", "koi8-u": "windows-1251",
    "ibm866": "windows-1251", "iso-8859-5": "windows-1251", "windows-1253": "ISO-8859-1",
    "iso-8859-7": "windows-1252", "windows-1254": "ISO-8859-1", "iso-8859-9": "ISO-8859-1",
    "windows-1255": "ISO-8859-1", "iso-8859-8": "windows-1252", "windows-1256": "ISO-8859-1",
    "iso-8859-6": "windows-1256", "tis-620": "ISO-8859-1", "windows-874": "ISO-8859-1",
    "windows-1258": "windows-1252", "shift_jis": "EUC-JP", "euc-jp": "Shift_JIS",
    "iso-2022-jp": "Shift_JIS", "gb2312": "Big5", "gbk": "Big5", "gb18030": "Big5",
    "big5": "GB2312", "euc-kr": "ISO-8859-1", "ibm037": "IBM500", "ibm500": "IBM037",
    "ibm01140": "IBM037",
}

MEDIA_VARIANTS = ["text-plain", "text-html", "octet-stream", "text-xml-nocharset",
                  "no-content-type"]
MALFORMED_VARIANTS = ["amp", "nbsp", "unclosed", "junk-after-root", "truncated",
                      "html-description"]
BOM_VARIANTS = ["bom8-decl-legacy", "bom8-http-legacy", "bom16-decl-utf8",
                "bom16be-http-utf8"]
MALFORMED_PER_PAIR = 2

SCENARIOS = ["labelled", "http-charset", "unlabelled", "mislabelled", "media-type",
             "bom-conflict", "malformed", "truncated", "mixed", "lossy-wide",
             "double-encoded"]

# Damaged documents (the bytes are not valid in any one encoding):
#   truncated   a download cut inside a character of the last entry's summary, in every
#               multi-byte encoding (declared, and for legacy CJK also HTTP-labelled);
#               that summary is not scored, every other field is
#   mixed       a UTF-8 feed with entries pasted in windows-1252 (one entry, or all but
#               one), declared UTF-8 or unlabelled
#   lossy-wide  UTF-16/UTF-32 with a lone surrogate in one summary; expected: U+FFFD
#               there and everything else intact
#   double-encoded  UTF-8 read as windows-1252 and encoded to UTF-8 again, the whole
#               document; expected: the original text
TRUNCATE_ENCODINGS = ["utf-8", "utf-16", "utf-16le", "utf-16be", "utf-32", "shift_jis",
                      "euc-jp", "gb2312", "gbk", "gb18030", "big5", "euc-kr"]
LEGACY_MULTIBYTE = ["shift_jis", "euc-jp", "gb2312", "gbk", "gb18030", "big5", "euc-kr"]
MIXED_LANGS = ["en", "fr", "de", "es", "pt"]
MIXED_VARIANTS = ["one-entry-decl", "most-entries-decl", "one-entry-none", "most-entries-none"]
WIDE_ENCODINGS = ["utf-16", "utf-16le", "utf-16be", "utf-32"]
SURROGATE = {"utf-16-le": b"\x00\xd8", "utf-16-be": b"\xd8\x00", "utf-32-le": b"\x00\xd8\x00\x00"}


def is_unicode(enc):
    return ENCODINGS[enc][3] == "unicode"


def is_ebcdic(enc):
    return ENCODINGS[enc][3] == "ebcdic"


def primary_legacy(lang):
    return next(e for e in LANG_ENCODINGS[lang] if not is_unicode(e))


# What a publisher writes when the code page lacks a character (the expected text of
# that case is the substituted one: it is what the bytes say).
SUBSTITUTES = {"€": "EUR", "œ": "oe", "Œ": "OE", "“": '"', "”": '"', "„": '"',
               "‘": "'", "’": "'", "–": "-", "—": "-", "…": "..."}


def fit_texts(texts, codec):
    """The texts as they can be written in `codec`. Characters the code page lacks are
    replaced from SUBSTITUTES (e.g. € -> EUR in ISO-8859-1); windows-1258 has few
    precomposed Vietnamese letters, so the ones it lacks are written decomposed (base
    letter + combining tone mark), which is how real windows-1258 text is written.
    Any other unencodable character is left alone, so the pair is reported as skipped
    (a bug in the tables above)."""

    def fit(s):
        out = []
        for ch in s:
            if _encodable(ch, codec):
                out.append(ch)
            elif ch in SUBSTITUTES:
                out.append(SUBSTITUTES[ch])
            elif codec == "cp1258":
                d = unicodedata.normalize("NFD", ch)
                base, marks = d[0], list(d[1:])
                # keep as much precomposed as the code page has (e.g. ô + grave)
                for m in list(marks):
                    comp = unicodedata.normalize("NFC", base + m)
                    if len(comp) == 1 and _encodable(comp, codec):
                        base = comp
                        marks.remove(m)
                        break
                out.append(base + "".join(marks))
            else:
                out.append(ch)
        return "".join(out)

    title, entries = texts
    return fit(title), [(fit(t), fit(s)) for t, s in entries]


def _encodable(s, codec):
    try:
        s.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


# ---------------------------------------------------------------------------
# Documents

def build_doc(lang, texts, fmt, decl_label, malformed=None):
    """The feed as a str, and the expected texts (which the malformed variants change).
    decl_label: None = no XML declaration; '' = declaration without encoding."""
    title, entries = texts
    entries = [list(e) for e in entries]
    raw_title0 = None
    raw_summary0 = None
    if malformed == "amp":
        entries[0][0] = entries[0][0] + " & 24h"
        raw_title0 = entries[0][0]                       # written unescaped
    elif malformed == "nbsp":
        s = entries[0][1]
        raw_summary0 = (s.replace(" ", "&nbsp;", 1) if " " in s else s + "&nbsp;")
        raw_summary0 = xml_escape(raw_summary0).replace("&amp;nbsp;", "&nbsp;")
    out = []
    if decl_label is not None:
        enc = ' encoding="%s"' % decl_label if decl_label else ""
        out.append('<?xml version="1.0"%s?>\n' % enc)
    esc = xml_escape
    if fmt == "rss":
        out.append('<rss version="2.0">\n<channel>\n<title>%s</title>\n'
                   "<link>http://example.com/%s/</link>\n"
                   "<description>news</description>\n<language>%s</language>\n"
                   % (esc(title), lang, lang))
    else:
        out.append('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="%s">\n'
                   "<title>%s</title>\n<id>urn:example:%s</id>\n"
                   "<updated>2024-05-01T08:00:00Z</updated>\n" % (lang, esc(title), lang))
    close_item = "</item>\n" if fmt == "rss" else "</entry>\n"
    if malformed == "unclosed":
        close_item = "\n"
    last_summary_end = None
    for i, (t, s) in enumerate(entries):
        t_xml = raw_title0 if (i == 0 and raw_title0) else esc(t)
        if i == 0 and raw_summary0:
            s_xml = raw_summary0
        elif malformed == "html-description" and i == 0:
            s_xml = "<p>%s</p>" % esc(s)                   # raw markup, not escaped
        else:
            s_xml = esc(s)
        if fmt == "rss":
            out.append("<item>\n<title>%s</title>\n<link>http://example.com/%s/%d</link>\n"
                       '<guid isPermaLink="false">%s-%d</guid>\n'
                       "<description>%s</description>\n" % (t_xml, lang, i, lang, i, s_xml))
        else:
            stype = ' type="html"' if malformed == "html-description" and i == 0 else ""
            out.append("<entry>\n<title>%s</title>\n<id>urn:example:%s:%d</id>\n"
                       "<updated>2024-05-01T08:00:00Z</updated>\n"
                       "<summary%s>%s</summary>\n" % (t_xml, lang, i, stype, s_xml))
        last_summary_end = sum(len(x) for x in out)
        out.append(close_item)
    out.append("</channel>\n</rss>\n" if fmt == "rss" else "</feed>\n")
    doc = "".join(out)
    if malformed == "junk-after-root":
        doc += "<div>Advertisement</div>\n<p>trailing junk & more\n"
    elif malformed == "truncated":
        doc = doc[:last_summary_end] + ("\n</it" if fmt == "rss" else "\n</ent")
    expected = {"feed_title": title,
                "entries": [{"title": t, "summary": s} for t, s in entries]}
    return doc, expected


def encode_doc(doc, enc, bom=None):
    label, codec, default_bom, _ = ENCODINGS[enc]
    data = doc.encode(codec)
    return (default_bom if bom is None else bom) + data


# ---------------------------------------------------------------------------
# Corpus

def ct_for(fmt):
    return "application/rss+xml" if fmt == "rss" else "application/atom+xml"


def generate(seed=1):
    """All cases, as dicts: id, scenario, variant, lang, enc, family, fmt, headers,
    data (bytes), expected, true_codec. Deterministic for a given seed."""
    cases = []
    skipped = []

    def add(scenario, variant, lang, enc, fmt, headers, data, expected, family=None):
        cid = "/".join([scenario, variant, lang, enc, fmt])
        cases.append({"id": cid, "scenario": scenario, "variant": variant, "lang": lang,
                      "enc": enc, "family": family or ENCODINGS[enc][3], "fmt": fmt,
                      "headers": headers, "data": data, "expected": expected,
                      "true_codec": ENCODINGS[enc][1]})

    for lang in TEXTS:
        for enc in LANG_ENCODINGS[lang]:
            label, codec, _, family = ENCODINGS[enc]
            rng = random.Random("%s:%s:%s" % (seed, lang, enc))
            texts = fit_texts(TEXTS[lang], codec)
            try:
                doc, _ = build_doc(lang, texts, "rss", label)
                doc.encode(codec)
            except UnicodeEncodeError as e:
                skipped.append((lang, enc, str(e)))
                continue

            def fmt_pick():
                return rng.choice(["rss", "atom"])

            def mk(fmt, decl, malformed=None, bom=None):
                doc, exp = build_doc(lang, texts, fmt, decl, malformed)
                return encode_doc(doc, enc, bom), exp

            # correctly labelled by the XML declaration, local file
            fmt = fmt_pick()
            data, exp = mk(fmt, label)
            add("labelled", "decl", lang, enc, fmt, [], data, exp)
            # labelled only by the HTTP charset
            fmt = fmt_pick()
            mt = rng.choice([ct_for(fmt), "application/xml", "text/xml"])
            data, exp = mk(fmt, None)
            add("http-charset", "charset", lang, enc, fmt,
                ["Content-Type: %s; charset=%s" % (mt, label)], data, exp)
            # unlabelled: no declaration, local file
            fmt = fmt_pick()
            data, exp = mk(fmt, None)
            add("unlabelled", "local", lang, enc, fmt, [], data, exp)
            # unlabelled but served as XML without a charset
            fmt = fmt_pick()
            data, exp = mk(fmt, None)
            add("unlabelled", "http-nocharset", lang, enc, fmt,
                ["Content-Type: %s" % ct_for(fmt)], data, exp)
            # mislabelled
            if is_unicode(enc):
                if enc == "utf-8":
                    fmt = fmt_pick()
                    data, exp = mk(fmt, "ISO-8859-1")
                    add("mislabelled", "decl-latin1", lang, enc, fmt, [], data, exp)
                    fmt = fmt_pick()
                    data, exp = mk(fmt, ENCODINGS[primary_legacy(lang)][0])
                    add("mislabelled", "decl-legacy", lang, enc, fmt, [], data, exp)
                    fmt = fmt_pick()
                    data, exp = mk(fmt, label)
                    add("mislabelled", "http-latin1", lang, enc, fmt,
                        ["Content-Type: text/xml; charset=ISO-8859-1"], data, exp)
                elif enc in ("utf-16le", "utf-16be"):
                    fmt = fmt_pick()
                    data, exp = mk(fmt, "UTF-8")
                    add("mislabelled", "decl-utf8", lang, enc, fmt, [], data, exp)
            else:
                fmt = fmt_pick()
                data, exp = mk(fmt, "UTF-8")
                add("mislabelled", "decl-utf8", lang, enc, fmt, [], data, exp)
                fmt = fmt_pick()
                data, exp = mk(fmt, WRONG_LEGACY[enc])
                add("mislabelled", "decl-wrong", lang, enc, fmt, [], data, exp)
                fmt = fmt_pick()
                data, exp = mk(fmt, label)
                add("mislabelled", "http-utf8", lang, enc, fmt,
                    ["Content-Type: %s; charset=utf-8" % ct_for(fmt)], data, exp)
            # wrong media types (the declaration is right)
            for v in MEDIA_VARIANTS:
                fmt = fmt_pick()
                data, exp = mk(fmt, label)
                headers = {
                    "text-plain": ["Content-Type: text/plain"],
                    "text-html": ["Content-Type: text/html"],
                    "octet-stream": ["Content-Type: application/octet-stream"],
                    "text-xml-nocharset": ["Content-Type: text/xml"],
                    "no-content-type": ["Server: robustness-test"],
                }[v]
                add("media-type", v, lang, enc, fmt, headers, data, exp)
            # malformed markup (correct declaration, local file)
            for v in rng.sample(MALFORMED_VARIANTS, MALFORMED_PER_PAIR):
                fmt = fmt_pick()
                data, exp = mk(fmt, label, malformed=v)
                add("malformed", v, lang, enc, fmt, [], data, exp)

        # BOM conflicts, once per language
        rng = random.Random("%s:%s:bom" % (seed, lang))
        legacy = ENCODINGS[primary_legacy(lang)][0]
        texts = TEXTS[lang]
        for v in BOM_VARIANTS:
            fmt = rng.choice(["rss", "atom"])
            if v == "bom8-decl-legacy":
                doc, exp = build_doc(lang, texts, fmt, legacy)
                enc, data, headers = "utf-8", b"\xef\xbb\xbf" + doc.encode("utf-8"), []
            elif v == "bom8-http-legacy":
                doc, exp = build_doc(lang, texts, fmt, None)
                enc, data = "utf-8", b"\xef\xbb\xbf" + doc.encode("utf-8")
                headers = ["Content-Type: %s; charset=%s" % (ct_for(fmt), legacy)]
            elif v == "bom16-decl-utf8":
                doc, exp = build_doc(lang, texts, fmt, "UTF-8")
                enc, data, headers = "utf-16", b"\xff\xfe" + doc.encode("utf-16-le"), []
            else:
                doc, exp = build_doc(lang, texts, fmt, "UTF-16")
                enc, data = "utf-16", b"\xfe\xff" + doc.encode("utf-16-be")
                headers = ["Content-Type: %s; charset=utf-8" % ct_for(fmt)]
            add("bom-conflict", v, lang, enc, fmt, headers, data, exp)
            cases[-1]["true_codec"] = "utf-8" if v.startswith("bom8") else (
                "utf-16-le" if v == "bom16-decl-utf8" else "utf-16-be")
    generate_damaged(seed, add, cases)
    return cases, skipped


def damaged_plan():
    """(scenario, variant, lang, enc) of every damaged case, in generation order."""
    plan = []
    for lang, encs in LANG_ENCODINGS.items():
        for enc in encs:
            if enc in TRUNCATE_ENCODINGS:
                plan.append(("truncated", "decl", lang, enc))
                if enc in LEGACY_MULTIBYTE:
                    plan.append(("truncated", "http", lang, enc))
            if enc in WIDE_ENCODINGS:
                plan.append(("lossy-wide", "surrogate", lang, enc))
        if lang in MIXED_LANGS:
            for v in MIXED_VARIANTS:
                plan.append(("mixed", v, lang, "utf-8"))
        if "utf-8" in encs:
            plan.append(("double-encoded", "cp1252", lang, "utf-8"))
    return plan


def generate_damaged(seed, add, cases):
    for scenario, variant, lang, enc in damaged_plan():
        label, codec, bom, _ = ENCODINGS[enc]
        rng = random.Random("%s:%s:%s:%s:%s" % (seed, scenario, variant, lang, enc))
        fmt = rng.choice(["rss", "atom"])
        texts = fit_texts(TEXTS[lang], codec)
        if scenario == "truncated":
            decl = label if variant == "decl" else None
            headers = [] if variant == "decl" else [
                "Content-Type: %s; charset=%s" % (ct_for(fmt), label)]
            doc, exp = build_doc(lang, texts, fmt, decl)
            last = xml_escape(exp["entries"][-1]["summary"])
            start = doc.rindex(last)
            # The first character past the middle of that summary that takes more than
            # one byte; the document ends after its first byte.
            wide = [i for i in range(start + len(last) // 2, start + len(last))
                    if len(doc[i].encode(codec)) > 1]
            at = wide[0]
            data = bom + doc[:at].encode(codec) + doc[at].encode(codec)[:1]
            exp["entries"][-1]["summary"] = None
            add(scenario, variant, lang, enc, fmt, headers, data, exp)
        elif scenario == "lossy-wide":
            doc, exp = build_doc(lang, texts, fmt, label)
            summary = exp["entries"][1]["summary"]
            cut = len(summary) // 2
            esc_a, esc_b = xml_escape(summary[:cut]), xml_escape(summary[cut:])
            data = bom + doc.encode(codec).replace(
                (esc_a + esc_b).encode(codec),
                esc_a.encode(codec) + SURROGATE[codec] + esc_b.encode(codec), 1)
            exp["entries"][1]["summary"] = summary[:cut] + "\ufffd" + summary[cut:]
            add(scenario, variant, lang, enc, fmt, [], data, exp)
        elif scenario == "double-encoded":
            doc, exp = build_doc(lang, TEXTS[lang], fmt, rng.choice(["UTF-8", None]))
            twice = "".join(bytes([b]).decode("cp1252") if b not in (0x81, 0x8d, 0x8f, 0x90, 0x9d)
                            else chr(b) for b in doc.encode("utf-8"))
            add(scenario, variant, lang, enc, fmt, [], twice.encode("utf-8"), exp)
        else:
            decl = "UTF-8" if variant.endswith("-decl") else None
            doc, exp = build_doc(lang, TEXTS[lang], fmt, decl)
            data = doc.encode("utf-8")
            entries = exp["entries"]
            pasted = entries[:1] if variant.startswith("one") else entries[:-1]
            for e in pasted:
                for t in (e["title"], e["summary"]):
                    fitted = fit_texts((t, []), "cp1252")[0]
                    e["title" if t == e["title"] else "summary"] = fitted
                    data = data.replace(xml_escape(t).encode("utf-8"),
                                        xml_escape(fitted).encode("cp1252"), 1)
            add(scenario, variant, lang, enc, fmt, [], data, exp)
        cases[-1]["damaged"] = True


def expected_case_count():
    n = 0
    for lang, encs in LANG_ENCODINGS.items():
        for enc in encs:
            n += 4 + len(MEDIA_VARIANTS) + MALFORMED_PER_PAIR
            if enc == "utf-8":
                n += 3
            elif enc in ("utf-16le", "utf-16be"):
                n += 1
            elif not is_unicode(enc):
                n += 3
        n += len(BOM_VARIANTS)
    return n + len(damaged_plan())


def case_filename(case):
    return case["id"].replace("/", "__") + ".xml"


def write_corpus(cases, directory):
    os.makedirs(directory, exist_ok=True)
    manifest = []
    for c in cases:
        path = os.path.join(directory, case_filename(c))
        with open(path, "wb") as f:
            f.write(c["data"])
        c["path"] = path
        manifest.append({k: v for k, v in c.items() if k not in ("data", "path")}
                        | {"file": case_filename(c)})
    with open(os.path.join(directory, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)


# ---------------------------------------------------------------------------
# Scoring

TAG_RE = re.compile(r"<[^>]*>")
WS_RE = re.compile(r"\s+")


def norm_title(s):
    return (s or "").strip()


def norm_summary(s):
    s = TAG_RE.sub(" ", s or "")
    s = html.unescape(s)
    return WS_RE.sub(" ", s).strip()


def run_tool(cmd, case, timeout=60):
    argv = shlex.split(cmd)
    for h in case["headers"]:
        argv += ["--header", h]
    argv.append(case["path"])
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    except OSError as e:
        return None, "cannot run: %s" % e
    try:
        return json.loads(p.stdout.decode("utf-8")), None
    except (ValueError, UnicodeDecodeError):
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, "exit %d, no JSON: %s" % (p.returncode, err[-1] if err else "")


def score(case, out, error):
    """Per-field results: list of (field, expected, got, ok)."""
    exp = case["expected"]
    fields = []
    feed = (out or {}).get("feed") or {}
    entries = (out or {}).get("entries") or []
    fields.append(("feed.title", exp["feed_title"], feed.get("title"),
                   norm_title(feed.get("title")) == norm_title(exp["feed_title"])))
    for i, e in enumerate(exp["entries"]):
        got = entries[i] if i < len(entries) else {}
        fields.append(("entries[%d].title" % i, e["title"], got.get("title"),
                       norm_title(got.get("title")) == norm_title(e["title"])))
        if e["summary"] is None:  # cut short by a truncated download: not scored
            continue
        fields.append(("entries[%d].summary" % i, e["summary"], got.get("summary"),
                       norm_summary(got.get("summary")) == norm_summary(e["summary"])))
    return fields


def evaluate(case, cmd):
    out, error = run_tool(cmd, case)
    fields = score(case, out, error)
    dec = (out or {}).get("decoding") or {}
    return {"fields": fields, "ok": sum(1 for f in fields if f[3]), "n": len(fields),
            "error": error, "encoding": (out or {}).get("encoding"),
            "chosen": dec.get("chosen"), "tried": dec.get("tried"),
            "bozo": (out or {}).get("bozo")}


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def table(title, keyfn, cases, results, tools):
    groups = {}
    for c in cases:
        groups.setdefault(keyfn(c), []).append(c)
    head = "%-34s %5s" % (title, "cases")
    for t in tools:
        head += "  %13s %11s" % (t + " field%", "feed%")
    lines = [head, "-" * len(head)]
    for k in sorted(groups):
        row = "%-34s %5d" % (k, len(groups[k]))
        for t in tools:
            ok = sum(results[t][c["id"]]["ok"] for c in groups[k])
            n = sum(results[t][c["id"]]["n"] for c in groups[k])
            full = sum(1 for c in groups[k]
                       if results[t][c["id"]]["ok"] == results[t][c["id"]]["n"])
            row += "  %13.1f %11.1f" % (pct(ok, n), pct(full, len(groups[k])))
        lines.append(row)
    return "\n".join(lines)


def short(s, n=70):
    s = repr(s)
    return s if len(s) <= n else s[:n - 3] + "..."


def around_difference(exp, got, width=60):
    """Both texts, cut to a window around their first difference."""
    if not isinstance(got, str):
        return short(exp, width + 10), repr(got)
    i = next((k for k, (x, y) in enumerate(zip(exp, got)) if x != y), min(len(exp), len(got)))
    start = max(0, i - width // 2)
    cut = lambda s: ("..." if start else "") + repr(s[start:start + width])
    return cut(exp), cut(got)


def report(cases, results, tools, max_failures):
    out = []
    out.append("Overall (%d cases, %d fields each on average)" % (
        len(cases), round(sum(len(c["expected"]["entries"]) * 2 + 1 for c in cases)
                          / max(1, len(cases)))))
    for t in tools:
        ok = sum(r["ok"] for r in results[t].values())
        n = sum(r["n"] for r in results[t].values())
        full = sum(1 for r in results[t].values() if r["ok"] == r["n"])
        out.append("  %-13s exact text: %6.2f%% of fields (%d/%d), %6.2f%% of feeds (%d/%d)"
                   % (t, pct(ok, n), ok, n, pct(full, len(cases)), full, len(cases)))
    out.append("")
    out.append(table("scenario", lambda c: c["scenario"], cases, results, tools))
    out.append("")
    out.append(table("scenario/variant", lambda c: c["scenario"] + "/" + c["variant"],
                     cases, results, tools))
    out.append("")
    out.append(table("encoding family", lambda c: c["family"], cases, results, tools))
    out.append("")
    out.append(table("encoding", lambda c: c["enc"], cases, results, tools))
    out.append("")
    me = tools[0]
    fails = [c for c in cases if results[me][c["id"]]["ok"] < results[me][c["id"]]["n"]]
    out.append("%s failures: %d cases" % (me, len(fails)))
    for c in fails[:max_failures]:
        r = results[me][c["id"]]
        out.append("  %s  [%d/%d] headers=%s encoding=%s chosen=%s%s" % (
            c["id"], r["ok"], r["n"], c["headers"] or "local", r["encoding"],
            json.dumps(r["chosen"], ensure_ascii=False),
            ("  ERROR " + r["error"]) if r["error"] else ""))
        for name, exp, got, ok in r["fields"]:
            if not ok:
                a, b = around_difference(exp, got)
                out.append("      %-18s expected %s" % (name, a))
                out.append("      %-18s got      %s" % ("", b))
                break   # first failing field is enough for the overview
    if len(fails) > max_failures:
        out.append("  ... %d more (see --json-report)" % (len(fails) - max_failures))
    if len(tools) > 1:
        ref = tools[1]
        losses = [c for c in cases
                  if results[ref][c["id"]]["ok"] > results[me][c["id"]]["ok"]]
        wins = [c for c in cases
                if results[ref][c["id"]]["ok"] < results[me][c["id"]]["ok"]]
        out.append("")
        out.append("%s loses to %s on %d cases (wins on %d):" % (me, ref, len(losses),
                                                                  len(wins)))
        for c in losses[:max_failures]:
            out.append("  %s  %s %d/%d vs %s %d/%d  (%s chose %s; %s encoding %s)" % (
                c["id"], me, results[me][c["id"]]["ok"], results[me][c["id"]]["n"],
                ref, results[ref][c["id"]]["ok"], results[ref][c["id"]]["n"],
                me, json.dumps(results[me][c["id"]]["chosen"]), ref,
                results[ref][c["id"]]["encoding"]))
        if len(losses) > max_failures:
            out.append("  ... %d more" % (len(losses) - max_failures))
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Self-test

def self_test(seed):
    problems = []
    cases, skipped = generate(seed)
    if skipped:
        problems.append("natural (language, encoding) pairs the codec cannot encode: %r"
                        % skipped)
    want = expected_case_count()
    if len(cases) != want:
        problems.append("generated %d cases, expected %d" % (len(cases), want))
    ids = [c["id"] for c in cases]
    if len(set(ids)) != len(ids):
        problems.append("duplicate case ids")
    langs = {c["lang"] for c in cases}
    encs = {c["enc"] for c in cases}
    if len(langs) < 18 or len(encs) < 30:
        problems.append("only %d languages / %d encodings" % (len(langs), len(encs)))
    for sc in SCENARIOS:
        if not any(c["scenario"] == sc for c in cases):
            problems.append("no case for scenario %s" % sc)
    if not any(c["family"] == "ebcdic" for c in cases):
        problems.append("no EBCDIC case")
    if {c["fmt"] for c in cases} != {"rss", "atom"}:
        problems.append("not both RSS and Atom")
    boms = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff",
            "utf-32-le": b"\xff\xfe\x00\x00"}
    for c in cases:
        if c.get("damaged"):
            try:
                c["data"].decode(c["true_codec"])
                # Double encoding is valid UTF-8, damaged only in meaning.
                if c["scenario"] != "double-encoded":
                    problems.append("%s: damaged case decodes cleanly" % c["id"])
            except UnicodeDecodeError:
                pass
            continue
        codec = c["true_codec"]
        data = c["data"]
        for bcodec, bom in sorted(boms.items(), key=lambda kv: -len(kv[1])):
            if bcodec == codec and data.startswith(bom):
                data = data[len(bom):]
                break
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as e:
            problems.append("%s: bytes do not decode as %s: %s" % (c["id"], codec, e))
            continue
        if text.encode(codec) != data:
            problems.append("%s: decode/encode does not round-trip" % c["id"])
        exp = c["expected"]
        wanted = [exp["feed_title"]] + [x for e in exp["entries"]
                                         for x in (e["title"], e["summary"])]
        for s in wanted:
            if s.encode(codec).decode(codec) != s:
                problems.append("%s: %r does not round-trip through %s" % (c["id"], s, codec))
            variants = {s, xml_escape(s)}
            if c["variant"] == "nbsp":
                variants |= {xml_escape(s.replace(" ", "&nbsp;", 1)).replace("&amp;nbsp;",
                                                                               "&nbsp;"),
                             xml_escape(s) + "&nbsp;"}
            if not any(v in text for v in variants):
                problems.append("%s: expected text %r not in the document" % (c["id"], s))
    again, _ = generate(seed)
    h1 = hashlib.sha256(b"".join(c["data"] for c in cases)).hexdigest()
    h2 = hashlib.sha256(b"".join(c["data"] for c in again)).hexdigest()
    if h1 != h2:
        problems.append("generation is not deterministic")
    for p in problems[:50]:
        print("FAIL", p)
    print("self-test: %d cases, %d languages, %d encodings, %d problems"
          % (len(cases), len(langs), len(encs), len(problems)))
    return 1 if problems else 0


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cmd", default=DEFAULT_CMD,
                    help="command under test; --header options and the file are appended "
                         "(default: %(default)s)")
    ap.add_argument("--ref-cmd", default=DEFAULT_REF,
                    help="reference command (default: %(default)s)")
    ap.add_argument("--no-ref", action="store_true", help="do not run the reference")
    ap.add_argument("--only", action="append", default=[], metavar="SUBSTRING",
                    help="only cases whose id contains SUBSTRING (repeatable: any)")
    ap.add_argument("--keep", metavar="DIR", help="write the corpus to DIR and keep it")
    ap.add_argument("--json-report", metavar="FILE", help="write per-case results here")
    ap.add_argument("--jobs", type=int, default=2, help="parallel processes (default 2)")
    ap.add_argument("--seed", default="1", help="generator seed (default 1)")
    ap.add_argument("--max-failures", type=int, default=60,
                    help="failures listed in the text report (default 60)")
    ap.add_argument("--self-test", action="store_true", help="check the generator only")
    ap.add_argument("--list", action="store_true", help="print case ids and exit")
    args = ap.parse_args()

    if args.self_test:
        sys.exit(self_test(args.seed))
    cases, skipped = generate(args.seed)
    for s in skipped:
        print("skipped (cannot encode): %s %s" % s[:2], file=sys.stderr)
    if args.only:
        cases = [c for c in cases if any(o in c["id"] for o in args.only)]
    if args.list:
        for c in cases:
            print(c["id"], " ".join(repr(h) for h in c["headers"]))
        return
    if not cases:
        sys.exit("no case matches")
    tmp = None
    directory = args.keep
    if not directory:
        tmp = tempfile.mkdtemp(prefix="feed-robustness-")
        directory = tmp
    try:
        write_corpus(cases, directory)
        tools = {"feed-decoder": args.cmd}
        if not args.no_ref:
            tools["feedparser"] = args.ref_cmd
        results = {t: {} for t in tools}
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futs = {pool.submit(evaluate, c, cmd): (t, c["id"])
                    for t, cmd in tools.items() for c in cases}
            for f in concurrent.futures.as_completed(futs):
                t, cid = futs[f]
                results[t][cid] = f.result()
        names = list(tools)
        print(report(cases, results, names, args.max_failures))
        if args.json_report:
            rep = {"seed": args.seed, "commands": tools, "cases": []}
            for c in cases:
                entry = {k: c[k] for k in ("id", "scenario", "variant", "lang", "enc",
                                           "family", "fmt", "headers", "expected")}
                entry["file"] = case_filename(c)
                for t in names:
                    r = results[t][c["id"]]
                    entry[t] = {"ok": r["ok"], "n": r["n"], "error": r["error"],
                                "encoding": r["encoding"], "chosen": r["chosen"],
                                "tried": r["tried"], "bozo": r["bozo"],
                                "failed_fields": [{"field": n, "expected": e, "got": g}
                                                  for n, e, g, ok in r["fields"] if not ok]}
                rep["cases"].append(entry)
            with open(args.json_report, "w", encoding="utf-8") as f:
                json.dump(rep, f, ensure_ascii=False, indent=1)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
