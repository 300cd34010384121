# Unit tests of src/report (the reporters that run during a command), and of
# a run folder they write read back by src/present.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_fio_lines_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_manifest_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_output_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_power_cut_reporter_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_result_columns_test.cc
)
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_group_bw_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_run_folder_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_schema_docs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_series_chart_test.cc
)
