#!/usr/bin/env python3
"""The mutation run (docs/RELIABILITY.md, "Mutation testing"): applies every
mutant of the lists to a worker's copy of the tree, builds only what links
the mutated file, and runs only the tests that use what was built, stopping
at the first failure. Called by scripts/mutation.sh (which owns the
options a user types and the report); writes its results.tsv.

What a mutant of a file needs comes from the build graph, never from a
list kept by hand:
- the objects a file goes into: the build's recorded dependencies
  (`ninja -t deps`: every object whose source or included headers name
  the file) and the compile database;
- the artifacts those objects end up in: `ninja -t query`, following each
  object through the static libraries that archive it to every executable
  or module linked from them;
- the tests: every ctest test (`ctest --show-only=json-v1`) whose command,
  arguments or environment name one of those artifacts.
A file only a board's code reaches (board_of) is looked up the same way in
that board's own tree (build/<board> of the worker's copy).

Each worker keeps a build tree of its own between runs
(build/mutation/w<N>): its source copy is updated file by file (an unchanged
file keeps its time stamp, so nothing of it is rebuilt), and a worker takes
all mutants of one file in turn, so each mutant compiles the mutated file
once and links what uses it; the file is restored when the worker moves on.
Tests run one at a time, the likeliest to fail first (the one that last
killed a mutant of the file, in this run or the last one, then those named
after the file, then the quickest of the unmutated tree), and the first
failure ends the mutant: killed.
"""
import argparse
import hashlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# rules that make a final artifact, and rules an object travels through
FINAL_RULE = re.compile(r"^(C|CXX)_(EXECUTABLE|MODULE_LIBRARY|SHARED_LIBRARY)_LINKER")
THROUGH_RULE = re.compile(r"^(C|CXX)_STATIC_LIBRARY_LINKER")
NICE = ["nice", "-n", "19"]


# Conditions of code only a board compiles: a mutant whose note says it is
# under one (scripts/mutants.py "(under #if ...)") meets that board's suites.
GUARD_BOARDS = {"FD_SIGNED_IMAGE": "microbit", "SHA256_V7M": "mps2-an386"}


def board_of(path, note=""):
    """The board whose QEMU suites test a file (or, by its note, a mutant's
    lines) only that board's code reaches (the host compiles it with that
    code disabled), or None."""
    g = re.search(r"\(under #if (.*)\)$", note)
    for part in (g.group(1).split(" && ") if g else []):
        name = re.fullmatch(r"(?:defined\((\w+)\)|(\w+))", part.strip())
        if name and (name.group(1) or name.group(2)) in GUARD_BOARDS:
            return GUARD_BOARDS[name.group(1) or name.group(2)]
    return {"boards/common/cortex-m/ram_storage.c": "mps2-an386", "lib/src/shuffle_v7m.c": "mps2-an386",
            "boards/common/nrf5x/nvmc.c": "microbit", "lib/src/chacha20_v6m.c": "microbit",
            "firmware/program_verify.c": "microbit"}.get(path)


def unit_of(m):
    """A mutant's unit of work: its file, with "@board" when its guard sends
    it to a board the file's other mutants do not meet."""
    b = board_of(m["file"], m.get("note", ""))
    return m["file"] if b == board_of(m["file"]) else "%s@%s" % (m["file"], b)


def split_unit(unit):
    """unit -> (file, board or None)."""
    path, _, b = unit.partition("@")
    return path, (b or board_of(path))


def parse_query(text):
    """`ninja -t query` output -> {node: (rule, inputs, outputs)}."""
    out, node, section = {}, None, None
    for line in text.splitlines():
        if not line.startswith(" "):
            node = line.rstrip(":")
            out[node] = ["", [], []]
            section = None
        elif line.startswith("  input: "):
            out[node][0] = line[len("  input: "):].strip()
            section = 1
        elif line.strip() == "outputs:":
            section = 2
        elif section and line.startswith("    "):
            item = line.strip()
            if item.startswith("||") or item.startswith("|"):
                item = item.lstrip("|").strip()
            out[node][section].append(item)
    return {k: tuple(v) for k, v in out.items()}


def parse_deps(text, build):
    """`ninja -t deps` output -> {absolute dependency path: {object}}."""
    users, obj = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            obj = line.split(":", 1)[0]
        elif obj:
            dep = os.path.normpath(os.path.join(build, line.strip()))
            users.setdefault(dep, set()).add(obj)
    return users


def linked_artifacts(objects, query):
    """Every executable or module the objects end up in, following static
    libraries: query(nodes) -> {node: (rule, inputs, outputs)}."""
    seen, final = set(objects), set()
    frontier = sorted(objects)
    while frontier:
        info = query(frontier)
        nxt = set()
        for node in frontier:
            for out in info.get(node, ("", [], []))[2]:
                if out not in seen:
                    seen.add(out)
                    nxt.add(out)
        if not nxt:
            break
        rules = query(sorted(nxt))
        frontier = []
        for node in sorted(nxt):
            rule = rules.get(node, ("", [], []))[0]
            if FINAL_RULE.match(rule):
                final.add(node)
            elif THROUGH_RULE.match(rule):
                frontier.append(node)
    return final


def names(word, artifact, tree_dirs):
    """Whether a test's word names the artifact: the artifact's path in the
    word, or (tree_dirs: a board tree's build directory) the word is that
    directory or one inside it holding the artifact (boot.sh and update.sh
    take a board's tree and run every image in it)."""
    if artifact in word:
        return True
    return any(word == d or word.startswith(d + os.sep) for d in tree_dirs) and artifact.startswith(word + os.sep)


def named_artifacts(test, artifacts, tree_dirs=()):
    """The artifacts (absolute paths) a ctest json-v1 test names in its
    command, arguments or environment."""
    words = list(test.get("command") or [])
    for p in test.get("properties", []):
        if p.get("name") in ("ENVIRONMENT", "REQUIRED_FILES"):
            v = p.get("value")
            words.extend(v if isinstance(v, list) else [str(v)])
    return [a for a in artifacts if any(names(w, a, tree_dirs) for w in words)]


def tests_using(tests, artifacts, skip_labels=(), tree_dirs=()):
    """Names of the tests (ctest json-v1 "tests") whose command or
    environment names one of the artifacts (absolute paths; names), except
    those with one of skip_labels."""
    found = []
    for t in tests:
        words = list(t.get("command") or [])
        labels = []
        for p in t.get("properties", []):
            v = p.get("value")
            v = v if isinstance(v, list) else [str(v)]
            if p.get("name") in ("ENVIRONMENT", "REQUIRED_FILES"):
                words.extend(v)
            elif p.get("name") == "LABELS":
                labels = v
        if set(labels) & set(skip_labels):
            continue
        if any(names(w, a, tree_dirs) for w in words for a in artifacts):
            found.append(t["name"])
    return found


def without_program(tests):
    """Names of the tests (ctest json-v1 "tests") that name no command:
    ctest leaves "command" out while a test's program is not built, and
    such a test matches no artifact, so a mutant would never meet it."""
    return [t["name"] for t in tests if not t.get("command")]


def order_tests(names, path, times):
    """The likeliest to fail first: tests named after the file's stem
    (host.unit.shuffle for lib/src/shuffle.c), then by the unmutated
    tree's duration, quickest first (an unknown duration last); ties by name."""
    stem = os.path.splitext(os.path.basename(path))[0]
    parts = set(re.split(r"[._]", stem)) - {"", "c"}

    def key(n):
        named = stem in n.split(".") or bool(parts & set(n.split(".")[-1:]))
        return (0 if named else 1, times.get(n, float("inf")), n)
    return sorted(names, key=key)


def promote(names, first):
    """names with those of first that it holds moved to the front, in
    first's order (a test that killed a mutant of a file is the likeliest
    to kill the next one)."""
    front = [n for n in dict.fromkeys(first) if n in names]
    return front + [n for n in names if n not in front]


def killers(rows):
    """{file: [test, ...]} from results rows (list, line, file, verdict,
    note, detail): the tests that killed each file's mutants, most recent
    first."""
    out = {}
    for c in rows:
        if len(c) >= 6 and c[3] == "killed" and c[5].startswith("by "):
            name = c[5][3:].split()[0].replace("(timeout)", "")
            out.setdefault(c[2], []).insert(0, name)
    return out


def key_of(line, text):
    """The key of a list line: the line and its file as they are now (the
    same as scripts/mutation.sh has always written)."""
    return hashlib.sha1(line.encode() + b"\n" + text).hexdigest()[:16]


def unescape(s):
    escapes = {"n": "\n", "t": "\t", "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), s)


def apply_line(text, line):
    """The mutated text, or None when the anchor does not occur once."""
    fields = line.split("\t")
    anchor, repl = unescape(fields[1]), unescape(fields[2])
    if text.count(anchor) != 1:
        return None
    return text.replace(anchor, repl)


def tree_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, capture_output=True).stdout.decode()
    return [f for f in out.split("\0") if f and not f.startswith("build/") and os.path.isfile(os.path.join(root, f))]


def tree_digest(root, files):
    """A digest of the files' names and contents."""
    h = hashlib.sha1()
    for f in sorted(files):
        with open(os.path.join(root, f), "rb") as fh:
            h.update(f.encode() + b"\0" + hashlib.sha1(fh.read()).digest())
    return h.hexdigest()


def sync_tree(root, dest, files):
    """Copies the tree's files to dest, writing only those that differ (an
    unchanged file keeps its time stamp). Returns how many were written."""
    n = 0
    for f in files:
        with open(os.path.join(root, f), "rb") as fh:
            data = fh.read()
        target = os.path.join(dest, f)
        try:
            with open(target, "rb") as fh:
                if fh.read() == data:
                    continue
        except OSError:
            os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
        os.chmod(target, os.stat(os.path.join(root, f)).st_mode & 0o777)
        n += 1
    return n


class Tree:
    """One build tree (the host tree of a worker, or a board's tree in it)."""

    def __init__(self, src, build):
        self.src, self.build = src, build
        self._users = None
        self._query = {}
        self._artifacts = {}

    def query(self, nodes):
        missing = [n for n in nodes if n not in self._query]
        if missing:
            r = subprocess.run(["ninja", "-C", self.build, "-t", "query"] + missing, capture_output=True, text=True)
            got = parse_query(r.stdout)
            for n in missing:
                self._query[n] = got.get(n, ("", [], []))
        return {n: self._query[n] for n in nodes}

    def users(self):
        if self._users is None:
            r = subprocess.run(["ninja", "-C", self.build, "-t", "deps"], capture_output=True, text=True, check=True)
            self._users = parse_deps(r.stdout, self.build)
            with open(os.path.join(self.build, "compile_commands.json")) as f:
                for e in json.load(f):
                    src = os.path.normpath(os.path.join(e["directory"], e["file"]))
                    out = e.get("output") or re.search(r"\s-o\s+(\S+)", e.get("command", " -o ?")).group(1)
                    obj = os.path.relpath(os.path.normpath(os.path.join(e["directory"], out)), self.build)
                    self._users.setdefault(src, set()).add(obj)
        return self._users

    def artifacts(self, path):
        """Absolute paths of what links the file (relative to src)."""
        if path not in self._artifacts:
            objects = self.users().get(os.path.normpath(os.path.join(self.src, path)), set())
            self._artifacts[path] = sorted(os.path.join(self.build, a)
                                           for a in linked_artifacts(objects, self.query))
        return self._artifacts[path]

    def make(self, artifacts, log):
        """Builds the artifacts; the tree's own directory among them: the
        whole tree (its default target: signed images and the like too)."""
        whole = self.build in artifacts
        targets = [] if whole else [os.path.relpath(a, self.build) for a in artifacts]
        if not targets and not whole:
            return True
        with open(log, "w") as f:
            return subprocess.run(NICE + ["ninja", "-C", self.build, "-j1"] + targets,
                                  stdout=f, stderr=subprocess.STDOUT).returncode == 0


class Worker:
    def __init__(self, index, work, root):
        self.dir = os.path.join(work, "w%d" % index)
        self.src = os.path.join(self.dir, "src")
        self.host = Tree(self.src, os.path.join(self.dir, "build"))
        self.root = root
        self.boards = {}

    def prepare(self, files):
        os.makedirs(self.src, exist_ok=True)
        sync_tree(self.root, self.src, files)
        if not os.path.exists(os.path.join(self.host.build, "build.ninja")):
            subprocess.run(NICE + ["cmake", "-G", "Ninja", "-S", self.src, "-B", self.host.build, "-DFD_BOARD=host",
                                   "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DFD_WITH_BOARDS=ON"],
                           check=True, stdout=subprocess.DEVNULL)
        # CMake rerun now if the synced CMakeLists changed, before the graph
        # is read: a file added since the tree's last build is in no
        # compile database yet, and its mutants would meet no test
        subprocess.run(NICE + ["ninja", "-C", self.host.build, "build.ninja"], check=True, stdout=subprocess.DEVNULL)
        # then every program, unmutated: ctest names a test's program only
        # once it exists (a fresh tree, or a test added since the last
        # build), and a test it does not name is one no mutant meets
        with open(os.path.join(self.dir, "build.log"), "w") as f:
            subprocess.run(NICE + ["ninja", "-C", self.host.build, "-j1"], check=True, stdout=f,
                           stderr=subprocess.STDOUT)

    def tree_for(self, unit):
        b = split_unit(unit)[1]
        if not b:
            return self.host
        if b not in self.boards:
            self.boards[b] = Tree(self.src, os.path.join(self.src, "build", b))
        return self.boards[b]

    def build_baseline(self, paths):
        """Builds the unmutated trees' artifacts for paths (a board's tree
        whole, once, through the host tree's board-<b> target)."""
        log = os.path.join(self.dir, "build.log")
        for b in sorted({split_unit(p)[1] for p in paths} - {None}):
            if not self.host.make([os.path.join(self.host.build, "board-" + b)], log):
                return False
        self.host.make(self.host.artifacts("tools/fairdeal_tool.c"), log)  # the QEMU scripts' tool
        arts = {a for p in paths for a in self.tree_for(p).artifacts(split_unit(p)[0]) if self.tree_for(p) is self.host}
        # and every host program the tests of those files name, unmutated:
        # a test runs some programs a mutant does not change (host.tool.lms
        # runs lms_kat_files beside fairdeal-tool); a worker that lacked one
        # counted the test's failure as a kill
        prefix = self.host.build + os.sep
        for p in paths:
            if self.tree_for(p) is self.host:
                for n in self.tests_for(p, {}, ["stats", "build"]):
                    test = next(t for t in self.tests() if t["name"] == n)
                    arts.update(w for w in test.get("command") or [] if w.startswith(prefix))
        rules = self.host.query(sorted(os.path.relpath(a, self.host.build) for a in arts))
        arts = sorted(a for a in arts if FINAL_RULE.match(rules[os.path.relpath(a, self.host.build)][0]))
        if arts and not self.host.make(arts, log):
            return False
        for p in paths:
            t = self.tree_for(p)
            if t is not self.host and not t.make(self.board_artifacts(p), log):
                return False
        return True

    def board_artifacts(self, path):
        """What of a board tree's programs linking path its tests run: a
        program left out of the board's default build (nomalloc_probe, whose
        test expects its link to fail) is built only by the test that needs
        it, and would fail the unmutated tree's build."""
        tree = self.tree_for(path)
        arts = tree.artifacts(split_unit(path)[0])
        named = {a for n in self.tests_for(path, {}, ["stats", "build"]) for a in self.needs(n, arts, tree)}
        return sorted(named) or arts

    def tests(self):
        if not hasattr(self, "_tests"):
            r = subprocess.run(["ctest", "--test-dir", self.host.build, "--show-only=json-v1"],
                               capture_output=True, text=True, check=True)
            tests = json.loads(r.stdout)["tests"]
            missing = without_program(tests)
            if missing:
                raise RuntimeError("%s: %d tests name no program (not built?): %s"
                                   % (self.host.build, len(missing), " ".join(missing[:5])))
            self._tests = tests
        return self._tests

    def tests_for(self, path, times, skip_labels):
        """The tests a mutant of path meets, in the order they run. A file
        the host reaches leaves out the QEMU suites (label qemu: they run
        the same code on a board and would need its tree built; some name
        the host's fairdeal-tool); a board-only file meets only those."""
        tree = self.tree_for(path)
        skip = list(skip_labels) + (["qemu"] if tree is self.host else [])
        file = split_unit(path)[0]
        names = tests_using(self.tests(), tree.artifacts(file), skip, self.tree_dirs(tree))
        if tree is not self.host and "@" not in path:
            # a board-only file: also the host programs that compile it
            # against fake registers (tests/drivers)
            names += [n for n in tests_using(self.tests(), self.host.artifacts(file), list(skip_labels) + ["qemu"])
                      if n not in names]
        return order_tests(names, file, times)

    def tree_of_test(self, unit, name):
        """The tree whose programs the test name runs for unit's file: the
        host's for a host test of a board-only file, else the unit's."""
        tree = self.tree_for(unit)
        file = split_unit(unit)[0]
        if tree is not self.host and "@" not in unit and self.needs(name, self.host.artifacts(file)):
            return self.host
        return tree

    def tree_dirs(self, tree):
        """The directories a test may name a tree by: a board tree's."""
        return [] if tree is self.host else [tree.build]

    def needs(self, name, artifacts, tree=None):
        """What of artifacts (of tree: the host's by default) the test name
        runs (built just before it)."""
        test = next(t for t in self.tests() if t["name"] == name)
        dirs = self.tree_dirs(tree or self.host)
        named = named_artifacts(test, artifacts, dirs)
        # a test given the tree's directory runs what the tree's default
        # target makes from them (boot.sh: the signed images)
        whole = [d for d in dirs if any(a.startswith(d + os.sep) and not any(a in w for w in test.get("command") or [])
                                        for a in named)]
        return whole + named if whole else named

    def run_test(self, name, timeout):
        """0 pass, 1 fail, 2 timeout."""
        r = subprocess.run(NICE + ["ctest", "--test-dir", self.host.build, "-R", "^%s$" % re.escape(name),
                                   "--timeout", str(int(timeout)), "--no-tests=error"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return 0
        return 2 if "Timeout" in r.stdout else 1


def read_lists(lists):
    out = []
    for lst in lists:
        with open(lst, encoding="utf-8") as f:
            for n, line in enumerate(f.read().splitlines(), 1):
                if not line or line.startswith("#"):
                    continue
                fields = line.split("\t")
                out.append({"list": lst, "lineno": n, "line": line, "file": fields[0],
                            "note": fields[3] if len(fields) > 3 else "", "why": fields[4] if len(fields) > 4 else ""})
    return out


def read_previous(path):
    """{key: (verdict, detail)} and the killers of each file in the last
    results."""
    prev, rows = {}, []
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for row in f.read().splitlines()[1:]:
                c = row.split("\t")
                rows.append(c)
                if len(c) >= 7:
                    prev[c[6]] = (c[3], c[5])
    return prev, killers(rows)


def write_results(path, rows):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("list\tline\tfile\tverdict\tnote\tfailed tests or equivalence\tkey\n")
        for r in sorted(rows, key=lambda r: (r["list"], r["lineno"])):
            f.write("\t".join([r["list"], str(r["lineno"]), r["file"], r["verdict"], r["note"], r["detail"],
                               r["key"]]) + "\n")
    os.replace(path + ".tmp", path)


def log(msg):
    sys.stderr.write("mutation: %s\n" % msg)
    sys.stderr.flush()


def main(argv):
    ap = argparse.ArgumentParser(prog="mutants.py run")
    ap.add_argument("--results", required=True)
    ap.add_argument("--previous")
    ap.add_argument("--keep", choices=["none", "killed", "all"], default="none",
                    help="reuse verdicts of the previous results for unchanged mutants: killed/equivalent, or all")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "mutation"))
    ap.add_argument("--skip-label", action="append", default=None,
                    help="leave out tests with this label (default: stats, the minutes-long statistical runs, "
                         "and build, the checks of other build trees: release images, RAM code, reproducibility)")
    ap.add_argument("lists", nargs="+")
    args = ap.parse_args(argv)
    skip = ["stats", "build"] if args.skip_label is None else args.skip_label
    start = time.time()
    mutants = read_lists(args.lists)
    texts = {}
    for m in mutants:
        if m["file"] not in texts:
            with open(os.path.join(ROOT, m["file"]), "rb") as f:
                texts[m["file"]] = f.read()
        m["key"] = key_of(m["line"], texts[m["file"]])
    prev, killed_by = read_previous(args.previous)
    rows, todo = [], []
    for m in mutants:
        kept = prev.get(m["key"])
        if kept and args.keep != "none" and (args.keep == "all" or kept[0] in ("killed", "equivalent")):
            rows.append(dict(m, verdict=kept[0], detail=kept[1]))
        else:
            todo.append(m)
    log("%d mutants to run, %d verdicts kept" % (len(todo), len(rows)))
    write_results(args.results, rows)
    if not todo:
        return 0
    files = tree_files(ROOT)
    paths = sorted({unit_of(m) for m in todo})
    workers = [Worker(i, args.work, ROOT) for i in range(max(1, args.workers))]
    # worker 0 checks the unmutated tree and times its tests while the
    # others build theirs; a worker starts on mutants when its tree is
    # built and that check is done
    ok = [False] * len(workers)
    ready = threading.Event()
    times = {}
    by_file = {}
    for m in todo:
        by_file.setdefault(unit_of(m), []).append(m)
    jobs = queue.Queue()
    for p in sorted(by_file, key=lambda p: -len(by_file[p])):
        jobs.put(p)
    lock = threading.Lock()
    spent = []

    def check_baseline(w0):
        # the unmutated tree passes every test a mutant will meet; their
        # durations order the tests and set each one's timeout (kept for a
        # tree whose files are as they were then: the same digest)
        baseline = sorted({n for p in paths for n in w0.tests_for(p, {}, skip)})
        digest = tree_digest(ROOT, files)
        times_path = os.path.join(args.work, "times.json")
        if os.path.exists(times_path):
            with open(times_path) as f:
                saved = json.load(f)
            if saved.get("tree") == digest:
                times.update(saved["tests"])
        log("unmutated tree: %d tests (%d passed before), %.0f s to prepare"
            % (len(baseline), len(set(baseline) & set(times)), time.time() - start))
        for name in baseline:
            if name in times:
                continue
            t0 = time.time()
            if w0.run_test(name, 900) != 0:
                log("the unmutated tree fails %s" % name)
                return False
            times[name] = time.time() - t0
            with open(times_path, "w") as f:
                json.dump({"tree": digest, "tests": times}, f, indent=1, sort_keys=True)
        return True

    def work(i):
        w = workers[i]
        w.prepare(files)
        if not w.build_baseline(paths):
            log("the unmutated tree does not build (see %s/build.log)" % w.dir)
            ready.set()
            return
        if i == 0:
            ok[0] = check_baseline(w)
            ready.set()
        ready.wait()
        if not ok[0]:
            return
        ok[i] = True
        while True:
            try:
                unit = jobs.get_nowait()
            except queue.Empty:
                return
            path = split_unit(unit)[0]
            target = os.path.join(w.src, path)
            with open(target, "rb") as f:
                original = f.read()
            tree = w.tree_for(unit)
            arts = tree.artifacts(path)
            if not arts:
                log("%s: nothing links it in %s: its mutants meet no test" % (path, tree.build))
            tests = promote(w.tests_for(unit, times, skip), killed_by.get(path, []))
            for m in by_file[unit]:
                t0 = time.time()
                mutated = apply_line(original.decode("utf-8"), m["line"])
                detail = m["why"]
                if mutated is None:
                    verdict = "bad-anchor"
                else:
                    with open(target, "w", encoding="utf-8") as f:
                        f.write(mutated)
                    # each test's programs are linked just before it runs: a
                    # mutant killed by its first test links only what that
                    # test runs (the mutated file compiles once, at the first)
                    blog = os.path.join(w.dir, "mutant-build.log")
                    verdict = "SURVIVED"
                    for name in tests or [None]:
                        t_tree = w.tree_of_test(unit, name) if name else tree
                        t_arts = arts if t_tree is tree else t_tree.artifacts(path)
                        needed = w.needs(name, t_arts, t_tree) if name else arts
                        if needed and not t_tree.make(needed, blog):
                            verdict = "stillborn"
                            break
                        st = w.run_test(name, max(60, 10 * times.get(name, 60))) if name else 0
                        if st:
                            verdict = "killed"
                            detail = "by %s%s " % (name, "(timeout)" if st == 2 else "")
                            tests = promote(tests, [name])
                            break
                    if verdict == "SURVIVED" and m["why"]:
                        verdict = "equivalent"
                with lock:
                    rows.append(dict(m, verdict=verdict, detail=detail))
                    spent.append(time.time() - t0)
                    write_results(args.results, rows)
                    log("%s:%d %s: %s (%s) %.1f s" % (m["list"], m["lineno"], path, verdict, m["note"],
                                                      time.time() - t0))
            with open(target, "wb") as f:
                f.write(original)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if not ok[0]:
        return 2
    # the trees built as they are unmutated, for whoever looks next
    for w in workers:
        w.build_baseline(paths)
    log("run took %.0f s: %d mutants, %.1f s each on average (%d workers)"
        % (time.time() - start, len(spent), sum(spent) / max(1, len(spent)), len(workers)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
