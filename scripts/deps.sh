#!/bin/sh
# Install the Debian packages fairdeal needs, when missing. As root it runs
# apt-get; otherwise it prints the exact command and fails.
# usage: scripts/deps.sh [run|test|bench|fairness|mutation|flash]
#   flash: the tools for real boards (docs/HARDWARE.md): openocd, st-flash,
#   pyocd, srecord, picocom
set -eu
need="cmake make gcc gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm"
case "${1:-test}" in
  test) need="$need libcmocka-dev python3 clang libclang-rt-14-dev clang-tidy cppcheck dieharder ent rng-tools5 doxygen g++ pkg-config openocd srecord"
        need="$need libbcprov-java openjdk-17-jdk-headless" # Bouncy Castle: the LMS/HSS interop test
        need="$need chromium chromium-driver python3-selenium" # the verification page's browser test
        need="$need python3-cryptography python3-dissononce" ;; # the link's interop tests (tests/link)
  fairness) need="$need libcmocka-dev clang libclang-rt-14-dev dieharder ent rng-tools5 gnuplot-nox" ;;
  bench) need="$need libcmocka-dev g++ valgrind" ;;
  # the host tree as the tests configure it (clang, doxygen) and the tool tests tools/ mutants meet
  mutation) need="$need libcmocka-dev python3 ninja-build clang doxygen g++ pkg-config libbcprov-java openjdk-17-jdk-headless" ;;
  flash) need="$need openocd stlink-tools python3-pyocd srecord picocom" ;;
esac
missing=""
for pkg in $need; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $pkg"
  fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "fairdeal needs these Debian packages:$missing" >&2
  echo "run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
