/* From the audit record's events to processes with their objects and searches. The loader calls
 * the audit hooks of one process one at a time and in order (it holds its lock), so within a
 * process a search (an S line with LA_SER_ORIG, then its candidates) is followed directly by the
 * object it opened, if any; a search followed by another search, or by the end of a load
 * (la_activity CONSISTENT), opened nothing new. */
#include "collect/observed.h"

#include <string.h>

/* pid -> process: open addressing, at most half full. Sized by the record (a record of n events
 * names at most n processes), so a short record does not zero the 128 KB a table for
 * OBSERVED_MAX_PROCS needs. */
struct builder {
	struct arena *a;
	struct observed_run *run;
	size_t n_slots;  /* a power of two, at least twice the processes the record can name */
	long long *pids; /* 0 = empty */
	size_t *slot_proc;
};

static size_t slot_of(const struct builder *b, long long pid)
{
	size_t h = (size_t)((unsigned long long)pid * 0x9E3779B97F4A7C15ull >> 40) & (b->n_slots - 1);
	while (b->pids[h] && b->pids[h] != pid)
		h = (h + 1) & (b->n_slots - 1);
	return h;
}

static struct observed_process *lookup(struct builder *b, long long pid)
{
	size_t h = slot_of(b, pid);
	return b->pids[h] ? &b->run->procs[b->slot_proc[h]] : NULL;
}

/* A new process for pid (a start, an exec over an older image, or a fork); NULL past the limit. */
static struct observed_process *new_proc(struct builder *b, long long pid)
{
	struct observed_run *r = b->run;
	if (r->n_procs == OBSERVED_MAX_PROCS) {
		r->dropped_procs++;
		return NULL;
	}
	struct observed_process *p = ARENA_PUSH(b->a, r->procs, r->n_procs, r->cap_procs);
	p->pid = pid;
	size_t h = slot_of(b, pid);
	b->pids[h] = pid;
	b->slot_proc[h] = r->n_procs - 1;
	return p;
}

const struct observed_object *observed_find_id(const struct observed_process *p, size_t id)
{
	if (!p->unordered) {
		size_t lo = 0, hi = p->n_objs;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (p->objs[mid].id < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < p->n_objs && p->objs[lo].id == id ? &p->objs[lo] : NULL;
	}
	for (size_t i = p->n_objs; i-- > 0;) /* the latest object of that id */
		if (p->objs[i].id == id)
			return &p->objs[i];
	return NULL;
}

static size_t index_of(const struct observed_process *p, long long id)
{
	const struct observed_object *o = id > 0 ? observed_find_id(p, (size_t)id) : NULL;
	return o ? (size_t)(o - p->objs) + 1 : 0;
}

static void fork_from(struct builder *b, struct observed_process *child, long long parent_pid)
{
	child->parent_pid = parent_pid;
	struct observed_process *parent = lookup(b, parent_pid);
	if (!parent || parent == child)
		return;
	child->exe = parent->exe;
	child->args = parent->args;
	child->ld_library_path = parent->ld_library_path;
	child->ld_preload = parent->ld_preload;
	child->ppid = parent->pid;
	child->started = parent->started;
	child->unordered = parent->unordered;
	/* all of them, closed ones too, so requested_by indices stay valid */
	if (b->run->inherited + parent->n_objs > OBSERVED_MAX_INHERITED)
		return;
	for (size_t i = 0; i < parent->n_objs; i++) {
		struct observed_object *o = ARENA_PUSH(b->a, child->objs, child->n_objs, child->cap_objs);
		*o = parent->objs[i];
		o->inherited = true;
	}
	b->run->inherited += parent->n_objs;
}

static void add_candidate(struct builder *b, struct observed_search *s, const char *path, unsigned how)
{
	if (s->n_tried == OBSERVED_MAX_TRIED) {
		s->more_tried++;
		return;
	}
	if (s->n_tried == s->cap_tried) {
		size_t cap = s->cap_tried ? s->cap_tried * 2 : 8;
		s->tried = arena_grow(b->a, s->tried, s->n_tried, cap, sizeof *s->tried);
		s->tried_how = arena_grow(b->a, s->tried_how, s->n_tried, cap, sizeof *s->tried_how);
		s->cap_tried = cap;
	}
	s->tried[s->n_tried] = path;
	s->tried_how[s->n_tried++] = how;
}

static void on_search(struct builder *b, struct observed_process *p, const struct auditrec_event *e)
{
	unsigned flag = (unsigned)e->b;
	struct observed_search *s = p->cur_search ? &p->searches[p->cur_search - 1] : NULL;
	if (flag & OBSERVED_SER_ORIG || !s) {
		s = ARENA_PUSH(b->a, p->searches, p->n_searches, p->cap_searches);
		s->name = e->text ? e->text : "";
		s->requested_by = index_of(p, e->a);
		s->at_runtime = p->started;
		p->cur_search = p->n_searches;
		if (flag & OBSERVED_SER_ORIG)
			return;
	}
	add_candidate(b, s, e->text ? e->text : "", flag);
}

static void on_open(struct builder *b, struct observed_process *p, const struct auditrec_event *e)
{
	if (e->a <= 0)
		return;
	if (p->n_objs && p->objs[p->n_objs - 1].id >= (size_t)e->a)
		p->unordered = true;
	struct observed_object *o = ARENA_PUSH(b->a, p->objs, p->n_objs, p->cap_objs);
	o->id = (size_t)e->a;
	o->lmid = e->b;
	o->path = e->text ? e->text : "";
	o->at_runtime = p->started;
	/* the program is the first object and the loader names it "" */
	if (!*o->path && p->n_objs == 1) {
		o->is_main = true;
		o->path = p->exe ? p->exe : "";
	}
	struct observed_search *s = p->cur_search ? &p->searches[p->cur_search - 1] : NULL;
	p->cur_search = 0;
	if (!s || s->opened)
		return;
	s->opened = p->n_objs;
	o->requested_as = s->name;
	o->requested_by = s->requested_by;
	o->how = strchr(s->name, '/') ? OBSERVED_SER_ORIG : 0;
	for (size_t i = s->n_tried; i-- > 0 && !o->how;)
		if (strcmp(s->tried[i], o->path) == 0)
			o->how = s->tried_how[i];
}

/* The closing at exit (the program itself is closed too, usually first) is not a dlclose: from
 * then on closes are ignored, and those of the same batch before it are undone. */
static void on_close(struct observed_process *p, const struct auditrec_event *e)
{
	size_t i = index_of(p, e->a);
	if (!i || p->exiting)
		return;
	struct observed_object *o = &p->objs[i - 1];
	if (!o->is_main) {
		o->closed = true;
		o->close_batch = p->batch;
		return;
	}
	p->exiting = true;
	for (size_t k = 0; k < p->n_objs; k++)
		if (p->objs[k].closed && p->objs[k].close_batch == p->batch)
			p->objs[k].closed = false;
}

static void on_event(struct builder *b, const struct auditrec_event *e)
{
	struct observed_run *r = b->run;
	struct observed_process *p = lookup(b, e->pid);
	if (e->type == 'V' || e->type == 'F') {
		p = new_proc(b, e->pid);
		if (!p) {
			r->dropped_events++;
			return;
		}
		if (e->type == 'V') {
			p->ppid = e->a;
			p->exe = e->text;
		} else
			fork_from(b, p, e->a);
		return;
	}
	if (!p) {
		/* its start line is missing (a damaged record): keep the events under an unnamed process */
		if (!(p = new_proc(b, e->pid))) {
			r->dropped_events++;
			return;
		}
		r->orphan_events++;
	}
	switch (e->type) {
	case 'G':
		p->args = e->text;
		break;
	case 'E':
		if (e->text && strncmp(e->text, "LD_LIBRARY_PATH=", 16) == 0)
			p->ld_library_path = e->text + 16;
		else if (e->text && strncmp(e->text, "LD_PRELOAD=", 11) == 0)
			p->ld_preload = e->text + 11;
		break;
	case 'S':
		on_search(b, p, e);
		break;
	case 'O':
		on_open(b, p, e);
		break;
	case 'C':
		on_close(p, e);
		break;
	case 'A':
		if (e->a == 2) /* LA_ACT_DELETE: a new batch of closes */
			p->batch++;
		else if (e->a == 0) /* LA_ACT_CONSISTENT: whatever was searched is over */
			p->cur_search = 0;
		break;
	case 'P':
		p->started = true;
		break;
	default:
		break;
	}
}

void observed_build(struct arena *a, const struct auditrec *rec, struct observed_run *out)
{
	memset(out, 0, sizeof *out);
	struct builder *b = arena_calloc(a, 1, sizeof *b);
	b->a = a;
	b->run = out;
	size_t procs = rec->n < OBSERVED_MAX_PROCS ? rec->n : OBSERVED_MAX_PROCS;
	b->n_slots = 2;
	while (b->n_slots < 2 * procs)
		b->n_slots *= 2;
	b->pids = arena_calloc(a, b->n_slots, sizeof *b->pids);
	b->slot_proc = arena_calloc(a, b->n_slots, sizeof *b->slot_proc);
	for (size_t i = 0; i < rec->n; i++)
		on_event(b, &rec->ev[i]);
}

const char *observed_how_name(unsigned how)
{
	switch (how) {
	case OBSERVED_SER_ORIG:
		return "path";
	case OBSERVED_SER_LIBPATH:
		return "LD_LIBRARY_PATH";
	case OBSERVED_SER_RUNPATH:
		return "RPATH/RUNPATH";
	case OBSERVED_SER_CONFIG:
		return "ld.so.cache";
	case OBSERVED_SER_DEFAULT:
		return "default dirs";
	case OBSERVED_SER_SECURE:
		return "secure dirs";
	default:
		return "?";
	}
}
