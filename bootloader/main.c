/* The bootloader of the QEMU boards (docs/SECURITY.md "Boot"). At reset it
 * installs a pending update from slot B where the board can write its
 * flash (FD_BOOT_UPDATES: fairdeal/update.h, docs/SECURITY.md "Updates"),
 * then checks the signed image in slot A (fairdeal/image.h: header, key hash,
 * SHA-256, LMS/HSS signature against the public key built in, version at
 * least FD_BOOT_MIN_VERSION) and starts it; otherwise it prints why on the
 * console and stops (hal_board_exit: under QEMU, a non-zero exit).
 *
 * Vector tables: on Cortex-M3/M4 the bootloader's own table serves it until
 * the jump, which points VTOR at the application's. The nRF51 (Cortex-M0)
 * has no VTOR: its table stays at address 0 for good, so every entry but
 * the stack and reset forwards to the application's table (fd_boot_forward)
 * once the application runs, and to the bootloader's fault handler while
 * the bootloader itself runs (the interrupted pc says which). The M0 build
 * never writes VTOR (checked on its disassembly, tests/qemu/boot.sh). */
#include <stdbool.h>
#include <stdint.h>

#include "boot_key.h"
#include "cortex_m.h"
#include "fairdeal/bootcount.h"
#include "fairdeal/image.h"
#include "fairdeal/update.h"
#include "fd_board_map.h"
#include "hal/board.h"
#include "hal/console.h"

#define FD_EXIT_BOOT 97 /* the image was refused */
#define APP_VECTORS (FD_SLOT_A_ADDR + FD_IMAGE_HEADER_ROOM)

_Static_assert(FD_SLOT_A_ADDR >= FD_BOOTLOADER_ADDR + FD_BOOTLOADER_SIZE, "slot A follows the bootloader room");
_Static_assert(FD_BOOT_KEY_SIZE == FD_HSS_PUB_SIZE, "the built-in key is an HSS public key");

static void say(const char *s) { hal_console_write(s, __builtin_strlen(s)); }

fd_status fd_boot_flash_program(void *ctx, const uint8_t *at, uint32_t value); /* console.c */
fd_status fd_boot_flash_erase(void *ctx, const uint8_t *page);

#if defined(FD_BOOT_UPDATES)
static const fd_update_flash slots = {
    .slot_a = (const uint8_t *)(uintptr_t)FD_SLOT_A_ADDR,
    .slot_b = (const uint8_t *)(uintptr_t)FD_SLOT_B_ADDR,
    .slot_a_size = FD_SLOT_A_SIZE,
    .slot_b_size = FD_SLOT_B_SIZE,
    .page_size = FD_FLASH_PAGE_SIZE,
    .ctx = NULL,
    .erase = fd_boot_flash_erase,
    .program = fd_boot_flash_program,
};
#endif

#define COUNTER_WORDS (FD_COUNTER_SIZE / 4u)

/* The anti-rollback minimum: the higher of the bootloader's own build
 * version and the counter page's (docs/SECURITY.md "Anti-rollback"). */
static uint32_t minimum_version(void)
{
    uint32_t min = 0;
    size_t next = 0;
    if (fd_bootcount_scan((const uint32_t *)(uintptr_t)FD_COUNTER_ADDR, COUNTER_WORDS, &min, &next) != FD_OK) {
        min = 0;
    }
    return min > FD_BOOT_MIN_VERSION ? min : FD_BOOT_MIN_VERSION;
}

/* An accepted version above the page's minimum is recorded before the image
 * runs: version, then its complement, each word programmed once. */
static void record_version(uint32_t version)
{
    const uint32_t *page = (const uint32_t *)(uintptr_t)FD_COUNTER_ADDR;
    size_t at = 0;
    const fd_status st = fd_bootcount_plan(page, COUNTER_WORDS, version, &at);
    if (st == FD_ERR_STATE) {
        return; /* already the minimum */
    }
    if (st != FD_OK) {
        say("BOOT counter: page full, version not recorded\r\n");
        return;
    }
    const uint8_t *addr = (const uint8_t *)(uintptr_t)(FD_COUNTER_ADDR + 4u * (uint32_t)at);
    if (fd_boot_flash_program(NULL, addr, version) != FD_OK ||
        fd_boot_flash_program(NULL, addr + 4, ~version) != FD_OK) {
        say("BOOT counter: not recorded (no flash writes on this board)\r\n");
        return;
    }
    uint32_t min = 0;
    size_t next = 0;
    if (fd_bootcount_scan(page, COUNTER_WORDS, &min, &next) == FD_OK && min == version) {
        say("BOOT counter: version recorded\r\n");
    } else {
        say("BOOT counter: the write did not read back\r\n");
    }
}

static void say_hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        const char two[2] = {digits[p[i] >> 4], digits[p[i] & 0xFu]};
        hal_console_write(two, 2);
    }
}

#if defined(__ARM_ARCH_6M__)
/* Every vector but the stack and reset: the application's handler once it
 * runs; before (the stacked pc lies in the bootloader room) the fault
 * handler for a fault, and for an interrupt (the board's start enables the
 * console's) a masking return: it stays pending until the application
 * enables it again. Uses r0-r1 only (stacked by the exception entry), so
 * the handler it reaches sees the same lr and frame. */
__attribute__((naked)) void fd_boot_forward(void)
{
    __asm volatile(".syntax unified\n"
                   "movs r0, #4\n"
                   "mov r1, lr\n"
                   "tst r0, r1\n"
                   "beq 1f\n"
                   "mrs r0, psp\n"
                   "b 2f\n"
                   "1: mrs r0, msp\n"
                   "2: ldr r0, [r0, #24]\n" /* the interrupted pc */
                   "ldr r1, =%c0\n"
                   "cmp r0, r1\n"
                   "bhs 3f\n"
                   "mrs r0, ipsr\n" /* the bootloader's own: */
                   "cmp r0, #16\n"
                   "blo 4f\n"
                   "cpsid i\n" /* an interrupt stays pending, masked, until the application */
                   "bx lr\n"
                   "4: ldr r0, =fd_fault_handler\n" /* a fault */
                   "bx r0\n"
                   "3: mrs r0, ipsr\n"
                   "lsls r0, r0, #2\n"
                   "ldr r1, =%c1\n"
                   "ldr r0, [r1, r0]\n"
                   "bx r0\n" ::"i"(FD_BOOTLOADER_ADDR + FD_BOOTLOADER_SIZE),
                   "i"(APP_VECTORS));
}
#else
/* An interrupt while the bootloader runs (the board's start enables the
 * console's): masked, pending until the application enables it again. */
__attribute__((naked)) void fd_boot_mask_irq(void) { __asm volatile("cpsid i\n bx lr\n"); }
#endif

/* Start the application as a reset would: interrupts off at the NVIC and
 * nothing pending, SysTick stopped, its stack, its reset handler. */
static _Noreturn void start(void)
{
    const volatile uint32_t *vt = (const volatile uint32_t *)(uintptr_t)APP_VECTORS;
    fd_irq_disable();
    SYSTICK_CSR = 0u;
    for (uint32_t i = 0; i < 8u; i++) {
        NVIC_ICER(i) = 0xFFFFFFFFu;
        NVIC_ICPR(i) = 0xFFFFFFFFu;
    }
    SCB_ICSR = SCB_ICSR_PENDSTCLR;
#if !defined(__ARM_ARCH_6M__)
    SCB_VTOR = APP_VECTORS;
#endif
    __asm volatile("dsb\n isb\n"
                   "msr msp, %0\n"
                   "cpsie i\n"
                   "bx %1\n" ::"r"(vt[0]),
                   "r"(vt[1])
                   : "memory");
    for (;;) {
    }
}

int main(void)
{
    fd_irq_disable(); /* nothing but faults until the application runs */
    fd_image_info info;
    const char *why = "";
    const uint32_t min = minimum_version();
#if defined(FD_BOOT_UPDATES)
    /* slot B pending: checked, copied over slot A (a cut copies again at the next reset) */
    const bool pending = fd_update_pending(&slots);
    if (pending) {
        say("\r\nBOOT update pending in slot B: ");
        const fd_status up = fd_update_install(&slots, fd_boot_key, min, APP_VECTORS, &why);
        say(up == FD_OK ? "installed" : why);
    }
#endif
    say("\r\nBOOT fairdeal bootloader: checking slot A\r\n");
    const uint32_t t0 = fd_timebase_read();
    const fd_status st =
        fd_image_check((const uint8_t *)(uintptr_t)FD_SLOT_A_ADDR, FD_SLOT_A_SIZE, fd_boot_key, min, &info, &why);
    const uint32_t clocks = fd_timebase_read() - t0;
    const uint8_t c[4] = {(uint8_t)(clocks >> 24), (uint8_t)(clocks >> 16), (uint8_t)(clocks >> 8), (uint8_t)clocks};
    say("BOOT check took 0x"); /* time-base clocks (FD_CPU_HZ): docs/PERFORMANCE.md "Bootloader" */
    say_hex(c, sizeof c);
    say(" clocks\r\n");
    if (st == FD_OK && info.header.load_addr != APP_VECTORS) {
        why = "image built for another address"; /* the same words as fd_update_check's */
    } else if (st == FD_OK) {
        why = NULL;
    }
    if (why != NULL) {
        say("BOOT refused: ");
        say(why);
        say("\r\nBOOT STOPPED\r\n");
        return FD_EXIT_BOOT;
    }
    const uint8_t version[4] = {(uint8_t)(info.header.version >> 24), (uint8_t)(info.header.version >> 16),
                                (uint8_t)(info.header.version >> 8), (uint8_t)info.header.version};
    say("BOOT ok version=0x");
    say_hex(version, sizeof version);
    say(" hash=");
    say_hex(info.hash, sizeof info.hash);
    say("\r\n");
#if defined(FD_BOOT_UPDATES)
    if (pending) {
        /* slot A checks: the update is done (a failed mark only installs it once more) */
        (void)fd_update_done(&slots);
    }
#endif
    record_version(info.header.version);
    start();
}
