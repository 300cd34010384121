# Unit tests of src/stats.
target_sources(tierbench_tests PRIVATE
)
