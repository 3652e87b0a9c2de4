#!/usr/bin/env python3
"""Mutants drawn by rule (docs/RELIABILITY.md, "Mutants drawn by rule").

Derives mutants from C sources by operator class and writes a seeded sample
of them as a mutant list for scripts/mutation.sh (file, anchor, replacement,
note[, why equivalent]; tab-separated, backslash, newline and tab escaped as
\\\\, \\n and \\t). Classes:
  relational  < <= > >= == != swapped at the boundary (< for <=, == for !=, ...)
  logical     && for || and back
  arithmetic  + - * / % & | ^ << >> and their compound assignments swapped
  constant    an integer literal +1 and -1
  condition   an if/while condition negated, or forced true (if only) or false
  delete      a call statement, an assignment, or a status return that is the
              whole body of an if, replaced by (void)0
  ignore      a call whose status is stored or returned: the call is made,
              its status replaced by FD_OK
  literal     a string literal returned (a name) replaced by ""
Skipped, and only these: comments and string literals, preprocessor
directives (a #define's body is mutated, by operator classes only), lines of
an assert (assert, static_assert, _Static_assert), and code under #if 0.
Code under another #if is mutated; its note names the condition.

Every mutant is unique: two rules that give the same mutated file keep one.
Its anchor is the smallest run of whole lines around it that occurs once in
the file. The sample: per file max(5, ceil(logic lines / density)) mutants,
drawn with a generator seeded by the seed and the file's path (a file's
sample changes only when that file changes), classes in turn.

usage:
  scripts/mutants.py [--seed S] [--density D] [--take N] [-o OUT] [FILE...]
  scripts/mutants.py --all FILE       every candidate of FILE, unsampled
  scripts/mutants.py --stats          logic lines, candidates and quota per file
  scripts/mutants.py run [--workers N] ... LIST...   the run (scripts/mutation.sh)
Default FILEs: every .c file the issue names (lib/, firmware/, the verifiers
and fairdeal-tool in tools/, boards/common's UART and storage code).
"""
import argparse
import glob
import math
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_GLOBS = ["lib/src/*.c", "firmware/*.c", "tools/verify*.c", "tools/fairdeal_tool.c", "tools/lms_sign.c",
                 "boards/common/uart/*.c", "boards/host/storage.c",
                 "boards/common/cortex-m/ram_storage.c", "boards/common/nrf5x/nvmc.c"]
# the floor; --density is chosen so that the default files reach it
MIN_PER_FILE = 5
DEFAULT_DENSITY = 22
EQUIVALENTS = os.path.join(ROOT, "tests", "mutation", "equivalent.tsv")

KEYWORDS = {"return", "if", "while", "for", "switch", "case", "sizeof", "do", "else", "goto", "break",
            "continue", "default", "typedef", "static", "const", "struct", "enum", "union", "extern",
            "volatile", "inline", "unsigned", "signed", "void", "char", "short", "int", "long",
            "float", "double", "_Bool", "bool", "_Alignof", "alignof", "_Alignas", "alignas"}
RELATIONAL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGICAL = {"&&": "||", "||": "&&"}
ARITHMETIC = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "&": "|", "|": "&", "^": "&",
              "<<": ">>", ">>": "<<", "+=": "-=", "-=": "+=", "|=": "&=", "&=": "|=", "^=": "|=",
              "<<=": ">>=", ">>=": "<<=", "*=": "/=", "/=": "*="}
TOKEN = re.compile(r"(?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*)(?![\w.])"
                   r"|(?P<id>[A-Za-z_]\w*)"
                   r"|(?P<op><<=|>>=|->|\+\+|--|&&|\|\||<<|>>|<=|>=|==|!=|\+=|-=|\*=|/=|%=|&=|\|=|\^="
                   r"|[-+*/%&|^<>=!~?:;,.(){}\[\]])"
                   r"|(?P<ws>\s+)|(?P<other>.)")
ASSERT = re.compile(r"\b(assert|static_assert|_Static_assert)\s*\(")
STATUS_NAMES = {"st", "status", "rc", "err"}


def mask(text):
    """text with comments, string and character literals' contents blanked
    (same length, newlines kept): what is left is code."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


class Source:
    """One C file: its text, the masked code, which lines may be mutated."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.code = mask(text)
        self.line_starts = [0]
        for m in re.finditer("\n", text):
            self.line_starts.append(m.end())
        lines = self.code.split("\n")
        self.lines = lines
        # per line: None (mutable statement code), "macro" (a #define body:
        # operators only), or why it is skipped
        self.kind = [None] * len(lines)
        self.guard = [""] * len(lines)
        stack = []  # (condition, disabled)
        in_directive = False
        in_assert = 0
        for i, line in enumerate(lines):
            s = line.strip()
            if in_directive:
                self.kind[i] = "macro" if directive_is_define else "directive"
                if directive_is_define:
                    self.guard[i] = " && ".join(entry[0] for entry in stack)
                in_directive = line.rstrip().endswith("\\")
                continue
            if s.startswith("#"):
                d = re.match(r"#\s*(\w+)\s*(.*)", s)
                word, rest = (d.group(1), d.group(2).strip()) if d else ("", "")
                directive_is_define = word == "define"
                in_directive = line.rstrip().endswith("\\")
                self.kind[i] = "directive"
                if word in ("if", "ifdef", "ifndef"):
                    cond = {"ifdef": "defined(%s)" % rest, "ifndef": "!defined(%s)" % rest}.get(word, rest)
                    # [condition, disabled, an earlier branch is known taken]
                    stack.append([cond, cond == "0", cond == "1"])
                elif word == "elif" and stack:
                    taken = stack[-1][2]
                    stack[-1] = [rest, taken or rest == "0", taken or rest == "1"]
                elif word == "else" and stack:
                    stack[-1] = ["!(%s)" % stack[-1][0], stack[-1][2], True]
                elif word == "endif" and stack:
                    stack.pop()
                elif directive_is_define:
                    # the body after the name (and parameters) is code
                    self.kind[i] = "macro"
                    self.guard[i] = " && ".join(entry[0] for entry in stack)
                continue
            if any(entry[1] for entry in stack):
                self.kind[i] = "disabled"
                continue
            self.guard[i] = " && ".join(entry[0] for entry in stack)
            if not s:
                self.kind[i] = "comment" if text_line(text, self.line_starts, i).strip() else "blank"
                continue
            if in_assert or ASSERT.search(line):
                self.kind[i] = "assert"
                in_assert = 0 if s.endswith(";") else 1
                continue

    def logic_lines(self):
        return sum(1 for i, k in enumerate(self.kind)
                   if k is None and re.search(r"\w", self.lines[i]))

    def line_of(self, pos):
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo


def text_line(text, starts, i):
    end = starts[i + 1] - 1 if i + 1 < len(starts) else len(text)
    return text[starts[i]:end]


def tokens(src, i):
    """(kind, text, start offset in the file) of line i's code tokens."""
    base = src.line_starts[i]
    out = []
    for m in TOKEN.finditer(src.lines[i]):
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group(), base + m.start()))
    return out


def is_binary(src, toks, k):
    """The operator token k is binary: a value before it on the line and
    whitespace on both sides (the project's clang-format style writes
    binary operators so, and a pointer's * or an address's & not)."""
    if k == 0:
        return False
    kind, text, pos = toks[k - 1]
    if not (kind == "num" or (kind == "id" and text not in KEYWORDS) or text in (")", "]")):
        return False
    end = toks[k][2] + len(toks[k][1])
    return src.text[toks[k][2] - 1:toks[k][2]].isspace() and src.text[end:end + 1].isspace()


def bump(literal, delta):
    m = re.match(r"(0[xX])?([0-9a-fA-F]+)([uUlL]*)$", literal)
    prefix, digits, suffix = m.groups()
    value = int(digits, 16 if prefix else 10) + delta
    if value < 0:
        return None
    if prefix:
        upper = digits.upper() == digits
        body = "%0*x" % (len(digits), value)
        return prefix + (body.upper() if upper else body) + suffix
    return str(value) + suffix


def matching_paren(code, open_pos):
    depth = 0
    for j in range(open_pos, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def function_headers(src):
    """Per line, the header text of the function the line is in ('' outside)."""
    code = src.code
    headers = [""] * len(src.lines)
    depth, start, header, last = 0, None, "", 0
    for j, c in enumerate(code):
        if c == "{":
            if depth == 0:
                header = code[last:j]
                start = src.line_of(j)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                end = src.line_of(j)
                if "(" in header and "=" not in header.split("(")[0]:
                    for i in range(start, end + 1):
                        headers[i] = " ".join(header.split())
                last = j + 1
        elif c == ";" and depth == 0:
            last = j + 1
        elif c == "\n" and depth == 0 and code[last:j].strip().startswith("#"):
            last = j + 1
    return headers


def candidates(src):
    """Every mutant of src as (class, start, end, replacement, note)."""
    out = []
    headers = function_headers(src)
    for i, kind in enumerate(src.kind):
        if kind not in (None, "macro"):
            continue
        toks = tokens(src, i)
        macro_head = 0
        if kind == "macro" and src.lines[i].lstrip().startswith("#"):
            m = re.match(r"\s*#\s*define\s+\w+(\([^)]*\))?", src.lines[i])
            macro_head = src.line_starts[i] + (m.end() if m else len(src.lines[i]))
        for k, (tk, text, pos) in enumerate(toks):
            if pos < macro_head:
                continue
            if tk == "op" and text in RELATIONAL and is_binary(src, toks, k):
                out.append(("relational", pos, pos + len(text), RELATIONAL[text]))
            elif tk == "op" and text in LOGICAL:
                m = logical_mutant(src, pos, text)
                if m:
                    out.append(m)
            elif tk == "op" and text in ARITHMETIC and (text.endswith("=") or is_binary(src, toks, k)):
                out.append(("arithmetic", pos, pos + len(text), ARITHMETIC[text]))
            elif tk == "num" and not (k > 0 and toks[k - 1][1] == "#"):
                for delta in (1, -1):
                    new = bump(text, delta)
                    if new is not None:
                        out.append(("constant", pos, pos + len(text), new))
        if kind == "macro":
            continue
        # a name returned: the empty string instead
        for m in re.finditer(r'\breturn\s+(")', src.lines[i]):
            start = src.line_starts[i] + m.start(1)
            end = src.code.find('"', start + 1)
            if end > start + 1:
                out.append(("literal", start, end + 1, '""'))
        out.extend(statement_mutants(src, i, toks, headers[i]))
    return out


def logical_mutant(src, pos, op):
    """&& for || (or back) at pos. In a chain of the same operator the
    operands before it are parenthesised ((a && b) || c for the first of
    a || b || c: what the chain meant, and -Wparentheses is quiet); a chain
    outside parentheses or mixing the two operators gives none."""
    code = src.code
    depth, start = 0, -1
    for j in range(pos - 1, -1, -1):
        c = code[j]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                start = j
                break
            depth -= 1
        elif c in ";{}" and depth == 0:
            break
    ops = []
    if start >= 0:
        end = matching_paren(code, start)
        depth = 0
        for j in range(start + 1, end):
            c = code[j]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0 and code[j:j + 2] in ("&&", "||"):
                ops.append(j)
    if len(ops) <= 1:
        if start < 0 and re.search(r"&&|\|\|", code[src.line_starts[src.line_of(pos)]:pos] +
                                   code[pos + 2:statement_end_any(code, pos)]):
            return None
        return ("logical", pos, pos + 2, LOGICAL[op])
    if any(code[j:j + 2] != op for j in ops):
        return None
    k = ops.index(pos)
    first = start + 1 + len(code[start + 1:]) - len(code[start + 1:].lstrip())
    right_end = ops[k + 1] if k + 1 < len(ops) else end
    while code[right_end - 1].isspace():
        right_end -= 1
    left = src.text[first:pos]
    if k > 0:
        left = "(" + left.rstrip() + ") "
    return ("logical", first, right_end, "(" + left + LOGICAL[op] + src.text[pos + 2:right_end] + ")")


def statement_end_any(code, pos):
    j = code.find(";", pos)
    return len(code) if j < 0 else j


def statement_mutants(src, i, toks, header):
    code, out = src.code, []
    if not toks:
        return out
    first = toks[0]
    line_code = src.lines[i].strip()
    # conditions of if / while (the whole parenthesised condition)
    for k, (tk, text, pos) in enumerate(toks):
        if tk == "id" and text in ("if", "while") and k + 1 < len(toks) and toks[k + 1][1] == "(":
            open_pos = toks[k + 1][2]
            close = matching_paren(code, open_pos)
            if close < 0 or any(src.kind[j] is not None for j in range(i, src.line_of(close) + 1)):
                continue
            cond = src.text[open_pos + 1:close]
            # a lone == or != negated is the relational class's mutant again
            if not re.fullmatch(r"[^<>=!&|?]*(==|!=)[^<>=!&|?]*", code[open_pos + 1:close]):
                out.append(("condition", open_pos + 1, close, "!(%s)" % cond))
            if text == "if":
                out.append(("condition", open_pos + 1, close, "1"))
            out.append(("condition", open_pos + 1, close, "0"))
    if first[0] != "id" or first[1] in KEYWORDS - {"return"}:
        return out
    end = statement_end(src, first[2])
    if end < 0:
        return out
    stmt = code[first[2]:end + 1]
    flat = " ".join(stmt.split())
    call = re.match(r"[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*\s*\(", flat)
    if first[1] == "return":
        # a status return that ends an if's (or else's) body
        opener = enclosing_block(src, first[2])
        if (re.match(r"(\}\s*else\s+)?if\b|\}?\s*else\b", opener) and neighbour_code(src, i, 1).startswith("}")
                and re.match(r"return\s+FD_\w+\s*;$|return\s+(st|status|rc|err)\s*;$", flat)):
            out.append(("delete", first[2], end + 1, "(void)0;"))
        rest = flat[len("return"):].strip()
        m = re.match(r"[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*\s*\(", rest)
        if m and re.search(r"\bfd_status\b", header.split("(")[0]) and rest.startswith(m.group(0)):
            expr_start = code.index(rest[:1], first[2] + len("return"))
            close = matching_paren(code, code.index("(", expr_start))
            if close == end - 1:
                expr = src.text[expr_start:close + 1]
                out.append(("ignore", expr_start, close + 1, "((void)%s, FD_OK)" % expr))
        return out
    if call and flat.endswith(");") and matching_paren(code, code.index("(", first[2])) == end - 1:
        out.append(("delete", first[2], end + 1, "(void)0;"))
        return out
    assign = re.match(r"((const\s+)?fd_status\s+)?([\w>\-.\[\]*]+)\s*(=|\+=|-=|\|=|&=|\^=)\s*(?!=)", flat)
    if assign and flat.count(";") == 1:
        name = assign.group(3)
        declared = assign.group(1) is not None
        if not declared and not re.match(r"(fd_|uint|int|size_t|bool|const|static)", flat):
            out.append(("delete", first[2], end + 1, "(void)0;"))
        rhs = flat[assign.end():]
        m = re.match(r"[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*)*\s*\(", rhs)
        if m and (declared or name in STATUS_NAMES) and assign.group(4) == "=":
            eq = code.index("=", first[2])
            expr_start = eq + 1 + len(code[eq + 1:]) - len(code[eq + 1:].lstrip())
            close = matching_paren(code, code.index("(", expr_start))
            if close == end - 1:
                expr = src.text[expr_start:close + 1]
                out.append(("ignore", expr_start, close + 1, "((void)%s, FD_OK)" % expr))
    return out


def statement_end(src, start):
    """Offset of the ; that ends the statement starting at start, -1 when a
    brace or a skipped line comes first."""
    depth = 0
    for j in range(start, len(src.code)):
        c = src.code[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "{}":
            return -1
        elif c == ";" and depth == 0:
            return j if src.kind[src.line_of(j)] is None else -1
    return -1


def enclosing_block(src, pos):
    """The code line that opens the block pos is in ('' at file level)."""
    depth = 0
    for j in range(pos - 1, -1, -1):
        c = src.code[j]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                return src.lines[src.line_of(j)].strip()
            depth -= 1
    return ""


def neighbour_code(src, i, step):
    j = i + step
    while 0 <= j < len(src.lines) and not src.lines[j].strip():
        j += step
    return src.lines[j].strip() if 0 <= j < len(src.lines) else ""


def materialise(src, raw):
    """Unique mutants with their anchors: (class, line, anchor, replacement, note)."""
    seen, out = {src.text}, []
    for cls, s, e, repl in sorted(raw, key=lambda m: (m[1], m[2], m[0], m[3])):
        mutated = src.text[:s] + repl + src.text[e:]
        if mutated in seen:
            continue
        seen.add(mutated)
        first, last = src.line_of(s), src.line_of(max(s, e - 1))
        a, b = first, last
        while True:
            lo = src.line_starts[a]
            hi = src.line_starts[b + 1] - 1 if b + 1 < len(src.line_starts) else len(src.text)
            anchor = src.text[lo:hi]
            if src.text.count(anchor) == 1 or (a == 0 and b == len(src.line_starts) - 1):
                break
            if (b - last) >= (first - a) and a > 0 or b == len(src.line_starts) - 1:
                a -= 1
            else:
                b += 1
        replacement = src.text[lo:s] + repl + src.text[e:hi]
        old = " ".join(src.text[s:e].split())
        new = " ".join(repl.split())
        if len(old) > 60:
            old = old[:57] + "..."
        if len(new) > 60:
            new = new[:57] + "..."
        guard = src.guard[first]
        note = "%s, line %d: %s -> %s%s" % (cls, first + 1, old, new, " (under #if %s)" % guard if guard else "")
        out.append((cls, first + 1, anchor, replacement, note))
    return out


def escape(s):
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def load(path):
    with open(os.path.join(ROOT, path) if not os.path.isabs(path) else path, encoding="utf-8") as f:
        return Source(path, f.read())


def mutants_of(path):
    src = load(path)
    return src, materialise(src, candidates(src))


def quota(src, density):
    return max(MIN_PER_FILE, math.ceil(src.logic_lines() / density))


def sample_file(path, mutants, count, seed):
    """count mutants of one file: classes in turn (in a seeded order), each
    class's mutants in a seeded order; the generator is seeded by the seed
    and the path only."""
    rng = random.Random("%s/%s" % (seed, path))
    by_class = {}
    for m in mutants:
        by_class.setdefault(m[0], []).append(m)
    order = sorted(by_class)
    rng.shuffle(order)
    for cls in order:
        rng.shuffle(by_class[cls])
    picked = []
    while len(picked) < count and any(by_class.values()):
        for cls in order:
            if by_class[cls] and len(picked) < count:
                picked.append(by_class[cls].pop())
    return picked


def default_files():
    files = []
    for pattern in DEFAULT_GLOBS:
        files.extend(sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern))))
    return files


def equivalents():
    """(file, anchor, replacement) -> why, from tests/mutation/equivalent.tsv."""
    out = {}
    if os.path.exists(EQUIVALENTS):
        with open(EQUIVALENTS, encoding="utf-8") as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    fields = line.rstrip("\n").split("\t")
                    out[tuple(fields[:3])] = fields[3]
    return out


def draw(files, seed, density, take=None):
    """The sample: list of (path, mutant), files in a seeded order when take
    cuts it short (round robin over files, so a prefix is spread over them)."""
    per_file = []
    for path in files:
        src, mutants = mutants_of(path)
        per_file.append((path, sample_file(path, mutants, quota(src, density), seed)))
    if take is None:
        return [(p, m) for p, ms in per_file for m in ms]
    rng = random.Random("%s/files" % seed)
    rng.shuffle(per_file)
    out, k = [], 0
    while len(out) < take and any(k < len(ms) for _, ms in per_file):
        for p, ms in per_file:
            if k < len(ms) and len(out) < take:
                out.append((p, ms[k]))
        k += 1
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", default="34")
    ap.add_argument("--density", type=float, default=DEFAULT_DENSITY,
                    help="lines of logic per mutant (default %d)" % DEFAULT_DENSITY)
    ap.add_argument("--take", type=int, help="only N mutants, spread over the files (a prefix of the sample)")
    ap.add_argument("--all", action="store_true", help="every candidate, unsampled")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("-o", "--output")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args(argv)
    files = args.files or default_files()
    if args.stats:
        total_logic = total = 0
        for path in files:
            src, mutants = mutants_of(path)
            q = quota(src, args.density)
            total_logic += src.logic_lines()
            total += min(q, len(mutants))
            print("%-40s %5d logic lines %5d candidates %3d in the sample" % (path, src.logic_lines(), len(mutants), min(q, len(mutants))))
        print("%-40s %5d logic lines %5s            %3d in the sample" % ("all", total_logic, "", total))
        return 0
    if args.all:
        chosen = [(p, m) for p in files for m in mutants_of(p)[1]]
    else:
        chosen = draw(files, args.seed, args.density, args.take)
    known = equivalents()
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    out.write("# generated by scripts/mutants.py: seed %s, density %g%s, %d mutants\n"
              % (args.seed, args.density, ", first %d" % args.take if args.take else "", len(chosen)))
    for path, (cls, line, anchor, repl, note) in chosen:
        fields = [path, escape(anchor), escape(repl), note]
        why = known.get((path, fields[1], fields[2]))
        if why:
            fields.append(why)
        out.write("\t".join(fields) + "\n")
    if out is not sys.stdout:
        out.close()
    if not args.files and not args.all and args.take is None and len(chosen) < 300:
        sys.stderr.write("mutants: only %d mutants: lower --density\n" % len(chosen))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        import mutation_run
        sys.exit(mutation_run.main(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
