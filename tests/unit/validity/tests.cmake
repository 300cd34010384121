# Unit tests of src/validity: every rule with a valid and an invalid case;
# the host rules replayed on the kernel text a real lab run recorded
# (tests/unit/data/lab-kernel/); every pitfall of the rule table on that
# text (tests/unit/validity/pitfalls_*; the superblock test runs make-bcache, from
# bcache-tools in scripts/install-deps).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cache_rules_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_compare_replay.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_db_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_latency_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_protocol_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_replay.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_superblock_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/pitfalls_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/rules_test.cc
)
