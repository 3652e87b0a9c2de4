include(${CMAKE_CURRENT_LIST_DIR}/artifacts.cmake)

# fd_add_image(NAME [LAYOUT memory|slot|boot] SOURCES...): an executable for
# the current board. On Cortex-M boards it gets the board's startup and HAL
# objects, the heap guard (cmake/cortex-m.cmake), a size report after every
# link and the flashable artifacts (cmake/artifacts.cmake). LAYOUT (Cortex-M):
# memory (default) a plain image from the reset address, slot a signed
# application in slot A, boot the bootloader (cmake/board.cmake).
function(fd_add_image name)
  cmake_parse_arguments(I "" "LAYOUT" "" ${ARGN})
  if(NOT I_LAYOUT)
    set(I_LAYOUT memory)
  endif()
  add_executable(${name} ${I_UNPARSED_ARGUMENTS})
  if(I_LAYOUT STREQUAL "boot")
    # the board's objects but its startup.c: the bootloader has its own vector table
    target_sources(${name} PRIVATE "$<FILTER:$<TARGET_OBJECTS:fd_board>,EXCLUDE,/startup\\.c\\.obj$>")
    foreach(usage INCLUDE_DIRECTORIES COMPILE_DEFINITIONS LINK_OPTIONS)
      set_property(TARGET ${name} APPEND PROPERTY ${usage} "$<TARGET_PROPERTY:fd_board,INTERFACE_${usage}>")
    endforeach()
    target_link_libraries(${name} PRIVATE fd_hal fairdeal)
  else()
    target_link_libraries(${name} PRIVATE fd_board fairdeal)
  endif()
  if(NOT FD_BOARD STREQUAL "host")
    target_link_options(${name} PRIVATE -T${PROJECT_BINARY_DIR}/generated/${I_LAYOUT}.ld)
    set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${PROJECT_BINARY_DIR}/generated/${I_LAYOUT}.ld)
    set_target_properties(${name} PROPERTIES SUFFIX ".elf")
    target_link_options(${name} PRIVATE "-Wl,-Map=$<TARGET_FILE_DIR:${name}>/${name}.map")
    get_property(link_depends GLOBAL PROPERTY FD_LINK_DEPENDS)
    set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS ${link_depends})
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${CMAKE_SIZE} $<TARGET_FILE:${name}>
      VERBATIM)
    fd_image_artifacts(${name})
  endif()
endfunction()
