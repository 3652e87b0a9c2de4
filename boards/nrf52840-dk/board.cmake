# Nordic nRF52840-DK: nRF52840 (Cortex-M4F, 1 MiB flash, 256 KiB RAM).
# Builds only.
set(FD_BOARD_KIND hardware)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
add_compile_definitions(FD_HAS_FPU=1)
# Assessed min-entropy per raw 8-bit sample of the nRF52840 RNG with bias
# correction on: same thermal-noise design as the nRF51 and, like it, no
# published SP 800-90B assessment, so we claim 2 bits per byte.
set(FD_TRNG_H_BITS 2)
include(${CMAKE_SOURCE_DIR}/cmake/cortex-m.cmake)
