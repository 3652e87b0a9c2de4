#!/usr/bin/env python3
"""Tests of scripts/mutants.py (docs/RELIABILITY.md, "Mutants drawn by
rule"): the fixture's mutants are exactly the expected ones, none twice,
none from a skipped line; every anchor occurs once and its replacement
changes the file; a seed gives the same sample every time and another seed
another one; the default files give at least 300 mutants, at least 5 per
file that has 5 candidates. The run's build-graph lookups
(scripts/mutation_run.py) on a small ninja graph: a file's mutants build
exactly what links it (through static libraries and included files) and
meet exactly the tests that name what was built, the likeliest first.
Seconds."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import mutants  # noqa: E402
import mutation_run  # noqa: E402

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


# A build graph as CMake's Ninja generator writes one (its rule names): two
# objects archived into a library, a test program that links the library
# and includes a header, one that compiles b.c itself, one that
# #includes b.c, and a custom command and a phony target after them.
GRAPH = """rule C_COMPILER__x_Debug
  command = cat $in $hdr > $out && printf '%s: %s %s\\n' $out $in "$hdr" > $out.d
  depfile = $out.d
  deps = gcc
rule C_STATIC_LIBRARY_LINKER__lib_Debug
  command = cat $in > $out
rule C_EXECUTABLE_LINKER__t_Debug
  command = cat $in $libs > $out
rule CUSTOM_COMMAND
  command = cat $in > $out
build a.o: C_COMPILER__x_Debug SRC/a.c
  hdr = SRC/h.h
build b.o: C_COMPILER__x_Debug SRC/b.c
build t1.o: C_COMPILER__x_Debug SRC/t1.c
  hdr = SRC/h.h
build t3.o: C_COMPILER__x_Debug SRC/t3.c
  hdr = SRC/b.c
build libx.a: C_STATIC_LIBRARY_LINKER__lib_Debug a.o b.o
build t1: C_EXECUTABLE_LINKER__t_Debug t1.o | libx.a || libx.a
  libs = libx.a
build t2: C_EXECUTABLE_LINKER__t_Debug b.o
build t3: C_EXECUTABLE_LINKER__t_Debug t3.o
build stamp: CUSTOM_COMMAND t1
build all: phony t1 t2 t3 stamp
"""


@unittest.skipUnless(shutil.which("ninja"), "needs ninja")
class BuildGraph(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        src, build = os.path.join(self.dir, "src"), os.path.join(self.dir, "build")
        os.makedirs(src)
        os.makedirs(build)
        for name in ["a.c", "b.c", "h.h", "t1.c", "t3.c"]:
            with open(os.path.join(src, name), "w") as f:
                f.write(name + "\n")
        with open(os.path.join(build, "build.ninja"), "w") as f:
            f.write(GRAPH.replace("SRC", src))
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump([{"directory": build, "file": os.path.join(src, n + ".c"), "output": n + ".o",
                        "command": "cc"} for n in ["a", "b", "t1", "t3"]], f)
        subprocess.run(["ninja", "-C", build], check=True, capture_output=True)
        self.tree = mutation_run.Tree(src, build)
        self.build = build

    def artifacts(self, path):
        return {os.path.relpath(a, self.build) for a in self.tree.artifacts(path)}

    def test_what_links_a_file(self):
        # through the library; a file compiled into a program directly; a
        # file #included by another; never a custom command or phony
        self.assertEqual(self.artifacts("a.c"), {"t1"})
        self.assertEqual(self.artifacts("b.c"), {"t1", "t2", "t3"})
        self.assertEqual(self.artifacts("h.h"), {"t1"})
        self.assertEqual(self.artifacts("t3.c"), {"t3"})
        self.assertEqual(self.artifacts("nowhere.c"), set())

    def test_make_builds_only_those(self):
        with open(os.path.join(self.tree.src, "a.c"), "w") as f:
            f.write("mutated\n")
        before = {n: os.stat(os.path.join(self.build, n)).st_mtime_ns for n in ["t1", "t2", "t3"]}
        time.sleep(0.01)
        self.assertTrue(self.tree.make(self.tree.artifacts("a.c"), os.path.join(self.dir, "log")))
        after = {n: os.stat(os.path.join(self.build, n)).st_mtime_ns for n in ["t1", "t2", "t3"]}
        self.assertNotEqual(before["t1"], after["t1"])
        self.assertEqual((before["t2"], before["t3"]), (after["t2"], after["t3"]))
        with open(os.path.join(self.build, "t1")) as f:
            self.assertIn("mutated", f.read())


class RunHelpers(unittest.TestCase):
    def test_tests_using(self):
        tests = [{"name": "u.a", "command": ["/b/t1"]},
                 {"name": "u.script", "command": ["/s/run.sh", "/b/t2", "x"]},
                 {"name": "u.env", "command": ["/bin/sh"],
                  "properties": [{"name": "ENVIRONMENT", "value": ["TOOL=/b/t3"]}]},
                 {"name": "u.other", "command": ["/b/t10"]},
                 {"name": "u.none"},
                 {"name": "u.long", "command": ["/b/t2"], "properties": [{"name": "LABELS", "value": ["stats"]}]}]
        self.assertEqual(mutation_run.tests_using(tests, ["/b/t2", "/b/t3"], ("stats",)), ["u.script", "u.env"])
        self.assertEqual(mutation_run.tests_using(tests, ["/b/t2"]), ["u.script", "u.long"])
        self.assertEqual(mutation_run.tests_using(tests, []), [])

    def test_a_test_without_its_program_is_reported(self):
        # ctest leaves "command" out while the program is not built
        tests = [{"name": "u.built", "command": ["/b/t1"]},
                 {"name": "u.unbuilt", "properties": [{"name": "WORKING_DIRECTORY", "value": "/b"}]}]
        self.assertEqual(mutation_run.without_program(tests), ["u.unbuilt"])
        self.assertEqual(mutation_run.without_program(tests[:1]), [])

    def test_guarded_lines_meet_their_board(self):
        # code under a board's #if meets that board's suites, the rest of the file the host's
        m = {"file": "firmware/main.c", "note": "condition, line 101: x -> 0 (under #if defined(FD_SIGNED_IMAGE))"}
        self.assertEqual(mutation_run.unit_of(m), "firmware/main.c@microbit")
        self.assertEqual(mutation_run.split_unit("firmware/main.c@microbit"), ("firmware/main.c", "microbit"))
        m = {"file": "lib/src/sha256.c", "note": "constant, line 151: 60 -> 61 (under #if SHA256_V7M)"}
        self.assertEqual(mutation_run.unit_of(m), "lib/src/sha256.c@mps2-an386")
        for note in ("constant, line 3: 0 -> 1", "x (under #if !(SHA256_V7M))", "x (under #if !SHA256_V7M)",
                     "x (under #if FD_SHA256_V7M_EXTRA)"):
            self.assertEqual(mutation_run.unit_of({"file": "lib/src/sha256.c", "note": note}), "lib/src/sha256.c")
        self.assertEqual(mutation_run.split_unit("firmware/program_verify.c"), ("firmware/program_verify.c", "microbit"))
        self.assertEqual(mutation_run.unit_of({"file": "firmware/program_verify.c", "note": "x"}),
                         "firmware/program_verify.c")

    def test_order_named_then_quickest(self):
        times = {"host.unit.crypto": 0.5, "host.unit.shuffle": 9.0, "host.tool": 0.1, "host.unit.golden": 3.0}
        self.assertEqual(mutation_run.order_tests(list(times) + ["host.dealer.x"], "lib/src/shuffle.c", times),
                         ["host.unit.shuffle", "host.tool", "host.unit.crypto", "host.unit.golden", "host.dealer.x"])

    def test_last_killer_first(self):
        self.assertEqual(mutation_run.promote(["a", "b", "c"], ["c", "x", "a"]), ["c", "a", "b"])
        self.assertEqual(mutation_run.promote(["a", "b"], []), ["a", "b"])
        rows = [["l", "1", "f.c", "killed", "n", "by host.unit.a "],
                ["l", "2", "f.c", "SURVIVED", "n", ""],
                ["l", "3", "f.c", "killed", "n", "by host.unit.b(timeout) "],
                ["l", "4", "g.c", "killed", "n", "by host.tool "]]
        self.assertEqual(mutation_run.killers(rows), {"f.c": ["host.unit.b", "host.unit.a"], "g.c": ["host.tool"]})

    def test_key_as_the_shell_wrote_it(self):
        # keys of earlier results.tsv files stay valid (--keep-killed, --incremental)
        line = "lib/src/rng.c\tx\ty\tnote"
        with tempfile.NamedTemporaryFile("wb", delete=False) as f:
            f.write(b"int x;\n")
        self.addCleanup(os.unlink, f.name)
        shell = subprocess.run(["sh", "-c", "{ printf '%s\\n' \"$1\"; cat \"$2\"; } | sha1sum | cut -c1-16",
                                "sh", line, f.name], capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(mutation_run.key_of(line, b"int x;\n"), shell)

    def test_sync_keeps_unchanged_time_stamps(self):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        root, dest = os.path.join(d, "root"), os.path.join(d, "dest")
        os.makedirs(os.path.join(root, "sub"))
        for name, text in [("a", "1"), ("sub/b", "2")]:
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        self.assertEqual(mutation_run.sync_tree(root, dest, ["a", "sub/b"]), 2)
        old = os.stat(os.path.join(dest, "a")).st_mtime_ns
        with open(os.path.join(root, "sub/b"), "w") as f:
            f.write("3")
        self.assertEqual(mutation_run.sync_tree(root, dest, ["a", "sub/b"]), 1)
        self.assertEqual(os.stat(os.path.join(dest, "a")).st_mtime_ns, old)
        with open(os.path.join(dest, "sub/b")) as f:
            self.assertEqual(f.read(), "3")

    def test_apply_line(self):
        self.assertEqual(mutation_run.apply_line("a < b;\n", "f\ta < b\ta <= b\tn"), "a <= b;\n")
        self.assertIsNone(mutation_run.apply_line("a < b; a < b;\n", "f\ta < b\ta <= b\tn"))


if __name__ == "__main__":
    unittest.main()
