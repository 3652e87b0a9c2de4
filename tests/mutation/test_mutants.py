#!/usr/bin/env python3
"""Tests of scripts/mutants.py (docs/RELIABILITY.md, "Mutants drawn by
rule"): the fixture's mutants are exactly the expected ones, none twice,
none from a skipped line; every anchor occurs once and its replacement
changes the file; a seed gives the same sample every time and another seed
another one; the default files give at least 300 mutants, at least 5 per
file that has 5 candidates. Seconds."""
import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutants  # noqa: E402

FIXTURE = "tests/mutation/fixture/fixture.c"


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], s[i:i + 2]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


class Fixture(unittest.TestCase):
    def setUp(self):
        self.src, self.mutants = mutants.mutants_of(FIXTURE)

    def test_expected_mutants(self):
        with open(os.path.join(ROOT, "tests/mutation/fixture/fixture.expected"), encoding="utf-8") as f:
            expected = f.read().splitlines()
        got = ["\t".join([mutants.escape(a), mutants.escape(r), note]) for _, _, a, r, note in self.mutants]
        self.assertEqual(got, expected)

    def test_every_class_present(self):
        self.assertEqual({m[0] for m in self.mutants},
                         {"relational", "logical", "arithmetic", "constant", "condition", "delete", "ignore", "literal"})

    def test_no_duplicate_and_anchors_apply(self):
        text = self.src.text
        results = set()
        for _, _, anchor, repl, _ in self.mutants:
            self.assertEqual(text.count(anchor), 1, anchor)
            mutated = text.replace(anchor, repl)
            self.assertNotEqual(mutated, text)
            self.assertNotIn(mutated, results)
            results.add(mutated)

    def test_skipped_lines_give_nothing(self):
        lines = self.src.text.split("\n")
        skipped = {i + 1 for i, line in enumerate(lines) if "SKIPPED" in line}
        self.assertEqual(len(skipped), 6)
        for _, first, anchor, _, _ in self.mutants:
            span = set(range(first, first + anchor.count("\n") + 1))
            self.assertFalse(span & skipped, anchor)

    def test_escape_round_trip(self):
        for s in ["a\\nb", "x\n\ty", "'\\0'", "\\\\"]:
            self.assertEqual(unescape(mutants.escape(s)), s)


class Sample(unittest.TestCase):
    def test_seeded_and_reproducible(self):
        a = mutants.draw([FIXTURE], "7", 1.0)
        self.assertEqual(a, mutants.draw([FIXTURE], "7", 1.0))
        self.assertNotEqual([m[1][2:4] for m in a], [m[1][2:4] for m in mutants.draw([FIXTURE], "8", 1.0)])
        self.assertEqual(len({(m[1][2], m[1][3]) for m in a}), len(a))

    def test_classes_in_turn(self):
        # a quota below the candidates takes one of each class before a second
        src, all_ = mutants.mutants_of(FIXTURE)
        picked = mutants.sample_file(FIXTURE, all_, 8, "7")
        self.assertEqual(len({m[0] for m in picked}), 8)

    def test_default_files(self):
        files = mutants.default_files()
        sample = mutants.draw(files, "34", mutants.DEFAULT_DENSITY)
        self.assertGreaterEqual(len(sample), 300)
        for path in files:
            src, all_ = mutants.mutants_of(path)
            n = sum(1 for p, _ in sample if p == path)
            self.assertEqual(n, min(len(all_), max(5, -(-src.logic_lines() // mutants.DEFAULT_DENSITY))), path)
        prefix = mutants.draw(files, "34", mutants.DEFAULT_DENSITY, take=40)
        self.assertEqual(len(prefix), 40)
        self.assertGreaterEqual(len({p for p, _ in prefix}), 35)
        self.assertTrue(set(prefix) <= set(sample))


if __name__ == "__main__":
    unittest.main()
