# Knowledge base: data/*.tsv -> ${CMAKE_BINARY_DIR}/gen/kb_tables.{c,h} with tools/kbgen.awk.
# The generator is a POSIX awk script run on the build host, so a cross build (mingw) works.
# A bad row fails the build with file:line. data/explain_*.tsv belong to `cudx explain` and are
# not part of these tables.
find_program(CUDX_AWK NAMES awk gawk mawk nawk REQUIRED)

file(GLOB CUDX_KB_TABLES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/*.tsv)
list(FILTER CUDX_KB_TABLES EXCLUDE REGEX "/explain_[^/]*\\.tsv$")
# sources.tsv first: every other table's source column is checked against it.
list(REMOVE_ITEM CUDX_KB_TABLES ${PROJECT_SOURCE_DIR}/data/sources.tsv)
list(SORT CUDX_KB_TABLES)
list(INSERT CUDX_KB_TABLES 0 ${PROJECT_SOURCE_DIR}/data/sources.tsv)

set(CUDX_KB_GEN_DIR ${CMAKE_BINARY_DIR}/gen)
file(MAKE_DIRECTORY ${CUDX_KB_GEN_DIR})
# Relative paths so error messages and the generated comments read data/x.tsv:12.
set(CUDX_KB_TABLES_REL)
foreach(t ${CUDX_KB_TABLES})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${t})
  list(APPEND CUDX_KB_TABLES_REL ${rel})
endforeach()

add_custom_command(
  OUTPUT ${CUDX_KB_GEN_DIR}/kb_tables.c ${CUDX_KB_GEN_DIR}/kb_tables.h
  COMMAND ${CUDX_AWK} -f ${PROJECT_SOURCE_DIR}/tools/kbgen.awk
          -v out_c=${CUDX_KB_GEN_DIR}/kb_tables.c.tmp -v out_h=${CUDX_KB_GEN_DIR}/kb_tables.h.tmp
          ${CUDX_KB_TABLES_REL}
  COMMAND ${CMAKE_COMMAND} -E rename ${CUDX_KB_GEN_DIR}/kb_tables.h.tmp ${CUDX_KB_GEN_DIR}/kb_tables.h
  COMMAND ${CMAKE_COMMAND} -E rename ${CUDX_KB_GEN_DIR}/kb_tables.c.tmp ${CUDX_KB_GEN_DIR}/kb_tables.c
  DEPENDS ${PROJECT_SOURCE_DIR}/tools/kbgen.awk ${CUDX_KB_TABLES}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMENT "kbgen: data/*.tsv -> gen/kb_tables.c"
  VERBATIM)
add_custom_target(cudx_kb_tables DEPENDS ${CUDX_KB_GEN_DIR}/kb_tables.c ${CUDX_KB_GEN_DIR}/kb_tables.h)

list(APPEND CUDX_GENERATED_SOURCES ${CUDX_KB_GEN_DIR}/kb_tables.c)
list(APPEND CUDX_GENERATED_DEPENDS cudx_kb_tables)
