# Cross-compiling cudx.exe for 64-bit Windows with mingw-w64 (Debian: gcc-mingw-w64-x86-64).
# Used by scripts/build-windows.sh with the native-build project in src/win/. It lives in
# cmake/toolchains/, not cmake/, because every cmake/*.cmake is included by the main build.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CUDX_MINGW_PREFIX x86_64-w64-mingw32 CACHE STRING "mingw-w64 target triple")
find_program(CMAKE_C_COMPILER NAMES ${CUDX_MINGW_PREFIX}-gcc-posix ${CUDX_MINGW_PREFIX}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${CUDX_MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${CUDX_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
