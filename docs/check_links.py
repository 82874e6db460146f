#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Checks the relative links of README.md and docs/*.md: every target file exists and every #anchor is a
# heading of the target (GitHub's slugs). Prints each broken link as FILE:LINE: and exits 1 if any.
#   docs/check_links.py [FILE.md...]
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    # GitHub: lower case, drop everything but letters, digits, spaces, '-' and '_', spaces to '-'.
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def outside_fences(path):
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def anchors(path):
    seen, out = {}, set()
    for _, line in outside_fences(path):
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def check(path):
    broken = []
    for number, line in outside_fences(path):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            rel = os.path.relpath(path, ROOT)
            if not os.path.exists(dest):
                broken.append(f"{rel}:{number}: {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                broken.append(f"{rel}:{number}: {target}: no heading #{anchor} in {os.path.relpath(dest, ROOT)}")
    return broken


def main(argv):
    files = argv or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    broken, links = [], 0
    for path in files:
        broken += check(path)
        links += sum(len(LINK.findall(line)) for _, line in outside_fences(path))
    for b in broken:
        print(b)
    print(f"{len(files)} files, {links} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
