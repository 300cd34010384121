# Unit tests of src/trace (block
# streams, stack distances, SHARDS, Belady's OPT, the trace profile). SHARDS against the exact curve on 10 M zipf
# requests is an integration test (tests/integration/
# trace_shards_accuracy_test.cc): 2 s here, 19 s under ASan/UBSan.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/belady_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/read_hit_curve_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/stack_distance_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_profile_test.cc
)
