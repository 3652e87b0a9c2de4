# Nordic nRF52840-DK: nRF52840 (Cortex-M4F, 1 MiB flash, 256 KiB RAM, no
# SoftDevice).
set(FD_BOARD_TITLE "nRF52840-DK, builds only")
set(FD_BOARD_KIND hardware)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
set(FD_BOARD_FPU ON)
# After reset the nRF52840 runs at 64 MHz: SysTick counts it.
set(FD_CPU_HZ 64000000)
set(FD_BOARD_SOURCES startup.c board.c uarte.c rtc_wake.c ../common/nrf5x/clock.c ../common/uart/rx_ring.c)
# The UARTE receives into RAM by EasyDMA while the NVMC halts the CPU:
# uarte.c holds the console around each flash operation (nrf5x.h).
set(FD_BOARD_DEFINITIONS FD_NRF_CONSOLE_HOLD)
set(FD_TRNG_DRIVER ../common/nrf5x/trng.c)
set(FD_TRNG_NAME "nRF52840 RNG (bias correction on)")
# Assessed min-entropy per raw 8-bit sample of the nRF52840 RNG with bias
# correction on: same thermal-noise design as the nRF51 and, like it, no
# published SP 800-90B assessment, so we claim 2 bits per byte.
set(FD_TRNG_H_BITS 2)
set(FD_EMULATION_ONLY OFF)
# Release builds lock the debug port: UICR.APPROTECT and APPROTECT.FORCEPROTECT
# (docs/SECURITY.md "Debug lock").
set(FD_DEBUG_LOCK_DRIVER debug_lock.c)
set(FD_DEBUG_LOCK_UICR_ADDR 0x10001208)
# The journal's store: the storage region through the NVMC.
set(FD_STORAGE_DRIVER ../common/nrf5x/nvmc.c)
set(FD_STORAGE_NAME "nRF52840 NVMC")
set(FD_STORAGE_EMULATED OFF)
# Flash map: 4 KiB pages; two 320 KiB slots, 64 KiB bootloader (where
# UICR.NRFFW[0] can point), 312 KiB storage (78 pages: the open round at
# its largest, 100 summaries and 9 revealed hands, docs/RECORDS.md
# "Capacity"), one page for the secure-boot counter, one for the secret.
set(FD_FLASH_BASE 0x0)
set(FD_FLASH_SIZE "1024 * 1024")
set(FD_FLASH_PAGE_SIZE 4096)
set(FD_FLASH_SLOT_A_SIZE "320 * 1024")
set(FD_FLASH_SLOT_B_SIZE "320 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE "64 * 1024")
set(FD_FLASH_STORAGE_SIZE "312 * 1024")
set(FD_FLASH_COUNTER_SIZE 4096)
set(FD_FLASH_SECRET_SIZE 4096)
# Programs a word may take between two erases of its page: nRF52840 PS
# NVMC, nWRITE = 2.
set(FD_FLASH_WORD_WRITES 2)
set(FD_RAM_BASE 0x20000000)
set(FD_RAM_SIZE "256 * 1024")
set(FD_STACK_SIZE 8192)
# The nRF52840 WDT (boards/common/nrf5x/watchdog.c), running in sleep too
# (RTC1's TICK wakes the console's wait every 125 ms, rtc_wake.c; SysTick
# stops while the CPU sleeps, PS v1.7 CPU chapter). Timeout: the longest
# operation, a 432-card SHUFFLE, is 0.82 s here with its erase and 2,560
# RNG samples (docs/HARDWARE.md "Timing budget": under the 1 s quarter).
set(FD_WATCHDOG_DRIVER ../common/nrf5x/watchdog.c)
set(FD_WATCHDOG_NAME "nRF52840 WDT")
set(FD_WATCHDOG_TIMEOUT_MS 4000)
# Timing budget (docs/HARDWARE.md): measured on mps2-an386 (Cortex-M4).
# nRF52840 PS v1.7 NVMC: page erase 85 ms, word 41 us (the CPU halts); a
# raw RNG byte with DERCEN about 120 us (RNG chapter, typical: no maximum is
# given, so twice that).
set(FD_BUDGET_QEMU_BOARD mps2-an386)
set(FD_BUDGET_ERASE_US 85000)
set(FD_BUDGET_PROGRAM_NS 41000)
set(FD_BUDGET_SAMPLE_NS 240000)
# Each erase or program call holds the console (uarte.c): two receiver
# stops, each RXTO after up to four byte times (PS v1.7 6.34.4: 0.35 ms at
# 115200), and two FIFO flushes: 1 ms per call.
set(FD_BUDGET_OP_NS 1000000)
