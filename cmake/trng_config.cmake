# The board's TRNG health-test constants, derived at build time from its
# assessed min-entropy FD_TRNG_H_BITS (a fact of boards/<b>/board.cmake) by
# tools/gen_trng_config.c, built with the host C compiler even in cross
# builds. Link fd_trng_config to see the header.
find_program(FD_HOST_CC NAMES cc gcc REQUIRED)
set(gen_dir ${PROJECT_BINARY_DIR}/generated)
set(gen_tool ${PROJECT_BINARY_DIR}/tools/gen_trng_config)
add_custom_command(
  OUTPUT ${gen_dir}/fd_trng_config.h
  COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir} ${PROJECT_BINARY_DIR}/tools
  COMMAND ${FD_HOST_CC} -std=c11 -O2 -Wall -Wextra -Werror -o ${gen_tool}
          ${FD_SOURCE_ROOT}/tools/gen_trng_config.c ${FD_SOURCE_ROOT}/tools/health_cutoffs.c -lm
  COMMAND ${gen_tool} ${FD_TRNG_H_BITS} > ${gen_dir}/fd_trng_config.h
  DEPENDS ${FD_SOURCE_ROOT}/tools/gen_trng_config.c ${FD_SOURCE_ROOT}/tools/health_cutoffs.c
          ${FD_SOURCE_ROOT}/boards/${FD_BOARD}/board.cmake
  COMMENT "TRNG health-test constants for H = ${FD_TRNG_H_BITS} bits/sample"
  VERBATIM)
add_custom_target(fd_trng_config_gen DEPENDS ${gen_dir}/fd_trng_config.h)
add_library(fd_trng_config INTERFACE)
target_include_directories(fd_trng_config INTERFACE ${gen_dir})
add_dependencies(fd_trng_config fd_trng_config_gen)
