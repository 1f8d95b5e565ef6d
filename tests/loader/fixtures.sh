#!/bin/sh
# Builds the loader fixture tree in $1 (in the spirit of libtree's tests/NN_*): tiny libraries with
# chosen SONAME, NEEDED, RPATH/RUNPATH, $ORIGIN, symlinks and version scripts, and programs that
# print what the real loader loaded (dl_iterate_phdr). Used by tests/unit/test_loader.c.
set -eu
D=$1
CC=${CC:-cc}
mkdir -p "$D" && cd "$D"
cat > lib.c <<'C'
int FN(void) { return 1; }
C
cat > show.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
static int cb(struct dl_phdr_info *i, size_t n, void *d) { (void)n; (void)d; if (i->dlpi_name[0]) printf("%s\n", i->dlpi_name); return 0; }
int main(int argc, char **argv) {
	for (int k = 1; k < argc; k++)
		if (!dlopen(argv[k], RTLD_NOW)) { printf("DLOPEN-ERROR %s\n", dlerror()); return 1; }
	dl_iterate_phdr(cb, NULL);
	return 0;
}
C
lib() { # lib DIR SONAME [ld flags...]
	dir=$1; so=$2; shift 2; mkdir -p "$dir"
	fn=$(echo "$so" | tr -c 'a-zA-Z0-9\n' _)
	$CC -shared -fPIC -DFN="f_$fn" -o "$dir/$so" lib.c -Wl,-soname,"$so" -Wl,--no-as-needed "$@"
}
prog() { # prog PATH [ld flags...]
	out=$1; shift; mkdir -p "$(dirname "$out")"
	$CC -o "$out" show.c -Wl,--no-as-needed "$@" -ldl
}
# 01 RPATH of the program is inherited: libfoo (found by RPATH) needs libbar (found by the program's RPATH)
lib 01/b libbar.so.1
lib 01/a libfoo.so.1 -L01/b -l:libbar.so.1 -Wl,--disable-new-dtags
prog 01/prog -L01/a -l:libfoo.so.1 -Wl,--disable-new-dtags,-rpath,"$D/01/a:$D/01/b" -Wl,-rpath-link,01/b
# 02 RUNPATH is not inherited: the same layout with RUNPATH fails for libbar
prog 02/prog -L01/a -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,"$D/01/a:$D/01/b" -Wl,-rpath-link,01/b
# 03 RPATH order: the first directory with the file wins; RPATH before LD_LIBRARY_PATH
lib 03/x libfoo.so.1
lib 03/y libfoo.so.1
prog 03/prog -L03/x -l:libfoo.so.1 -Wl,--disable-new-dtags,-rpath,"$D/03/y:$D/03/x"
# 04 LD_LIBRARY_PATH before RUNPATH
prog 04/prog -L03/x -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,"$D/03/x"
# 05 $ORIGIN of a library is the directory it was opened by, symlinks not resolved
lib 05/real/a libbar.so.1
lib 05/real/c libfoo.so.1 -L05/real/a -l:libbar.so.1 -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../a'
mkdir -p 05/view && ln -sfn ../real/c 05/view/c
prog 05/prog -L05/real/c -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,"$D/05/view/c" -Wl,-rpath-link,05/real/a
# 06 a wrong-machine copy earlier on the path is skipped (e_machine patched to AArch64)
lib 06/good libbar.so.1
mkdir -p 06/bad && cp 06/good/libbar.so.1 06/bad/ && printf '\267\000' | dd of=06/bad/libbar.so.1 bs=1 seek=18 conv=notrunc 2>/dev/null
prog 06/prog -L06/good -l:libbar.so.1 -Wl,--enable-new-dtags,-rpath,"$D/06/bad:$D/06/good"
# 07 symbol versions: built against a libver with VER_2, run with one that has only VER_1
printf 'VER_1 { global: *; };\nVER_2 { global: f_v2; } VER_1;\n' > v2.map
printf 'VER_1 { global: *; };\n' > v1.map
printf 'int f_v1(void){return 1;}\nint f_v2(void){return 2;}\n' > ver.c
mkdir -p 07/new 07/old
$CC -shared -fPIC -o 07/new/libver.so.1 ver.c -Wl,-soname,libver.so.1 -Wl,--version-script=v2.map
$CC -shared -fPIC -o 07/old/libver.so.1 ver.c -Wl,-soname,libver.so.1 -Wl,--version-script=v1.map
printf 'int f_v2(void); int main(void){return f_v2();}\n' > usev.c
$CC -o 07/prog usev.c -Wl,--no-as-needed -L07/new -l:libver.so.1 -Wl,--enable-new-dtags,-rpath,"$D/07/old"
# 08 -z nodeflib: the default directories (and cache hits in them) are not used
lib 08 libnd.so.1 -lz -Wl,-z,nodefaultlib
prog 08/prog -L08 -l:libnd.so.1 -Wl,--enable-new-dtags,-rpath,"$D/08"
# 09 a NEEDED cycle: libcyca <-> libcycb
lib 09 libcycb.so.1
lib 09 libcyca.so.1 -L09 -l:libcycb.so.1
$CC -shared -fPIC -DFN=f_b2 -o 09/libcycb.so.1 lib.c -Wl,-soname,libcycb.so.1 -Wl,--no-as-needed -L09 -l:libcyca.so.1
prog 09/prog -L09 -l:libcyca.so.1 -Wl,--disable-new-dtags,-rpath,"$D/09"
# 10 a symlink loop earlier on the path, the real library later
mkdir -p 10/loop && ln -sfn libloop.so.1 10/loop/libloop.so.1
lib 10/ok libloop.so.1
prog 10/prog -L10/ok -l:libloop.so.1 -Wl,--enable-new-dtags,-rpath,"$D/10/loop:$D/10/ok"
# 11 a text file where a library is expected: "invalid ELF header" stops the search
mkdir -p 11/bad && echo 'INPUT(-lfoo)' > 11/bad/libfoo.so.1
prog 11/prog -L03/x -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,"$D/11/bad:$D/03/x"
# 12 an empty LD_LIBRARY_PATH element means the current directory
prog 12/prog -L03/x -l:libfoo.so.1
# 13 glibc-hwcaps subdirectory preferred (when the CPU supports x86-64-v2)
lib 13/glibc-hwcaps/x86-64-v2 libfoo.so.1
lib 13 libfoo.so.1
prog 13/prog -L13 -l:libfoo.so.1 -Wl,--enable-new-dtags,-rpath,"$D/13"
# 14 dlopen by name from a program with RPATH; dlopen of a SONAME already loaded
prog 14/prog -Wl,--disable-new-dtags,-rpath,"$D/03/y"
