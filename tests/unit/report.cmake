# Unit tests of src/report.
target_sources(tierbench_tests PRIVATE
)
