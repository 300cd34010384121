# Lab tests: real bcache, dm-cache, dm-writecache and lvmcache in a QEMU guest
# (tierbench lab). A separate
# executable with the ctest label "lab" (scripts/test runs it on its own).
add_executable(tierbench_lab_tests
  ${CMAKE_CURRENT_LIST_DIR}/lab_capture_replay_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_compare_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_dm_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_lvm_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_fault_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_fill_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_power_cut_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_test_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_test_util_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_working_set_test.cc
)
target_link_libraries(tierbench_lab_tests PRIVATE GTest::gtest GTest::gtest_main
                      nlohmann_json::nlohmann_json)
target_compile_definitions(tierbench_lab_tests PRIVATE
  TIERBENCH_BINARY="$<TARGET_FILE:tierbench>"
  TIERBENCH_GUEST_TESTS="$<TARGET_FILE:tierbench_guest_tests>"
  TIERBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# The guest also runs the real-kernel integration tests (--guest-tests).
add_dependencies(tierbench_lab_tests tierbench tierbench_guest_tests)
# No TIMEOUT here: gtest_discover_tests reads that keyword as its discovery
# timeout, even after PROPERTIES. Each guest gets RunLab's --timeout
# (lab_test_util.h) and scripts/test gives ctest a --timeout for the rest.
gtest_discover_tests(tierbench_lab_tests PROPERTIES LABELS lab DISCOVERY_TIMEOUT 60)
