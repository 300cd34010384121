# Unit tests of src/util.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/util_units_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/util_elide_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/util_cpu_latency_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/util_csv_writer_test.cc
)
