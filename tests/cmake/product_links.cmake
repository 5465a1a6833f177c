# The products (dynascope-cli, dynascope) are built from dynascope_core and the ui, never from the
# fixture and example generators (core/synth, the dynascope_synth library):
#  - the core archives CORE (comma-separated, one per layer) hold no object of core/synth (AR t);
#  - no binary of BINARIES (comma-separated) defines a symbol of core/synth (NM -C).
cmake_minimum_required(VERSION 3.25)
set(synth_objects example_trace fixture_scenarios guard_text legacy_fixture scale_trace
    synth_helpers synth_text)
string(REPLACE "," ";" archives "${CORE}")
foreach(archive ${archives})
  execute_process(COMMAND ${AR} t ${archive} OUTPUT_VARIABLE members RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR members STREQUAL "")
    message(FATAL_ERROR "${AR} t ${archive} failed (${rc})")
  endif()
  foreach(o ${synth_objects})
    if(members MATCHES "(^|\n)${o}\\.cpp\\.o\n")
      message(FATAL_ERROR "${archive} holds ${o}.cpp.o from core/synth")
    endif()
  endforeach()
endforeach()
string(REPLACE "," ";" binaries "${BINARIES}")
foreach(b ${binaries})
  execute_process(COMMAND ${NM} -C --defined-only ${b} OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR symbols STREQUAL "")
    message(FATAL_ERROR "${NM} ${b} failed (${rc}); a stripped binary cannot be checked")
  endif()
  foreach(s "dynascope::synth::" "dynascope::writeExampleTrace" "dynascope::writeScaleTrace"
            "dynascope::writeGraphBreakFixture" "dynascope::writeLegacy2024Fixture")
    string(FIND "${symbols}" "${s}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${b} defines ${s}...: it links the fixture generators (core/synth)")
    endif()
  endforeach()
  message(STATUS "${b}: no core/synth symbol")
endforeach()
