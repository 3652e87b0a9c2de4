#!/usr/bin/env python3
"""Seal tools/web/verify.html after an edit: put the SHA-256 of its inline
script and style into its Content-Security-Policy (the browser runs only the
script and style whose hash the policy names), then write the page's own
SHA-256 to verify.html.sha256 (`sha256sum -c verify.html.sha256` checks a
copy). Standard library only.

usage: seal.py [--check] [PAGE]
  --check: change nothing; exit 1 if the page or its .sha256 is not sealed.
"""
import base64
import hashlib
import re
import sys
from pathlib import Path


def sealed(text):
    """The page text with the CSP naming its own script and style."""
    def digest(tag):
        blocks = re.findall(r"<%s>(.*?)</%s>" % (tag, tag), text, re.S)
        if len(blocks) != 1:
            raise SystemExit("seal.py: the page must have exactly one <%s> block" % tag)
        return base64.b64encode(hashlib.sha256(blocks[0].encode("utf-8")).digest()).decode()
    text, n1 = re.subn(r"script-src 'sha256-[^']*'", "script-src 'sha256-%s'" % digest("script"), text)
    text, n2 = re.subn(r"style-src 'sha256-[^']*'", "style-src 'sha256-%s'" % digest("style"), text)
    if (n1, n2) != (1, 1):
        raise SystemExit("seal.py: the CSP must name one script-src and one style-src hash")
    return text


def main(argv):
    check = "--check" in argv
    args = [a for a in argv[1:] if a != "--check"]
    page = Path(args[0] if args else Path(__file__).with_name("verify.html"))
    text = page.read_text(encoding="utf-8")
    new = sealed(text)
    line = "%s  %s\n" % (hashlib.sha256(new.encode("utf-8")).hexdigest(), page.name)
    sums = page.with_name(page.name + ".sha256")
    if check:
        ok = new == text and sums.exists() and sums.read_text() == line
        print("seal.py: %s %s" % (page.name, "sealed" if ok else "NOT sealed: run tools/web/seal.py"))
        return 0 if ok else 1
    page.write_text(new, encoding="utf-8")
    sums.write_text(line)
    print(line, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
