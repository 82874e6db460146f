#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks a DOM dumped by headless Chromium (--dump-dom) of a lint --report page against the JSON report of
# the same run: bars per workload with their replica labels, diff rows, the search filter, no JS errors.
# usage: report_dom_check.py DOM REPORT.json QUERY [HOSTILE]
#   QUERY: the #q= filter the page was loaded with, or ""; HOSTILE: an input string that must be page text.
import json
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    """Collects the workload articles: their classes, hidden state, bars and the labels in each bar."""

    def __init__(self):
        super().__init__()
        self.root = {}
        self.body = {}
        self.articles = []
        self.shown = ""
        self.scripts = 0
        self.images = 0
        self.text = ""
        self._in = None  # "count" inside a bar's replica label, "shown" inside #shown

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.root = a
        elif tag == "body":
            self.body = a
        elif tag == "script":
            self.scripts += 1
        elif tag == "img":
            self.images += 1
        elif tag == "article":
            self.articles.append({"class": a.get("class", "").split(), "hidden": "hidden" in a,
                                  "search": a.get("data-search", ""), "rows": []})
        elif tag == "div" and a.get("class") == "placement":
            self.articles[-1]["rows"].append({"label": a.get("data-label"), "bars": []})
        elif tag == "g" and a.get("class") == "bar":
            self.articles[-1]["rows"][-1]["bars"].append({"cluster": a["data-cluster"],
                                                          "replicas": int(a["data-replicas"]), "label": ""})
        elif tag == "text" and a.get("class") == "count":
            self._in = "count"
        elif tag == "span" and a.get("id") == "shown":
            self._in = "shown"

    def handle_endtag(self, tag):
        if tag in ("text", "span"):
            self._in = None

    def handle_data(self, data):
        self.text += data
        if self._in == "count":
            self.articles[-1]["rows"][-1]["bars"][-1]["label"] += data
        elif self._in == "shown":
            self.shown += data


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(cond, message):
    if not cond:
        fail(message)


def check_rows(article, sides):
    """sides: [(label, clusters from the JSON)], in the page's order."""
    expect(len(article["rows"]) == len(sides), f"{article['search']}: {len(article['rows'])} rows, want {len(sides)}")
    for row, (label, clusters) in zip(article["rows"], sides):
        expect(row["label"] == label, f"{article['search']}: row {row['label']}, want {label}")
        got = [(b["cluster"], b["replicas"], b["label"]) for b in row["bars"]]
        want = [(c["name"], c["replicas"], str(c["replicas"])) for c in clusters]
        expect(got == want, f"{article['search']} {label}: bars {got}, want {want}")


def main():
    dom_file, json_file, query = sys.argv[1], sys.argv[2], sys.argv[3]
    page = Page()
    page.feed(open(dom_file, encoding="utf-8").read())
    report = json.load(open(json_file, encoding="utf-8"))
    expect("data-errors" not in page.root, "JavaScript errors: " + page.root.get("data-errors", ""))
    expect(page.body.get("data-ready") == "1", "the page's script did not run to its end")
    expect(page.scripts == 2, f"{page.scripts} script elements, want the page's own 2")
    expect(page.images == 0, f"{page.images} img elements from the input")
    expect("data-pwned" not in page.root, "a script from the input ran")
    if len(sys.argv) > 4:
        expect(sys.argv[4] in page.text, f"{sys.argv[4]!r} is not shown as text")
    changes = [a for a in page.articles if "change" in a["class"]]
    placed = [a for a in page.articles if "placed" in a["class"]]
    diff = report.get("diff", [])
    expect(len(changes) == len(diff), f"{len(changes)} diff rows, want {len(diff)}")
    for article, entry in zip(changes, diff):
        check_rows(article, [("before", entry["before"]["clusters"]), ("after", entry["after"]["clusters"])])
    scheduling = [s for r in report["results"] for s in r["scheduling"]]
    expect(len(placed) == len(scheduling), f"{len(placed)} workloads, want {len(scheduling)}")
    label = "after" if diff else "placement"
    for article, s in zip(placed, scheduling):
        check_rows(article, [(label, s["clusters"])])
    visible = [a for a in page.articles if not a["hidden"]]
    want = [a for a in page.articles if query.lower() in a["search"].lower()]
    if query:
        expect(0 < len(want) < len(page.articles), f"filter {query!r} matches {len(want)}: no test of the filter")
    expect(visible == want, f"filter {query!r}: {len(visible)} visible, want {len(want)}")
    expect(page.shown == f"{len(want)} of {len(page.articles)} shown", f"#shown reads {page.shown!r}")
    print(f"ok: {len(changes)} diff rows, {len(placed)} workloads, {len(visible)} shown for {query!r}")


main()
