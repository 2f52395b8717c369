#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The HTML page's checks for tests/e2e/html.sh, one PASS/FAIL line each.

  html_check.py instrument PAGE OUT   PAGE with a measuring script added
                                      (allowed by its hash in the CSP)
  html_check.py compare PAGE ROWS TITLE...   compare --html's page: its
                                      rows, their order, titles escaped
  html_check.py check DIR DOM CONSOLE PNG
      DOM: chromium's --dump-dom of the instrumented page; CONSOLE: its
      stderr (--enable-logging=stderr); PNG: a screenshot of DIR/report.html.
"""
import base64
import csv
import hashlib
import html.parser
import json
import re
import struct
import sys
import zlib

# At the load event (the charts' images decoded by then): each chart image's
# decoded (natural) and shown size, each inline SVG's (the flame graphs'),
# whether the hostile chart's script reached the page, the resources the page
# fetched, and a click on the first mean's header (the sort script) with the
# order it gives, then keydowns on it (Enter, Space, a letter) with the order
# and aria-sort.
MEASURE = """
window.addEventListener("load", function () {
	var out = { svgs: [], imgs: [], resources: performance.getEntriesByType("resource").length,
		    reached: document.title.indexOf("pwned") >= 0 ||
			     !!document.getElementById("pwned") };
	document.querySelectorAll("svg").forEach(function (s) {
		var r = s.getBoundingClientRect();
		out.svgs.push([r.width, r.height, !!s.closest("figure.flame")]);
	});
	document.querySelectorAll("img").forEach(function (m) {
		var r = m.getBoundingClientRect();
		out.imgs.push({ complete: m.complete, natural: [m.naturalWidth, m.naturalHeight],
				shown: [r.width, r.height] });
	});
	var th = Array.prototype.filter.call(document.querySelectorAll("table.sortable th"),
		function (h) { return / mean /.test(h.textContent); })[0];
	if (th) {
		th.click();
		var i = th.cellIndex, t = th.closest("table");
		var order = function () {
			return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
				var v = r.cells[i].getAttribute("data-v");
				return v === null ? null : parseFloat(v);
			});
		};
		var key = function (k) {
			var e = new KeyboardEvent("keydown",
						  { key: k, bubbles: true, cancelable: true });
			th.dispatchEvent(e);
			return { aria: th.getAttribute("aria-sort"), order: order(),
				 prevented: e.defaultPrevented };
		};
		out.sorted = order();
		out.focusable = th.tabIndex === 0;
		/* the keyboard: Enter sorts descending, Space ascending again, a letter not */
		out.enter = key("Enter");
		out.space = key(" ");
		out.letter = key("a");
	}
	var pre = document.createElement("pre");
	pre.id = "test-measure";
	pre.textContent = JSON.stringify(out);
	document.body.appendChild(pre);
});
"""


DATA_SVG = "data:image/svg+xml;base64,"


def sha256(text):
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def instrument(page, out):
    text = open(page, encoding="utf-8").read()
    csp = re.search(r"script-src 'sha256-([^']+)'", text)
    script = re.search(r"<script>(.*?)</script>", text, re.S)
    ok = bool(csp and script and sha256(script.group(1)) == csp.group(1))
    print(("PASS" if ok else "FAIL") + " html/csp-hash-is-the-script's")
    # without JavaScript the headers claim no order and take no focus: the script adds both
    ok = "<th" in text and not re.search(r"<th[^>]*\s(aria-sort|tabindex)=", text, re.I)
    print(("PASS" if ok else "FAIL") + " html/static-headers-no-sort-state")
    text = text.replace("script-src 'sha256-", "script-src 'sha256-%s' 'sha256-" % sha256(MEASURE))
    text = text.replace("</body>", "<script>%s</script>\n</body>" % MEASURE)
    open(out, "w", encoding="utf-8").write(text)


class Dom(html.parser.HTMLParser):
    """The parts of the page the checks read, from the DOM chromium dumped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows = {}          # point id -> {"v": [data-v...], "cells": [text...]}
        self.row = None
        self.cell = None
        self.tags = {}          # tag name -> count
        self.imgs = []          # each <img>'s attributes
        self.by_id = {}         # element id -> its text
        self.open_ids = []
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "img":
            self.imgs.append(a)
        if tag == "tr" and "data-point" in a and self.row is None:
            self.row = self.rows.setdefault(a["data-point"], {"v": [], "cells": [], "n": 0})
            self.row["n"] += 1
        if tag == "td" and self.row is not None:
            self.cell = []
            if "data-v" in a:
                self.row["v"].append(a["data-v"])
        if "id" in a:
            self.open_ids.append([tag, a["id"], []])

    def handle_endtag(self, tag):
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row["cells"].append("".join(self.cell))
            self.cell = None
        if tag == "tr":
            self.row = None
        if self.open_ids and self.open_ids[-1][0] == tag:
            _, ident, text = self.open_ids.pop()
            self.by_id[ident] = "".join(text)

    def handle_data(self, data):
        self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)
        for o in self.open_ids:
            o[2].append(data)


def shown(s):
    """s as termsafe.c shows it: control characters as escapes."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\t" or (0x20 <= o < 0x7f) or o >= 0xa0:
            out.append(ch)
        else:
            out.append({"\r": "\\r", "\n": "\\n", "\x1b": "\\e"}.get(ch, "\\x%02x" % o))
    return "".join(out)


def report(name, ok, why=""):
    print("PASS html/%s" % name if ok else "FAIL html/%s: %s" % (name, why))


def meta_lines(d):
    with open(d + "/meta", encoding="utf-8", errors="surrogateescape") as f:
        return [line.rstrip("\n").split(": ", 1) for line in f if ": " in line]


def check_points(dom, d):
    """Every summary.csv row once, each number of it in data-v, its flags and reason."""
    with open(d + "/summary.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    report("every-point-once", sorted(dom.rows) == sorted(r["point"] for r in rows) and
           all(v["n"] == 1 for v in dom.rows.values()),
           "points %s, page %s" % ([r["point"] for r in rows], sorted(dom.rows)))
    stats = [c for c in rows[0] if re.search(r"_(mean|stddev|ci95)$", c)
             and not c.startswith(("ns_per_run", "half_width"))]
    missing, flags, reasons, nr_values = [], [], [], 0
    for r in rows:
        page = dom.rows.get(r["point"], {"v": [], "cells": []})
        for c in stats:
            if r[c]:
                nr_values += 1
                if r[c] not in page["v"]:
                    missing.append("%s:%s=%s" % (r["point"], c, r[c]))
        for flag in filter(None, r["quality"].split(";")):
            if not any(flag in cell for cell in page["cells"]):
                flags.append("%s:%s" % (r["point"], flag))
        if r["reason"] and shown(r["reason"]) not in page["cells"]:
            reasons.append("%s:%r" % (r["point"], r["reason"]))
    report("every-value", nr_values > 0 and not missing, "%d values, missing %s" %
           (nr_values, missing[:5]))
    report("every-flag", any(r["quality"] for r in rows) and not flags, "missing %s" % flags)
    report("every-reason", any(r["reason"] for r in rows) and not reasons,
           "missing %s" % reasons)
    import os
    tops = sorted(n for n in os.listdir(d + "/profiles") if n.endswith(".top")) \
        if os.path.isdir(d + "/profiles") else []
    text = "".join(dom.text)
    if tops:
        report("every-profile", all("(profiles/%s)" % n in text for n in tops), str(tops))
    else:
        print("SKIP html/every-profile: the run has no profiles (profile unsupported here)")
    return rows


def check_hostile(dom, d, rows):
    """Titles, tags and reasons with markup and controls are text, never elements."""
    meta = meta_lines(d)
    title = dict(meta).get("title", "")
    tags = [v for k, v in meta if k == "tag"]
    shown_tags = [v for k, v in dom.by_id.items() if k.startswith("tag-")]
    report("title-as-text", "<script>" in title and dom.by_id.get("title") == shown(title),
           "h1 %r, meta %r" % (dom.by_id.get("title"), title))
    report("tags-as-text", tags and sorted(map(shown, tags)) == sorted(shown_tags),
           "%r vs %r" % (tags, shown_tags))
    # ours and the measuring one; no <img> but the charts' (none of a tag's), no
    # element from a title or a chart's SVG (the charts are images, not inline)
    imgs = [i.get("src", "") for i in dom.imgs]
    report("no-injected-elements", dom.tags.get("script") == 2 and
           len(imgs) == len(chart_files(d)) and all(i.startswith(DATA_SVG) for i in imgs) and
           "foreignobject" not in dom.tags and "pwned" not in dom.by_id,
           "elements %s, images %s" % (dom.tags, [i[:40] for i in imgs]))
    ctl = [r["reason"] for r in rows if re.search("[\x00-\x1f]", r["reason"])]
    report("controls-as-escapes", ctl and all(shown(c) in "".join(dom.text) for c in ctl)
           and not re.search("[\x00-\x08\x0b-\x1f]", "".join(dom.text)), "reasons %r" % ctl)
    exps = set(r["experiment"] for r in rows)
    report("experiment-titles", all(shown(e) in "".join(dom.text) for e in exps), str(exps))


def check_keyboard(m):
    """Enter and Space on a focusable header sort as a click does; other keys do nothing."""
    def vals(key):
        return [v for v in m.get(key, {}).get("order", []) if v is not None]
    enter, space, letter = m.get("enter", {}), m.get("space", {}), m.get("letter", {})
    report("sorts-by-keyboard",
           m.get("focusable") is True and len(vals("enter")) > 1 and
           vals("enter") == sorted(vals("enter"), reverse=True) and
           enter.get("aria") == "descending" and enter.get("prevented") is True and
           vals("space") == sorted(vals("space")) and space.get("aria") == "ascending" and
           space.get("prevented") is True and letter.get("aria") == "ascending" and
           letter.get("prevented") is False, json.dumps({k: m.get(k) for k in
                                                         ("focusable", "enter", "space", "letter")}))


def chart_files(d):
    """plots/*.svg's bytes, by name: the charts of the page of run directory d."""
    import os
    return [open(d + "/plots/" + n, "rb").read()
            for n in sorted(os.listdir(d + "/plots")) if n.endswith(".svg")]


def check_charts(dom, m, d):
    """Each chart an image of its file's bytes, decoded by the browser and shown."""
    files = chart_files(d)
    srcs = [i.get("src", "") for i in dom.imgs if i.get("src", "").startswith(DATA_SVG)]
    decoded = [base64.b64decode(s[len(DATA_SVG):]) for s in srcs]
    report("charts-as-written", files and sorted(decoded) == sorted(files),
           "%d svg files, %d images, %d of them a file's bytes" %
           (len(files), len(srcs), len([x for x in decoded if x in files])))
    imgs = m.get("imgs", [])
    report("charts-decoded", len(imgs) == len(files) and
           all(i["complete"] and i["natural"][0] > 0 and i["natural"][1] > 0 for i in imgs),
           str(imgs))
    report("charts-have-size", imgs and
           all(i["shown"][0] > 100 and i["shown"][1] > 50 for i in imgs), str(imgs))
    report("chart-script-inert", m.get("reached") is False, str(m.get("reached")))


def check_browser(dom, console, d):
    import os
    # the points' flame graphs (profiles/<point>.svg), each inline once, and nothing else
    flames = len([n for n in os.listdir(d + "/profiles") if n.endswith(".svg")]) \
        if os.path.isdir(d + "/profiles") else 0
    m = json.loads(dom.by_id.get("test-measure", "{}") or "{}")
    check_charts(dom, m, d)
    sizes = m.get("svgs", [])
    # a flame graph is as tall as its deepest stack: one row of frames, its
    # title and margins are (34 + 16 + 8) / 1200 of its width, 32 px at 655
    report("flames-inline", len(sizes) == flames and all(flame for _, _, flame in sizes) and
           all(w > 100 and h > 20 for w, h, _ in sizes), "%d flame graphs, %s" % (flames, sizes))
    report("offline-no-fetch", m.get("resources") == 0 and
           "default-src 'none'" in open(d + "/report.html").read(), str(m.get("resources")))
    vals = [v for v in m.get("sorted", []) if v is not None]
    report("sorts", len(vals) > 1 and vals == sorted(vals), str(m.get("sorted")))
    check_keyboard(m)
    lines = [line for line in open(console, errors="replace") if "CONSOLE" in line]
    report("no-console-messages", not lines, "".join(lines[:3]))


def png_nonwhite(path):
    """The share of bytes of the screenshot's pixels that are not white (255)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return 0, 0, 0.0
    pos, idat = 8, []
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, _, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    prev, dark = bytearray(stride), 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride) if f else ():
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colour = line if bpp == 3 else bytearray(line)
        if bpp == 4:    # alpha is no colour
            del colour[3::4]
        dark += len(colour) - colour.count(255)
        prev = line
    return w, h, dark / (w * h * 3)


def check_compare(page, nr_rows, titles):
    """compare --html's page as written (what a reader without JS sees)."""
    text = open(page, encoding="utf-8").read()
    rows = re.findall(r'<tr class="([a-z]+)">((?:<td[^>]*>.*?</td>)+)</tr>', text)
    report("compare-every-row", len(rows) == nr_rows, "%d rows, want %d" % (len(rows), nr_rows))
    effects = []
    for cls, cells in rows:
        delta = re.findall(r"<td[^>]*>", cells)[5]
        v = re.search(r'data-v="([^"]+)"', delta)
        # ns_per_run's rows last, whatever their change (docs/html.md)
        per_run = "<td>ns_per_run</td>" in cells
        effects.append((per_run, cls != "regressed",
                        float("inf") if v is None else -abs(float(v.group(1)))))
    report("compare-regressions-first-then-effect", effects == sorted(effects), str(effects))
    report("compare-no-injected-elements", text.count("<script") == 1 and
           all(t in text for t in titles), "")


def main():
    if sys.argv[1] == "instrument":
        instrument(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "compare":
        check_compare(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
        return
    d, dom_file, console, png = sys.argv[2:6]
    dom = Dom()
    dom.feed(open(dom_file, encoding="utf-8").read())
    rows = check_points(dom, d)
    check_hostile(dom, d, rows)
    check_browser(dom, console, d)
    w, h, share = png_nonwhite(png)
    # a page of text and charts: several percent of its bytes are ink
    report("screenshot-not-blank", w == 1280 and share > 0.02,
           "%dx%d, %.4f of the bytes not white" % (w, h, share))


if __name__ == "__main__":
    main()
