# Unit tests of src/lab (the QEMU lab's host side).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/lab_accel_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_child_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_dilation_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_disk_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_handshake_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_layers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_power_cut_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_qemu_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/lab_qmp_test.cc
)
