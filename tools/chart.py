#!/usr/bin/env python3
"""Draws the throughput chart of the README (an SVG, standard library only) from a
criterion run of benches/parse.rs: for each input, decode + parse throughput in MB/s
(10^6 bytes per second of input, from the median time) of feed-decoder, of the floor
(the bytes decoded with encoding_rs by their declared label and every quick-xml event
walked, nothing of this crate: examples/floor) and of feed-rs.

    cargo bench --bench parse -- --measurement-time 3 --warm-up-time 1
    python3 tools/chart.py target/criterion --json docs/throughput.json \\
        --svg docs/throughput.svg --note "2-core VM, cargo bench --bench parse"

    python3 tools/chart.py --from docs/throughput.json --svg docs/throughput.svg

Several criterion folders (copies of target/criterion from separate runs) give each bar
its best figure: on a shared machine other work only ever slows a run down.

--json keeps the figures the chart was drawn from (with the notes), --from draws again
from such a file without a benchmark run. --note (repeatable) adds a line under the chart
(the machine, the command). --no-feed-rs INPUT (repeatable) marks an input of which
feed-rs returns an error and no feed (`FEED_RS=1 target/release/examples/parse_file`
says which): its bar is labelled so, or left out when the error came at once (a
throughput beyond the scale).
"""
import html
import json
import os
import sys

# The inputs of benches/parse.rs, in its order, with the names the chart shows.
INPUTS = [
    ("rss-utf8", "RSS, UTF-8"),
    ("atom-utf8", "Atom, UTF-8"),
    ("rss-windows1252", "RSS, windows-1252"),
    ("rss-windows1251", "RSS, windows-1251"),
    ("atom-windows1251", "Atom, windows-1251"),
    ("rss-shiftjis", "RSS, Shift_JIS"),
    ("atom-shiftjis", "Atom, Shift_JIS"),
    ("fallback-utf8-as-ascii", "UTF-8 declared us-ascii"),
    ("fallback-1251-as-utf8", "windows-1251 declared UTF-8"),
    ("truncated-rss", "RSS cut off (broken markup)"),
    ("small", "200 small feeds, 5-50 KB"),
]
# The parsers, each with its bar colour.
PARSERS = [
    ("feed-decoder", "#1f6feb"),
    ("floor", "#9aa4ae"),
    ("feed-rs", "#e8833a"),
]


def read_criterion(root, figures):
    """Adds {input: {parser: MB/s}} from criterion's estimates.json and benchmark.json to
    figures, keeping the higher of two figures for the same bar."""
    for group, _ in INPUTS:
        for parser, _ in PARSERS:
            base = os.path.join(root, group, parser, "new")
            try:
                with open(os.path.join(base, "estimates.json")) as f:
                    median_ns = json.load(f)["median"]["point_estimate"]
                with open(os.path.join(base, "benchmark.json")) as f:
                    throughput = json.load(f)["throughput"]
            except (OSError, KeyError, ValueError):
                continue
            if not throughput or "Bytes" not in throughput or median_ns <= 0:
                continue
            mbps = throughput["Bytes"] / (median_ns / 1e9) / 1e6
            bars = figures.setdefault(group, {})
            bars[parser] = max(bars.get(parser, 0), round(mbps, 1))
    return figures


def svg(figures, notes, no_feed_rs):
    rows = [(g, label) for g, label in INPUTS if g in figures]
    if not rows:
        sys.exit("chart: no benchmark figures found")
    top = max(v for g, _ in rows for p, v in figures[g].items()
              if not (p == "feed-rs" and g in no_feed_rs))
    # A round scale end: 1, 2 or 5 times a power of ten, at or above the largest figure.
    step = 10 ** (len(str(int(top))) - 1)
    scale = next(m * step for m in (1, 2, 5, 10) if m * step >= top)
    label_w, bar_w, bar_h, gap, head = 230, 520, 11, 14, 64
    row_h = bar_h * len(PARSERS) + gap
    width = label_w + bar_w + 70
    chart_h = row_h * len(rows)
    height = head + chart_h + 34 + 16 * len(notes) + 10
    out = []
    w = out.append
    w('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      'font-family="Helvetica, Arial, sans-serif" font-size="12">' % (width, height, width, height))
    w('<rect width="100%" height="100%" fill="#ffffff"/>')
    w('<text x="10" y="22" font-size="15" font-weight="bold">Decode + parse throughput, '
      'MB/s of input (higher is better)</text>')
    x = 10
    for parser, colour in PARSERS:
        w('<rect x="%d" y="34" width="12" height="12" fill="%s"/>' % (x, colour))
        w('<text x="%d" y="44">%s</text>' % (x + 16, html.escape(parser)))
        x += 30 + 7 * len(parser) + 20
    # Grid lines and their values.
    for i in range(6):
        gx = label_w + bar_w * i / 5
        w('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#e3e6e8"/>'
          % (gx, head - 4, gx, head + chart_h))
        w('<text x="%.1f" y="%d" text-anchor="middle" fill="#57606a">%g</text>'
          % (gx, head + chart_h + 14, scale * i / 5))
    for r, (group, label) in enumerate(rows):
        y0 = head + r * row_h
        w('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
          % (label_w - 8, y0 + bar_h * len(PARSERS) / 2 + 4, html.escape(label)))
        for i, (parser, colour) in enumerate(PARSERS):
            y = y0 + i * bar_h
            value = figures[group].get(parser)
            if value is None:
                continue
            failed = parser == "feed-rs" and group in no_feed_rs
            if failed and value > scale:
                # An error at the first bytes: no time worth a bar.
                w('<text x="%d" y="%d" font-size="10" fill="#57606a">feed-rs: error, no feed'
                  '</text>' % (label_w + 4, y + bar_h - 2))
                continue
            length = bar_w * value / scale
            w('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
              % (label_w, y + 1, length, bar_h - 2, colour))
            w('<text x="%.1f" y="%d" font-size="10" fill="#24292f">%.0f%s</text>'
              % (label_w + length + 4, y + bar_h - 2, value,
                 " (error at the end, no feed)" if failed else ""))
    y = head + chart_h + 34
    for note in notes:
        w('<text x="10" y="%d" font-size="11" fill="#57606a">%s</text>' % (y, html.escape(note)))
        y += 16
    w('</svg>')
    return "\n".join(out) + "\n"


def main(argv):
    json_out = svg_out = from_json = None
    sources, notes, no_feed_rs = [], [], []
    it = iter(argv)
    for a in it:
        if a == "--json":
            json_out = next(it)
        elif a == "--svg":
            svg_out = next(it)
        elif a == "--from":
            from_json = next(it)
        elif a == "--note":
            notes.append(next(it))
        elif a == "--no-feed-rs":
            no_feed_rs.append(next(it))
        elif a in ("-h", "--help"):
            print(__doc__)
            return
        else:
            sources.append(a)
    if from_json:
        with open(from_json) as f:
            saved = json.load(f)
        figures = saved["mb_per_s"]
        notes = notes or saved.get("notes", [])
        no_feed_rs = no_feed_rs or saved.get("no_feed_rs", [])
    else:
        figures = {}
        for source in sources or ["target/criterion"]:
            read_criterion(source, figures)
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"mb_per_s": figures, "notes": notes, "no_feed_rs": no_feed_rs}, f,
                      indent=1, sort_keys=True)
            f.write("\n")
    drawing = svg(figures, notes, set(no_feed_rs))
    if svg_out:
        with open(svg_out, "w") as f:
            f.write(drawing)
    else:
        sys.stdout.write(drawing)
    for group, label in INPUTS:
        if group in figures:
            print("%-30s %s" % (label, "  ".join(
                "%s %.0f" % (p, figures[group][p]) for p, _ in PARSERS if p in figures[group])),
                file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
