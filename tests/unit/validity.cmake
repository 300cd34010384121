# Unit tests of src/validity: every rule with a valid and an invalid case;
# the host rules replayed on the kernel text a real lab run recorded
# (tests/unit/data/lab-kernel/).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/validity_cache_rules_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/validity_replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/validity_rules_test.cc
)
