# Integration tests: each module's file is listed here by its owner.
target_sources(tierbench_integration_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/test_env.cc
  ${CMAKE_CURRENT_LIST_DIR}/env_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/compare_cli_test.cc
)
target_sources(tierbench_integration_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/db_postgres_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/db_pgbench_script_test.cc
)
# The real-kernel tests the lab guest runs (tierbench lab --guest-tests): a
# small binary of their own, so the lab tests need not wait for the whole
# integration suite to build. On a host with bcache they run here too.
add_executable(tierbench_guest_tests
  ${CMAKE_CURRENT_LIST_DIR}/cache_real_bcache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/test_env.cc
)
target_link_libraries(tierbench_guest_tests PRIVATE tierbench_core GTest::gtest
                      GTest::gtest_main)
gtest_discover_tests(tierbench_guest_tests PROPERTIES LABELS integration
                     DISCOVERY_TIMEOUT 60)
target_sources(tierbench_integration_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/run_loop_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/device_guard_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/signal_test.cc
)
target_sources(tierbench_integration_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/replay_loop_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fio_distribution_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/shipped_workloads_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/verify_loop_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fio_counts_test.cc
)
# `tierbench report` and its rendering in headless Chromium (PNG decoded
# with zlib).
find_package(ZLIB REQUIRED)
target_sources(tierbench_integration_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_browser_test.cc
)
target_link_libraries(tierbench_integration_tests PRIVATE ZLIB::ZLIB)
