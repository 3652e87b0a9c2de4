/* Host stand-in for boards/mps2-an386/mps2.h: the CMSDK UART0 registers as
 * fields of a fake peripheral. Accessing DATA empties the receive buffer
 * (clears RX_FULL), as reading it does on the part. */
#ifndef MPS2_H
#define MPS2_H

#include <stdint.h>

typedef struct fake_cmsdk_uart {
    volatile uint32_t data, state, ctrl, bauddiv;
} fake_cmsdk_uart;
extern fake_cmsdk_uart fake;
volatile uint32_t *fake_data(void);

#define UART0_DATA (*fake_data())
#define UART0_STATE fake.state
#define UART_STATE_TX_FULL 0x1u
#define UART_STATE_RX_FULL 0x2u
#define UART_STATE_RX_OVERRUN 0x8u
#define UART0_CTRL fake.ctrl
#define UART_CTRL_TX_EN 0x1u
#define UART_CTRL_RX_EN 0x2u
#define UART0_BAUDDIV fake.bauddiv

void mps2_uart_init(void);

#endif
