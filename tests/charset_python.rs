//! Cross-check against Python's codecs at test time (skipped when `python3` is absent):
//! every alias of a single-byte Python codec must resolve here — also when re-spelled
//! with hyphens and upper case — to a charset that accepts and rejects exactly the bytes
//! Python does, decoding each to the same character.

use std::process::Command;

use feed_decoder::Charset;

const SCRIPT: &str = r#"
import codecs, encodings, encodings.aliases
labels = set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
for label in sorted(labels):
    try:
        info = codecs.lookup(label)
    except LookupError:
        continue
    mod = getattr(encodings, info.name.replace('-', '_'), None)
    single = info.name in ('ascii', 'latin-1', 'iso8859-1')
    try:
        import importlib
        m = importlib.import_module('encodings.' + encodings.normalize_encoding(encodings.aliases.aliases.get(label, label)))
        single = single or hasattr(m, 'decoding_table')
    except ImportError:
        pass
    if not single:
        continue
    cells = []
    for b in range(256):
        try:
            cells.append('%x' % ord(bytes([b]).decode(label)))
        except UnicodeDecodeError:
            cells.append('-')
    print(label, info.name, ' '.join(cells))
"#;

#[test]
fn single_byte_codecs_match_python_byte_for_byte() {
    let output = match Command::new("python3").arg("-c").arg(SCRIPT).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            eprintln!("SKIPPED: python3 not available");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in stdout.lines() {
        let mut parts = line.split(' ');
        let (Some(label), Some(codec)) = (parts.next(), parts.next()) else {
            continue;
        };
        let cells: Vec<&str> = parts.collect();
        assert_eq!(cells.len(), 256, "{line}");
        let respelled = label.replace('_', "-").to_uppercase();
        for spelling in [label, respelled.as_str()] {
            let Some(cs) = Charset::for_label(spelling) else {
                failures.push(format!("{spelling} ({codec}): unknown"));
                continue;
            };
            for (b, cell) in cells.iter().enumerate() {
                let ours = cs.decode_strict(&[b as u8]).ok().map(|t| {
                    t.chars()
                        .map(|c| format!("{:x}", u32::from(c)))
                        .collect::<String>()
                });
                let python = (*cell != "-").then(|| cell.to_string());
                if ours != python {
                    failures.push(format!("{spelling} ({codec} → {cs}) byte 0x{b:02X}: ours {ours:?}, Python {python:?}"));
                }
            }
            checked += 1;
        }
    }
    eprintln!("checked {checked} Python single-byte labels/spellings");
    assert!(checked > 300, "only {checked} labels checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every alias of every Python text codec resolves, except the codecs this registry
/// deliberately leaves out (and the bytes-to-bytes codecs).
#[test]
fn every_python_text_codec_alias_resolves() {
    const SCRIPT: &str = r#"
import encodings.aliases
for alias, codec in sorted(encodings.aliases.aliases.items()):
    print(alias, codec)
"#;
    let output = match Command::new("python3").arg("-c").arg(SCRIPT).output() {
        Ok(o) if o.status.success() => o,
        _ => {
            eprintln!("SKIPPED: python3 not available");
            return;
        }
    };
    const LEFT_OUT: &[&str] = &[
        "hz",
        "iso2022_kr",
        "johab",
        "utf_7",
        "base64_codec",
        "bz2_codec",
        "hex_codec",
        "quopri_codec",
        "rot_13",
        "uu_codec",
        "zlib_codec",
    ];
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut resolved = 0;
    let mut failures = Vec::new();
    for line in stdout.lines() {
        let Some((alias, codec)) = line.split_once(' ') else {
            continue;
        };
        let ours = Charset::for_label(alias);
        match (LEFT_OUT.contains(&codec), ours) {
            (false, Some(_)) => resolved += 1,
            (true, None) => {}
            (false, None) => failures.push(format!("{alias} ({codec}): unknown")),
            (true, Some(cs)) => {
                failures.push(format!("{alias} ({codec}): should be unknown, got {cs}"))
            }
        }
    }
    eprintln!("{resolved} Python aliases resolve");
    assert!(resolved > 250, "only {resolved}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
