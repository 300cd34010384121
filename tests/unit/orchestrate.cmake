# Unit tests of src/orchestrate.
target_sources(tierbench_tests PRIVATE
)
