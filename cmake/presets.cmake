# CMakePresets.json is derived from boards/list.txt and each board's
# board.cmake (FD_BOARD_TITLE, FD_BOARD_KIND). Regenerate it after adding a
# board:
#   cmake -P cmake/presets.cmake
# Check that it is up to date (a host test does this):
#   cmake -DFD_CHECK=ON -P cmake/presets.cmake
cmake_minimum_required(VERSION 3.25)
get_filename_component(FD_SOURCE_ROOT ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)
include(${FD_SOURCE_ROOT}/cmake/board.cmake)

function(fd_board_title_kind board out_title out_kind out_emulation)
  fd_load_board(${board})
  set(${out_title} "${FD_BOARD_TITLE}" PARENT_SCOPE)
  set(${out_kind} "${FD_BOARD_KIND}" PARENT_SCOPE)
  set(${out_emulation} "${FD_EMULATION_ONLY}" PARENT_SCOPE)
endfunction()

fd_board_list(boards)
set(configure "")
set(build "")
set(test "")
foreach(board IN LISTS boards)
  fd_board_title_kind(${board} title kind emulation)
  if(kind STREQUAL "host")
    string(APPEND configure [[
    {
      "name": "@board@",
      "displayName": "@title@; also builds every board",
      "binaryDir": "${sourceDir}/build/@board@",
      "cacheVariables": {"FD_BOARD": "@board@", "CMAKE_BUILD_TYPE": "RelWithDebInfo", "FD_WITH_BOARDS": "ON"}
    },
    {
      "name": "@board@-sanitize",
      "displayName": "Host under ASan + UBSan, with the libFuzzer targets (clang)",
      "binaryDir": "${sourceDir}/build/@board@-sanitize",
      "cacheVariables": {"FD_BOARD": "@board@", "CMAKE_BUILD_TYPE": "RelWithDebInfo", "FD_WITH_BOARDS": "OFF",
                         "CMAKE_C_COMPILER": "clang", "CMAKE_CXX_COMPILER": "clang++",
                         "FD_SANITIZE": "ON", "FD_FUZZ": "ON"}
    },
    {
      "name": "cross-base",
      "hidden": true,
      "binaryDir": "${sourceDir}/build/${presetName}",
      "toolchainFile": "${sourceDir}/cmake/arm-none-eabi.cmake",
      "cacheVariables": {"CMAKE_BUILD_TYPE": "MinSizeRel"}
    },
]])
    string(APPEND build [[
    {"name": "@board@", "configurePreset": "@board@", "jobs": 2},
    {"name": "@board@-sanitize", "configurePreset": "@board@-sanitize", "jobs": 2},
]])
    string(APPEND test [[
    {"name": "@board@", "configurePreset": "@board@", "output": {"outputOnFailure": true}, "execution": {"jobs": 2, "timeout": 600}},
    {"name": "@board@-sanitize", "configurePreset": "@board@-sanitize", "output": {"outputOnFailure": true},
     "execution": {"jobs": 2, "timeout": 900}},
]])
  else()
    string(APPEND configure [[
    {"name": "@board@", "inherits": "cross-base", "displayName": "@title@",
     "cacheVariables": {"FD_BOARD": "@board@"}},
]])
    string(APPEND build [[
    {"name": "@board@", "configurePreset": "@board@", "jobs": 2},
]])
    if(NOT emulation)
      # a release build (FD_RELEASE): provisioned device secret, durable seed
      # file, no lab mode, no semihosting (docs/ENTROPY.md)
      string(APPEND configure [[
    {"name": "@board@-release", "inherits": "cross-base", "displayName": "@title@: release build",
     "cacheVariables": {"FD_BOARD": "@board@", "FD_RELEASE": "ON"}},
]])
      string(APPEND build [[
    {"name": "@board@-release", "configurePreset": "@board@-release", "jobs": 2},
]])
    endif()
    if(kind STREQUAL "qemu")
      string(APPEND test [[
    {"name": "@board@", "configurePreset": "@board@", "output": {"outputOnFailure": true}},
]])
    endif()
  endif()
  foreach(part configure build test)
    string(REPLACE "@board@" "${board}" ${part} "${${part}}")
    string(REPLACE "@title@" "${title}" ${part} "${${part}}")
  endforeach()
endforeach()
foreach(part configure build test)
  string(REGEX REPLACE ",\n$" "\n" ${part} "${${part}}")
endforeach()

set(json "{\n  \"version\": 6,\n  \"cmakeMinimumRequired\": {\"major\": 3, \"minor\": 25, \"patch\": 0},\n")
string(APPEND json "  \"configurePresets\": [\n${configure}  ],\n")
string(APPEND json "  \"buildPresets\": [\n${build}  ],\n")
string(APPEND json "  \"testPresets\": [\n${test}  ]\n}\n")

set(presets ${FD_SOURCE_ROOT}/CMakePresets.json)
if(FD_CHECK)
  file(READ ${presets} current)
  if(NOT current STREQUAL json)
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/CMakePresets.expected.json "${json}")
    message(FATAL_ERROR "CMakePresets.json is out of date with boards/list.txt and the boards' board.cmake: "
      "run cmake -P cmake/presets.cmake (expected: ${CMAKE_CURRENT_BINARY_DIR}/CMakePresets.expected.json)")
  endif()
  message(STATUS "CMakePresets.json is up to date with boards/list.txt")
else()
  file(WRITE ${presets} "${json}")
endif()
