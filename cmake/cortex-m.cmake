# Shared settings for every Cortex-M board, from its facts (FD_BOARD_CPU_FLAGS,
# FD_BOARD_FPU). Included by the top-level CMakeLists.txt before any target.
if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT CMAKE_C_COMPILER MATCHES "arm-none-eabi")
  message(FATAL_ERROR "Board ${FD_BOARD} needs -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake (use the preset)")
endif()

add_compile_options(${FD_BOARD_CPU_FLAGS} -ffreestanding -ffunction-sections -fdata-sections
  -fstack-usage -Os -g -fbuiltin)
add_compile_definitions(FD_TARGET_CORTEX_M=1)
# Reproducible images (docs/SECURITY.md "Reproducible images"): no build
# path in the objects (debug info, __FILE__), so the same source gives the
# same .elf/.hex/.bin wherever and whenever it is built. The build tree
# last: GCC tries the last mapping first, and build/ may lie inside the
# source tree.
add_compile_options(-ffile-prefix-map=${FD_SOURCE_ROOT}=fairdeal
  -ffile-prefix-map=${CMAKE_BINARY_DIR}=fairdeal-build)
if(FD_BOARD_FPU)
  add_compile_definitions(FD_HAS_FPU=1) # the reset code enables the FPU
endif()
add_link_options(${FD_BOARD_CPU_FLAGS} -nostartfiles --specs=nano.specs
  -Wl,--gc-sections -Wl,--print-memory-usage -Wl,--build-id=none)

# No heap in any image. Every reference to these symbols is redirected by
# --wrap to __wrap_<symbol>, which nothing defines, so an image that calls
# malloc (directly, or through printf and friends, which call _malloc_r)
# fails to link with "undefined reference to `__wrap_malloc'".
set(FD_FORBIDDEN_SYMBOLS
  malloc free calloc realloc _malloc_r _free_r _calloc_r _realloc_r _sbrk _sbrk_r
  printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf puts
  _printf_r _vfprintf_r _svfprintf_r _svfiprintf_r)
foreach(sym IN LISTS FD_FORBIDDEN_SYMBOLS)
  add_link_options("-Wl,--wrap=${sym}")
endforeach()

