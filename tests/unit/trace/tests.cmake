# Unit tests of src/trace (block streams, stack distances, SHARDS, Belady's
# OPT, the trace profile).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/belady_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/shards_accuracy_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stack_distance_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_profile_test.cc
)
