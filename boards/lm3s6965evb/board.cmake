# TI (Luminary Micro) Stellaris LM3S6965 evaluation board as QEMU models it
# (-M lm3s6965evb): Cortex-M3, 256 KiB flash at 0, 64 KiB SRAM at
# 0x20000000, UART0 a PL011 at 0x4000C000.
set(FD_BOARD_TITLE "Stellaris LM3S6965EVB (Cortex-M3), runs in QEMU; EMULATION ONLY")
set(FD_BOARD_KIND qemu)
set(FD_BOARD_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
# The system clock SysTick counts, as QEMU computes it from the reset value
# of RCC (SYSDIV 15: 200 MHz / 16 = 12.5 MHz; the board code leaves RCC
# alone). The real chip runs from its 12 MHz +-30% internal oscillator
# after reset, which is one more reason this board is emulation-only.
set(FD_CPU_HZ 12500000)
set(FD_BOARD_SOURCES startup.c board.c uart.c)
# EMULATION ONLY: the LM3S6965 has no TRNG; entropy is the host's
# /dev/urandom through semihosting. A release build is refused (FD_RELEASE).
set(FD_EMULATION_ONLY ON)
# EMULATED storage: QEMU does not implement this board's flash controller;
# the journal runs on a RAM block with NOR semantics that survives a reset
# (.noinit, as flash would) but not a power cut (a new QEMU process).
set(FD_STORAGE_DRIVER ../common/cortex-m/ram_storage.c)
set(FD_STORAGE_NAME "RAM (EMULATION ONLY)")
set(FD_STORAGE_EMULATED ON)
set(FD_TRNG_DRIVER ../common/cortex-m/semihost_trng.c)
set(FD_TRNG_NAME "host /dev/urandom via semihosting (EMULATION ONLY)")
# /dev/urandom is a conditioned CSPRNG stream; as on the host we claim 4
# bits per byte to keep health-test false alarms near 2^-40 per sample.
set(FD_TRNG_H_BITS 4)
set(FD_QEMU_MACHINE lm3s6965evb)
# Semihosting: the entropy source and exit codes. -icount: SysTick does
# advance without it here (the driver test passes), but in host time, so
# readings swing 7,600-52,000 ticks for the same 4,096 samples with the
# host's load; with -icount shift=0 a tick is 80 instructions and runs are
# reproducible. Nothing on this board waits on a timer (the entropy is
# semihosting), so -icount costs no speed. QEMU 7.2 prints "Timer with
# period zero, disabling" at machine reset for this model (also with -S,
# before any guest code): noise, not the image.
set(FD_QEMU_FLAGS "-semihosting-config enable=on,target=native -icount shift=0,sleep=off")
# QEMU's PL011 turns a serial break into a BE receive error: the console
# break test runs here (tests/qemu/console_break.sh).
set(FD_QEMU_SERIAL_BREAK ON)
# Flash map: 256 pages of 1 KiB (the LM3S6965's erase unit): two 95 KiB
# slots, 16 KiB bootloader room, 47 KiB storage, one page for the counter,
# one for the secret, 1 KiB free. The storage is RAM here (with the secret,
# 48 of the 64 KiB), so the journal is smaller than the micro:bit's: the
# open round at its largest and 12 round summaries (docs/RECORDS.md
# "Capacity"). For that room the stack is 4.5 KiB (the same firmware's
# deepest stack on the micro:bit's Cortex-M0 is 3.3 KiB).
set(FD_FLASH_BASE 0x0)
set(FD_FLASH_SIZE "256 * 1024")
set(FD_FLASH_PAGE_SIZE 1024)
set(FD_FLASH_SLOT_A_SIZE "95 * 1024")
set(FD_FLASH_SLOT_B_SIZE "95 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE "16 * 1024")
set(FD_FLASH_STORAGE_SIZE "47 * 1024")
set(FD_FLASH_COUNTER_SIZE 1024)
set(FD_FLASH_SECRET_SIZE 1024)
# Programs a word may take between erases: no limit here. The RAM store
# counts them where the fact sets one (mps2-an386: 2, the nRF5x nWRITE),
# two bits a word; here its 3 KiB would not fit beside the 48 KiB store
# and the benchmark image in 64 KiB of RAM.
set(FD_FLASH_WORD_WRITES 0)
set(FD_RAM_BASE 0x20000000)
set(FD_RAM_SIZE "64 * 1024")
set(FD_STACK_SIZE 4608)
# Watchdog timer 0 at 0x40000000 on the system clock (QEMU's
# luminary-watchdog resets the machine at the second stage; watchdog.c).
# Timeout: the console waits in WFI and SysTick's wrap wakes it, and kicks
# the watchdog, every 2^24 / 12.5 MHz = 1.34 s, so even the first stage
# (half the timeout) must come later: 3 s (1.5 s per stage). The longest
# operation, a 432-card combined-source shuffle, is 2.48 M instructions,
# 0.2 s.
set(FD_WATCHDOG_DRIVER watchdog.c ../common/cortex-m/apb_watchdog.c)
set(FD_WATCHDOG_NAME "Stellaris WDT0")
set(FD_WATCHDOG_TIMEOUT_MS 3000)
set(FD_WATCHDOG_QEMU ON)
