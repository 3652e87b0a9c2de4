# Arm MPS2 with AN386 (Cortex-M4) as QEMU models it: 4 MiB SSRAM1 at 0
# (code), 4 MiB SSRAM2/3 at 0x20000000 (data).
set(FD_BOARD_TITLE "Arm MPS2 AN386 (Cortex-M4), runs in QEMU; EMULATION ONLY")
set(FD_BOARD_KIND qemu)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=soft)
# QEMU's SYSCLK for mps2-an386: SysTick counts it.
set(FD_CPU_HZ 25000000)
set(FD_BOARD_SOURCES startup.c board.c uart.c)
# EMULATION ONLY: the board has no TRNG; entropy is the host's /dev/urandom
# read through semihosting, which a real board cannot do. A release build
# is refused (FD_RELEASE) so this can never ship.
set(FD_EMULATION_ONLY ON)
# EMULATED storage: QEMU models no flash controller here; the journal runs
# on a RAM block with NOR semantics that survives a reset (.noinit, as
# flash would) but not a power cut (a new QEMU process).
set(FD_STORAGE_DRIVER ../common/cortex-m/ram_storage.c)
set(FD_STORAGE_NAME "RAM (EMULATION ONLY)")
set(FD_STORAGE_EMULATED ON)
set(FD_TRNG_DRIVER ../common/cortex-m/semihost_trng.c)
set(FD_TRNG_NAME "host /dev/urandom via semihosting (EMULATION ONLY)")
# /dev/urandom is a conditioned CSPRNG stream; as on the host we claim 4
# bits per byte to keep health-test false alarms near 2^-40 per sample.
set(FD_TRNG_H_BITS 4)
set(FD_QEMU_MACHINE mps2-an386)
# -icount: without it QEMU's SysTick here does not advance reliably (counts
# of 0 across thousands of instructions were seen). Semihosting: the
# entropy source and exit codes.
set(FD_QEMU_FLAGS "-semihosting-config enable=on,target=native -icount shift=0,sleep=off")
# Flash map in the code SSRAM (QEMU loads it; nothing survives a restart):
# 4 KiB pages, two 1 MiB slots, 64 KiB bootloader, 64 KiB storage (16
# pages: the open round at its largest and 100 summaries, docs/RECORDS.md
# "Capacity"; the dealer starts over the journal's worst-case fill in
# under a quarter of the 2 s watchdog, docs/PERFORMANCE.md "Journal
# start-up at the worst-case fill": 24 pages took 0.69 s), a page for the
# counter and one for the secret.
set(FD_FLASH_BASE 0x0)
set(FD_FLASH_SIZE "4 * 1024 * 1024")
set(FD_FLASH_PAGE_SIZE 4096)
set(FD_FLASH_SLOT_A_SIZE "1024 * 1024")
set(FD_FLASH_SLOT_B_SIZE "1024 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE "64 * 1024")
set(FD_FLASH_STORAGE_SIZE "64 * 1024")
set(FD_FLASH_COUNTER_SIZE 4096)
set(FD_FLASH_SECRET_SIZE 4096)
# Programs a word may take between erases: the tightest board's (nRF5x
# nWRITE), which the RAM store counts and enforces (a third program is
# refused), so every journal test on this board checks the rule.
set(FD_FLASH_WORD_WRITES 2)
# The bootloader installs signed updates from slot B (docs/SECURITY.md "Updates").
set(FD_BOOT_UPDATES ON)
set(FD_RAM_BASE 0x20000000)
set(FD_RAM_SIZE "4 * 1024 * 1024")
set(FD_STACK_SIZE 16384)
# The CMSDK APB watchdog at 0x40008000 on the 25 MHz system clock (QEMU
# models it and resets the machine at the second stage; watchdog.c). The
# console is polled and kicks it while it waits. Timeout: the longest
# operation, a 432-card combined-source shuffle, is 2.48 M instructions
# (0.1 s; semihosted entropy costs no virtual time under -icount): 2 s.
set(FD_WATCHDOG_DRIVER watchdog.c ../common/cortex-m/apb_watchdog.c)
set(FD_WATCHDOG_NAME "CMSDK APB watchdog")
set(FD_WATCHDOG_TIMEOUT_MS 2000)
set(FD_WATCHDOG_QEMU ON)
