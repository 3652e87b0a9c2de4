/* The few LM3S6965 registers this board uses, named as in TI's LM3S6965
 * datasheet (System Control, GPIO, UART chapters); UART0 is an ARM PL011
 * (PrimeCell UART TRM DDI 0183). */
#ifndef LM3S6965_H
#define LM3S6965_H

#include "cortex_m.h"

/* System control: run-mode clock gating and the reset cause (RESC: each
 * bit set by its reset, cleared by writing 0). */
#define SYSCTL_RESC FD_REG32(0x400FE05Cu)
#define SYSCTL_RESC_EXT (1u << 0)
#define SYSCTL_RESC_POR (1u << 1)
#define SYSCTL_RESC_BOR (1u << 2)
#define SYSCTL_RESC_WDT (1u << 3)
#define SYSCTL_RESC_SW (1u << 4)
#define SYSCTL_RESC_LDO (1u << 5)
#define SYSCTL_RCGC0 FD_REG32(0x400FE100u)
#define SYSCTL_RCGC0_WDT (1u << 3)
#define SYSCTL_RCGC1 FD_REG32(0x400FE104u)
#define SYSCTL_RCGC1_UART0 (1u << 0)
#define SYSCTL_RCGC2 FD_REG32(0x400FE108u)
#define SYSCTL_RCGC2_GPIOA (1u << 0)

/* GPIO port A (APB): PA0 = U0Rx, PA1 = U0Tx as alternate functions. */
#define GPIOA_BASE 0x40004000u
#define GPIOA_AFSEL FD_REG32(GPIOA_BASE + 0x420u)
#define GPIOA_DEN FD_REG32(GPIOA_BASE + 0x51Cu)
#define GPIOA_UART0_PINS 0x3u

/* UART0. */
#define UART0_BASE 0x4000C000u
#define UART0_DR FD_REG32(UART0_BASE + 0x000u)
#define UART_DR_DATA 0xFFu
#define UART_DR_FE (1u << 8)
#define UART_DR_PE (1u << 9)
#define UART_DR_BE (1u << 10)
#define UART_DR_OE (1u << 11)
#define UART_DR_ERRORS (UART_DR_FE | UART_DR_PE | UART_DR_BE | UART_DR_OE)
#define UART0_ECR FD_REG32(UART0_BASE + 0x004u) /* UARTRSR on read; any write clears it */
#define UART0_FR FD_REG32(UART0_BASE + 0x018u)
#define UART_FR_RXFE (1u << 4)
#define UART_FR_TXFF (1u << 5)
#define UART0_IBRD FD_REG32(UART0_BASE + 0x024u)
#define UART0_FBRD FD_REG32(UART0_BASE + 0x028u)
#define UART0_LCRH FD_REG32(UART0_BASE + 0x02Cu)
#define UART_LCRH_WLEN_8 (3u << 5)
#define UART0_CTL FD_REG32(UART0_BASE + 0x030u)
#define UART_CTL_UARTEN (1u << 0)
#define UART_CTL_TXE (1u << 8)
#define UART_CTL_RXE (1u << 9)
#define UART0_IM FD_REG32(UART0_BASE + 0x038u)
#define UART_INT_RX (1u << 4)
#define UART0_IRQN 5u

/* Watchdog timer 0: the Stellaris variant of the CMSDK APB watchdog
 * (apb_watchdog.h), on the system clock, interrupt IRQ 18. */
#define WDT0_BASE 0x40000000u
#define WDT0_IRQN 18u

void lm3s_uart0_init(void);
void lm3s_watchdog_irq_handler(void);
void lm3s_uart0_irq_handler(void);

#endif
