# Unit tests of src/cache.
target_sources(tierbench_tests PRIVATE
)
