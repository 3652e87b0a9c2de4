#!/bin/sh
# The flash and console targets of one real board, without hardware: the
# exact command each flash method would run (through the build's flash
# target for the default method, through scripts/flash.sh for the others),
# the board's openocd configuration parses, and the failures a user meets
# first give a clear message: no MICROBIT drive, tool missing, no probe
# attached (a stand-in openocd that fails as the real one does).
# usage: flash_dry_run.sh BOARD BUILD_DIR STEM
set -eu
here=$(cd "$(dirname "$0")" && pwd)
flash=$here/../../scripts/flash.sh
console=$here/../../scripts/console.sh
board=$1
bindir=$(cd "$2" && pwd)
stem=$3
elf=$bindir/firmware/$stem.elf
hex=$bindir/firmware/$stem.hex
bin=$bindir/firmware/$stem.bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

expect_line() { # name, expected line, output file
  if grep -qxF -- "$2" "$3"; then
    echo "ok   $1"
  else
    echo "FAIL $1: expected the line"; echo "       $2"; echo "     got:"; sed 's/^/       /' "$3"
    fails=$((fails + 1))
  fi
}

expect_status() { # name, expected status, actual status
  if [ "$2" -eq "$3" ]; then echo "ok   $1 (exit $3)"; else echo "FAIL $1: exit $3, expected $2"; fails=$((fails + 1)); fi
}

# 1. the build's flash target, default method, dry run
mkdir "$work/MICROBIT"
rc=0
FD_FLASH_DRY_RUN=1 FD_MICROBIT_DRIVE=$work/MICROBIT cmake --build "$bindir" --target flash >"$work/target" 2>&1 || rc=$?
expect_status "cmake --build --target flash (dry run)" 0 "$rc"
case "$board" in
  microbit) expect_line "flash target: copy to the MICROBIT drive" "flash: dry run: cp $hex $work/MICROBIT/" "$work/target" ;;
  stm32f407-discovery) expect_line "flash target: openocd over ST-LINK" \
    "flash: dry run: openocd -f board/stm32f4discovery.cfg -c 'program $elf verify reset exit'" "$work/target" ;;
  nrf52840-dk) expect_line "flash target: openocd over J-Link" \
    "flash: dry run: openocd -f interface/jlink.cfg -c 'transport select swd' -f target/nrf52.cfg -c 'program $hex verify reset exit'" "$work/target" ;;
esac

# 2. every other method of the board
dry() { "$flash" --dry-run --probe "$1" "$board" "$elf" >"$work/out" 2>&1 || true; }
case "$board" in
  microbit)
    dry pyocd
    expect_line "probe pyocd" "flash: dry run: pyocd-flashtool --target nrf51 $hex" "$work/out"
    dry openocd
    expect_line "probe openocd" \
      "flash: dry run: openocd -f interface/cmsis-dap.cfg -c 'transport select swd' -f target/nrf51.cfg -c 'program $hex verify reset exit'" "$work/out"
    rc=0
    FD_MICROBIT_DRIVE=$work/absent "$flash" --probe drive "$board" "$elf" >"$work/out" 2>&1 || rc=$?
    expect_status "no MICROBIT drive refused" 2 "$rc"
    expect_line "no MICROBIT drive message" \
      "flash: no MICROBIT drive mounted: plug the micro:bit in over USB (it mounts as MICROBIT), set FD_MICROBIT_DRIVE, or use -DFD_FLASH_PROBE=pyocd|openocd" "$work/out" ;;
  stm32f407-discovery)
    dry st-flash
    expect_line "probe st-flash" "flash: dry run: st-flash --reset write $bin 0x08000000" "$work/out" ;;
esac
rc=0
"$flash" --dry-run --probe nonsense "$board" "$elf" >"$work/out" 2>&1 || rc=$?
expect_status "unknown probe refused" 2 "$rc"

# 3. the openocd configuration parses (openocd stops before opening the adapter)
rc=0
"$flash" --check "$board" >"$work/out" 2>&1 || rc=$?
expect_status "openocd configuration parses" 0 "$rc"

# 4. tool missing: a PATH with the basic tools but no openocd
mkdir "$work/bin"
for tool in sh dirname basename id sync cp cat; do ln -s "$(command -v "$tool")" "$work/bin/$tool"; done
rc=0
PATH=$work/bin "$flash" --probe openocd "$board" "$elf" >"$work/out" 2>&1 || rc=$?
expect_status "missing openocd refused" 2 "$rc"
expect_line "missing openocd message" "flash: openocd not found: run scripts/deps.sh flash (Debian package openocd)" "$work/out"

# 5. no probe attached: an openocd that fails the way the real one does
cat >"$work/bin/openocd" <<'STUB'
#!/bin/sh
echo "Error: open failed" >&2
exit 1
STUB
chmod +x "$work/bin/openocd"
rc=0
PATH=$work/bin "$flash" --probe openocd "$board" "$elf" >"$work/out" 2>&1 || rc=$?
expect_status "no probe: openocd's failure passed on" 1 "$rc"
expect_line "no probe message" \
  "flash: openocd failed (exit 1): is the $board plugged in over USB, powered, and its probe free (no other debugger attached)? Probe: openocd." "$work/out"

# 6. the console target, dry run, at 115200 8N1
rc=0
FD_CONSOLE_PORT=/dev/ttyTEST FD_FLASH_DRY_RUN=1 cmake --build "$bindir" --target console >"$work/out" 2>&1 || rc=$?
expect_status "cmake --build --target console (dry run)" 0 "$rc"
expect_line "console settings" \
  "console: dry run: picocom --baud 115200 --databits 8 --parity n --stopbits 1 --flow n /dev/ttyTEST" "$work/out"

[ "$fails" -eq 0 ] && echo "PASS: $board flash and console targets" || { echo "FAIL: $fails check(s)"; exit 1; }
