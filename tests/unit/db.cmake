# Unit tests of src/db.
target_sources(tierbench_tests PRIVATE
)
