/* The vector table in SRAM (stm32f407.h, docs/HARDWARE.md "Flash
 * stalls"): with VTOR on the flash copy, an interrupt during a sector erase
 * would stall on its vector fetch until the erase ends. */
#include "stm32f407.h"

/* Armv7-M ARM B3.2.5 (VTOR): TBLOFF aligned to the table's size rounded up
 * to a power of two, at least 128 bytes: 98 entries -> 512 bytes. */
#define RAM_VECTORS_ALIGN 512u
_Static_assert(4u * STM32_VECTORS <= RAM_VECTORS_ALIGN, "VTOR alignment (4-byte entries on the chip)");

__attribute__((aligned(RAM_VECTORS_ALIGN))) stm32_vector_fn stm32_ram_vectors[STM32_VECTORS];

void stm32_vectors_to_ram(void)
{
    for (uint32_t i = 0; i < STM32_VECTORS; i++) {
        stm32_ram_vectors[i] = stm32_flash_vectors[i];
    }
    SCB_SHPR3 = (SCB_SHPR3 & ~(0xFFu << SCB_SHPR3_SYSTICK_SHIFT)) | (STM32_PRIO_FLASH_CODE << SCB_SHPR3_SYSTICK_SHIFT);
    fd_data_barrier(); /* the copy is complete before VTOR names it */
    SCB_VTOR = (uint32_t)(uintptr_t)stm32_ram_vectors;
    fd_data_barrier(); /* exceptions after this use the new table */
}
