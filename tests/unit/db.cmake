# Unit tests of src/db.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/db_expr_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/db_options_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/db_process_cpu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/db_script_test.cc
)
