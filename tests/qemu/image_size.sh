#!/bin/sh
# Print a firmware image's flash and RAM use (arm-none-eabi-size, Berkeley
# format: flash = text + data, static RAM = data + bss); fail if it is missing
# or not an ARM ELF.
# usage: image_size.sh IMAGE.elf
set -eu
image=$1
[ -f "$image" ] || { echo "missing image $image"; exit 1; }
arm-none-eabi-readelf -h "$image" | grep -q 'Machine:.*ARM' || { echo "$image is not an ARM ELF"; exit 1; }
arm-none-eabi-size "$image" | awk 'NR == 2 { printf "%s: flash %d B (text %d + data %d), static RAM %d B (data %d + bss %d)\n", $6, $1 + $2, $1, $2, $2 + $3, $2, $3 }'
