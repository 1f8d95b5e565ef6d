/* printf-style checking that also holds in the mingw-w64 build: there gcc reads format(printf) as
 * the old Microsoft printf (no %zu), while cudx runs with __USE_MINGW_ANSI_STDIO's C99 printf. */
#ifndef CUDX_COMPILER_H
#define CUDX_COMPILER_H

#if defined(__MINGW32__) && !defined(__clang__)
#define CUDX_PRINTF(fmt, args) __attribute__((format(gnu_printf, fmt, args)))
#else
#define CUDX_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#endif

#endif
