# Unit tests of src/util.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cpu_latency_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/csv_writer_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/elide_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/units_test.cc
)
