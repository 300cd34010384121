# Unit tests of src/db and src/db/pgbench (the script language; script_test
# also loads DB workload files).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/pgbench/expr_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/options_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/process_cpu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/script_test.cc
)
