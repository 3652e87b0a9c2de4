# Flash and console targets for the real boards (scripts/flash.sh and
# scripts/console.sh do the work and print the exact command they run):
#   cmake --build --preset <board> --target flash          the dealer
#   cmake --build --preset <board> --target flash-<image>  a test image
#   cmake --build --preset <board> --target console        115200 8N1
set(FD_FLASH_BOARDS microbit stm32f407-discovery nrf52840-dk)
set(FD_FLASH_PROBE "" CACHE STRING
  "flash method, empty for the board's default: microbit drive|pyocd|openocd; stm32f407-discovery openocd|st-flash; nrf52840-dk openocd")
option(FD_FLASH_DRY_RUN "flash/console targets print their command without running it (or env FD_FLASH_DRY_RUN=1)" OFF)

# fd_flash_targets(TARGET STEM): flash-<TARGET> (and flash + console for
# the dealer) on boards in FD_FLASH_BOARDS.
function(fd_flash_targets target stem)
  if(NOT FD_BOARD IN_LIST FD_FLASH_BOARDS)
    return()
  endif()
  set(options)
  if(FD_FLASH_DRY_RUN)
    list(APPEND options --dry-run)
  endif()
  if(FD_FLASH_PROBE)
    list(APPEND options --probe ${FD_FLASH_PROBE})
  endif()
  add_custom_target(flash-${target}
    COMMAND ${FD_SOURCE_ROOT}/scripts/flash.sh ${options} ${FD_BOARD}
            $<TARGET_FILE_DIR:${target}>/${stem}.elf
    DEPENDS ${target} USES_TERMINAL VERBATIM)
  if(target STREQUAL "dealer")
    add_custom_target(flash DEPENDS flash-dealer)
    set(console_options)
    if(FD_FLASH_DRY_RUN)
      list(APPEND console_options --dry-run)
    endif()
    add_custom_target(console
      COMMAND ${FD_SOURCE_ROOT}/scripts/console.sh ${console_options} ${FD_BOARD}
      USES_TERMINAL VERBATIM)
  endif()
endfunction()

# fd_register_hw_tests(BOARD BINDIR): tests without hardware for one
# board's build tree: the dealer's .hex/.bin round trip, and on real boards
# every flash method in dry-run mode and the openocd configuration.
function(fd_register_hw_tests board bindir)
  set(stem fairdeal-dealer-${board}-${FD_VERSION})
  add_test(NAME ${board}.dealer.images
    COMMAND ${FD_SOURCE_ROOT}/tests/hw/image_roundtrip.sh ${bindir}/firmware ${stem})
  if(board IN_LIST FD_FLASH_BOARDS)
    add_test(NAME ${board}.flash.dry_run
      COMMAND ${FD_SOURCE_ROOT}/tests/hw/flash_dry_run.sh ${board} ${bindir} ${stem})
  endif()
  # the code that runs while the STM32 flash is busy lies in SRAM and never
  # reaches into flash (docs/HARDWARE.md "Flash stalls")
  if(board STREQUAL "stm32f407-discovery")
    math(EXPR ram_size "${FD_RAM_SIZE}")
    math(EXPR flash_size "${FD_FLASH_SIZE}")
    add_test(NAME ${board}.dealer.ram_code
      COMMAND ${FD_SOURCE_ROOT}/tests/hw/check_ram_code.py ${bindir}/firmware/dealer.elf ${FD_RAM_BASE} ${ram_size}
              ${FD_FLASH_BASE} ${flash_size} 38 stm32_usart2_irq_handler ram_wait ram_erase ram_program)
    set_tests_properties(${board}.dealer.ram_code PROPERTIES TIMEOUT 60 LABELS "build")
  endif()
  # the bring-up script on the one real board QEMU also runs
  if(board STREQUAL "microbit")
    add_test(NAME microbit.bringup
      COMMAND ${FD_SOURCE_ROOT}/tests/hw/bringup_qemu.sh microbit microbit ${bindir})
    # alone: its TRNG capture polls with QEMU on host time (see fd_qemu_environment)
    set_tests_properties(microbit.bringup PROPERTIES TIMEOUT 300 LABELS "qemu" RUN_SERIAL ON)
  endif()
endfunction()
