# Unit tests of src/cli (option values).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cli_option_values_test.cc
)
