# Unit tests of src/validity: every rule with a valid and an invalid case,
# on counter and status text recorded from the lab's real kernel
# (tests/unit/data/lab-kernel/).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/validity_cache_rules_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/validity_rules_test.cc
)
