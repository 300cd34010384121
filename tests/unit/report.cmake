# Unit tests of src/report.
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_fio_lines_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_manifest_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_output_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_power_cut_reporter_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_result_columns_test.cc
)
target_sources(tierbench_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_group_bw_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_merged_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_run_folder_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_schema_docs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_summary_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_verdict_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_series_chart_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/report_svg_test.cc
)
