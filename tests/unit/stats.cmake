# Unit tests of src/stats.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/stats_aggregate_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats_confidence_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats_latency_histogram_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats_running_stat_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats_steady_state_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stats_time_series_test.cc
)
