#!/usr/bin/env python3
"""Checks the relative links of README.md and docs/*.md: every link to a file must name a file of the repository,
and every #anchor must name a heading of the page it points to (GitHub's heading ids: lower case, punctuation
dropped, blanks as hyphens). Prints one line per broken link and exits 1 when there is one.

Usage, from the repository root: python3 docs/check-links.py
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*```")


def strip_code(text):
    """The page without fenced code blocks (links and headings inside them are not links and headings)."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def anchors(path):
    """GitHub's ids of the headings of a Markdown file, duplicates numbered as GitHub does."""
    seen, ids = {}, set()
    for line in strip_code(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if not m:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))
        slug = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        ids.add(slug if n == 0 else f"{slug}-{n}")
    return ids


def main():
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    broken = 0
    for page in pages:
        for number, line in enumerate(strip_code(page.read_text(encoding="utf-8")), 1):
            line = re.sub(r"`[^`]*`", "", line)
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue  # http:, https:, mailto:
                file_part, _, anchor = target.partition("#")
                dest = (page.parent / file_part).resolve() if file_part else page
                problem = None
                if not dest.exists():
                    problem = "no such file"
                elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    problem = f"no heading #{anchor} in {dest.relative_to(ROOT)}"
                if problem:
                    broken += 1
                    print(f"{page.relative_to(ROOT)}: link {target}: {problem}")
    print(f"{len(pages)} pages checked, {broken} broken links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
