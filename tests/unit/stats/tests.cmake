# Unit tests of src/stats.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/aggregate_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/confidence_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/latency_histogram_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/running_stat_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/steady_state_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/time_series_test.cc
)
