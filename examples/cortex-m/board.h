/* The little this example needs from its board (startup.c): semihosting
 * output and exit, which QEMU passes to the host. */
#ifndef EXAMPLE_BOARD_H
#define EXAMPLE_BOARD_H

#ifdef __cplusplus
extern "C" {
#endif

/* Print a NUL-terminated string on the host's stdout. */
void board_print(const char *s);

/* The application, called by the reset handler; its return value is the
 * exit status QEMU reports. */
int app_main(void);

#ifdef __cplusplus
}
#endif

#endif
