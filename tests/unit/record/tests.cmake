# Unit tests of src/record.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/ssd_wear_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/sustained_test.cc
)
