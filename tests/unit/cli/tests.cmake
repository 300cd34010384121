# Unit tests of src/cli (option values, the man pages against the options,
# the bash completion script).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/man_pages_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/option_values_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/bash_completion_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/capture_session_test.cc
)
