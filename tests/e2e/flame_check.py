#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A point's flame graph for tests/e2e/profile.sh, one PASS/FAIL line each.

  flame_check.py PROFILES POINT   PROFILES/POINT.svg parses as XML, its
      root frame holds every sample of PROFILES/POINT-r*.folded, a frame
      is the checksum (csum_partial or do_csum), and it has no element
      but those sweep/render/flame.c writes.
"""
import glob
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def report(name, ok, why=""):
    print("PASS profile/%s" % name if ok else "FAIL profile/%s: %s" % (name, why))


def main(d, point):
    try:
        svg = ET.parse("%s/%s.svg" % (d, point)).getroot()
    except (OSError, ET.ParseError) as e:
        report("flame-graph-xml", False, str(e))
        return
    report("flame-graph-xml", svg.tag == NS + "svg", svg.tag)
    titles = [t.text or "" for t in svg.iter(NS + "title")]
    total = sum(int(line.rsplit(" ", 1)[1])
                for f in glob.glob("%s/%s-r*.folded" % (d, point)) for line in open(f))
    root = "all (%d samples, 100.00%%)" % total
    report("flame-graph-root-all-samples", root in titles, "%r not in %r" % (root, titles[:3]))
    hot = [t for t in titles if t.startswith(("csum_partial (", "do_csum ("))]
    report("flame-graph-has-checksum", bool(hot), repr(titles))
    bad = [e.tag for e in svg.iter()
           if e.tag.replace(NS, "") not in ("svg", "g", "rect", "text", "title")]
    report("flame-graph-own-elements", not bad, repr(bad))


main(sys.argv[1], sys.argv[2])
