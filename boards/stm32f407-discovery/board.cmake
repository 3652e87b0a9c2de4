# STM32F4DISCOVERY: STM32F407VG (Cortex-M4F, 1 MiB flash, 192 KiB RAM of
# which 128 KiB contiguous SRAM1+SRAM2 is used here). Builds only.
set(FD_BOARD_KIND hardware)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
add_compile_definitions(FD_HAS_FPU=1)
# Assessed min-entropy per raw 8-bit sample (a byte of an RNG DR word). ST
# specifies an analog ring-oscillator source post-processed by an LFSR and
# publishes no SP 800-90B assessment for the F4; the LFSR hides bias from
# simple tests, so we claim only 2 bits per byte. Health-test cutoffs
# RCT 11, APT 177/512; 160 raw bytes per 256-bit seed.
set(FD_TRNG_H_BITS 2)
include(${CMAKE_SOURCE_DIR}/cmake/cortex-m.cmake)
