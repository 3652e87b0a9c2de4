#!/bin/sh
# Open a board's console: 115200 baud, 8 data bits, no parity, 1 stop bit,
# no flow control. Prints the exact command first.
# usage: scripts/console.sh [--dry-run] BOARD [PORT]
# PORT defaults to FD_CONSOLE_PORT, else the board's USB serial device under
# /dev/serial/by-id: the micro:bit's DAPLink, the nRF52840-DK's J-Link
# (VCOM0), the USB-serial adapter wired to the STM32F4DISCOVERY's PA2/PA3.
# Uses picocom (scripts/deps.sh flash installs it); without it, stty + cat
# (receive only). Quit picocom with Ctrl-A Ctrl-X.
set -eu
dry=${FD_FLASH_DRY_RUN:-0}
[ "$dry" = "0" ] || [ "$dry" = "OFF" ] || [ "$dry" = "" ] && dry=0 || dry=1
if [ "${1:-}" = "--dry-run" ]; then dry=1; shift; fi
board=${1:?usage: console.sh [--dry-run] BOARD [PORT]}
port=${2:-${FD_CONSOLE_PORT:-}}
case "$board" in
  microbit) pattern='*DAPLink*|*CMSIS-DAP*|*mbed*|*MBED*|*micro*bit*' ;;
  nrf52840-dk) pattern='*SEGGER_J-Link*-if00' ;;
  stm32f407-discovery) pattern='*FTDI*|*Prolific*|*CP210*|*CH340*|*UART*|*Serial*' ;;
  *) echo "console: $board has no serial port (QEMU boards: scripts/run.sh)" >&2; exit 2 ;;
esac
if [ -z "$port" ]; then
  for dev in /dev/serial/by-id/*; do
    [ -e "$dev" ] || continue
    # shellcheck disable=SC2254
    case "$(basename "$dev")" in
      $pattern) port=$dev; break ;;
    esac
  done
fi
if [ -z "$port" ]; then
  echo "console: no serial port found for $board: plug it in over USB, or give the port (FD_CONSOLE_PORT or the second argument)" >&2
  [ "$dry" -eq 1 ] || exit 2
  port=/dev/ttyACM0
fi
if command -v picocom >/dev/null 2>&1 || [ "$dry" -eq 1 ]; then
  # Enter sends CR, which the dealer reads as end of line and echoes as CR LF
  set -- picocom --baud 115200 --databits 8 --parity n --stopbits 1 --flow n "$port"
else
  echo "console: picocom not found (scripts/deps.sh flash installs it): receiving only, with stty + cat" >&2
  set -- sh -c "stty -F '$port' 115200 cs8 -parenb -cstopb -crtscts raw -echo && exec cat '$port'"
fi
if [ "$dry" -eq 1 ]; then
  echo "console: dry run: $*"
  exit 0
fi
echo "console: running: $*"
exec "$@"
