# Sourced by the QEMU test scripts: fd_board_env IMAGE reads the qemu.env
# of the build tree that holds IMAGE (the nearest directory above it with
# one, written from boards/<b>/board.cmake), setting FD_QEMU_MACHINE and
# FD_QEMU_FLAGS, so every QEMU a test starts runs with its board's flags
# (the micro:bit's -icount among them: docs/HARDWARE.md "Under QEMU").
# Fails (exit 2) when no such file exists.
fd_board_env() {
  fd_env_dir=$(dirname "$1")
  while [ "$fd_env_dir" != "/" ] && [ "$fd_env_dir" != "." ] && [ ! -f "$fd_env_dir/qemu.env" ]; do
    fd_env_dir=$(dirname "$fd_env_dir")
  done
  [ -f "$fd_env_dir/qemu.env" ] || { echo "$(basename "$0"): no qemu.env in the build tree of $1" >&2; exit 2; }
  . "$fd_env_dir/qemu.env"
}
