# Unit tests of the source layout (src/layers.txt: folders, include direction).
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/layout_include_test.cc
)
