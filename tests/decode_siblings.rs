//! Sibling code pages, round trip: a real sentence of each language is encoded in a code
//! page that serves it (A), then labelled A (the label must stand, with no record) and
//! labelled with every other page of A's family (B): the document must come back as the
//! sentence, exactly, and when B reads the bytes differently the override is recorded
//! (`CharacterEncodingOverride` naming B and the page used, an `evidence` step in the
//! trail). Short headlines whose only letters outside ASCII are two or three, sentences
//! and paragraphs; labelled in the XML declaration and by an HTTP charset.

use feed_decoder::{BozoKind, Charset, Policy, Source, Transport};

/// The families of code pages that are each other's siblings.
const FAMILIES: &[&[&str]] = &[
    &[
        "windows-1252",
        "iso-8859-1",
        "iso-8859-15",
        "windows-1250",
        "iso-8859-2",
        "windows-1254",
        "iso-8859-9",
        "windows-1257",
        "iso-8859-13",
    ],
    &["windows-1253", "iso-8859-7"],
    &["windows-1251", "iso-8859-5", "koi8-r", "koi8-u", "ibm866"],
];

const WESTERN: &[&str] = &["windows-1252", "iso-8859-1", "iso-8859-15"];
const CENTRAL: &[&str] = &["windows-1250", "iso-8859-2"];
const BALTIC: &[&str] = &["windows-1257", "iso-8859-13"];

/// A language, the code pages it is written in, and sentences of it.
struct Language {
    code: &'static str,
    pages: &'static [&'static str],
    texts: &'static [&'static str],
}

const LANGUAGES: &[Language] = &[
    Language {
        code: "fr",
        pages: WESTERN,
        texts: &[
            "Grève à la gare du Nord",
            "Le président a annoncé mercredi une réforme des retraites",
            "À Lyon, la fête des Lumières attire chaque année des milliers de visiteurs venus de toute l’Europe.",
            "Les élèves du collège Jean-Moulin ont présenté leurs œuvres au musée : des peintures, des sculptures et même une maquette de la cathédrale. « C’est un très beau travail », a déclaré la directrice, qui espère renouveler l’expérience l’an prochain.",
        ],
    },
    Language {
        code: "de",
        pages: WESTERN,
        texts: &[
            "Neue Brücke für Köln",
            "Die Stadtwerke erhöhen die Gebühren für Fernwärme",
            "In München öffnet am Montag eine neue Bücherei mit mehr als vierzigtausend Medien.",
            "Nach drei Monaten Bauzeit fährt die Straßenbahn wieder bis zum Olympiapark. Die Fahrgäste müssen sich allerdings auf geänderte Abfahrtszeiten einstellen, teilte die Verkehrsgesellschaft am Dienstag mit.",
        ],
    },
    Language {
        code: "es",
        pages: WESTERN,
        texts: &[
            "Mañana habrá lluvia en el norte",
            "El Gobierno aprobó el miércoles una reforma educativa",
            "¿Subirá el precio del aceite de oliva este otoño? Los agricultores advierten de una mala cosecha.",
            "La Feria de Abril de Sevilla batió su récord de visitantes: más de un millón de personas pasaron por el recinto ferial. El ayuntamiento ampliará el horario del metro y de los autobuses durante la próxima edición.",
        ],
    },
    Language {
        code: "pt",
        pages: WESTERN,
        texts: &[
            "Preço da habitação sobe outra vez",
            "O elétrico 28 volta a circular após as obras",
            "Os moradores da Graça celebraram o regresso da linha histórica na manhã de sábado.",
            "A câmara municipal de Lisboa aprovou ontem um plano de reabilitação para os bairros históricos. A oposição criticou a decisão e pediu explicações ao presidente, que prometeu mais habitação a preços acessíveis.",
        ],
    },
    Language {
        code: "it",
        pages: WESTERN,
        texts: &[
            "La città è pronta per il festival",
            "Più treni e più autobus per la città",
            "Più di diecimila persone sono arrivate a Venezia per la regata storica, che quest’anno è durata tre giorni.",
            "Il sindaco ha annunciato che la biblioteca comunale resterà aperta anche la domenica. Secondo l’assessore alla cultura, è un servizio che i cittadini chiedevano da molto tempo e che non costerà di più al bilancio della città.",
        ],
    },
    Language {
        code: "ca",
        pages: WESTERN,
        texts: &[
            "La música torna a la plaça",
            "L’Ajuntament de Barcelona aprova el pressupost més alt de la història",
            "Els veïns del barri de Gràcia celebren la festa major amb concerts i activitats per a tothom.",
            "La Generalitat ha anunciat que les escoles obriran més aviat el curs vinent. Segons el conseller d’Educació, la mesura permetrà reforçar l’atenció als alumnes que més ho necessiten i millorar els resultats.",
        ],
    },
    Language {
        code: "nl",
        pages: WESTERN,
        texts: &[
            "Café in Utrecht krijgt een financiële injectie",
            "De regering wil de coördinatie van de financiële steun verbeteren",
            "Het museum in Den Haag toont deze zomer één van de grootste collecties van Vermeer.",
            "De gemeente wil dat er meer fietsenstallingen komen bij het station. Volgens de wethouder is de coördinatie met de spoorwegen goed verlopen en kan de bouw volgend jaar beginnen, als de financiële middelen er zijn.",
        ],
    },
    Language {
        code: "sv",
        pages: WESTERN,
        texts: &[
            "Ny bro över älven",
            "Regeringen presenterade på onsdagen ett nytt förslag om skatter",
            "I Göteborg öppnar ett nytt bibliotek med plats för tusen besökare.",
            "Oppositionen är kritisk och kräver en ändring före årsskiftet. Enligt finansministern kommer förslaget att gynna hushåll med låga inkomster, men ekonomer är inte lika säkra på det.",
        ],
    },
    Language {
        code: "da",
        pages: WESTERN,
        texts: &[
            "Ny bro åbner i Århus",
            "Regeringen fremlagde onsdag et nyt forslag om skatter",
            "Oppositionen er kritisk og kræver ændringer før årsskiftet.",
            "På Ærø har kommunen besluttet at bygge en ny skole. Borgmesteren siger, at de nuværende bygninger er for gamle, og at børnene fortjener bedre forhold, når de går i skole.",
        ],
    },
    Language {
        code: "nb",
        pages: WESTERN,
        texts: &[
            "Ny bro åpnet i Bergen",
            "Regjeringen legger frem et nytt forslag om skatt på fredag",
            "Det blir kaldere i hele landet, og det kan komme snø på Østlandet i helgen.",
            "Kommunen har bestemt at biblioteket skal holde åpent også på søndager. Ordføreren sier at tilbudet er viktig for både barn og eldre, og at det ikke vil koste mer enn det gjør i dag.",
        ],
    },
    Language {
        code: "fi",
        pages: WESTERN,
        texts: &[
            "Helsingin säätiedote: lunta tulossa",
            "Hallitus esitteli keskiviikkona uuden veroehdotuksen",
            "Oppositio vaatii muutoksia ennen vuodenvaihdetta ja kritisoi päätöstä.",
            "Helsingin kaupunki avaa syksyllä uuden kirjaston Itä-Helsinkiin. Kirjastossa on tilaa myös näyttelyille ja tapahtumille, ja sen odotetaan houkuttelevan tuhansia kävijöitä jo ensimmäisenä kuukautena.",
        ],
    },
    Language {
        code: "is",
        pages: WESTERN,
        texts: &[
            "Ný brú opnuð í Reykjavík",
            "Ríkisstjórnin kynnti nýjar aðgerðir á miðvikudag",
            "Stjórnarandstaðan gagnrýndi ákvörðunina harðlega í þinginu í gær.",
            "Veðurstofan spáir því að það verði kalt um allt land um helgina. Búist er við snjókomu á Norðurlandi og fólk er beðið um að fara varlega á vegunum.",
        ],
    },
    Language {
        code: "et",
        pages: &["windows-1257", "iso-8859-13", "windows-1252", "iso-8859-15"],
        texts: &[
            "Tallinnas avati uus sõidutee: sõit kesklinnast sadamasse käib nüüd kiiremini",
            "Valitsus esitles kolmapäeval uut maksuettepanekut",
            "Opositsioon nõuab muudatusi enne aastavahetust ja kritiseerib valitsuse otsust, mis tõstab käibemaksu.",
            "Tallinna linn avab sügisel uue raamatukogu. Linnapea sõnul on see oluline nii lastele kui ka eakatele, ning žürii valis hoone kavandi välja juba mullu.",
        ],
    },
    Language {
        code: "pl",
        pages: CENTRAL,
        texts: &[
            "Nowy most na Wiśle już otwarty",
            "Rząd sparaliżował prace na Śląsku",
            "Żółte światło dla budowy metra w Krakowie: radni zgodzili się na przygotowanie dokumentacji.",
            "Strażacy interweniowali ponad czterdzieści razy w ciągu jednej nocy. Ulewa zalała piwnice w Nowej Hucie, a mieszkańcy kilku ulic musieli opuścić swoje domy. Według prognoz deszcz ma padać jeszcze przez dwa dni.",
        ],
    },
    Language {
        code: "cs",
        pages: CENTRAL,
        texts: &[
            "Nový most přes Vltavu",
            "Karlův most čeká rozsáhlá oprava",
            "Tramvaje na Smíchově jezdí odklonem až do neděle, dopravní podnik posílí autobusy.",
            "Čtyřčlenný tým žáků z Řevnic porazil třicet škol z celé republiky. Soutěž v programování se letos konala v Brně a vítězové získali stipendium na letní kurz v zahraničí.",
        ],
    },
    Language {
        code: "sk",
        pages: CENTRAL,
        texts: &[
            "Nový most cez Dunaj otvoria v máji",
            "Vláda schválila v stredu reformu dôchodkov",
            "V Bratislave otvorili novú knižnicu, ktorá ponúka viac ako štyridsaťtisíc kníh.",
            "Primátor mesta oznámil, že mestská doprava bude od budúceho mesiaca lacnejšia. Podľa jeho slov si zľavu zaslúžia najmä študenti a dôchodcovia, ktorí cestujú každý deň.",
        ],
    },
    Language {
        code: "hu",
        pages: CENTRAL,
        texts: &[
            "Új híd épül Budapesten",
            "A kormány szerdán új adótörvényt fogadott el",
            "A főváros önkormányzata szerint a villamosok jövő héttől sűrűbben járnak.",
            "Debrecenben megnyílt az ország legnagyobb könyvtára. A polgármester elmondta, hogy az épület egész évben várja az olvasókat, és hétvégén is nyitva tart, mert erre nagy az igény.",
        ],
    },
    Language {
        code: "sl",
        pages: CENTRAL,
        texts: &[
            "Nov most čez Savo že odprt",
            "Vlada je v sredo sprejela novo davčno reformo, ki začne veljati že januarja",
            "V Ljubljani so odprli novo knjižnico, ki ponuja več kot štirideset tisoč knjig.",
            "Župan je napovedal, da bo mestni promet od prihodnjega meseca cenejši. Po njegovih besedah si popust zaslužijo predvsem študenti in upokojenci, ki se vsak dan vozijo v službo.",
        ],
    },
    Language {
        code: "hr",
        pages: CENTRAL,
        texts: &[
            "Novi most u Zagrebu otvoren je u četvrtak",
            "Vlada je u srijedu predložila izmjene zakona o porezima i plaćama",
            "U Splitu je otvorena nova knjižnica koja nudi više od četrdeset tisuća knjiga.",
            "Gradonačelnik je najavio da će javni prijevoz od sljedećeg mjeseca biti jeftiniji. Prema njegovim riječima, popust zaslužuju prije svega učenici i umirovljenici koji svakodnevno putuju.",
        ],
    },
    Language {
        code: "ro",
        pages: CENTRAL,
        texts: &[
            "Un nou pod peste Dunăre",
            "Guvernul a aprobat miercuri o nouă lege a educaţiei",
            "La Cluj s-a deschis o bibliotecă nouă, care oferă peste patruzeci de mii de cărţi.",
            "Primarul a anunţat că transportul public va fi mai ieftin începând de luna viitoare. Potrivit acestuia, reducerea este destinată în primul rând elevilor şi pensionarilor care călătoresc zilnic.",
        ],
    },
    Language {
        code: "tr",
        pages: &["windows-1254", "iso-8859-9"],
        texts: &[
            "Boğaz'da yeni vapur seferleri başlıyor",
            "İstanbul'da yeni bir kütüphane açıldı",
            "Üsküdar ile Beşiktaş arasında her on beş dakikada bir sefer yapılacak.",
            "Kapalıçarşı'da esnaf yağmurdan şikâyetçi. Çatıdaki onarım çalışmaları gecikince bazı dükkânları su bastı ve belediye yetkilileri hasarı incelemek için bölgeye geldi.",
        ],
    },
    Language {
        code: "lt",
        pages: BALTIC,
        texts: &[
            "Naujas tiltas per Nerį bus atidarytas šį rudenį",
            "Vyriausybė trečiadienį pristatė naują mokesčių reformą",
            "Vilniuje atidaryta nauja biblioteka, kurioje yra daugiau nei keturiasdešimt tūkstančių knygų.",
            "Meras pranešė, kad nuo kito mėnesio viešasis transportas bus pigesnis. Pasak jo, nuolaidos labiausiai nusipelnė studentai ir pensininkai, kurie kasdien važiuoja į darbą.",
        ],
    },
    Language {
        code: "lv",
        pages: BALTIC,
        texts: &[
            "Jauns tilts pār Daugavu būs gatavs rudenī",
            "Valdība trešdien apstiprināja jaunu nodokļu reformu",
            "Rīgā atvērta jauna bibliotēka, kurā ir vairāk nekā četrdesmit tūkstoši grāmatu.",
            "Mērs paziņoja, ka no nākamā mēneša sabiedriskais transports būs lētāks. Viņš sacīja, ka atlaides pelnījuši galvenokārt studenti un pensionāri, kuri katru dienu brauc uz darbu.",
        ],
    },
    Language {
        code: "el",
        pages: &["windows-1253", "iso-8859-7"],
        texts: &[
            "Άλλοι δύο τραυματίστηκαν",
            "Άρχισε η νέα σχολική χρονιά στην Αθήνα",
            "Καύσωνας: κλειστή η Ακρόπολη τις μεσημεριανές ώρες, συνιστά το υπουργείο Πολιτισμού.",
            "Ο δήμαρχος ανακοίνωσε ότι οι δημόσιες συγκοινωνίες θα γίνουν φθηνότερες από τον επόμενο μήνα. Άλλαξε και το ωράριο: όπως είπε, η έκπτωση αφορά κυρίως φοιτητές και συνταξιούχους.",
        ],
    },
    Language {
        code: "ru",
        pages: &["windows-1251", "koi8-r", "ibm866", "iso-8859-5"],
        texts: &[
            "Новости дня",
            "На Невском проспекте открылась новая библиотека",
            "С понедельника Дворцовый мост будет разводиться на полчаса позже, сообщили в городской администрации.",
            "Школьники из Выборга победили на олимпиаде по физике. Команда из пяти человек набрала больше всех баллов, а ещё два ученика получили дипломы за лучшие решения.",
        ],
    },
    Language {
        code: "uk",
        pages: &["windows-1251", "koi8-u"],
        texts: &[
            "Новини Києва",
            "У Києві відкрили новий парк на Оболоні",
            "Ґрунтові дороги в області відремонтують до осені, повідомила обласна адміністрація.",
            "Учні отримуватимуть свіжі овочі та молоко щодня. Європейські експерти схвалили план, а місцеві фермери вже підписали угоди про постачання продуктів до шкіл.",
        ],
    },
    Language {
        code: "be",
        pages: &["windows-1251"],
        texts: &[
            "Навіны Мінска",
            "У Мінску адкрылі новую бібліятэку",
            "Улады горада паведамілі, што з панядзелка аўтобусы будуць хадзіць часцей.",
            "Школьнікі з Гродна перамаглі на алімпіядзе па фізіцы. Каманда з пяці чалавек набрала больш за ўсіх балаў, а яшчэ два вучні атрымалі дыпломы.",
        ],
    },
    Language {
        code: "bg",
        pages: &["windows-1251", "iso-8859-5"],
        texts: &[
            "Новини от София",
            "В София откриха нова библиотека",
            "От понеделник автобусите в града ще се движат по нов график, съобщиха от общината.",
            "Ученици от Пловдив спечелиха олимпиадата по физика. Отборът от петима души събра най-много точки, а още двама ученици получиха дипломи за най-добро решение.",
        ],
    },
    Language {
        code: "sr",
        pages: &["windows-1251", "iso-8859-5"],
        texts: &[
            "Вести из Београда",
            "У Београду отворена нова библиотека",
            "Од понедељка ће аутобуси у граду саобраћати по новом реду вожње, саопштили су из градске управе.",
            "Ученици из Новог Сада победили су на олимпијади из физике. Екипа од пет ученика освојила је највише бодова, а још два ученика добила су дипломе за најбоља решења.",
        ],
    },
    Language {
        code: "mk",
        pages: &["windows-1251", "iso-8859-5"],
        texts: &[
            "Вести од Скопје",
            "Во Скопје е отворена нова библиотека",
            "Од понеделник автобусите во градот ќе сообраќаат според нов возен ред, соопштија од општината.",
            "Учениците од Битола победија на олимпијадата по физика. Екипата од пет ученици освои најмногу поени, а уште двајца ученици добија дипломи за најдобро решение.",
        ],
    },
];

fn charset(label: &str) -> Charset {
    Charset::for_label(label).unwrap_or_else(|| panic!("{label} unknown"))
}

/// An RSS feed whose title is `text`, declaring `label` when given.
fn feed(label: Option<&str>, text: &str) -> String {
    let decl = label.map_or_else(String::new, |l| {
        format!("<?xml version=\"1.0\" encoding=\"{l}\"?>\n")
    });
    format!("{decl}<rss version=\"2.0\"><channel><title>{text}</title></channel></rss>\n")
}

/// How a label reaches the decoder.
#[derive(Clone, Copy, Debug)]
enum Via {
    Declaration,
    Http,
}

/// The bytes of `text` in `page`, labelled `label` by `via`; `None` when `page` cannot
/// write the text.
fn labelled(text: &str, page: &str, label: &str, via: Via) -> Option<(Vec<u8>, Transport)> {
    let c = charset(page);
    match via {
        Via::Declaration => Some((c.encode(&feed(Some(label), text))?, Transport::Local)),
        Via::Http => Some((
            c.encode(&feed(None, text))?,
            Transport::content_type(&format!("application/rss+xml; charset={label}")),
        )),
    }
}

fn family(page: &str) -> &'static [&'static str] {
    FAMILIES
        .iter()
        .find(|f| f.contains(&page))
        .unwrap_or_else(|| panic!("{page} in no family"))
}

/// Whether `label` reads the bytes of `text` in `page` as the text itself (the parser
/// reads ISO-8859-1's C1 controls as windows-1252).
fn reads_alike(text: &str, page: &str, label: &str) -> bool {
    let Some(bytes) = charset(page).encode(text) else {
        return false;
    };
    let label = if label == "iso-8859-1" {
        "windows-1252"
    } else {
        label
    };
    charset(label)
        .decode_strict(&bytes)
        .is_ok_and(|t| t == text)
}

#[test]
fn every_language_round_trips_under_every_sibling_label() {
    let mut failures = Vec::new();
    let (mut checked, mut overridden) = (0, 0);
    for lang in LANGUAGES {
        for &text in lang.texts {
            let mut written = 0;
            for &page in lang.pages {
                for &label in family(page) {
                    for via in [Via::Declaration, Via::Http] {
                        let Some((bytes, transport)) = labelled(text, page, label, via) else {
                            continue;
                        };
                        written += 1;
                        checked += 1;
                        let parsed = feed_decoder::parse(&bytes, &transport);
                        let d = &parsed.decoded;
                        let title = parsed.feed.title.as_deref().unwrap_or_default();
                        let case = format!("{} {page} labelled {label} ({via:?})", lang.code);
                        if title != text {
                            failures.push(format!(
                                "{case}: read {title:?} as {} ({:?})",
                                d.encoding, d.trail.tried
                            ));
                            continue;
                        }
                        let overrides: Vec<_> = d
                            .bozo
                            .iter()
                            .filter(|b| b.kind == BozoKind::CharacterEncodingOverride)
                            .collect();
                        if reads_alike(text, page, label)
                            || d.encoding == label && d.bozo.is_empty()
                        {
                            // The label reads the text right: it stands, unrecorded.
                            if d.encoding != label || !d.bozo.is_empty() {
                                failures.push(format!(
                                    "{case}: a right label replaced by {} {:?}",
                                    d.encoding, d.bozo
                                ));
                            }
                            continue;
                        }
                        overridden += 1;
                        // Why: an evidence step saying what it saw, or the label
                        // failing on a byte it cannot read (then the chain's next
                        // candidate, which the letters confirmed).
                        let chosen = d.trail.chosen.as_ref().map(|(l, s)| (l.as_str(), *s));
                        let evidence = chosen.is_some_and(|(_, s)| s == Source::Evidence)
                            && d.trail
                                .tried
                                .last()
                                .and_then(|t| t.detail.as_deref())
                                .is_some();
                        let failed = d.trail.tried.first().is_some_and(|t| {
                            t.label == label
                                && !t.ok
                                && t.detail
                                    .as_deref()
                                    .is_some_and(|w| w.starts_with("byte 0x"))
                        });
                        let recorded = overrides.len() == 1
                            && overrides[0]
                                .message
                                .contains(&format!("declared as {label}"))
                            && overrides[0]
                                .message
                                .contains(&format!("parsed as {}", d.encoding))
                            && (evidence || failed);
                        if !recorded {
                            failures.push(format!(
                                "{case}: not recorded: {:?} chosen {chosen:?} tried {:?}",
                                d.bozo, d.trail.tried
                            ));
                        }
                    }
                }
            }
            assert!(
                written > 0,
                "{}: {text:?} fits none of its pages",
                lang.code
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked > 4000 && overridden > 1500,
        "{checked} checked, {overridden} overridden"
    );
}

/// One letter that reads, through the wrong label, as a letter of a plausible word of
/// the label's languages is no evidence: `mercoledì` read as windows-1250 is `mercoledě`,
/// a Czech-looking word, just as a Czech `ledě` is an Italian-looking `ledì` through
/// windows-1252. Telling them apart takes the words around them, not their letters, so
/// the label stands (both ways: a correct label is never replaced).
#[test]
fn one_plausible_letter_keeps_the_label() {
    for (text, page, label, read) in [
        (
            "Il governo ha approvato mercoledì la riforma",
            "windows-1252",
            "windows-1250",
            "Il governo ha approvato mercoledě la riforma",
        ),
        (
            "Jauns tilts pār Daugavu",
            "windows-1257",
            "windows-1252",
            "Jauns tilts pâr Daugavu",
        ),
        (
            "Naujas tiltas per Nerį",
            "iso-8859-13",
            "iso-8859-1",
            "Naujas tiltas per Nerá",
        ),
        (
            "Vlada je sprejela davčno reformo",
            "iso-8859-2",
            "windows-1252",
            "Vlada je sprejela davèno reformo",
        ),
        (
            "Tallinnas avati uus sõidutee",
            "windows-1257",
            "windows-1250",
            "Tallinnas avati uus sőidutee",
        ),
    ] {
        let (bytes, transport) = labelled(text, page, label, Via::Declaration).expect("encodable");
        let parsed = feed_decoder::parse(&bytes, &transport);
        assert_eq!(parsed.decoded.encoding, label, "{text}");
        assert_eq!(parsed.feed.title.as_deref(), Some(read), "{text}");
        // The same reading under its own label is natural text: it stands too.
        let (own, transport) = labelled(read, label, label, Via::Declaration).expect("encodable");
        let parsed = feed_decoder::parse(&own, &transport);
        assert_eq!(parsed.decoded.encoding, label, "{read}");
        assert!(parsed.decoded.bozo.is_empty(), "{read}");
    }
}

/// Under the feedparser policy, a sibling's label is used as it is, mojibake included.
#[test]
fn feedparser_policy_keeps_the_sibling_label() {
    for (text, page, label) in [
        (
            "Rząd sparaliżował prace na Śląsku",
            "iso-8859-2",
            "iso-8859-1",
        ),
        ("Άλλοι δύο τραυματίστηκαν", "windows-1253", "iso-8859-7"),
        (
            "Boğaz'da yeni vapur seferleri başlıyor",
            "windows-1254",
            "windows-1252",
        ),
    ] {
        let (bytes, transport) = labelled(text, page, label, Via::Declaration).expect("encodable");
        let d = feed_decoder::Decoder::new()
            .policy(Policy::FeedparserExact)
            .decode(&bytes, &transport);
        assert_eq!(d.encoding, label, "{text}");
        assert!(d.bozo.is_empty(), "{text}: {:?}", d.bozo);
        assert!(!d.text.contains(text), "{text}");
        let recovered = feed_decoder::decode(&bytes, &transport);
        assert_eq!(recovered.encoding, page, "{text}");
        assert!(recovered.text.contains(text), "{text}");
    }
}

/// UTF-8 read through a legacy page is never natural text (`Ã©`, `Ð½`, `Î±`): a mostly
/// UTF-8 document (five or more characters outside ASCII per stray byte) with a stray
/// windows-1252 byte under a European label is still read as UTF-8, the stray byte as
/// windows-1252.
#[test]
fn utf8_under_a_sibling_label_is_not_taken_for_it() {
    for (text, label) in [
        (
            "Die Bürger würden gern mehr über die Gebühren für Fernwärme erfahren",
            "windows-1252",
        ),
        (
            "Rząd sparaliżował prace na Śląsku, mówią źródła",
            "iso-8859-2",
        ),
        (
            "Boğaz'da yeni vapur seferleri başlıyor, İstanbul'da büyük ilgi görüyor",
            "windows-1254",
        ),
        (
            "На Невском проспекте открылась новая библиотека",
            "windows-1251",
        ),
        ("Άλλοι δύο τραυματίστηκαν στην Αθήνα σήμερα", "iso-8859-7"),
    ] {
        let mut bytes = feed(Some(label), &format!("{text} \u{1}")).into_bytes();
        // A windows-1252 `é` where the placeholder was.
        let at = bytes.iter().position(|&b| b == 1).expect("placeholder");
        bytes[at] = 0xE9;
        let parsed = feed_decoder::parse(&bytes, &Transport::Local);
        assert_eq!(
            parsed.decoded.encoding, "utf-8",
            "{text}: {:?}",
            parsed.decoded.trail.tried
        );
        assert_eq!(
            parsed.feed.title.as_deref(),
            Some(format!("{text} é").as_str()),
            "{text}"
        );
    }
}
