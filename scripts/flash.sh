#!/bin/sh
# Put an image on a real board, printing the exact command first.
# usage: scripts/flash.sh [--dry-run] [--probe P] BOARD IMAGE.elf
#        scripts/flash.sh --check [--probe P] BOARD   (tool present, openocd
#                         configuration parses; touches no hardware)
# IMAGE.elf's .hex and .bin siblings (cmake/artifacts.cmake) are used where
# the tool wants them. Probes (empty: the board's default, first listed):
#   microbit             drive (copy the .hex to the mounted MICROBIT USB
#                        drive; FD_MICROBIT_DRIVE overrides the search), else
#                        pyocd (Debian's pyocd 0.13: pyocd-flashtool), else
#                        openocd (both CMSIS-DAP over the DAPLink)
#   stm32f407-discovery  openocd (on-board ST-LINK), st-flash
#   nrf52840-dk          openocd (on-board J-Link; Debian's pyocd has none)
# Env FD_FLASH_DRY_RUN=1 is the same as --dry-run. Exit 2: tool or drive
# missing (scripts/deps.sh flash installs the tools); else the tool's status.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dry=${FD_FLASH_DRY_RUN:-0}
[ "$dry" = "0" ] || [ "$dry" = "OFF" ] || [ "$dry" = "" ] && dry=0 || dry=1
check=0
probe=
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1; shift ;;
    --check) check=1; shift ;;
    --probe) probe=$2; shift 2 ;;
    *) break ;;
  esac
done
board=${1:?usage: flash.sh [--dry-run] [--probe P] BOARD IMAGE.elf}
elf=${2:-}
if [ "$check" -eq 0 ]; then
  [ -n "$elf" ] || { echo "usage: flash.sh [--dry-run] [--probe P] BOARD IMAGE.elf" >&2; exit 64; }
  [ -f "$elf" ] || { echo "flash: no image $elf (build it first)" >&2; exit 2; }
fi
hex=${elf%.elf}.hex
bin=${elf%.elf}.bin

# The arguments as a shell would need them typed (quotes around spaces).
shell_words() {
  for arg in "$@"; do
    case "$arg" in
      *" "*) printf " '%s'" "$arg" ;;
      *) printf " %s" "$arg" ;;
    esac
  done
}

microbit_drive() {
  if [ -n "${FD_MICROBIT_DRIVE:-}" ]; then
    [ -d "$FD_MICROBIT_DRIVE" ] && echo "$FD_MICROBIT_DRIVE"
    return 0
  fi
  for d in /media/*/MICROBIT /run/media/*/MICROBIT /media/MICROBIT /mnt/MICROBIT; do
    [ -d "$d" ] && { echo "$d"; return 0; }
  done
  return 0
}

# The openocd configuration of each board: interface, transport, target.
openocd_config() {
  case "$1" in
    microbit) echo "-f interface/cmsis-dap.cfg -c 'transport select swd' -f target/nrf51.cfg" ;;
    stm32f407-discovery) echo "-f board/stm32f4discovery.cfg" ;;
    nrf52840-dk) echo "-f interface/jlink.cfg -c 'transport select swd' -f target/nrf52.cfg" ;;
  esac
}

case "$board" in
  microbit) probes="drive pyocd openocd" ;;
  stm32f407-discovery) probes="openocd st-flash" ;;
  nrf52840-dk) probes="openocd" ;;
  *) echo "flash: $board has no flash method (real boards: microbit, stm32f407-discovery, nrf52840-dk)" >&2
     exit 2 ;;
esac
if [ -z "$probe" ] && [ "$check" -eq 1 ]; then
  probe=openocd # every real board has an openocd route: check its configuration
elif [ -z "$probe" ]; then
  probe=${probes%% *}
  if [ "$board" = microbit ] && [ -z "$(microbit_drive)" ]; then
    probe=pyocd
    command -v pyocd-flashtool >/dev/null 2>&1 || probe=openocd
  fi
fi
case " $probes " in
  *" $probe "*) ;;
  *) echo "flash: probe '$probe' not supported for $board (use one of: $probes)" >&2; exit 2 ;;
esac

case "$probe" in
  drive) tool=cp; package=coreutils ;;
  pyocd) tool=pyocd-flashtool; package=python3-pyocd ;;
  openocd) tool=openocd; package=openocd ;;
  st-flash) tool=st-flash; package=stlink-tools ;;
esac

if [ "$check" -eq 1 ]; then
  command -v "$tool" >/dev/null 2>&1 || { echo "flash: $tool not found: run scripts/deps.sh flash (Debian package $package)" >&2; exit 2; }
  if [ "$probe" = openocd ]; then
    # parse the configuration and stop before init: no adapter is opened
    eval "set -- openocd $(openocd_config "$board") -c shutdown"
    shift
    echo "flash: checking: openocd$(shell_words "$@")"
    openocd "$@" >/dev/null 2>&1 || { echo "flash: openocd configuration for $board does not parse" >&2; openocd "$@" || true; exit 1; }
  fi
  echo "flash: $board via $probe: ok"
  exit 0
fi

case "$probe" in
  drive)
    drive=$(microbit_drive)
    if [ -z "$drive" ]; then
      echo "flash: no MICROBIT drive mounted: plug the micro:bit in over USB (it mounts as MICROBIT), set FD_MICROBIT_DRIVE, or use -DFD_FLASH_PROBE=pyocd|openocd" >&2
      [ "$dry" -eq 1 ] || exit 2
      drive=/media/$(id -un)/MICROBIT
    fi
    set -- cp "$hex" "$drive/" ;;
  pyocd) set -- pyocd-flashtool --target nrf51 "$hex" ;;
  openocd)
    image=$hex
    [ "$board" = stm32f407-discovery ] && image=$elf
    eval "set -- openocd $(openocd_config "$board") -c \"program \$image verify reset exit\"" ;;
  st-flash) set -- st-flash --reset write "$bin" 0x08000000 ;;
esac

quoted=$(shell_words "$@")
if [ "$dry" -eq 1 ]; then
  echo "flash: dry run:$quoted"
  exit 0
fi
command -v "$1" >/dev/null 2>&1 || { echo "flash: $1 not found: run scripts/deps.sh flash (Debian package $package)" >&2; exit 2; }
echo "flash: running:$quoted"
rc=0
"$@" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "flash: $1 failed (exit $rc): is the $board plugged in over USB, powered, and its probe free (no other debugger attached)? Probe: $probe." >&2
  exit "$rc"
fi
[ "$probe" = drive ] && sync
echo "flash: done: $(basename "$hex") on $board"
