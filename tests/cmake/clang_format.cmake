# Fails when a C++ file under core/, app/, ui/ or tests/ differs from clang-format's output.
file(GLOB_RECURSE files ${ROOT}/core/*.cpp ${ROOT}/core/*.h ${ROOT}/app/*.cpp ${ROOT}/app/*.h
     ${ROOT}/ui/*.cpp ${ROOT}/ui/*.h ${ROOT}/tests/*.cpp ${ROOT}/tests/*.h)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clang-format: files need formatting (run clang-format -i):\n${err}")
endif()
