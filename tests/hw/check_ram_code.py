#!/usr/bin/env python3
"""The code that runs while the STM32 flash is busy lies in SRAM and never
reaches into flash (docs/HARDWARE.md "Flash stalls"; RM0090 3.5: every flash
read stalls while it programs or erases).

usage: check_ram_code.py IMAGE.elf RAM_BASE RAM_SIZE FLASH_BASE FLASH_SIZE IRQ FUNCTION...

- each FUNCTION (the USART handler and the flash driver's start-and-wait
  functions) and stm32_ram_vectors, the table VTOR is pointed at, lie in
  RAM; the table is aligned as VTOR requires (Armv7-M ARM B3.2.5: the table
  size rounded up to a power of two, at least 128 bytes);
- the boot table's entry for IRQ (copied to the RAM table) is the first
  FUNCTION, in RAM, with the Thumb bit;
- the disassembly of each FUNCTION branches only inside the FUNCTIONs (no
  call into flash, no veneer, no branch through a register but the return),
  and names no flash address: no literal-pool word, no immediate.
Exit 0: all hold; 1: the first that does not is printed.
"""
import re
import subprocess
import sys


def fail(why):
    print("check_ram_code: " + why)
    sys.exit(1)


def run(*args):
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout


def symbols(elf):
    table = {}
    for line in run("arm-none-eabi-nm", "-S", elf).splitlines():
        parts = line.split()
        if len(parts) == 4:
            table[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return table


def word_at(elf, address):
    dump = run("arm-none-eabi-objdump", "-s", "--start-address=%#x" % address, "--stop-address=%#x" % (address + 4),
               elf)
    for line in dump.splitlines():
        m = re.match(r"^\s*([0-9a-f]{4,8})\s+([0-9a-f]{8})\b", line)
        if m and int(m.group(1), 16) == address:
            return int.from_bytes(bytes.fromhex(m.group(2)), "little")
    fail("no contents at %#x" % address)


def main():
    if len(sys.argv) < 8:
        fail(__doc__)
    elf = sys.argv[1]
    ram_base, ram_size, flash_base, flash_size, irq = (int(a, 0) for a in sys.argv[2:7])
    functions = sys.argv[7:]
    in_ram = lambda a: ram_base <= a < ram_base + ram_size
    in_flash = lambda a: flash_base <= a < flash_base + flash_size
    syms = symbols(elf)

    spans = {}
    for name in functions:
        if name not in syms:
            fail("%s: no such symbol (inlined away or renamed?)" % name)
        start, size = syms[name]
        if not in_ram(start) or not in_ram(start + size - 1):
            fail("%s at %#x is not in RAM" % (name, start))
        spans[name] = (start, start + size)

    if "stm32_ram_vectors" not in syms or "stm32_flash_vectors" not in syms:
        fail("stm32_ram_vectors / stm32_flash_vectors missing")
    table, table_size = syms["stm32_ram_vectors"]
    align = max(128, 1 << (table_size - 1).bit_length())
    if not in_ram(table) or table % align != 0:
        fail("stm32_ram_vectors at %#x: not in RAM or not %d-byte aligned" % (table, align))
    entry = word_at(elf, syms["stm32_flash_vectors"][0] + 4 * (16 + irq))
    if entry != spans[functions[0]][0] | 1:
        fail("vector of IRQ %d is %#x, not %s (%#x) in Thumb state" % (irq, entry, functions[0], spans[functions[0]][0]))

    inside = lambda a: any(lo <= a < hi for lo, hi in spans.values())
    for name in functions:
        lo, hi = spans[name]
        text = run("arm-none-eabi-objdump", "-d", "--start-address=%#x" % lo, "--stop-address=%#x" % hi, elf)
        lines = [l for l in text.splitlines() if re.match(r"^\s*[0-9a-f]+:\t", l)]
        if not lines:
            fail("%s: empty disassembly" % name)
        for line in lines:
            fields = line.split("\t")
            mnemonic = fields[2].strip() if len(fields) > 2 else ""
            operands = fields[3] if len(fields) > 3 else ""
            for number in re.findall(r"0x([0-9a-f]+)|\b([0-9a-f]{8})\b", operands + " " + fields[1]):
                value = int(number[0] or number[1], 16)
                if in_flash(value):
                    fail("%s names a flash address: %s" % (name, line.strip()))
            if re.match(r"^(b|bl|blx|cbz|cbnz)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.[nw])?$",
                        mnemonic):
                m = re.search(r"\b([0-9a-f]+) <", operands)
                if not m:
                    fail("%s branches through a register: %s" % (name, line.strip()))
                if not inside(int(m.group(1), 16)):
                    fail("%s leaves the RAM code: %s" % (name, line.strip()))
            if mnemonic.startswith("bx") or mnemonic.startswith("blx") or mnemonic in ("tbb", "tbh"):
                if operands.strip() != "lr":
                    fail("%s branches through a register: %s" % (name, line.strip()))
    total = sum(hi - lo for lo, hi in spans.values())
    print("ok: %s in RAM (%d bytes of code), vector table at %#x (%d bytes, %d-aligned), no flash address"
          % (", ".join(functions), total, table, table_size, align))


main()
