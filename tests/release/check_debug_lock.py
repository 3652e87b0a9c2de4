#!/usr/bin/env python3
"""A release image carries its debug lock (docs/SECURITY.md "Debug lock").

usage: check_debug_lock.py BOARD RELEASE.elf [DEV.elf]

- the reset handler's first call is fd_debug_lock (before .data, the
  board's start or main);
- nRF boards: the .hex next to the .elf holds the UICR lock word at its
  address (nRF51 UICR.RBPCONF 0x10001004 = 0xFFFF0000, nRF52840
  UICR.APPROTECT 0x10001208 = 0xFFFFFF00), and the .bin does not (it is
  the flash image only);
- a development image (DEV.elf) has neither.
Exit 0: all hold; 1: the first that does not is printed.
"""
import glob
import os
import re
import subprocess
import sys

UICR = {"microbit": (0x10001004, 0xFFFF0000), "nrf52840-dk": (0x10001208, 0xFFFFFF00)}


def fail(why):
    print("check_debug_lock: " + why)
    sys.exit(1)


def disassembly(elf, symbol):
    out = subprocess.run(["arm-none-eabi-objdump", "-d", "--disassemble=" + symbol, elf],
                         check=True, capture_output=True, text=True).stdout
    return out


def first_call(elf):
    for line in disassembly(elf, "fd_reset_handler").splitlines():
        m = re.search(r"\bbl\s+[0-9a-f]+ <([^>]+)>", line)
        if m:
            return m.group(1)
    return None


def hex_bytes(path):
    mem, base = {}, 0
    with open(path) as f:
        for line in f:
            raw = bytes.fromhex(line.strip()[1:])
            n, addr, kind, data = raw[0], int.from_bytes(raw[1:3], "big"), raw[3], raw[4:4 + raw[0]]
            if sum(raw) & 0xFF:
                fail(path + ": bad checksum")
            if kind == 0:
                for i in range(n):
                    mem[base + addr + i] = data[i]
            elif kind == 4:
                base = int.from_bytes(data, "big") << 16
            elif kind == 2:
                base = int.from_bytes(data, "big") << 4
    return mem


def sections(elf):
    return subprocess.run(["arm-none-eabi-objdump", "-h", elf], check=True, capture_output=True, text=True).stdout


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: check_debug_lock.py BOARD RELEASE.elf [DEV.elf]")
    board, elf = sys.argv[1], sys.argv[2]
    call = first_call(elf)
    if call != "fd_debug_lock":
        fail(f"{elf}: the reset handler's first call is {call}, not fd_debug_lock")
    if board in UICR:
        addr, value = UICR[board]
        stem = os.path.dirname(elf) + "/fairdeal-dealer-" + board + "-*"
        hexes, bins = glob.glob(stem + ".hex"), glob.glob(stem + ".bin")
        if len(hexes) != 1 or len(bins) != 1:
            fail(f"{stem}: expected one .hex and one .bin")
        mem = hex_bytes(hexes[0])
        word = bytes(mem.get(addr + i, 0xFF) for i in range(4))
        if int.from_bytes(word, "little") != value:
            fail(f"{hexes[0]}: UICR word at {addr:#x} is {word.hex()}, not {value:#010x}")
        if os.path.getsize(bins[0]) > 16 * 1024 * 1024:
            fail(f"{bins[0]}: holds more than the flash (the UICR word?)")
    if len(sys.argv) == 4:
        dev = sys.argv[3]
        if first_call(dev) == "fd_debug_lock" or ".uicr_lock" in sections(dev):
            fail(f"{dev}: a development image carries the debug lock")
    print(f"check_debug_lock: {board}: {elf} locks the debug port" +
          (f" (UICR {UICR[board][0]:#x} = {UICR[board][1]:#010x} in the .hex)" if board in UICR else
           " (readout protection level 1 at start)"))


main()
