# Unit tests of src/orchestrate.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capture_replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/compare_report_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/comparison_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dm_warm_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/prepare_once_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/protocol_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/read_hits_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/series_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/setup_restore_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/verify_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/working_set_test.cc
)
