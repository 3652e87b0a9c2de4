# cmake -DIN=<key.pub> -DOUT=<boot_key.h> -P boot_key.cmake
# The bootloader's built-in public key as a C array (bootloader/main.c).
file(SIZE "${IN}" size)
if(NOT size EQUAL 60)
  message(FATAL_ERROR "${IN}: ${size} bytes, an HSS public key has 60")
endif()
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1u, " bytes "${hex}")
# Defined where FD_BOOT_KEY_DEFINE is (bootloader/vectors.c: the table's reserved entry 7 points at it, where
# the signed dealer finds the key it checks updates with, docs/SECURITY.md "Updates"), declared elsewhere.
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/boot_key.cmake: do not edit. */\n#include <stdint.h>\n#define FD_BOOT_KEY_SIZE 60u\nextern const uint8_t fd_boot_key[FD_BOOT_KEY_SIZE];\n#if defined(FD_BOOT_KEY_DEFINE)\nconst uint8_t fd_boot_key[FD_BOOT_KEY_SIZE] = {${bytes}};\n#endif\n")
