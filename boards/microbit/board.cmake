# BBC micro:bit v1: nRF51822-QFAA (Cortex-M0, 256 KiB flash, 16 KiB RAM).
set(FD_BOARD_TITLE "BBC micro:bit (nRF51822, Cortex-M0), runs in QEMU")
set(FD_BOARD_KIND qemu)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m0 -mthumb -mfloat-abi=soft)
# HFCLK (16 MHz crystal, started by board.c): TIMER0 counts it. The nRF51
# has no SysTick, so TIMER0 is the time base.
set(FD_CPU_HZ 16000000)
set(FD_BOARD_SOURCES startup.c board.c uart.c ../common/uart/rx_ring.c ../common/nrf5x/clock.c)
set(FD_TIMEBASE_DRIVER timer0.c)
# Its WDT pauses in sleep: nothing wakes the console's WFI periodically.
# FD_BOARD_HAS_PRESENCE: button A held at start allows the first PROVISION
# (hal_board_presence, docs/LINK.md "Provisioning and controller keys").
set(FD_BOARD_DEFINITIONS FD_NRF_WDT_PAUSE_IN_SLEEP FD_BOARD_HAS_PRESENCE)
# SHA-256 as one 8-round body in a loop (lib/src/sha256.c FD_SHA256_SMALL,
# as the bootloader's): 1,756 B less code, so the dealer with the link fits
# its slot (docs/PERFORMANCE.md "The link").
set(FD_LIB_DEFINITIONS FD_SHA256_SMALL=1)
set(FD_TRNG_DRIVER ../common/nrf5x/trng.c)
set(FD_TRNG_NAME "nRF51 RNG (bias correction on)")
# Assessed min-entropy per raw 8-bit sample of the nRF51 RNG with bias
# correction (DERCEN) on. Nordic documents the source as thermal noise with
# the bias removed but publishes no SP 800-90B assessment, so we claim 2
# bits per byte (a quarter of the nominal 8): health-test cutoffs RCT 11,
# APT 177/512, and 160 raw bytes condition into one 256-bit seed.
set(FD_TRNG_H_BITS 2)
set(FD_EMULATION_ONLY OFF)
# Release builds lock the debug port: UICR.RBPCONF (docs/SECURITY.md "Debug lock").
set(FD_DEBUG_LOCK_DRIVER ../common/nrf5x/debug_lock_nrf51.c)
set(FD_DEBUG_LOCK_UICR_ADDR 0x10001004)
# The journal's store: the storage region through the NVMC.
set(FD_STORAGE_DRIVER ../common/nrf5x/nvmc.c)
set(FD_STORAGE_NAME "nRF51 NVMC")
set(FD_STORAGE_EMULATED OFF)
set(FD_QEMU_MACHINE microbit)
# -icount shift=6: an instruction takes 64 ns of virtual time (15.6 MHz,
# the nRF51's 16 MHz clock), so the RNG's ~660 us byte is ~10,300
# instructions of polling, and QEMU runs the RNG's timer in the CPU's own
# thread at its virtual deadline: host load cannot make a byte late against
# TIMER0 (in real time it did, 250 ms under a loaded 2-core host). sleep=on:
# while the CPU waits in WFI virtual time follows the host clock (the
# console's input arrives in real time). docs/PORTING.md "QEMU".
# Semihosting carries the exit status of test images and QUIT.
set(FD_QEMU_FLAGS "-semihosting-config enable=on,target=native -icount shift=6,sleep=on")
# Flash map: 256 pages of 1 KiB. Two 74 KiB image slots (the signed dealer
# with the link and UPDATE is 70.2 KiB; a slot also holds the 512-byte
# header and 3 KiB of signature trailer; slot B's last 8 bytes are the
# update status record), room for an 8 KiB bootloader (8,072 B now: its goal),
# 98 KiB of storage for the journal, one page for the secure-boot counter
# and one for the device secret. The journal's 98 pages hold the worst case of
# docs/RECORDS.md "Capacity" (the open round at its largest, 100 round
# summaries, one revealed hand in full, the events, two spare pages);
# firmware/persist.c checks it when it compiles.
set(FD_FLASH_BASE 0x0)
set(FD_FLASH_SIZE "256 * 1024")
set(FD_FLASH_PAGE_SIZE 1024)
set(FD_FLASH_SLOT_A_SIZE "74 * 1024")
set(FD_FLASH_SLOT_B_SIZE "74 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE "8 * 1024")
set(FD_FLASH_STORAGE_SIZE "98 * 1024")
set(FD_FLASH_COUNTER_SIZE 1024)
set(FD_FLASH_SECRET_SIZE 1024)
# Programs a word may take between two erases of its page: nRF51 nWRITE
# (the journal programs a word at most twice: its record, then a wipe).
set(FD_FLASH_WORD_WRITES 2)
# The bootloader installs signed updates from slot B (docs/SECURITY.md "Updates").
set(FD_BOOT_UPDATES ON)
set(FD_RAM_BASE 0x20000000)
set(FD_RAM_SIZE "16 * 1024")
set(FD_STACK_SIZE 4096)
# The nRF51 WDT (boards/common/nrf5x/watchdog.c), paused while the CPU
# sleeps (nothing wakes the console's wait periodically). Timeout: every
# operation must take under a quarter of it (docs/HARDWARE.md "Timing
# budget"); a 432-card SHUFFLE alone reads 2,560 raw samples (1.7 s at
# 677 us) besides its instructions, and power-on reads 1,536 and mounts the
# journal: 16 s (the budget table has the figures).
# QEMU does not model the WDT: the images go on without it when it does
# not start (cmake/board.cmake, FD_WATCHDOG_REQUIRED).
set(FD_WATCHDOG_DRIVER ../common/nrf5x/watchdog.c)
set(FD_WATCHDOG_NAME "nRF51 WDT (not modelled by QEMU)")
set(FD_WATCHDOG_TIMEOUT_MS 16000)
set(FD_WATCHDOG_QEMU OFF)
# Timing budget (docs/HARDWARE.md): measured on this QEMU board itself (the
# same Cortex-M0 and flash geometry). nRF51 RM v3.0 NVMC: page erase
# 22.3 ms, word 46 us (the CPU halts for both); a raw RNG byte with DERCEN
# 677 us at worst (QEMU: 660).
set(FD_BUDGET_QEMU_BOARD microbit)
set(FD_BUDGET_ERASE_US 22300)
set(FD_BUDGET_PROGRAM_NS 46000)
set(FD_BUDGET_SAMPLE_NS 677000)
