# Unit tests of src/present (a run folder read back: the verdict, the charts,
# summary.md and the fleet report). Tests that also write a run folder with
# the reporters of src/report are in report.cmake.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/merged_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/regression_check_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/expectation_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/hit_bound_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/summary_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/svg_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/verdict_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_verdict_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/wear_verdict_test.cc
)
