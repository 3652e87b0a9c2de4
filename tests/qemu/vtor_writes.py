#!/usr/bin/env python3
"""Stores to VTOR (0xE000ED08) in an ARM ELF, found statically.

usage: vtor_writes.py IMAGE.elf   prints each store and exits 1 if there is one

Walks arm-none-eabi-objdump's disassembly function by function, tracking
the registers whose value is a constant (pc-relative literal loads, mov/movs
immediates, adds/subs/lsls of a known value), and resolves every store
(str/strh/strb, str.w, stm) through a known base plus its immediate offset.
A store through a known base in the System Control Block with a register
offset (address unknown) counts as a VTOR store too. Conservative for the
code GCC emits; it is the static half of "the Cortex-M0 bootloader never
writes VTOR" (docs/SECURITY.md "Boot"), the other half being that the source
has no VTOR access on v6-M at all.
"""
import re
import subprocess
import sys

VTOR = 0xE000ED08
SCB = (0xE000ED00, 0xE000ED8F)

out = subprocess.run(["arm-none-eabi-objdump", "-d", sys.argv[1]], check=True, capture_output=True,
                     text=True).stdout
words = {}
for m in re.finditer(r"^\s*([0-9a-f]+):\s+([0-9a-f]{8})\s+\.word\s+0x([0-9a-f]+)", out, re.M):
    words[int(m.group(1), 16)] = int(m.group(3), 16)

found = []
regs = {}
func = "?"
for line in out.splitlines():
    m = re.match(r"^[0-9a-f]+ <([^>]+)>:", line)
    if m:
        func, regs = m.group(1), {}
        continue
    m = re.match(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{4} ?){1,2}\s+(\S+)\s*(.*)$", line)
    if not m:
        continue
    addr, op, args = int(m.group(1), 16), m.group(2), m.group(3)
    if op.startswith("."):
        continue
    a = [x.strip() for x in re.split(r",(?![^\[]*\])", args.split("@")[0])]
    dst = a[0] if a else ""
    lit = re.search(r"@ \(([0-9a-f]+) <", args)
    if op.startswith("ldr") and lit and "[pc" in args:
        regs[dst] = words.get(int(lit.group(1), 16))
        continue
    imm = re.match(r"#(-?\d+)", a[-1]) if len(a) > 1 else None
    if op in ("mov", "movs", "mov.w", "movw") and imm and len(a) == 2:
        regs[dst] = int(imm.group(1)) & 0xFFFFFFFF
        continue
    if op in ("movt",) and imm and regs.get(dst) is not None:
        regs[dst] = (regs[dst] & 0xFFFF) | (int(imm.group(1)) << 16)
        continue
    if op in ("adds", "add", "add.w", "subs", "sub", "sub.w", "lsls", "lsl", "lsls.w") and imm:
        src = a[1] if len(a) == 3 else dst
        v = regs.get(src)
        if v is not None:
            k = int(imm.group(1))
            v = v + k if op.startswith("add") else v - k if op.startswith("sub") else v << k
            regs[dst] = v & 0xFFFFFFFF
        else:
            regs[dst] = None
        continue
    if op.startswith("str") or op.startswith("stm"):
        mem = re.search(r"\[(\w+)(?:,\s*(#-?\d+|\w+))?", args)
        if op.startswith("stm"):
            base, off = a[0].rstrip("!"), "#0"
        elif mem:
            base, off = mem.group(1), mem.group(2) or "#0"
        else:
            continue
        b = regs.get(base)
        if b is None:
            continue
        if off.startswith("#"):
            target = (b + int(off[1:])) & 0xFFFFFFFF
            if target & ~3 == VTOR or (op.startswith("stm") and VTOR - 64 <= b <= VTOR):
                found.append(f"{addr:#x} <{func}>: {op} {args.strip()} -> {target:#010x}")
        elif SCB[0] <= b <= SCB[1]:
            found.append(f"{addr:#x} <{func}>: {op} {args.strip()} -> {b:#010x} + register")
        continue
    if op.startswith(("b", "cb", "pop", "bl")) or op in ("bx", "blx"):
        if op.startswith("bl") or op.startswith("pop"):
            regs = {}  # a call or return clobbers
        continue
    if dst in regs:
        regs[dst] = None  # any other write to a tracked register: unknown

for f in found:
    print("VTOR store: " + f)
sys.exit(1 if found else 0)
