# Unit tests of src/io.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/batch_counts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/device_guard_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/uring_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/write_log_test.cc
)
