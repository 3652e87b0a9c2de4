/* Checks of what hal_console_read gives, for the UART driver tests. */
#ifndef FAKE_CONSOLE_H
#define FAKE_CONSOLE_H

/* hal_console_read returns each byte of text in order, with FD_OK. */
void fake_console_expect(const char *text);
/* hal_console_read returns FD_ERR_OVERRUN and no byte. */
void fake_console_expect_overrun(void);

#endif
