/* The few MPS2 AN386 registers this board uses: CMSDK APB UART0 and the
 * CMSDK APB watchdog (Arm Cortex-M System Design Kit TRM; the watchdog's
 * interrupt is the NMI, AN386 and QEMU's hw/arm/mps2.c alike). */
#ifndef MPS2_H
#define MPS2_H

#include "cortex_m.h"

#define UART0_BASE 0x40004000u
#define UART0_DATA FD_REG32(UART0_BASE + 0x00u)
#define UART0_STATE FD_REG32(UART0_BASE + 0x04u)
#define UART_STATE_TX_FULL 0x1u
#define UART_STATE_RX_FULL 0x2u
#define UART_STATE_RX_OVERRUN 0x8u /* write 1 to clear */
#define UART0_CTRL FD_REG32(UART0_BASE + 0x08u)
#define UART_CTRL_TX_EN 0x1u
#define UART_CTRL_RX_EN 0x2u
#define UART0_BAUDDIV FD_REG32(UART0_BASE + 0x10u)

#define WDOG_BASE 0x40008000u

void mps2_uart_init(void);
void mps2_nmi_handler(void);

#endif
