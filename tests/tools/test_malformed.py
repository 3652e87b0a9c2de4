#!/usr/bin/env python3
"""The shared table of malformed inputs (tests/tools/malformed.txt, format in
its header) against every verifier that reads the case's kind:

  round       tools/verify.py check, fairdeal-tool verify --round
  transcript  tools/verify.py transcript, fairdeal-tool verify --transcript
  session     the same two (SEED and CLOSE replies, which the page does not check)
  recall      fairdeal-tool verify --recall
  key         fairdeal-tool verify --journal (a host dealer's journal) --key

A case expecting "accept" must exit 0. Any other case must exit non-zero
with exactly one line on stderr holding the case's reason phrase, nothing on
stdout, and no Python traceback.

With --fuzz N (a long run, not in the default tests: N = 2000 takes a few
minutes): N random edits (bytes replaced, deleted, duplicated or swapped)
of the accepted cases, each fed to every verifier of its kind: they must
agree on accepting or rejecting (round, transcript), exit 0 or 1 (no
crash), and each rejection must be one line without a traceback.

usage: test_malformed.py TABLE SOURCE_ROOT FAIRDEAL_TOOL HOST_DEALER [NAME...]
       test_malformed.py TABLE SOURCE_ROOT FAIRDEAL_TOOL HOST_DEALER --fuzz N [SEED]
"""
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

KINDS = ("round", "transcript", "session", "recall", "key")


def unescape(text):
    """The table's escapes: \\n \\t \\\\ \\xHH; anything else is an error."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out += c.encode("ascii")
            i += 1
            continue
        nxt = text[i + 1:i + 2]
        if nxt == "n":
            out += b"\n"
            i += 2
        elif nxt == "t":
            out += b"\t"
            i += 2
        elif nxt == "\\":
            out += b"\\"
            i += 2
        elif nxt == "x" and re.fullmatch(r"[0-9a-f]{2}", text[i + 2:i + 4]):
            out.append(int(text[i + 2:i + 4], 16))
            i += 4
        else:
            raise ValueError("bad escape at %d" % i)
    return bytes(out)


def read_table(path):
    cases = []
    names = set()
    with open(path, encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4 or parts[0] not in KINDS or not re.fullmatch(r"[a-z0-9-]+", parts[1]) \
                    or parts[1] in names or not re.fullmatch(r"accept|[a-z0-9=. '-]+", parts[2]):
                raise SystemExit("test_malformed.py: %s:%d: not a table line" % (path, number))
            names.add(parts[1])
            cases.append((parts[0], parts[1], parts[2], unescape(parts[3])))
    return cases


def journal_dump(dealer, work):
    path = os.path.join(work, "journal.bin")
    subprocess.run([dealer, "--storage", path], input=b"SHUFFLE\nDEAL 2\nREVEAL\n", stdout=subprocess.DEVNULL,
                   check=True, timeout=60)
    return path


def commands(kind, data, root, tool, journal, work):
    """(verifier name, argv, stdin bytes) for each verifier of this kind."""
    py = [sys.executable, os.path.join(root, "tools", "verify.py")]
    if kind == "round":
        return [("verify.py check", py + ["check"], data), ("fairdeal-tool --round", [tool, "verify", "--round", "-"], data)]
    if kind in ("transcript", "session"):
        return [("verify.py transcript", py + ["transcript"], data),
                ("fairdeal-tool --transcript", [tool, "verify", "--transcript", "-"], data)]
    if kind == "recall":
        return [("fairdeal-tool --recall", [tool, "verify", "--recall", "-"], data)]
    # kind key: the argument itself (argv cannot hold NUL; the table has none there)
    return [("fairdeal-tool --journal --key", [tool, "verify", "--journal", journal, "--key", os.fsdecode(data)], b"")]


def run_case(case, root, tool, journal, work):
    kind, name, expect, data = case
    problems = []
    for verifier, argv, stdin in commands(kind, data, root, tool, journal, work):
        p = subprocess.run(argv, input=stdin, capture_output=True, timeout=120)
        err = p.stderr.decode("utf-8", "replace")
        out = p.stdout.decode("utf-8", "replace")
        lines = err.splitlines()
        if expect == "accept":
            if p.returncode != 0:
                problems.append("%s rejected it (%d): %s" % (verifier, p.returncode, err.strip()[:300]))
        elif p.returncode == 0:
            problems.append("%s accepted it: %s" % (verifier, out.strip()[:200]))
        elif "Traceback" in err or len(lines) != 1 or out:
            problems.append("%s: want one error line and no stdout, got stderr %r stdout %r"
                            % (verifier, err[:400], out[:200]))
        elif expect not in lines[0].lower():
            problems.append("%s: reason %r not in %r" % (verifier, expect, lines[0]))
    return problems


def mutate(data, rng):
    """One random edit of data: a byte replaced, deleted, duplicated, or two swapped."""
    data = bytearray(data)
    at = rng.randrange(len(data))
    what = rng.randrange(4)
    if what == 0:
        data[at] = rng.choice(b"0123456789abcdefABCDEF:;,= \n-x\xff\x00" + bytes([rng.randrange(256)]))
    elif what == 1:
        del data[at]
    elif what == 2:
        data[at:at] = data[at:at + rng.randrange(1, 8)]
    else:
        other = rng.randrange(len(data))
        data[at], data[other] = data[other], data[at]
    return bytes(data)


def fuzz(cases, root, tool, count, seed):
    """Both verifiers of a kind agree on every random edit of an accepted case."""
    rng = random.Random(seed)
    bases = [c for c in cases if c[2] == "accept" and c[0] in ("round", "transcript", "recall")]  # session: no base
    failures = accepted = 0
    for i in range(count):
        kind, name, _, data = rng.choice(bases)
        edited = mutate(data, rng)
        verdicts = []
        for verifier, argv, stdin in commands(kind, edited, root, tool, None, None):
            p = subprocess.run(argv, input=stdin, capture_output=True, timeout=120)
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode not in (0, 1) or (p.returncode != 0 and ("Traceback" in err or len(err.splitlines()) != 1)):
                failures += 1
                print("FAIL fuzz %d (%s): %s: not one error line: %r" % (i, name, verifier, err[:300]))
            verdicts.append((verifier, p.returncode == 0, err.strip()))
        if len({ok for _, ok, _ in verdicts}) != 1:
            failures += 1
            print("FAIL fuzz %d (%s): the verifiers disagree on %r: %s" % (i, name, edited[:200], verdicts))
        accepted += 1 if verdicts[0][1] else 0
    print("test_malformed.py: fuzz seed %d: %d edits, %d accepted by both, %d failures" % (seed, count, accepted, failures))
    return 1 if failures else 0


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    table, root, tool, dealer = argv[1:5]
    if argv[5:6] == ["--fuzz"]:
        seed = int(argv[7]) if len(argv) > 7 else random.randrange(1 << 32)
        return fuzz(read_table(table), root, tool, int(argv[6]), seed)
    only = set(argv[5:])
    cases = [c for c in read_table(table) if not only or c[1] in only]
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        journal = journal_dump(dealer, work)
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda case: run_case(case, root, tool, journal, work), cases))
        for case, problems in zip(cases, results):
            for problem in problems:
                print("FAIL %s %s: %s" % (case[0], case[1], problem))
            failures += 1 if problems else 0
    counts = {k: sum(1 for c in cases if c[0] == k) for k in KINDS}
    print("test_malformed.py: %d cases (%s; %d to accept), %d failed"
          % (len(cases), ", ".join("%d %s" % (counts[k], k) for k in KINDS),
             sum(1 for c in cases if c[2] == "accept"), failures))
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
