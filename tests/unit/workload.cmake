# Unit tests of src/workload.
target_sources(tierbench_tests PRIVATE
)
