# Unit tests of src/db.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/expr_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/options_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/process_cpu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/script_test.cc
)
