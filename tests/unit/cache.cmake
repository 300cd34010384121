# Unit tests of src/cache (and the fake sysfs fixture others may reuse).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/cache_bcache_device_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_block_stat_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_dm_layers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_dm_status_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_fake_dm.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_fake_sysfs.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_knobs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_lvmcache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_mode_file_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/cache_values_test.cc
)
