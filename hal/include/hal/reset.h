/* HAL: why the chip last reset, from its reset-reason register. */
#ifndef HAL_RESET_H
#define HAL_RESET_H

#ifdef __cplusplus
extern "C" {
#endif

/** @brief The cause of the last reset. Values are stable: the journal's
 * power-on record stores them as one byte, so never renumber. */
typedef enum hal_reset_cause {
    HAL_RESET_UNKNOWN = 0,  /**< the board cannot tell (no register, or it named nothing known) */
    HAL_RESET_POWER_ON = 1, /**< power was applied (on the nRF5x also a brown-out: one flag-less state) */
    HAL_RESET_PIN = 2,      /**< the reset pin */
    HAL_RESET_WATCHDOG = 3, /**< the watchdog expired */
    HAL_RESET_SOFTWARE = 4, /**< a software request (AIRCR.SYSRESETREQ) */
    HAL_RESET_BROWNOUT = 5, /**< the supply dropped below the brown-out level */
    HAL_RESET_LOCKUP = 6    /**< the core locked up (a fault inside a fault handler) */
} hal_reset_cause;

/**
 * @brief Read the cause of the last reset and clear the chip's record of it.
 *
 * Call once, early after boot: the register is cleared so that the next
 * boot reports only its own reset. When the register holds several causes
 * (flags accumulate until cleared; a power-on also sets the pin flag on
 * some chips), the most fundamental one wins, in this order: power-on,
 * brown-out, watchdog, lock-up, software, pin. Boards without such a
 * register, and the host (a process cannot tell a boot from a restart
 * after a crash or a kill), return HAL_RESET_UNKNOWN. docs/RELIABILITY.md
 * lists each board's source.
 */
hal_reset_cause hal_reset_cause_read(void);

#ifdef __cplusplus
}
#endif

#endif
