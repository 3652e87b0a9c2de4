# STM32F4DISCOVERY: STM32F407VG (Cortex-M4F, 1 MiB flash at 0x08000000,
# 192 KiB RAM of which the contiguous SRAM1 (112 KiB) + SRAM2 (16 KiB) at
# 0x20000000 is used; the 64 KiB CCM at 0x10000000 is left unused).
set(FD_BOARD_TITLE "STM32F4DISCOVERY (STM32F407VG), builds only")
set(FD_BOARD_KIND hardware)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
set(FD_BOARD_FPU ON)
# 168 MHz, the rated speed, from the PLL on the 8 MHz HSE crystal (board.c,
# RM0090 6.3.2; VOS scale 1 and 5 flash wait states): SysTick counts it.
set(FD_CPU_HZ 168000000)
set(FD_BOARD_SOURCES startup.c board.c ram_vectors.c usart.c ../common/uart/rx_ring.c)
set(FD_TRNG_DRIVER trng.c)
set(FD_TRNG_NAME "STM32F407 RNG")
# Assessed min-entropy per raw 8-bit sample (a byte of an RNG DR word). ST
# specifies an analog ring-oscillator source post-processed by an LFSR and
# publishes no SP 800-90B assessment for the F4; the LFSR hides bias from
# simple tests, so we claim only 2 bits per byte. Health-test cutoffs
# RCT 11, APT 177/512; 160 raw bytes per 256-bit seed.
set(FD_TRNG_H_BITS 2)
set(FD_EMULATION_ONLY OFF)
# Release builds lock the debug port: readout protection level 1, set by the
# firmware in the option bytes (docs/SECURITY.md "Debug lock").
set(FD_DEBUG_LOCK_DRIVER debug_lock.c)
# The journal's store: the storage region's 128 KiB sectors.
set(FD_STORAGE_DRIVER flash.c)
set(FD_STORAGE_NAME "STM32F4 flash sectors")
set(FD_STORAGE_EMULATED OFF)
# Flash map on the F407's sectors (RM0090 3.3: sectors 0-3 16 KiB, 4 64 KiB,
# 5-11 128 KiB); the erase unit of the upper area is a 128 KiB sector.
# Slot A = sectors 0-4 (128 KiB; the dealer is ~20 KiB), slot B = 5,
# storage = 6-9 (the journal: four erase units, the open round at its
# largest, 100 summaries and 3 revealed hands, docs/RECORDS.md "Capacity"),
# secure-boot counter = 10, secret = 11. No bootloader room in this map:
# the F4 boots only from 0x08000000, so a bootloader, when written, takes
# the first 16 KiB sectors and slot A moves up.
set(FD_FLASH_BASE 0x08000000)
set(FD_FLASH_SIZE "1024 * 1024")
set(FD_FLASH_PAGE_SIZE "128 * 1024")
set(FD_FLASH_SLOT_A_SIZE "128 * 1024")
set(FD_FLASH_SLOT_B_SIZE "128 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE 0)
set(FD_FLASH_STORAGE_SIZE "512 * 1024")
set(FD_FLASH_COUNTER_SIZE "128 * 1024")
set(FD_FLASH_SECRET_SIZE "128 * 1024")
# Programs a word may take between two erases: RM0090 section 3 (flash
# interface) allows successive 1 -> 0 writes without an erase and states no
# count (the F4 has no flash ECC): 0, no limit. The journal keeps the nRF
# rule (at most 2) on every board.
set(FD_FLASH_WORD_WRITES 0)
set(FD_RAM_BASE 0x20000000)
set(FD_RAM_SIZE "128 * 1024")
set(FD_STACK_SIZE 8192)
# The IWDG on the LSI (watchdog.c; never earlier than the timeout over the
# LSI's 17-47 kHz range, up to 2.8 times later). SysTick wakes the console's
# wait every 0.1 s (2^24 clocks at 168 MHz), which kicks it. Timeout: every
# operation must take under a quarter of it (docs/HARDWARE.md "Timing
# budget"), and one 128 KiB sector erase alone takes up to 2 s
# (DS8626 t_ERASE128KB at x32): 16 s.
set(FD_WATCHDOG_DRIVER watchdog.c)
set(FD_WATCHDOG_NAME "STM32F407 IWDG")
set(FD_WATCHDOG_TIMEOUT_MS 16000)
# Timing budget (docs/HARDWARE.md): measured on mps2-an386 (Cortex-M4).
# DS8626 "Flash memory programming" at x32: 128 KiB sector erase 2 s, word
# 100 us (max; reads stall meanwhile, RM0090 3.5); the RNG gives a 32-bit
# word per 40 RNG clocks at 48 MHz (RM0090 24.3), 4 samples: 0.21 us each.
set(FD_BUDGET_QEMU_BOARD mps2-an386)
set(FD_BUDGET_ERASE_US 2000000)
set(FD_BUDGET_PROGRAM_NS 100000)
set(FD_BUDGET_SAMPLE_NS 250)
