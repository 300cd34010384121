# Unit tests of src/report (the reporters that run during a command), and of
# a run folder they write read back by src/present.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/fault_reporter_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fio_lines_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/group_bw_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/manifest_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/output_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/power_cut_reporter_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/result_columns_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/run_folder_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/scenario_report_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/schema_docs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/series_chart_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/wear_columns_test.cc
)
