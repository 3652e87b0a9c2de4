# Arm MPS2 with AN386 (Cortex-M4). Runs in qemu-system-arm -M mps2-an386.
# EMULATION ONLY: the board has no TRNG; entropy is the host's /dev/urandom
# read through semihosting, which a real board cannot do. A release build
# is refused so this can never ship.
if(FD_RELEASE)
  message(FATAL_ERROR "mps2-an386 is emulation-only (host entropy via semihosting): "
    "it has no hardware TRNG and must never be built for release.")
endif()
set(FD_BOARD_KIND qemu)
set(FD_QEMU_MACHINE mps2-an386)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=soft)
# /dev/urandom is a conditioned CSPRNG stream; as on the host we claim 4
# bits per byte to keep health-test false alarms near 2^-40 per sample.
set(FD_TRNG_H_BITS 4)
include(${CMAKE_SOURCE_DIR}/cmake/cortex-m.cmake)
