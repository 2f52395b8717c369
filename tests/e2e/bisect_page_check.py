#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The bisect page's checks for tests/e2e/bisect_page.sh, one PASS/FAIL line each.

  bisect_page_check.py static OUT PAGE HOSTILE   PAGE against OUT's steps.csv,
                                  bisect.txt and kernels; HOSTILE a kernel label
  bisect_page_check.py instrument PAGE OUT  PAGE with a measuring script added
                                  (allowed by its hash in the CSP)
  bisect_page_check.py browser OUT DOM CONSOLE   chromium's --dump-dom of the
                                  instrumented page and its stderr
"""
import csv
import html
import html.parser
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_check import sha256  # noqa: E402  the report page's checks: the CSP's hash

# at the load event: the chart's size, its marks' tags, the scripts the page holds
MEASURE = """
window.addEventListener("load", function () {
	var out = { svgs: [], scripts: document.scripts.length, tags: [] };
	document.querySelectorAll("svg").forEach(function (s) {
		var r = s.getBoundingClientRect();
		out.svgs.push([r.width, r.height]);
	});
	document.querySelectorAll("svg text[font-weight]").forEach(function (t) {
		out.tags.push(t.textContent);
	});
	var pre = document.createElement("pre");
	pre.id = "test-measure";
	pre.textContent = JSON.stringify(out);
	document.body.appendChild(pre);
});
"""

failed = False


def report(name, ok, why=""):
    global failed
    failed |= not ok
    print(("PASS " if ok else "FAIL ") + "bisect_page/" + name + ("" if ok else ": " + why))


class Rows(html.parser.HTMLParser):
    """Each <tr id="step-N">'s cells (text) and data-v values; every <title>'s text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.titles = {}, []
        self.row = self.cell = self.title = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("id", "").startswith("step-"):
            self.row = self.rows.setdefault(a["id"][5:], {"cells": [], "v": []})
        elif tag == "td" and self.row is not None:
            self.cell = []
            self.row["v"].append(a.get("data-v"))
        elif tag == "title":
            self.title = []

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row["cells"].append("".join(self.cell))
            self.cell = None
        elif tag == "tr":
            self.row = None
        elif tag == "title" and self.title is not None:
            self.titles.append("".join(self.title))
            self.title = None

    def handle_data(self, data):
        for part in (self.cell, self.title):
            if part is not None:
                part.append(data)


def check_rows(out, page, p):
    steps = list(csv.DictReader(open(out + "/steps.csv", newline="")))
    report("steps-rows", len(p.rows) == len(steps) > 0, "%d rows, %d steps" % (len(p.rows), len(steps)))
    for s in steps:
        r = p.rows.get(s["step"], {"cells": [], "v": []})
        c, v = r["cells"], r["v"]
        want = [s["step"], s["kernel"], s["release"], s["verdict"], s["est_pct"], s["lo_pct"],
                s["hi_pct"], s["figure"], None, s["why"]]
        got = c[:10] if len(c) >= 10 else c + [None] * (10 - len(c))
        got[8] = None
        ok = got == want and v[4:7] == [s[k] or None for k in ("est_pct", "lo_pct", "hi_pct")]
        report("step-%s-row-is-steps.csv's" % s["step"], ok, "%r against %r" % (got, want))
        mark = "step %s: %s: %s: %s" % (s["step"], s["verdict"], s["figure"] or "-", s["why"])
        report("step-%s-on-the-chart" % s["step"],
               any(t.endswith(mark) for t in p.titles) and (">%s</text>" % s["step"]) in page,
               mark)


def check_ends(out, page, p):
    head = open(out + "/bisect.txt").readline()
    m = re.search(r"bad ([+-][0-9.]+ % \[[^]]+\])", head)
    report("bad-end-figure", bool(m) and any("the bad end: " + m.group(1) in t for t in p.titles),
           head)
    report("good-end-reference", any("the good end: 0 %, the reference" in t for t in p.titles))
    facts = dict(re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", page))
    report("first-bad-named", facts.get("first bad") == "img/k6", repr(facts))
    report("last-good-named", facts.get("last good") == "img/k5", repr(facts))


def static(out, page_file, hostile):
    page = open(page_file, encoding="utf-8").read()
    p = Rows()
    p.feed(page)
    check_rows(out, page, p)
    check_ends(out, page, p)
    report("one-chart", page.count("<svg") == 1)
    labels = [line.split("\t")[0] for line in open(out + "/kernels")]
    report("every-kernel-listed", all(html.escape(k, quote=True).replace("&#x27;", "&#39;")
                                      in page for k in labels))
    report("hostile-label-is-text", hostile not in page and page.count("<script") == 1 and
           html.escape(hostile) in page)
    report("hostile-label-on-hover", any(t == hostile for t in p.titles))


def instrument(page, out):
    text = open(page, encoding="utf-8").read()
    csp = re.search(r"script-src 'sha256-([^']+)'", text)
    script = re.search(r"<script>(.*?)</script>", text, re.S)
    report("csp-hash-is-the-script's", bool(csp and script and
                                             sha256(script.group(1)) == csp.group(1)))
    text = text.replace("script-src 'sha256-", "script-src 'sha256-%s' 'sha256-" % sha256(MEASURE))
    text = text.replace("</body>", "<script>%s</script>\n</body>" % MEASURE)
    open(out, "w", encoding="utf-8").write(text)


def browser(out, dom_file, console):
    dom = open(dom_file, encoding="utf-8").read()
    m = re.search(r'<pre id="test-measure">(.*?)</pre>', dom, re.S)
    report("measured", bool(m))
    if not m:
        return
    got = json.loads(html.unescape(m.group(1)))
    report("chart-drawn", len(got["svgs"]) == 1 and got["svgs"][0][0] > 300 and
           got["svgs"][0][1] > 200, repr(got["svgs"]))
    steps = [s["step"] for s in csv.DictReader(open(out + "/steps.csv", newline=""))]
    report("chart-marks-every-step", sorted(steps) == sorted(t for t in got["tags"]
                                                             if t.isdigit()), repr(got["tags"]))
    report("only-its-scripts", got["scripts"] == 2, repr(got["scripts"]))
    lines = [line for line in open(console, errors="replace") if "CONSOLE" in line]
    report("no-console-messages", not lines, "".join(lines[:3]))


def main():
    if sys.argv[1] == "static":
        static(*sys.argv[2:5])
    elif sys.argv[1] == "instrument":
        instrument(*sys.argv[2:4])
    else:
        browser(*sys.argv[2:5])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
