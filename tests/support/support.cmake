# Helpers the tests share: fakes of the kernel's sysfs and device-mapper,
# golden files, SVG and XML checks, report fixtures, a recording engine.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fake_dm.cc
  ${CMAKE_CURRENT_LIST_DIR}/fake_sysfs.cc
  ${CMAKE_CURRENT_LIST_DIR}/recording_engine.cc
)
# Tests include their helpers as "support/..." and "unit/<folder>/...".
target_include_directories(tierbench_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
