# Unit tests of src/workload (the runner and its progress line included).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/block_check_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/distribution_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fio_examples_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/io_pattern_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_cpu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_file_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_files_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_options_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_result_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/job_stream_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/prepared_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/progress_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/rate_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/rate_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_formats_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/runner_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/shipped_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/start_line_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/verify_block_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/verify_run_test.cc
)
