# The LD_AUDIT library of `cudx run` (src/audit/): a plain shared object next to the cudx binary
# (build/cudx-audit.so). It is loaded into arbitrary programs, so it links only libc and never gets
# the sanitizer flags of the test build (their runtime cannot be loaded into another program).
# src/audit/ is kept out of cudxcore (CMakeLists.txt).
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_library(cudx_audit SHARED ${PROJECT_SOURCE_DIR}/src/audit/cudx_audit.c)
  set_property(TARGET cudx_audit PROPERTY COMPILE_OPTIONS
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -O2 -fvisibility=hidden)
  set_property(TARGET cudx_audit PROPERTY LINK_OPTIONS -Wl,-z,defs)
  set_target_properties(cudx_audit PROPERTIES PREFIX "" OUTPUT_NAME "cudx-audit"
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR} C_VISIBILITY_PRESET hidden)
endif()
