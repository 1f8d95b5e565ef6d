# Every tests/unit/test_*.c is a cmocka program; every tests/scenarios/*.bats a bats file;
# every tests/fuzz/fuzz_*.c a libFuzzer target run briefly over its corpus. New files are picked up
# without editing this file.
# Debian's cmocka 1.1 ships no imported target: find it by hand
find_library(CMOCKA_LIB NAMES cmocka REQUIRED)
find_path(CMOCKA_INCLUDE cmocka.h REQUIRED)
find_program(BATS bats REQUIRED)

set(CUDX_PKG_CACHE "$ENV{CUDX_PKG_CACHE}")
if(NOT CUDX_PKG_CACHE)
  set(CUDX_PKG_CACHE ${PROJECT_SOURCE_DIR}/build/pkgs)
endif()
# A sanitizer report exits 86, not 1: 1 is cudx's "found problems", which tests accept. Test
# trees live in the build tree (TMPDIR), on the file system of the host-file cache they link to
# (tests/scenarios/lib/hostcache.bash).
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/tmp)
set(CUDX_TEST_ENV
  CUDX=$<TARGET_FILE:cudx>
  CUDX_SRC=${PROJECT_SOURCE_DIR}
  CUDX_BUILD=${CMAKE_BINARY_DIR}
  CUDX_PKG_CACHE=${CUDX_PKG_CACHE}
  TMPDIR=${CMAKE_BINARY_DIR}/tmp
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86)

file(GLOB CUDX_UNIT_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${CUDX_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE cudxcore ${CMOCKA_LIB})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/unit ${CMOCKA_INCLUDE})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME unit/${name} COMMAND ${name})
  set_tests_properties(unit/${name} PROPERTIES ENVIRONMENT "${CUDX_TEST_ENV}" SKIP_RETURN_CODE 77)
endforeach()

file(GLOB CUDX_SCENARIOS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/scenarios/*.bats)
foreach(src ${CUDX_SCENARIOS})
  get_filename_component(name ${src} NAME_WE)
  add_test(NAME scenario/${name} COMMAND ${BATS} ${src})
  set_tests_properties(scenario/${name} PROPERTIES ENVIRONMENT "${CUDX_TEST_ENV}" TIMEOUT 600)
endforeach()

if(CUDX_FUZZ AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  # libFuzzer is guided by the coverage of the code under test: the readers must carry the
  # coverage hooks, not only the fuzz_*.c harness (without them a target sees ~10 edges and
  # mutates blindly). A second copy of the core library gets them, so that the unit tests and
  # cudx itself stay as they were.
  get_target_property(CUDX_FUZZ_CORE_SOURCES cudxcore SOURCES)
  add_library(cudxcore_fuzz STATIC ${CUDX_FUZZ_CORE_SOURCES})
  target_compile_options(cudxcore_fuzz PRIVATE -fsanitize=fuzzer-no-link)
  target_include_directories(cudxcore_fuzz PUBLIC $<TARGET_PROPERTY:cudxcore,INCLUDE_DIRECTORIES>)
  target_link_libraries(cudxcore_fuzz PUBLIC $<TARGET_PROPERTY:cudxcore,LINK_LIBRARIES>)
  add_dependencies(cudxcore_fuzz cudxcore)
  file(GLOB CUDX_FUZZERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
  foreach(src ${CUDX_FUZZERS})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE cudxcore_fuzz)
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    set(corpus ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${name})
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz/work-${name})
    # A short run in CI: the seeds plus 20 s of mutation, bounded memory and input size.
    add_test(NAME fuzz/${name}
      COMMAND ${name} -max_total_time=20 -rss_limit_mb=512 -max_len=65536 -timeout=10
              ${CMAKE_BINARY_DIR}/fuzz/work-${name} ${corpus})
  endforeach()
endif()
