# Timing-budget images (docs/HARDWARE.md "Timing budget"): in the build of a
# QEMU board, one image per real board that names it as FD_BUDGET_QEMU_BOARD
# (same core), built with the real board's storage geometry, TRNG
# health-test constants (its H) and timing facts; scripts/budget.py runs them
# under -icount and checks the budget.

# The real board's facts the image needs, as a list: qemu board, H, page
# size, pages, CPU Hz, watchdog ms, erase us, program ns, sample ns, ns per
# flash operation (0 unless set; empty when the board has no budget).
function(fd_budget_facts board out)
  fd_load_board(${board})
  if(NOT FD_BUDGET_QEMU_BOARD)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  math(EXPR page "${FD_FLASH_PAGE_SIZE}")
  math(EXPR pages "${FD_FLASH_STORAGE_SIZE} / ${FD_FLASH_PAGE_SIZE}")
  set(op_ns 0)
  if(FD_BUDGET_OP_NS)
    set(op_ns ${FD_BUDGET_OP_NS})
  endif()
  set(${out} ${FD_BUDGET_QEMU_BOARD} ${FD_TRNG_H_BITS} ${page} ${pages} ${FD_CPU_HZ} ${FD_WATCHDOG_TIMEOUT_MS}
    ${FD_BUDGET_ERASE_US} ${FD_BUDGET_PROGRAM_NS} ${FD_BUDGET_SAMPLE_NS} ${op_ns} PARENT_SCOPE)
endfunction()

# fd_dealer_for_geometry(LIB PAGE_SIZE PAGES): the dealer (fd_dealer's
# sources) built again as LIB for another journal geometry: its page table
# and keep counts are compile-time (firmware/CMakeLists.txt).
function(fd_dealer_for_geometry lib page pages)
  get_target_property(sources fd_dealer SOURCES)
  get_target_property(source_dir fd_dealer SOURCE_DIR)
  list(TRANSFORM sources PREPEND ${source_dir}/)
  add_library(${lib} STATIC ${sources})
  target_include_directories(${lib} PUBLIC $<TARGET_PROPERTY:fd_dealer,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(${lib} PUBLIC $<TARGET_PROPERTY:fd_dealer,INTERFACE_LINK_LIBRARIES>)
  target_compile_definitions(${lib} PUBLIC FD_DEALER_JOURNAL_PAGES=${pages}u FD_DEALER_JOURNAL_PAGE_SIZE=${page}u)
endfunction()

function(fd_add_budget_images)
  set(here ${FD_BOARD})
  set(ram_store 0)
  if(FD_STORAGE_EMULATED)
    set(ram_store 1) # no flash model here: the image keeps its own RAM store
  endif()
  set(gen ${PROJECT_BINARY_DIR}/generated)
  fd_board_list(all)
  foreach(real IN LISTS all)
    fd_budget_facts(${real} f)
    if(NOT f)
      continue()
    endif()
    list(GET f 0 qemu)
    if(NOT qemu STREQUAL here)
      continue()
    endif()
    list(GET f 1 h)
    list(GET f 2 page)
    list(GET f 3 pages)
    list(GET f 4 hz)
    list(GET f 5 wd)
    list(GET f 6 erase)
    list(GET f 7 program)
    list(GET f 8 sample)
    list(GET f 9 op)
    set(dir ${gen}/budget-${real})
    add_custom_command(OUTPUT ${dir}/fd_trng_config.h
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${PROJECT_BINARY_DIR}/tools/gen_trng_config ${h} > ${dir}/fd_trng_config.h
      DEPENDS ${FD_SOURCE_ROOT}/boards/${real}/board.cmake
      COMMENT "TRNG health-test constants of ${real} (H = ${h}) for its budget image"
      VERBATIM)
    set(lib fd_dealer_budget_${real})
    fd_dealer_for_geometry(${lib} ${page} ${pages})
    set(name budget_${real})
    fd_add_image(${name} bench/budget_target.c bench/worst_fill.c ${dir}/fd_trng_config.h)
    target_include_directories(${name} BEFORE PRIVATE ${dir} ${CMAKE_CURRENT_SOURCE_DIR}/common)
    target_link_libraries(${name} PRIVATE ${lib})
    target_link_options(${name} PRIVATE -Wl,--wrap=hal_watchdog_kick) # kicks end a stretch
    add_dependencies(${name} fd_trng_config_gen) # builds the generator it runs
    target_compile_definitions(${name} PRIVATE FD_BUDGET_BOARD="${real}" FD_BUDGET_PAGE_SIZE=${page}u
      FD_BUDGET_PAGES=${pages}u FD_BUDGET_CPU_HZ=${hz}u FD_BUDGET_WATCHDOG_MS=${wd}u FD_BUDGET_ERASE_US=${erase}u
      FD_BUDGET_PROGRAM_NS=${program}u FD_BUDGET_SAMPLE_NS=${sample}u FD_BUDGET_OP_NS=${op}u
      FD_BUDGET_RAM_STORE=${ram_store})
  endforeach()
endfunction()
