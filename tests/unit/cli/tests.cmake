# Unit tests of src/cli (option values).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/option_values_test.cc
)
