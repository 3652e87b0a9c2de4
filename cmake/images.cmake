# fd_add_image(NAME SOURCES...): an executable for the current board.
# On Cortex-M boards it gets the board's startup and HAL objects, the
# heap guard (cmake/cortex-m.cmake) and a size report after every link.
function(fd_add_image name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE fd_board fairdeal)
  if(NOT FD_BOARD STREQUAL "host")
    set_target_properties(${name} PROPERTIES SUFFIX ".elf")
    target_link_options(${name} PRIVATE "-Wl,-Map=$<TARGET_FILE_DIR:${name}>/${name}.map")
    get_property(link_depends GLOBAL PROPERTY FD_LINK_DEPENDS)
    set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${link_depends})
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${CMAKE_SIZE} $<TARGET_FILE:${name}>
      VERBATIM)
  endif()
endfunction()
