# The explain catalogue (data/explain_*.tsv) is embedded into the binary as byte arrays and parsed
# at start-up (a few hundred rows: microseconds). This file has two modes: included by the top
# CMakeLists it declares the generator; run with `cmake -P` (EXPLAIN_GEN set) it writes the C file.
if(EXPLAIN_GEN)
  set(out "/* generated from data/explain_*.tsv by cmake/explain.cmake: do not edit */\n#include <stddef.h>\n")
  foreach(pair "explain_causes_tsv=${EXPLAIN_CAUSES}" "explain_patterns_tsv=${EXPLAIN_PATTERNS}")
    string(REPLACE "=" ";" kv "${pair}")
    list(GET kv 0 var)
    list(GET kv 1 path)
    file(READ "${path}" hex HEX)
    string(LENGTH "${hex}" hexlen)
    math(EXPR nbytes "${hexlen} / 2")
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(APPEND out "const unsigned char ${var}[] = {${bytes}0};\nconst size_t ${var}_len = ${nbytes};\n")
  endforeach()
  file(WRITE "${EXPLAIN_OUT}" "${out}")
  return()
endif()

set(_explain_out ${CMAKE_BINARY_DIR}/gen/explain_data.c)
add_custom_command(
  OUTPUT ${_explain_out}
  COMMAND ${CMAKE_COMMAND} -DEXPLAIN_GEN=1
          -DEXPLAIN_CAUSES=${PROJECT_SOURCE_DIR}/data/explain_causes.tsv
          -DEXPLAIN_PATTERNS=${PROJECT_SOURCE_DIR}/data/explain_patterns.tsv
          -DEXPLAIN_OUT=${_explain_out}
          -P ${CMAKE_CURRENT_LIST_FILE}
  DEPENDS ${PROJECT_SOURCE_DIR}/data/explain_causes.tsv ${PROJECT_SOURCE_DIR}/data/explain_patterns.tsv
          ${CMAKE_CURRENT_LIST_FILE}
  COMMENT "Embedding the explain catalogue"
  VERBATIM)
list(APPEND CUDX_GENERATED_SOURCES ${_explain_out})
