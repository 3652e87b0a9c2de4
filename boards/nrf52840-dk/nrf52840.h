/* The nRF52840 UARTE0 registers this board uses (nRF52840 Product
 * Specification v1.7, UARTE chapter 6.34). CLOCK, GPIO and the RNG are
 * boards/common/nrf5x. */
#ifndef NRF52840_H
#define NRF52840_H

#include "../common/nrf5x/nrf5x.h"

#define UARTE0_BASE 0x40002000u
#define UARTE_TASKS_STARTRX FD_REG32(UARTE0_BASE + 0x000u)
#define UARTE_TASKS_STOPRX FD_REG32(UARTE0_BASE + 0x004u)
#define UARTE_TASKS_STARTTX FD_REG32(UARTE0_BASE + 0x008u)
#define UARTE_TASKS_STOPTX FD_REG32(UARTE0_BASE + 0x00Cu)
#define UARTE_TASKS_FLUSHRX FD_REG32(UARTE0_BASE + 0x02Cu)
#define UARTE_EVENTS_ENDRX FD_REG32(UARTE0_BASE + 0x110u)
#define UARTE_EVENTS_ENDTX FD_REG32(UARTE0_BASE + 0x120u)
#define UARTE_EVENTS_ERROR FD_REG32(UARTE0_BASE + 0x124u)
#define UARTE_EVENTS_RXTO FD_REG32(UARTE0_BASE + 0x144u)
#define UARTE_INTENSET FD_REG32(UARTE0_BASE + 0x304u)
#define UARTE_INT_ENDRX (1u << 4)
#define UARTE_INT_ERROR (1u << 9)
/* OVERRUN bit 0, PARITY 1, FRAMING 2, BREAK 3; write 1 to clear */
#define UARTE_ERRORSRC_OVERRUN (1u << 0)
#define UARTE_ERRORSRC FD_REG32(UARTE0_BASE + 0x480u)
#define UARTE_ENABLE FD_REG32(UARTE0_BASE + 0x500u)
#define UARTE_ENABLE_ON 8u
#define UARTE_PSEL_TXD FD_REG32(UARTE0_BASE + 0x50Cu)
#define UARTE_PSEL_RXD FD_REG32(UARTE0_BASE + 0x514u)
#define UARTE_BAUDRATE FD_REG32(UARTE0_BASE + 0x524u)
/* The UARTE's value (actual 115108 baud); 0x01D7E000 is the legacy UART's. */
#define UARTE_BAUD_115200 0x01D60000u
#define UARTE_RXD_PTR FD_REG32(UARTE0_BASE + 0x534u)
#define UARTE_RXD_MAXCNT FD_REG32(UARTE0_BASE + 0x538u)
#define UARTE_RXD_AMOUNT FD_REG32(UARTE0_BASE + 0x53Cu)
#define UARTE_TXD_PTR FD_REG32(UARTE0_BASE + 0x544u)
#define UARTE_TXD_MAXCNT FD_REG32(UARTE0_BASE + 0x548u)
#define UARTE_CONFIG FD_REG32(UARTE0_BASE + 0x56Cu)
#define UARTE_CONFIG_8N1 0u
#define UARTE0_IRQN 2u

/* RTC1 (PS v1.7, RTC chapter 6.22): the idle CPU's wake-up. */
#define RTC1_BASE 0x40011000u
#define RTC1_TASKS_START FD_REG32(RTC1_BASE + 0x000u)
#define RTC1_TASKS_STOP FD_REG32(RTC1_BASE + 0x004u)
#define RTC1_EVENTS_TICK FD_REG32(RTC1_BASE + 0x100u)
#define RTC1_INTENSET FD_REG32(RTC1_BASE + 0x304u)
#define RTC_INT_TICK (1u << 0)
#define RTC1_PRESCALER FD_REG32(RTC1_BASE + 0x508u)
/* 12 bits: f = 32768 / (PRESCALER + 1); 4095 gives 8 Hz, a TICK every 125 ms */
#define RTC_PRESCALER_8HZ 4095u
#define RTC1_IRQN 17u

/* UICR.PSELRESET[0] and [1] (PS v1.7, UICR chapter): the pin of nRESET,
 * PIN bits 4:0, PORT bit 5, CONNECT bit 31 (0: connected). Both must hold
 * the same value; they are read at reset. Erased: 0xFFFFFFFF (no reset
 * pin). The DK's RESET button is on P0.18. */
#define UICR_PSELRESET0 FD_REG32(0x10001200u)
#define UICR_PSELRESET1 FD_REG32(0x10001204u)
#define UICR_ERASED 0xFFFFFFFFu
#define UICR_PSELRESET_P0_18 18u

/* nRF52840-DK: the J-Link virtual COM port is on P0.06 (TX), P0.08 (RX). */
#define DK_PIN_TX 6u
#define DK_PIN_RX 8u

void nrf52_uarte_init(void);
void nrf52_uarte_irq_handler(void);

/* Wake the idle CPU 8 times a second from RTC1's TICK (docs/HARDWARE.md,
 * nRF52840-DK "Watchdog"): SysTick stops while the CPU sleeps in WFI (PS
 * v1.7, CPU chapter), so without this nothing wakes the console's wait to
 * kick the WDT, which runs in sleep. Starts LFCLK from its RC oscillator
 * and RTC1. Call after fd_timebase_start (the wait is timed on it).
 * Errors: FD_ERR_NOT_READY when LFCLK has not started within 10 ms (PS:
 * LFRC start-up 600 us max). */
fd_status nrf52_idle_wake_start(void);
void nrf52_rtc1_irq_handler(void);

#endif
