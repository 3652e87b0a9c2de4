# fd_cortex_m_board(SOURCES...): the board's OBJECT library with the shared
# Cortex-M pieces and the board's linker script (boards/<b>/linker.ld).
# The time base is SysTick unless the board sets FD_TIMEBASE_SOURCE.
function(fd_cortex_m_board)
  set(common ${CMAKE_SOURCE_DIR}/boards/common/cortex-m)
  if(NOT FD_TIMEBASE_SOURCE)
    set(FD_TIMEBASE_SOURCE ${common}/systick.c)
  endif()
  add_library(fd_board OBJECT ${ARGN}
    ${common}/reset.c ${common}/fault.c ${FD_TIMEBASE_SOURCE} ${common}/semihost.c ${common}/exit_counter.c)
  target_include_directories(fd_board PUBLIC ${common} ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(fd_board PUBLIC fd_hal)
  target_link_options(fd_board INTERFACE
    -T${CMAKE_CURRENT_SOURCE_DIR}/linker.ld -L${common})
  if(FD_SEMIHOSTING)
    target_compile_definitions(fd_board PUBLIC FD_SEMIHOSTING=1)
  endif()
endfunction()
