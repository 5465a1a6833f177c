# Runs dynascope-bench at a small size (two rank files, 16 MB in all) and checks that it prints one
# complete JSON line: every field present, sizes and load times positive. Timings are not judged.
execute_process(COMMAND ${BENCH} --size 16M --ranks 2 --runs 2 --spans 200000
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message(STATUS "${err}")
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dynascope-bench exited ${rc}")
endif()
string(STRIP "${out}" line)
foreach(key bytes records compiles scan_s load_s load_over_scan parallel_load_s serial_load_s
            verified_load_s verified_over_load
            heap_mb_after_load peak_rss_mb findings_s window_load_ms gui_stall_ms
            render_ms_median render_ms_p95 hover_ms_median app_first_paint_ms example_shown_ms)
  string(JSON value ERROR_VARIABLE jerr GET "${line}" ${key})
  if(jerr)
    message(FATAL_ERROR "no \"${key}\" in the output: ${jerr}")
  endif()
endforeach()
foreach(key bytes records compiles load_s serial_load_s verified_load_s scan_s findings_s)
  string(JSON value GET "${line}" ${key})
  if(NOT value GREATER 0)
    message(FATAL_ERROR "\"${key}\" is ${value}, expected a positive number")
  endif()
endforeach()

# --md5: one line per message size, with the portable kernel (8 lanes) and OpenSSL measured.
execute_process(COMMAND ${BENCH} --md5 --size 8M --runs 1
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dynascope-bench --md5 exited ${rc}: ${err}")
endif()
string(STRIP "${out}" out)
string(REPLACE "\n" ";" lines "${out}")
list(LENGTH lines count)
if(NOT count EQUAL 4)
  message(FATAL_ERROR "dynascope-bench --md5 printed ${count} lines, expected 4")
endif()
foreach(line IN LISTS lines)
  foreach(key message_bytes messages lanes_8_gb_s openssl_gb_s)
    string(JSON value ERROR_VARIABLE jerr GET "${line}" ${key})
    if(jerr OR NOT value GREATER 0)
      message(FATAL_ERROR "\"${key}\" missing or not positive in: ${line}")
    endif()
  endforeach()
endforeach()
