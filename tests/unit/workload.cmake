# Unit tests of src/workload.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/workload_distribution_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_io_pattern_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_iolog_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_prepared_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_replay_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_file_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_result_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_rate_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_rate_test.cc
)
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/workload_shipped_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_engine_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_cpu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_start_line_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_options_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_job_files_run_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_fio_examples_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_verify_block_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/workload_verify_run_test.cc
)
