# The committed fuzz inputs replayed in the normal build (tests/fuzz).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fuzz_regressions_test.cc
  ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_entries.cc)
target_include_directories(tierbench_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests/fuzz)
