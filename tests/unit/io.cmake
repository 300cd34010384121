# Unit tests of src/io.
target_sources(tierbench_tests PRIVATE
)
