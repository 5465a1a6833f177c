# Copies the seed corpus into OUT: the committed seeds (SEEDS) and the plain files of the fixture
# folder (FIXTURES, written by dynascope-fixtures), including those of its subfolders.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(GLOB seeds ${SEEDS}/*)
file(GLOB_RECURSE fixtures LIST_DIRECTORIES false ${FIXTURES}/*)
set(n 0)
foreach(f ${seeds} ${fixtures})
  get_filename_component(name ${f} NAME)
  file(COPY_FILE ${f} ${OUT}/${n}_${name})
  math(EXPR n "${n} + 1")
endforeach()
message(STATUS "seed corpus: ${n} files in ${OUT}")
