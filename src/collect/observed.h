/* The load set `cudx run` observed: what the real dynamic loader searched for and opened in each
 * process of the program's tree, rebuilt from the audit record (src/fmt/auditrec.h). Plain data,
 * no judgement; the rules read it through inv->run. */
#ifndef CUDX_OBSERVED_H
#define CUDX_OBSERVED_H

#include <stdbool.h>
#include <stddef.h>

#include "fmt/auditrec.h"
#include "util/arena.h"

#define OBSERVED_MAX_PROCS 4096         /* processes kept; events of later ones are counted */
#define OBSERVED_MAX_TRIED 512          /* candidate paths kept per search */
#define OBSERVED_MAX_INHERITED 2000000u /* objects copied into forked children, all together */

/* rtld-audit(7) search flags (LA_SER_*), as the record carries them. */
#define OBSERVED_SER_ORIG 0x01
#define OBSERVED_SER_LIBPATH 0x02
#define OBSERVED_SER_RUNPATH 0x04
#define OBSERVED_SER_CONFIG 0x08
#define OBSERVED_SER_DEFAULT 0x40
#define OBSERVED_SER_SECURE 0x80

struct observed_object {
	size_t id;                /* the audit library's number: load order within the process, from 1 */
	const char *path;         /* as the loader named it; the program itself gets its executable */
	long long lmid;           /* link-map namespace: 0 the main one, others come from dlmopen */
	const char *requested_as; /* the name searched for (a NEEDED entry or the dlopen argument);
				   * NULL for the program, ld.so and the vDSO */
	size_t requested_by;      /* index + 1 of the requesting object in objs; 0 unknown */
	unsigned how;             /* LA_SER_* of the candidate opened; ORIG for a name with a slash */
	bool is_main;             /* the program itself */
	bool at_runtime;          /* opened after start-up (after la_preinit): dlopen */
	bool closed;              /* dlclose'd while the process ran (not the closing at exit) */
	bool inherited;           /* opened by the parent before fork */
	unsigned close_batch;     /* builder state */
};

struct observed_search {
	const char *name;                      /* the name asked for */
	size_t requested_by;                   /* index + 1 of the requesting object; 0 unknown */
	const char **tried;                    /* candidate paths in the order the loader tried them */
	unsigned *tried_how;                   /* their LA_SER_* flags */
	size_t n_tried, cap_tried, more_tried; /* more_tried: candidates past OBSERVED_MAX_TRIED */
	size_t opened;                         /* index + 1 of the object it opened; 0: none (not found, refused,
				   * or the file was already loaded under another name) */
	bool at_runtime;
};

struct observed_process {
	long long pid, ppid;
	long long parent_pid; /* forked from (no exec): the parent's pid; else 0 */
	const char *exe;      /* /proc/self/exe when it started; NULL when its start was not recorded */
	const char *args;     /* its arguments, joined by spaces (cut by the writer) */
	const char *ld_library_path, *ld_preload; /* as the loader saw them; NULL when unset */
	bool started;                             /* start-up loads done (la_preinit) */
	struct observed_object *objs;
	size_t n_objs, cap_objs;
	struct observed_search *searches;
	size_t n_searches, cap_searches;
	/* builder state */
	size_t cur_search; /* index + 1 of the search in progress */
	unsigned batch;
	bool exiting;   /* the program itself was closed: the closing at exit */
	bool unordered; /* object ids did not arrive in increasing order */
};

struct observed_run {
	struct observed_process *procs; /* in order of their first event; an exec starts a new one */
	size_t n_procs, cap_procs;
	size_t dropped_procs;  /* processes past OBSERVED_MAX_PROCS */
	size_t dropped_events; /* their events */
	size_t orphan_events;  /* events of a process whose start was not recorded */
	size_t inherited;      /* objects copied into forked children */
};

/* Rebuild the processes from the record's events. Never fails; nonsense (unknown object ids,
 * events before a start) is counted or attached as well as it can be. */
void observed_build(struct arena *a, const struct auditrec *rec, struct observed_run *out);
/* "path", "LD_LIBRARY_PATH", "RPATH/RUNPATH", "ld.so.cache", "default dirs", "secure dirs", "?" */
const char *observed_how_name(unsigned how);
/* The object with the audit library's id, or NULL. */
const struct observed_object *observed_find_id(const struct observed_process *p, size_t id);

#endif
