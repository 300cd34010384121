# Unit tests of src/lab (the QEMU lab's host side).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/accel_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/boot_again_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/child_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/dilation_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/disk_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fault_record_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fill_record_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/handshake_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/layers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/merge_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/parts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/power_cut_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/qemu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/qmp_test.cc
)
