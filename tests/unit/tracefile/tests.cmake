# Unit tests of src/tracefile (fio iologs and the trace readers of every
# format, each on small files built to the format's published layout).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/capture_iolog_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/iolog_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_reader_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_blktrace_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/trace_libcachesim_test.cc
)
