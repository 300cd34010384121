# Unit tests of src/io (and the runner, which drives the engines).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/batch_counts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/device_guard_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/progress_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/runner_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/uring_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/write_log_test.cc
)
# tests/support/seccomp_deny.h
target_include_directories(tierbench_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
