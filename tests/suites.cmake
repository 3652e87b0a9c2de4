# Unit-test suites built for the host (cmocka) and for every QEMU board
# (tests/target/cmocka.h stand-in), and the registration of a board's tests
# from its facts (boards/<b>/board.cmake). Shared by tests/CMakeLists.txt
# and the host build that registers the boards' tests.
set(FD_UNIT_SUITES bounded shuffle crypto entropy deck drivers seeded storage commit golden lms link)

# A QEMU run: tests/qemu/run.sh takes the machine and its flags from the
# qemu.env that the image's build tree wrote from board.cmake.
function(fd_add_qemu_test name)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS "qemu")
endfunction()

# All tests of one board whose build tree is bindir.
function(fd_register_board_tests board bindir)
  fd_load_board(${board})
  set(qemu ${FD_SOURCE_ROOT}/tests/qemu)
  if(FD_BOARD_KIND STREQUAL "qemu")
    foreach(suite IN LISTS FD_UNIT_SUITES)
      fd_add_qemu_test(${board}.unit.${suite} ${qemu}/run.sh ${FD_QEMU_MACHINE} ${bindir}/tests/test_${suite}.elf)
    endforeach()
    if(board STREQUAL "microbit") # the nRF51's TIMER0 time base, SysTick unused
      fd_add_qemu_test(microbit.trng_stall ${qemu}/run.sh ${FD_QEMU_MACHINE} ${bindir}/tests/test_trng_stall.elf)
    endif()
    # fairdeal-tool checks what the dealer tests record: the host tree's own,
    # in a board's tree the one its bootloader signs with (bootloader/CMakeLists.txt);
    # the scripts fail without it, never skip the check
    if(TARGET fairdeal-tool)
      set(tool $<TARGET_FILE:fairdeal-tool>)
    elseif(FD_TOOL)
      set(tool ${FD_TOOL})
    elseif(TARGET host-tool)
      set(tool ${bindir}/host-tool/bin/fairdeal-tool)
    else()
      set(tool "")
    endif()
    fd_add_qemu_test(${board}.dealer.e2e ${qemu}/dealer_e2e.sh ${board} ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf
      ${tool})
    if(board STREQUAL "microbit") # N power-ups, N different first rounds (docs/ENTROPY.md "Lab mode": the restart test)
      fd_add_qemu_test(${board}.dealer.restart ${qemu}/restart.sh 4 -- ${qemu}/run.sh ${FD_QEMU_MACHINE}
        ${bindir}/firmware/dealer.elf -)
    endif()
    # the console over the link with the independent controller (docs/LINK.md): Cortex-M0 (~11 s) and M4 (~2 s)
    if(board STREQUAL "microbit" OR board STREQUAL "mps2-an386")
      fd_add_qemu_test(${board}.link.dealer /usr/bin/python3 ${FD_SOURCE_ROOT}/tests/link/dealer_link.py
        ${qemu}/run.sh ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf -)
    endif()
    if(board STREQUAL "microbit") # its interrupt-driven receive ring drops (and counts) when full
      fd_add_qemu_test(${board}.uart.flood ${qemu}/uart_flood.sh ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf ${tool})
    endif()
    if(board STREQUAL "microbit") # echo injection in human mode (docs/PROTOCOL.md "Human and machine mode")
      fd_add_qemu_test(${board}.dealer.echo ${qemu}/echo_injection.sh ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf
        ${tool})
    endif()
    # Without QEMU's semihosting switch the image must name it and stop
    # with a nonzero status: the dealer of an emulation-only board at its
    # first entropy read, another board's (shortest) test image at its exit.
    if(FD_EMULATION_ONLY)
      set(image ${bindir}/firmware/dealer.elf)
    else()
      set(image ${bindir}/tests/test_deck.elf)
    endif()
    if(FD_WATCHDOG_QEMU) # HANG in the dealer test image: the watchdog resets it, it comes back
      fd_add_qemu_test(${board}.watchdog.reset ${qemu}/watchdog_reset.sh ${FD_QEMU_MACHINE}
        ${bindir}/firmware/dealer_test.elf ${bindir}/firmware/dealer.elf)
    endif()
    if(FD_QEMU_SERIAL_BREAK)
      fd_add_qemu_test(${board}.console.break ${qemu}/console_break.sh ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf)
    endif()
    fd_add_qemu_test(${board}.no_semihosting ${qemu}/no_semihosting.sh ${FD_QEMU_MACHINE} ${image})
    if(FD_FLASH_BOOTLOADER_SIZE GREATER 0)
      # the bootloader: the signed dealer boots, tampered, foreign-key, older and missing images are refused
      fd_add_qemu_test(${board}.boot ${qemu}/boot.sh ${bindir})
      # VERIFY <seed> agrees with fairdeal-tool program-verify (docs/PROTOCOL.md VERIFY)
      fd_add_qemu_test(${board}.program_verify ${qemu}/program_verify.sh ${bindir})
      if(FD_BOOT_UPDATES)
        # signed updates over the console driven by fairdeal-tool update: installed and kept across a reset;
        # bad signature, other key, older version, truncated and cut-off transfers leave the old image
        # (the mps2-an386 under -icount runs three minutes for all: there the good, rollback, bad signature
        # and cut-off cases)
        if(board STREQUAL "microbit")
          fd_add_qemu_test(${board}.update ${qemu}/update.sh ${bindir})
        else()
          fd_add_qemu_test(${board}.update ${qemu}/update.sh ${bindir} good,rollback,badsig,cut)
        endif()
        set_tests_properties(${board}.update PROPERTIES TIMEOUT 600)
      endif()
    endif()
    if(NOT FD_STORAGE_EMULATED)
      # the journal across power cuts stood in for by freezing QEMU and
      # booting a fresh one with the saved storage area
      fd_add_qemu_test(${board}.journal.cut ${qemu}/journal_cut.sh ${FD_QEMU_MACHINE}
        ${bindir}/tests/journal_cut.elf ${FD_FLASH_STORAGE_ADDR} ${FD_FLASH_STORAGE_SIZE})
      # the same stand-in around the dealer image: the open round revealed after the cut, ids continue
      fd_add_qemu_test(${board}.dealer.cut ${qemu}/dealer_cut.sh ${FD_QEMU_MACHINE}
        ${bindir}/firmware/dealer.elf ${FD_FLASH_STORAGE_ADDR} ${FD_FLASH_STORAGE_SIZE} ${tool})
      # a whole 8-deck + 2-joker seeded shoe dealt one card per DEAL, revealed and verified
      fd_add_qemu_test(${board}.dealer.shoe ${qemu}/dealer_shoe.sh ${FD_QEMU_MACHINE} ${bindir}/firmware/dealer.elf ${tool})
    endif()
    add_test(NAME ${board}.nomalloc_guard
      COMMAND ${CMAKE_COMMAND} --build ${bindir} --target nomalloc_probe)
    set_tests_properties(${board}.nomalloc_guard PROPERTIES
      PASS_REGULAR_EXPRESSION "undefined reference to `__wrap_malloc'")
  endif()
  if(NOT FD_BOARD_KIND STREQUAL "host")
    # every board, build-only ones too: the dealer image exists and its size
    add_test(NAME ${board}.dealer.size
      COMMAND ${FD_SOURCE_ROOT}/tests/qemu/image_size.sh ${bindir}/firmware/dealer.elf)
    # its .hex/.bin hold exactly the .elf's loadable bytes; flash targets (dry run)
    fd_register_hw_tests(${board} ${bindir})
  endif()
endfunction()

# The board facts' checks (host only): presets derived from boards/list.txt
# are up to date, every board loads, and a board with a missing or
# inconsistent fact fails with a message that names it.
function(fd_register_board_fact_tests)
  add_test(NAME host.boards.presets COMMAND ${CMAKE_COMMAND} -DFD_CHECK=ON -P ${FD_SOURCE_ROOT}/cmake/presets.cmake)
  set(script ${FD_SOURCE_ROOT}/tests/tools/board_facts.cmake)
  add_test(NAME host.boards.all_load COMMAND ${CMAKE_COMMAND} -DBOARD=all -P ${script})
  set_tests_properties(host.boards.all_load PROPERTIES PASS_REGULAR_EXPRESSION "every board's facts load")
  # name | arguments, comma-separated | the error expected
  set(cases
    "missing_cpu_hz|-DBOARD=microbit,-DDROP=FD_CPU_HZ|boards/microbit/board.cmake misses FD_CPU_HZ"
    "missing_qemu_machine|-DBOARD=mps2-an386,-DDROP=FD_QEMU_MACHINE|boards/mps2-an386/board.cmake misses FD_QEMU_MACHINE"
    "missing_storage|-DBOARD=host,-DDROP=FD_FLASH_STORAGE_SIZE|boards/host/board.cmake misses FD_FLASH_STORAGE_SIZE"
    "missing_word_writes|-DBOARD=microbit,-DDROP=FD_FLASH_WORD_WRITES|boards/microbit/board.cmake misses FD_FLASH_WORD_WRITES"
    "bad_word_writes|-DBOARD=nrf52840-dk,-DSET=FD_FLASH_WORD_WRITES two|FD_FLASH_WORD_WRITES .two. must be a count"
    "release_without_debug_lock|-DBOARD=stm32f407-discovery,-DDROP=FD_DEBUG_LOCK_DRIVER,-DFD_RELEASE=ON|a release build locks the debug port and needs FD_DEBUG_LOCK_DRIVER"
    "release_emulation_only|-DBOARD=mps2-an386,-DFD_RELEASE=ON|mps2-an386 is emulation-only .* must never be built for release"
    "flash_overflow|-DBOARD=microbit,-DSET=FD_FLASH_SLOT_B_SIZE 128*1024|the flash map .* needs more than FD_FLASH_SIZE"
    "misaligned_storage|-DBOARD=microbit,-DSET=FD_FLASH_STORAGE_SIZE 1000|FD_FLASH_STORAGE_SIZE .1000. must be a positive multiple"
    "missing_watchdog|-DBOARD=stm32f407-discovery,-DDROP=FD_WATCHDOG_DRIVER|boards/stm32f407-discovery/board.cmake misses FD_WATCHDOG_DRIVER"
    "missing_watchdog_qemu|-DBOARD=lm3s6965evb,-DDROP=FD_WATCHDOG_QEMU|boards/lm3s6965evb/board.cmake misses FD_WATCHDOG_QEMU"
    "zero_watchdog_timeout|-DBOARD=microbit,-DSET=FD_WATCHDOG_TIMEOUT_MS 0|FD_WATCHDOG_TIMEOUT_MS .0. must be a positive number")
  foreach(case IN LISTS cases)
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(GET fields 1 args)
    list(GET fields 2 expected)
    string(REPLACE "," ";" args "${args}")
    string(REPLACE " " "[ \n]+" expected "${expected}") # CMake wraps long messages
    add_test(NAME host.boards.${name} COMMAND ${CMAKE_COMMAND} ${args} -P ${script})
    set_tests_properties(host.boards.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}")
  endforeach()
endfunction()
