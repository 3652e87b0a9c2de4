/* The bootloader's start (bootloader/main.c): .data and .bss, the console's
 * transmit side and the time base its timeouts use, then main. Not the
 * board's hal_board_init: the bootloader must not start receiving (on the
 * nRF51 a byte that arrived before the jump would sit behind an event the
 * application's start clears, and the console would stall). */
#include <stdbool.h>
#include <string.h>

#include "cortex_m.h"
#include "fairdeal/status.h"
#include "fd_board_map.h"
#include "hal/board.h"

#if defined(FD_BOOT_CONSOLE_NRF51)
#include "nrf51.h"
#elif defined(FD_BOOT_CONSOLE_MPS2)
#include "mps2.h"
#elif defined(FD_BOOT_CONSOLE_LM3S)
#include "lm3s6965.h"
#endif

extern uint32_t fd_data_load[];
extern uint32_t fd_data_start[];
extern uint32_t fd_data_end[];
extern uint32_t fd_bss_start[];
extern uint32_t fd_bss_end[];

int main(void);
void fd_boot_reset(void);

/* The flash ops of bootloader/main.c (fairdeal/update.h's fd_update_flash:
 * ctx unused): FD_ERR_STATE where the board cannot write its flash (QEMU
 * models no LM3S flash controller). */
fd_status fd_boot_flash_program(void *ctx, const uint8_t *at, uint32_t value);
fd_status fd_boot_flash_erase(void *ctx, const uint8_t *page);

#if defined(FD_BOOT_CONSOLE_NRF51)
/* nRF51 RM v3.0 NVMC (nrf5x.h): CONFIG = WEN or EEN, the word or
 * ERASEPAGE, wait READY, CONFIG = REN (the CPU stalls while it works) */
static void nvmc(uint32_t mode, volatile uint32_t *reg, uint32_t value)
{
    NVMC_CONFIG = mode;
    while (NVMC_READY == 0u) {
    }
    *reg = value;
    while (NVMC_READY == 0u) {
    }
    NVMC_CONFIG = NVMC_CONFIG_REN;
}
#endif

fd_status fd_boot_flash_program(void *ctx, const uint8_t *at, uint32_t value)
{
    (void)ctx;
#if defined(FD_BOOT_CONSOLE_NRF51)
    nvmc(NVMC_CONFIG_WEN, (volatile uint32_t *)(uintptr_t)at, value);
    return FD_OK;
#elif defined(FD_BOOT_CONSOLE_MPS2)
    *(volatile uint32_t *)(uintptr_t)at &= value; /* QEMU's MPS2 "flash" is RAM: NOR semantics by hand */
    return FD_OK;
#else
    (void)at;
    (void)value;
    return FD_ERR_STATE;
#endif
}

fd_status fd_boot_flash_erase(void *ctx, const uint8_t *page)
{
    (void)ctx;
#if defined(FD_BOOT_CONSOLE_NRF51)
    nvmc(NVMC_CONFIG_EEN, &NVMC_ERASEPAGE, (uint32_t)(uintptr_t)page);
    return FD_OK;
#elif defined(FD_BOOT_CONSOLE_MPS2)
    memset((void *)(uintptr_t)page, 0xFF, FD_FLASH_PAGE_SIZE);
    return FD_OK;
#else
    (void)page;
    return FD_ERR_STATE;
#endif
}

static void console_tx_start(void)
{
#if defined(FD_BOOT_CONSOLE_NRF51)
    /* as nrf51_uart_init (boards/microbit/uart.c), transmit only */
    GPIO_OUTSET = 1u << MICROBIT_PIN_TX;
    GPIO_PIN_CNF(MICROBIT_PIN_TX) = GPIO_PIN_CNF_OUTPUT;
    UART_PSELTXD = MICROBIT_PIN_TX;
    UART_BAUDRATE = UART_BAUD_115200;
    UART_ENABLE = 4u;
    UART_EVENTS_TXDRDY = 0u;
    UART_TASKS_STARTTX = 1u;
#elif defined(FD_BOOT_CONSOLE_MPS2)
    mps2_uart_init(); /* polled: a received byte waits in the UART */
#elif defined(FD_BOOT_CONSOLE_LM3S)
    lm3s_uart0_init(); /* its receive interrupt stays pending (masked) for the application */
#else
#error "bootloader: no console for this board"
#endif
}

void fd_boot_reset(void)
{
    memcpy(fd_data_start, fd_data_load, (size_t)((uintptr_t)fd_data_end - (uintptr_t)fd_data_start));
    memset(fd_bss_start, 0, (size_t)((uintptr_t)fd_bss_end - (uintptr_t)fd_bss_start));
    console_tx_start();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("time base absent or stopped");
    }
    hal_board_exit(main());
}
