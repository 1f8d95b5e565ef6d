/* The record `cudx run` reads back from its LD_AUDIT library (src/audit/cudx_audit.c). Shared by
 * the writer (which links nothing of cudx: only libc) and the reader (src/fmt/auditrec.c).
 *
 * One text line per event, fields separated by one space, the free-text field last and escaped
 * (`\\`, `\n` and other bytes below 0x20 or 0x7f as `\xHH`), so a path may hold spaces:
 *
 *   V <pid> <ppid> <format> <exe>      a program starts under audit (la_version): a new image
 *   G <pid> <argv>                     its arguments, joined by spaces, at most AUDIT_ARGV_MAX bytes
 *   E <pid> <NAME=value>               LD_LIBRARY_PATH / LD_PRELOAD as the loader saw them
 *   F <pid> <parent pid>               the first event of a forked child (it inherits the objects)
 *   S <pid> <requester> <flag> <name>  la_objsearch: a name (flag LA_SER_ORIG) or a candidate path
 *   O <pid> <id> <lmid> <path>         la_objopen: object <id> (1-based load order) in namespace lmid
 *   C <pid> <id>                       la_objclose
 *   A <pid> <flag>                     la_activity (LA_ACT_CONSISTENT 0, ADD 1, DELETE 2)
 *   P <pid>                            la_preinit: start-up loads are done; later opens are dlopen
 *   T <pid>                            the record reached AUDIT_RECORD_MAX bytes; nothing more follows
 *
 * <requester> is the id of the object the search is for (0 when unknown). Lines of one process
 * appear in the order its events happened; lines of several processes interleave (every process
 * of the tree appends to the same file). */
#ifndef CUDX_AUDIT_PROTO_H
#define CUDX_AUDIT_PROTO_H

#define AUDIT_FORMAT 1
/* The environment variable that names the record file (set by cudx run for the child). */
#define AUDIT_ENV_OUT "CUDX_AUDIT_OUT"
/* The file name of the audit library, looked up next to the cudx binary. */
#define AUDIT_LIB_NAME "cudx-audit.so"
/* Tests point cudx at another build of the library with this variable. */
#define AUDIT_ENV_LIB "CUDX_AUDIT_LIB"
/* No process writes once the file holds this many bytes (a program that dlopens in a loop). */
#define AUDIT_RECORD_MAX (64u << 20)
/* A free-text field is cut at this many bytes before escaping. */
#define AUDIT_FIELD_MAX 4096
#define AUDIT_ARGV_MAX 1024

#endif
