# Unit-test suites built for the host (cmocka) and for every QEMU board
# (tests/target/cmocka.h stand-in). Shared by tests/CMakeLists.txt and the
# host build that registers the boards' tests.
set(FD_UNIT_SUITES bounded shuffle crypto entropy deck drivers golden)

# fd_add_qemu_test(NAME n MACHINE m IMAGE path [INPUT file])
function(fd_add_qemu_test)
  cmake_parse_arguments(Q "" "NAME;MACHINE;IMAGE;INPUT" "" ${ARGN})
  add_test(NAME ${Q_NAME}
    COMMAND ${FD_SOURCE_ROOT}/tests/qemu/run.sh ${Q_MACHINE} ${Q_IMAGE} ${Q_INPUT})
  set_tests_properties(${Q_NAME} PROPERTIES TIMEOUT 300 LABELS "qemu")
  fd_qemu_environment(${Q_NAME} ${Q_MACHINE})
endfunction()

# mps2-an386 runs with -icount: without it QEMU's SysTick there does not
# advance reliably (counts of 0 across thousands of instructions were seen),
# and its entropy (semihosting) has no timer to wait for. The microbit runs
# in real time: its RNG needs ~660 us of virtual time per byte, which would
# be ~660,000 instructions of polling per byte under -icount shift=0.
function(fd_qemu_environment test machine)
  if(machine STREQUAL "mps2-an386")
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "FD_QEMU_EXTRA=-icount shift=0,sleep=off")
  endif()
endfunction()

# All tests of one board whose build tree is bindir.
function(fd_register_board_tests board bindir)
  if(board IN_LIST FD_BOARDS_QEMU)
    set(machines_microbit microbit)
    set(machines_mps2-an386 mps2-an386)
    foreach(suite IN LISTS FD_UNIT_SUITES)
      fd_add_qemu_test(NAME ${board}.unit.${suite} MACHINE ${machines_${board}}
        IMAGE ${bindir}/tests/test_${suite}.elf)
    endforeach()
    add_test(NAME ${board}.dealer.e2e COMMAND ${FD_SOURCE_ROOT}/tests/qemu/dealer_e2e.sh
      ${machines_${board}} ${bindir}/firmware/dealer.elf)
    set_tests_properties(${board}.dealer.e2e PROPERTIES TIMEOUT 300 LABELS "qemu")
    fd_qemu_environment(${board}.dealer.e2e ${machines_${board}})
    add_test(NAME ${board}.nomalloc_guard
      COMMAND ${CMAKE_COMMAND} --build ${bindir} --target nomalloc_probe)
    set_tests_properties(${board}.nomalloc_guard PROPERTIES
      PASS_REGULAR_EXPRESSION "undefined reference to `__wrap_malloc'")
  endif()
  # every board, build-only ones too: the dealer image exists and its size
  add_test(NAME ${board}.dealer.size
    COMMAND ${FD_SOURCE_ROOT}/tests/qemu/image_size.sh ${bindir}/firmware/dealer.elf)
endfunction()
