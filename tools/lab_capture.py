#!/usr/bin/env python3
"""Turn a dealer lab-mode capture (a console transcript holding LAB RAW and
LAB CARDS reply lines, docs/ENTROPY.md "Lab mode") into the files an
assessment reads:

  PREFIX.raw.bin    raw samples, one per byte, in capture order: the input
                    of NIST SP 800-90B's ea_non_iid / ea_iid (8 bits/sample)
  PREFIX.cards.txt  card indices, one per line, with their bound in the
                    header comment (scaled outputs for a lab's chi-square)
  PREFIX.cards.bin  the same indices one per byte when every bound <= 256

A reply that did not end with end=ok (the source failed part way), or whose
count does not match n=, voids the whole capture: exit status 1, nothing
written. usage: lab_capture.py CAPTURE PREFIX
"""
import re
import sys

RAW = re.compile(r"^OK LAB RAW n=(\d+) hex=([0-9a-f]*) end=(\S+)$")
CARDS = re.compile(r"^OK LAB CARDS n=(\d+) bound=(\d+) idx=([0-9,]*) end=(\S+)$")


def parse(lines):
    raw = bytearray()
    cards = []  # (bound, index)
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r\n").lstrip("> ")
        m = RAW.match(line)
        if m:
            n, hexdigits, end = int(m.group(1)), m.group(2), m.group(3)
            if end != "ok" or len(hexdigits) != 2 * n:
                raise ValueError(f"line {number}: LAB RAW void (end={end}, {len(hexdigits) // 2} of {n} samples)")
            raw += bytes.fromhex(hexdigits)
            continue
        m = CARDS.match(line)
        if m:
            n, bound, idx, end = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
            values = [int(v) for v in idx.split(",")] if idx else []
            if end != "ok" or len(values) != n or any(v >= bound for v in values):
                raise ValueError(f"line {number}: LAB CARDS void (end={end}, {len(values)} of {n} indices)")
            cards += [(bound, v) for v in values]
            continue
        if line.startswith("OK LAB") or line.startswith("ERR"):
            raise ValueError(f"line {number}: not a complete lab reply: {line[:60]}")
    return raw, cards


def main(argv):
    if len(argv) != 3:
        print("usage: lab_capture.py CAPTURE PREFIX", file=sys.stderr)
        return 2
    with open(argv[1], encoding="ascii") as f:
        try:
            raw, cards = parse(f)
        except ValueError as e:
            print(f"lab_capture: {e}", file=sys.stderr)
            return 1
    prefix = argv[2]
    with open(prefix + ".raw.bin", "wb") as f:
        f.write(raw)
    bounds = sorted({b for b, _ in cards})
    with open(prefix + ".cards.txt", "w", encoding="ascii") as f:
        f.write(f"# card indices, bound(s) {','.join(map(str, bounds))}\n")
        f.writelines(f"{v}\n" for _, v in cards)
    if all(b <= 256 for b in bounds):
        with open(prefix + ".cards.bin", "wb") as f:
            f.write(bytes(v for _, v in cards))
    print(f"{len(raw)} raw samples, {len(cards)} card indices")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
