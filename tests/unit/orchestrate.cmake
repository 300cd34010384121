# Unit tests of src/orchestrate.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_compare_report_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_comparison_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_dm_warm_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_prepare_once_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_protocol_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_series_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_setup_restore_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_sustained_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_verify_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/orchestrate_working_set_test.cc
)
