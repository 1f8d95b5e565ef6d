# The explain catalogue (data/explain_*.tsv) is embedded into the binary as byte arrays and parsed
# at start-up (a few hundred rows: microseconds). This file has two modes: included by the top
# CMakeLists it declares the generator; run with `cmake -P` (EXPLAIN_GEN set) it writes the C file.
set(_explain_tables causes patterns libclass libforms symbols texts vocab classes)
if(EXPLAIN_GEN)
  set(out "/* generated from data/explain_*.tsv by cmake/explain.cmake: do not edit */\n#include <stddef.h>\n")
  foreach(t ${_explain_tables})
    file(READ "${EXPLAIN_DATA}/explain_${t}.tsv" hex HEX)
    string(LENGTH "${hex}" hexlen)
    math(EXPR nbytes "${hexlen} / 2")
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(APPEND out "const unsigned char explain_${t}_tsv[] = {${bytes}0};\nconst size_t explain_${t}_tsv_len = ${nbytes};\n")
  endforeach()
  file(WRITE "${EXPLAIN_OUT}" "${out}")
  return()
endif()

set(_explain_out ${CMAKE_BINARY_DIR}/gen/explain_data.c)
set(_explain_deps)
foreach(t ${_explain_tables})
  list(APPEND _explain_deps ${PROJECT_SOURCE_DIR}/data/explain_${t}.tsv)
endforeach()
add_custom_command(
  OUTPUT ${_explain_out}
  COMMAND ${CMAKE_COMMAND} -DEXPLAIN_GEN=1 -DEXPLAIN_DATA=${PROJECT_SOURCE_DIR}/data
          -DEXPLAIN_OUT=${_explain_out} -P ${CMAKE_CURRENT_LIST_FILE}
  DEPENDS ${_explain_deps} ${CMAKE_CURRENT_LIST_FILE}
  COMMENT "Embedding the explain catalogue"
  VERBATIM)
list(APPEND CUDX_GENERATED_SOURCES ${_explain_out})
