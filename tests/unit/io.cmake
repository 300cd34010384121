# Unit tests of src/io (and the runner, which drives the engines).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/io_device_guard_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_batch_counts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_uring_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_progress_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_runner_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_write_log_test.cc
)
# tests/seccomp_deny.h
target_include_directories(tierbench_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
