# host: Linux, for tests, fuzzing and the host tools.
set(FD_BOARD_TITLE "Host (Linux): library, tools, all tests")
set(FD_BOARD_KIND host)
set(FD_BOARD_SOURCES board.c console.c counter.c)
# getrandom() and clock_gettime() are POSIX/GNU, not C11.
set(FD_BOARD_DEFINITIONS _GNU_SOURCE FD_BOARD_HAS_PRESENCE)
set(FD_TRNG_DRIVER trng.c)
set(FD_TRNG_NAME "host getrandom()")
# hal_trng_init probes the kernel's pool (one byte, GRND_NONBLOCK): not yet
# seeded is FD_ERR_TRNG_TIMEOUT, another error FD_ERR_TRNG_HW, and the
# source stays not ready (trng.c); reads block until the pool is seeded.
# Assessed min-entropy per raw 8-bit sample of getrandom(): the kernel's
# output is already a conditioned CSPRNG stream (8 bits/byte in fact); we
# claim only 4 so the health tests' false-alarm rate on a healthy source is
# about 2^-40 per sample, not 2^-20, over the millions of samples a
# statistical run draws. The price is 80 raw bytes per 256-bit seed.
set(FD_TRNG_H_BITS 4)
set(FD_EMULATION_ONLY OFF)
# The journal's store: a file (the dealer's --storage PATH) or memory, with
# fault injection for the power-cut tests (boards/host/host_storage.h).
set(FD_STORAGE_DRIVER storage.c)
set(FD_STORAGE_NAME "host file (--storage) or memory")
set(FD_STORAGE_EMULATED OFF)
# No flash: the host simulates the tightest board's geometry (the
# micro:bit's flash map), so host tests of storage code meet its budget.
set(FD_FLASH_BASE 0x0)
set(FD_FLASH_SIZE "256 * 1024")
set(FD_FLASH_PAGE_SIZE 1024)
set(FD_FLASH_SLOT_A_SIZE "70 * 1024")
set(FD_FLASH_SLOT_B_SIZE "70 * 1024")
set(FD_FLASH_BOOTLOADER_SIZE "16 * 1024")
set(FD_FLASH_STORAGE_SIZE "98 * 1024")
set(FD_FLASH_COUNTER_SIZE 1024)
set(FD_FLASH_SECRET_SIZE 1024)
# Programs a word may take between two erases of its page (nWRITE): the
# host store simulates the micro:bit's rule and fails a third program.
set(FD_FLASH_WORD_WRITES 2)
# No watchdog and no reset-reason register (boards/host/watchdog.c says
# why); the timeout is unused.
set(FD_WATCHDOG_DRIVER watchdog.c)
set(FD_WATCHDOG_NAME "none (a host process)")
set(FD_WATCHDOG_TIMEOUT_MS 1000)
