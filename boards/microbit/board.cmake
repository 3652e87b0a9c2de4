# BBC micro:bit v1: nRF51822 (Cortex-M0, 256 KiB flash, 16 KiB RAM).
# Runs in qemu-system-arm -M microbit.
set(FD_BOARD_KIND qemu)
set(FD_QEMU_MACHINE microbit)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
# Assessed min-entropy per raw 8-bit sample of the nRF51 RNG with bias
# correction (DERCEN) on. Nordic documents the source as thermal noise with
# the bias removed but publishes no SP 800-90B assessment, so we claim 2
# bits per byte (a quarter of the nominal 8): health-test cutoffs RCT 11,
# APT 177/512, and 160 raw bytes condition into one 256-bit seed.
set(FD_TRNG_H_BITS 2)
include(${CMAKE_SOURCE_DIR}/cmake/cortex-m.cmake)
