/* STM32F407 debug lock of release builds (docs/SECURITY.md "Debug lock"):
 * readout protection level 1 (RM0090 3.7.3). The option bytes are not in
 * the image (ST's programmers do not write them from a .hex), so the
 * firmware sets them: at every start, if FLASH_OPTCR's RDP byte is 0xAA
 * (level 0), it unlocks the option bytes, writes RDP = 0x55 (level 1: any
 * value but 0xAA and 0xCC), starts the programming, waits and resets so the
 * new level loads. Level 2 (0xCC) is permanent, JTAG/SWD off for good and
 * the option bytes frozen: the documented choice for a final deployment, not
 * made by this code (a wrong level 2 bricks the board). Other option bits
 * (BOR, watchdog, nWRP) are kept. */
#include <stdint.h>

#include "cortex_m.h"

#define STM32_FLASH_SR FD_REG32(0x40023C0Cu)
#define STM32_FLASH_SR_BSY (1u << 16)
#define STM32_FLASH_OPTKEYR FD_REG32(0x40023C08u)
#define STM32_FLASH_OPTKEY1 0x08192A3Bu
#define STM32_FLASH_OPTKEY2 0x4C5D6E7Fu
#define STM32_FLASH_OPTCR FD_REG32(0x40023C14u)
#define STM32_FLASH_OPTCR_OPTLOCK (1u << 0)
#define STM32_FLASH_OPTCR_OPTSTRT (1u << 1)
#define STM32_FLASH_OPTCR_RDP_SHIFT 8u
#define STM32_FLASH_OPTCR_RDP_MASK (0xFFu << STM32_FLASH_OPTCR_RDP_SHIFT)
#define STM32_RDP_LEVEL0 0xAAu
#define STM32_RDP_LEVEL1 0x55u

void fd_debug_lock(void)
{
    uint32_t optcr = STM32_FLASH_OPTCR;
    if (((optcr & STM32_FLASH_OPTCR_RDP_MASK) >> STM32_FLASH_OPTCR_RDP_SHIFT) != STM32_RDP_LEVEL0) {
        return; /* level 1 already (or 2) */
    }
    while (STM32_FLASH_SR & STM32_FLASH_SR_BSY) {
    }
    STM32_FLASH_OPTKEYR = STM32_FLASH_OPTKEY1;
    STM32_FLASH_OPTKEYR = STM32_FLASH_OPTKEY2;
    optcr = STM32_FLASH_OPTCR & ~STM32_FLASH_OPTCR_RDP_MASK;
    STM32_FLASH_OPTCR = optcr | (STM32_RDP_LEVEL1 << STM32_FLASH_OPTCR_RDP_SHIFT);
    STM32_FLASH_OPTCR = optcr | (STM32_RDP_LEVEL1 << STM32_FLASH_OPTCR_RDP_SHIFT) | STM32_FLASH_OPTCR_OPTSTRT;
    while (STM32_FLASH_SR & STM32_FLASH_SR_BSY) {
    }
    STM32_FLASH_OPTCR |= STM32_FLASH_OPTCR_OPTLOCK;
    fd_system_reset();
}
