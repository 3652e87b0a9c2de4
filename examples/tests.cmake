# The examples, each built as its own project by examples/test_example.sh
# and run (included by tests/CMakeLists.txt in the plain host build).
set(fd_examples_work ${CMAKE_BINARY_DIR}/examples)
add_test(NAME host.example.seeded_deal
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_example.sh seeded-deal ${FD_SOURCE_ROOT}
          ${fd_examples_work}/seeded-deal ${CMAKE_BINARY_DIR})
add_test(NAME host.example.shuffle_structs
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_example.sh shuffle-structs ${FD_SOURCE_ROOT}
          ${fd_examples_work}/shuffle-structs)
if(FD_WITH_BOARDS)
  add_test(NAME host.example.cortex_m
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_example.sh cortex-m ${FD_SOURCE_ROOT}
            ${fd_examples_work}/cortex-m ${FD_SOURCE_ROOT}/build/mps2-an386)
endif()
get_directory_property(fd_example_tests TESTS)
list(FILTER fd_example_tests INCLUDE REGEX "^host\\.example\\.")
set_tests_properties(${fd_example_tests} PROPERTIES TIMEOUT 300 LABELS "examples")
