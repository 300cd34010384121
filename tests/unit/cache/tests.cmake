# Unit tests of src/cache, src/cache/bcache, src/cache/dm and
# src/cache/registry (their fakes are in tests/support).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bcache/device_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/bcache/knobs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/bcache/values_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/block_stat_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dm/layers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dm/lvmcache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dm/status_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/registry/mode_file_test.cc
)
