# Flashable artifacts of every Cortex-M image: next to <name>.elf, the
# files fairdeal-<name>-<board>-<version>.{elf,hex,bin,map} and .sha256
# (sha256sum -c format, for the .bin, .hex and .elf: the "program
# verification" hash a test lab asks for). The .bin starts at the first
# loadable address (0x0 on the nRF parts, 0x08000000 on the STM32).
# The version in artifact names: the project's (lib/include/fairdeal/
# version.h) unless -DFD_VERSION=... says otherwise. Not a cache default, so
# a version bump renames the artifacts of an existing build tree too.
if(NOT DEFINED FD_VERSION)
  set(FD_VERSION "${PROJECT_VERSION}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/flash.cmake)

# fd_image_artifacts(TARGET): called by fd_add_image for non-host boards.
function(fd_image_artifacts target)
  set(stem "fairdeal-${target}-${FD_BOARD}-${FD_VERSION}")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DELF=$<TARGET_FILE:${target}> -DSTEM=${stem}
            -DOBJCOPY=${CMAKE_OBJCOPY} -P ${FD_SOURCE_ROOT}/cmake/make_artifacts.cmake
    VERBATIM)
  fd_flash_targets(${target} ${stem})
endfunction()
