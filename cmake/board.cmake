# Boards as data. boards/list.txt names every board; boards/<b>/board.cmake
# holds all of its facts as plain set() commands (docs/PORTING.md lists
# them). This file reads them, checks them, derives the flash map and builds
# the board's HAL library fd_board from them.

# fd_board_list(OUT): the boards named in boards/list.txt, in its order.
function(fd_board_list out)
  file(STRINGS ${FD_SOURCE_ROOT}/boards/list.txt lines)
  set(boards "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line)
      list(APPEND boards ${line})
    endif()
  endforeach()
  set(${out} ${boards} PARENT_SCOPE)
endfunction()

set(FD_BOARD_FACTS_ALL FD_BOARD_TITLE FD_BOARD_KIND FD_BOARD_SOURCES FD_TRNG_DRIVER FD_TRNG_H_BITS FD_TRNG_NAME
  FD_EMULATION_ONLY FD_STORAGE_DRIVER FD_STORAGE_NAME FD_STORAGE_EMULATED FD_FLASH_BASE FD_FLASH_SIZE FD_FLASH_PAGE_SIZE FD_FLASH_SLOT_A_SIZE FD_FLASH_SLOT_B_SIZE
  FD_FLASH_BOOTLOADER_SIZE FD_FLASH_STORAGE_SIZE FD_FLASH_COUNTER_SIZE FD_FLASH_SECRET_SIZE FD_FLASH_WORD_WRITES
  FD_WATCHDOG_DRIVER FD_WATCHDOG_NAME FD_WATCHDOG_TIMEOUT_MS)
set(FD_BOARD_FACTS_CORTEX_M FD_BOARD_CPU_FLAGS FD_CPU_HZ FD_RAM_BASE FD_RAM_SIZE FD_STACK_SIZE)
set(FD_BOARD_FACTS_QEMU FD_QEMU_MACHINE FD_QEMU_FLAGS FD_WATCHDOG_QEMU)
# FD_TIMEBASE_DRIVER: the time base (fd_timebase_* in cortex_m.h), relative
# to the board folder like FD_TRNG_DRIVER; SysTick when unset.
# FD_BUDGET_*: a real board's timing budget (docs/HARDWARE.md "Timing budget",
# tests/bench/budget.cmake): the QEMU board with its core, and the datasheet
# worst times of a page erase (us), a word program (ns) and a raw TRNG
# sample (ns); FD_BUDGET_OP_NS (optional): what each erase or program call
# adds around the operation (ns).
# FD_DEBUG_LOCK_DRIVER: the file (relative to the board folder) defining
# fd_debug_lock() for release builds, which need one (docs/SECURITY.md
# "Debug lock"); FD_DEBUG_LOCK_UICR_ADDR: where its UICR word (section
# .uicr_lock) goes in the .hex.
# FD_LIB_DEFINITIONS: compile definitions for the library on this board
# (e.g. FD_SHA256_SMALL where flash is short).
# FD_BOOT_UPDATES: the bootloader installs updates from slot B (its flash
# writes work, under QEMU too: docs/SECURITY.md "Updates"); else boot check only.
set(FD_BOARD_FACTS_OPTIONAL FD_BOOT_UPDATES FD_BOARD_FPU FD_BOARD_DEFINITIONS FD_LIB_DEFINITIONS FD_QEMU_SERIAL_BREAK FD_TIMEBASE_DRIVER
  FD_DEBUG_LOCK_DRIVER FD_DEBUG_LOCK_UICR_ADDR
  FD_BUDGET_QEMU_BOARD FD_BUDGET_ERASE_US FD_BUDGET_PROGRAM_NS FD_BUDGET_SAMPLE_NS FD_BUDGET_OP_NS)
# The flash map, in address order from FD_FLASH_BASE (docs/PORTING.md).
# Only the bootloader room may be empty. The bootloader comes first: the
# parts boot from the start of their flash (the nRF51 has no VTOR to move
# the vector table elsewhere).
set(FD_FLASH_REGIONS BOOTLOADER SLOT_A SLOT_B STORAGE COUNTER SECRET)

# fd_load_board(BOARD): set the board's facts in the caller's scope, check
# that none is missing or inconsistent (FATAL_ERROR naming the fact), and
# derive FD_FLASH_<region>_ADDR for every region. A macro so that a function
# calling it keeps the facts to itself.
macro(fd_load_board fd_board_arg)
  foreach(fd_fact IN LISTS FD_BOARD_FACTS_ALL FD_BOARD_FACTS_CORTEX_M FD_BOARD_FACTS_QEMU FD_BOARD_FACTS_OPTIONAL)
    unset(${fd_fact})
  endforeach()
  set(fd_board_file ${FD_SOURCE_ROOT}/boards/${fd_board_arg}/board.cmake)
  if(NOT EXISTS ${fd_board_file})
    message(FATAL_ERROR "Unknown board '${fd_board_arg}': no boards/${fd_board_arg}/board.cmake")
  endif()
  include(${fd_board_file})
  set(fd_needed ${FD_BOARD_FACTS_ALL})
  if(FD_BOARD_KIND STREQUAL "qemu" OR FD_BOARD_KIND STREQUAL "hardware")
    list(APPEND fd_needed ${FD_BOARD_FACTS_CORTEX_M})
  elseif(DEFINED FD_BOARD_KIND AND NOT FD_BOARD_KIND STREQUAL "host")
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: FD_BOARD_KIND is '${FD_BOARD_KIND}', "
      "not host, qemu or hardware")
  endif()
  if(FD_BOARD_KIND STREQUAL "qemu")
    list(APPEND fd_needed ${FD_BOARD_FACTS_QEMU})
  endif()
  foreach(fd_fact IN LISTS fd_needed)
    if(NOT DEFINED ${fd_fact})
      message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake misses ${fd_fact} (docs/PORTING.md says what it is)")
    endif()
  endforeach()
  if(FD_EMULATION_ONLY AND FD_RELEASE)
    message(FATAL_ERROR "${fd_board_arg} is emulation-only (${FD_TRNG_NAME}): "
      "it has no hardware TRNG and must never be built for release (FD_RELEASE).")
  endif()
  if(FD_RELEASE AND NOT FD_DEBUG_LOCK_DRIVER)
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: a release build locks the debug port "
      "and needs FD_DEBUG_LOCK_DRIVER (docs/SECURITY.md \"Debug lock\")")
  endif()
  if(FD_EMULATION_ONLY AND NOT FD_BOARD_KIND STREQUAL "qemu")
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: an emulation-only board must be a qemu board")
  endif()
  if(NOT FD_WATCHDOG_TIMEOUT_MS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: FD_WATCHDOG_TIMEOUT_MS "
      "(${FD_WATCHDOG_TIMEOUT_MS}) must be a positive number of milliseconds")
  endif()
  # A dealer image must run with its watchdog, or refuse to start: on
  # hardware boards, and under QEMU where QEMU models it. The host has none;
  # the micro:bit's is not modelled, so its images (release ones too: the
  # release tests run under QEMU) go on without one when it does not start
  # (on a real nRF51 it always does).
  if(FD_BOARD_KIND STREQUAL "hardware" OR FD_WATCHDOG_QEMU)
    set(FD_WATCHDOG_REQUIRED 1)
  else()
    set(FD_WATCHDOG_REQUIRED 0)
  endif()
  if(NOT FD_FLASH_WORD_WRITES MATCHES "^[0-9]+$")
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: FD_FLASH_WORD_WRITES "
      "(${FD_FLASH_WORD_WRITES}) must be a count of programs (0: no limit)")
  endif()
  if(FD_STORAGE_EMULATED AND NOT FD_BOARD_KIND STREQUAL "qemu")
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: an emulated store (FD_STORAGE_EMULATED) "
      "keeps nothing across a power cut; only a qemu board may have one")
  endif()
  math(EXPR fd_page "${FD_FLASH_PAGE_SIZE}")
  math(EXPR fd_addr "${FD_FLASH_BASE}")
  math(EXPR fd_end "${FD_FLASH_BASE} + (${FD_FLASH_SIZE})")
  foreach(fd_fact FD_FLASH_BASE FD_FLASH_SIZE FD_FLASH_PAGE_SIZE)
    math(EXPR ${fd_fact} "${${fd_fact}}" OUTPUT_FORMAT HEXADECIMAL)
  endforeach()
  if(fd_page LESS_EQUAL 0)
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: FD_FLASH_PAGE_SIZE must be positive")
  endif()
  foreach(fd_region IN LISTS FD_FLASH_REGIONS)
    math(EXPR fd_size "${FD_FLASH_${fd_region}_SIZE}")
    math(EXPR fd_misaligned "(${fd_addr} | ${fd_size}) % ${fd_page}")
    if(fd_size LESS 0 OR (fd_size EQUAL 0 AND NOT fd_region STREQUAL "BOOTLOADER") OR NOT fd_misaligned EQUAL 0)
      message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: FD_FLASH_${fd_region}_SIZE "
        "(${FD_FLASH_${fd_region}_SIZE}) must be a positive multiple of FD_FLASH_PAGE_SIZE (${fd_page})")
    endif()
    math(EXPR FD_FLASH_${fd_region}_ADDR "${fd_addr}" OUTPUT_FORMAT HEXADECIMAL)
    math(EXPR FD_FLASH_${fd_region}_SIZE "${fd_size}" OUTPUT_FORMAT HEXADECIMAL)
    math(EXPR fd_addr "${fd_addr} + ${fd_size}")
  endforeach()
  if(fd_addr GREATER fd_end)
    message(FATAL_ERROR "boards/${fd_board_arg}/board.cmake: the flash map (${FD_FLASH_REGIONS}) "
      "needs more than FD_FLASH_SIZE (${FD_FLASH_SIZE})")
  endif()
  if(FD_BOARD_KIND STREQUAL "qemu" AND NOT FD_RELEASE)
    set(FD_SEMIHOSTING ON) # exit codes under QEMU; the entropy of emulation-only boards
  else()
    set(FD_SEMIHOSTING OFF) # on hardware without a debugger a bkpt 0xab would fault
  endif()
endmacro()

# fd_add_board_library(): the HAL of the board loaded by fd_load_board, as
# the OBJECT library fd_board, with its generated flash map header
# (fd_board_map.h) and, on Cortex-M, its linker script memory.ld.
function(fd_add_board_library)
  set(dir ${FD_SOURCE_ROOT}/boards/${FD_BOARD})
  set(common ${FD_SOURCE_ROOT}/boards/common)
  set(gen ${PROJECT_BINARY_DIR}/generated)
  list(TRANSFORM FD_BOARD_SOURCES PREPEND ${dir}/)
  set(watchdog ${FD_WATCHDOG_DRIVER})
  list(TRANSFORM watchdog PREPEND ${dir}/)
  set(sources ${FD_BOARD_SOURCES} ${dir}/${FD_TRNG_DRIVER} ${dir}/${FD_STORAGE_DRIVER} ${watchdog} ${common}/board_facts.c)
  if(NOT FD_BOARD_KIND STREQUAL "host")
    set(timebase ${common}/cortex-m/systick.c)
    if(FD_TIMEBASE_DRIVER)
      set(timebase ${dir}/${FD_TIMEBASE_DRIVER})
    endif()
    list(APPEND sources ${common}/cortex-m/reset.c ${common}/cortex-m/fault.c ${timebase}
      ${common}/cortex-m/semihost.c ${common}/cortex-m/exit_counter.c ${common}/cortex-m/terminal.c
      ${common}/uart/tx_bound.c)
  endif()
  if(FD_RELEASE)
    list(APPEND sources ${dir}/${FD_DEBUG_LOCK_DRIVER})
  endif()
  add_library(fd_board OBJECT ${sources})
  if(FD_RELEASE)
    target_compile_definitions(fd_board PRIVATE FD_DEBUG_LOCK=1)
  endif()
  target_include_directories(fd_board PUBLIC ${dir} ${gen})
  target_link_libraries(fd_board PUBLIC fd_hal)
  target_compile_definitions(fd_board PRIVATE ${FD_BOARD_DEFINITIONS})
  target_compile_definitions(fd_board PUBLIC FD_WATCHDOG_TIMEOUT_MS=${FD_WATCHDOG_TIMEOUT_MS}u
    FD_WATCHDOG_REQUIRED=${FD_WATCHDOG_REQUIRED})
  set(emulation_only false)
  if(FD_EMULATION_ONLY)
    set(emulation_only true)
  endif()
  set(storage_emulated false)
  if(FD_STORAGE_EMULATED)
    set(storage_emulated true)
  endif()
  set_property(SOURCE ${common}/board_facts.c APPEND PROPERTY COMPILE_DEFINITIONS
    "FD_BOARD_NAME=\"${FD_BOARD}\"" "FD_TRNG_NAME=\"${FD_TRNG_NAME}\"" "FD_EMULATION_ONLY=${emulation_only}"
    "FD_STORAGE_NAME=\"${FD_STORAGE_NAME}\"" "FD_STORAGE_EMULATED=${storage_emulated}"
    "FD_WATCHDOG_NAME=\"${FD_WATCHDOG_NAME}\"")

  set(map "/* Generated from boards/${FD_BOARD}/board.cmake by cmake/board.cmake: do not edit. */\n")
  string(APPEND map "#ifndef FD_BOARD_MAP_H\n#define FD_BOARD_MAP_H\n\n")
  string(APPEND map "#define FD_FLASH_BASE ${FD_FLASH_BASE}u\n#define FD_FLASH_SIZE ${FD_FLASH_SIZE}u\n")
  string(APPEND map "#define FD_FLASH_PAGE_SIZE ${FD_FLASH_PAGE_SIZE}u\n")
  string(APPEND map "#define FD_FLASH_WORD_WRITES ${FD_FLASH_WORD_WRITES}u /* programs of a word between erases; 0: no limit */\n")
  foreach(region IN LISTS FD_FLASH_REGIONS)
    string(APPEND map "#define FD_${region}_ADDR ${FD_FLASH_${region}_ADDR}u\n")
    string(APPEND map "#define FD_${region}_SIZE ${FD_FLASH_${region}_SIZE}u\n")
  endforeach()
  math(EXPR storage_pages "${FD_FLASH_STORAGE_SIZE} / ${FD_FLASH_PAGE_SIZE}")
  string(APPEND map "#define FD_STORAGE_PAGES ${storage_pages}u /* the journal's erase pages */\n")
  string(APPEND map "\n#endif\n")
  file(CONFIGURE OUTPUT ${gen}/fd_board_map.h CONTENT "${map}" @ONLY)

  if(NOT FD_BOARD_KIND STREQUAL "host")
    target_compile_definitions(fd_board PUBLIC FD_CPU_HZ=${FD_CPU_HZ}u)
    target_include_directories(fd_board PUBLIC ${common}/cortex-m)
    if(FD_SEMIHOSTING)
      target_compile_definitions(fd_board PUBLIC FD_SEMIHOSTING=1)
    endif()
    # Three layouts (docs/SECURITY.md "Boot"): a plain image (memory.ld)
    # starts at the reset address and may fill the bootloader room and slot
    # A, with no bootloader; a signed application (slot.ld) runs from slot A
    # after its header room and leaves room for its trailer; the bootloader
    # (boot.ld) fills the bootloader room. The other regions are kept out.
    math(EXPR ram_base "${FD_RAM_BASE}" OUTPUT_FORMAT HEXADECIMAL)
    math(EXPR ram_size "${FD_RAM_SIZE}" OUTPUT_FORMAT HEXADECIMAL)
    math(EXPR stack_size "${FD_STACK_SIZE}")
    math(EXPR plain_size "${FD_FLASH_BOOTLOADER_SIZE} + ${FD_FLASH_SLOT_A_SIZE}" OUTPUT_FORMAT HEXADECIMAL)
    math(EXPR app_addr "${FD_FLASH_SLOT_A_ADDR} + 512" OUTPUT_FORMAT HEXADECIMAL) # FD_IMAGE_HEADER_ROOM
    # room for the trailer: 3 KiB holds the default set's (FD_IMAGE_TLV_DEFAULT_SIZE, 2,588 B) and any one-level
    # set up to H15/W4; a two-level key's (about 4 KiB) needs a body 1 KiB short of the limit, or the bootloader
    # refuses the image ("TLV trailer beyond the slot")
    math(EXPR app_size "${FD_FLASH_SLOT_A_SIZE} - 512 - 3072" OUTPUT_FORMAT HEXADECIMAL)
    set(layouts "memory|${FD_FLASH_BASE}|${plain_size}" "slot|${app_addr}|${app_size}")
    if(FD_FLASH_BOOTLOADER_SIZE GREATER 0)
      list(APPEND layouts "boot|${FD_FLASH_BOOTLOADER_ADDR}|${FD_FLASH_BOOTLOADER_SIZE}")
    endif()
    foreach(layout IN LISTS layouts)
      string(REPLACE "|" ";" layout "${layout}")
      list(GET layout 0 layout_name)
      list(GET layout 1 flash_addr)
      list(GET layout 2 flash_size)
      set(ld "/* Generated from boards/${FD_BOARD}/board.cmake by cmake/board.cmake: do not edit. */\n")
      string(APPEND ld "MEMORY\n{\n")
      string(APPEND ld "  FLASH (rx)  : ORIGIN = ${flash_addr}, LENGTH = ${flash_size}\n")
      string(APPEND ld "  RAM   (rwx) : ORIGIN = ${ram_base}, LENGTH = ${ram_size}\n}\n")
      set(entry fd_reset_handler)
      if(layout_name STREQUAL "boot")
        set(entry fd_boot_reset) # bootloader/console.c
      endif()
      string(APPEND ld "ENTRY(${entry})\n_stack_size = ${stack_size};\nINCLUDE sections.ld\n")
      if(layout_name STREQUAL "memory")
        set(memory_ld "${ld}")
      else()
        file(CONFIGURE OUTPUT ${gen}/${layout_name}.ld CONTENT "${ld}" @ONLY)
      endif()
    endforeach()
    set(ld "${memory_ld}")
    if(FD_RELEASE AND FD_DEBUG_LOCK_UICR_ADDR)
      # the debug lock's UICR word (docs/SECURITY.md "Debug lock"): in the .elf and .hex, not the .bin
      string(APPEND ld "SECTIONS\n{\n  .uicr_lock ${FD_DEBUG_LOCK_UICR_ADDR} : { KEEP(*(.uicr_lock)) }\n}\n")
      string(APPEND ld "ASSERT(SIZEOF(.uicr_lock) == 4, \"release build without its UICR debug lock word\")\n")
    endif()
    file(CONFIGURE OUTPUT ${gen}/memory.ld CONTENT "${ld}" @ONLY)
    target_link_options(fd_board INTERFACE -L${common}/cortex-m)
    set_property(GLOBAL PROPERTY FD_LINK_DEPENDS ${common}/cortex-m/sections.ld)
  endif()
  if(FD_BOARD_KIND STREQUAL "qemu")
    # for tests/qemu/run.sh and scripts/run.sh: how to run this tree's images
    file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/qemu.env @ONLY CONTENT
      "# Generated from boards/${FD_BOARD}/board.cmake: do not edit.\nFD_QEMU_MACHINE='${FD_QEMU_MACHINE}'\nFD_QEMU_FLAGS='${FD_QEMU_FLAGS}'\n")
  endif()
endfunction()
