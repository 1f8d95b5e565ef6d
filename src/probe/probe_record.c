#include "probe/probe_record.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void probe_rec_start(struct probe_rec_buf *r, enum probe_rec_type type)
{
	r->n = 4;
	r->overflow = 0;
	r->b[r->n++] = (uint8_t)type;
}

void probe_rec_str(struct probe_rec_buf *r, enum probe_rec_field tag, const char *s)
{
	if (!s)
		return;
	size_t len = strnlen(s, PROBE_FIELD_MAX);
	size_t room = sizeof r->b - r->n;
	if (room < 3) {
		r->overflow = 1;
		return;
	}
	if (len > room - 3) {
		len = room - 3;
		r->overflow = 1;
	}
	r->b[r->n++] = (uint8_t)tag;
	r->b[r->n++] = (uint8_t)(len & 0xff);
	r->b[r->n++] = (uint8_t)(len >> 8);
	memcpy(r->b + r->n, s, len);
	r->n += len;
}

int probe_rec_send(struct probe_rec_buf *r, int fd)
{
	uint32_t len = (uint32_t)(r->n - 4);
	r->b[0] = (uint8_t)len;
	r->b[1] = (uint8_t)(len >> 8);
	r->b[2] = (uint8_t)(len >> 16);
	r->b[3] = (uint8_t)(len >> 24);
	size_t off = 0;
	while (off < r->n) {
		ssize_t w = write(fd, r->b + off, r->n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* A field's bytes as a clean string: control bytes become '?', so nothing a vendor library wrote
 * can reach a terminal or break JSON. */
static const char *clean_copy(struct arena *a, struct span s)
{
	size_t n = s.n < PROBE_FIELD_MAX ? s.n : PROBE_FIELD_MAX;
	char *out = arena_alloc(a, n + 1);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = s.p[i];
		out[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	out[n] = '\0';
	return out;
}

static bool parse_long(const char *s, long *v)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static bool parse_ms(const char *s, double *v)
{
	if (!s || !*s)
		return false;
	char *end;
	double x = strtod(s, &end);
	if (*end || !(x >= 0 && x < 1e9)) /* also rejects NaN */
		return false;
	*v = x;
	return true;
}

/* One record's payload: fills f[tag] (NULL when absent). Returns NULL or the problem. */
static const char *parse_fields(struct span p, struct arena *a, const char *f[PROBE_F_MAX_])
{
	for (size_t i = 0; i < PROBE_F_MAX_; i++)
		f[i] = NULL;
	uint64_t off = 1; /* after the type byte */
	while (off < p.n) {
		uint8_t tag;
		uint16_t len;
		if (!span_u8(p, off, &tag) || !span_u16le(p, off + 1, &len))
			return "truncated field header";
		struct span v = span_sub(p, off + 3, len);
		if (!v.p && len)
			return "field runs past its record";
		if (tag == 0 || tag >= PROBE_F_MAX_)
			return "unknown field tag";
		f[tag] = clean_copy(a, v);
		off += 3 + (uint64_t)len;
	}
	return NULL;
}

void probe_records_apply(struct span in, struct arena *a, const char *stage, const char *target,
			 struct probe_report *rep, struct probe_rec_result *res)
{
	memset(res, 0, sizeof *res);
	uint64_t off = 0;
	while (off < in.n) {
		if (res->n_records >= PROBE_RECORDS_MAX) {
			res->problem = "too many records";
			return;
		}
		uint32_t len;
		if (!span_u32le(in, off, &len)) {
			res->problem = "truncated record length";
			return;
		}
		if (len < 1 || len > PROBE_RECORD_MAX) {
			res->problem = "record length out of range";
			return;
		}
		struct span p = span_sub(in, off + 4, len);
		if (!p.p) {
			res->problem = "truncated record";
			return;
		}
		off += 4 + (uint64_t)len;
		res->n_records++;

		const char *f[PROBE_F_MAX_];
		const char *bad = parse_fields(p, a, f);
		if (bad) {
			res->problem = bad;
			return;
		}
		switch (p.p[0]) {
		case PROBE_REC_BEGIN:
			if (!f[PROBE_F_NAME]) {
				res->problem = "step without a name";
				return;
			}
			res->last_begun = f[PROBE_F_NAME];
			break;
		case PROBE_REC_STEP: {
			long outcome;
			if (!f[PROBE_F_NAME] || !parse_long(f[PROBE_F_OUTCOME], &outcome) ||
			    outcome < PROBE_OK || outcome > PROBE_INTERRUPTED) {
				res->problem = "step without a valid name or outcome";
				return;
			}
			struct probe_step *s = ARENA_PUSH(a, rep->steps, rep->n_steps, rep->cap_steps);
			s->stage = stage;
			s->target = target;
			s->name = f[PROBE_F_NAME];
			s->outcome = (enum probe_outcome)outcome;
			s->has_code = parse_long(f[PROBE_F_CODE], &s->code);
			s->api = f[PROBE_F_API];
			s->lib_code_name = f[PROBE_F_LIB_NAME];
			s->lib_code_text = f[PROBE_F_LIB_TEXT];
			s->library = f[PROBE_F_LIBRARY];
			s->value = f[PROBE_F_VALUE];
			if (!parse_ms(f[PROBE_F_MS], &s->ms))
				s->ms = 0;
			if (res->last_begun && strcmp(res->last_begun, s->name) == 0)
				res->last_begun = NULL;
			break;
		}
		case PROBE_REC_FACT: {
			if (!f[PROBE_F_KEY] || !f[PROBE_F_VALUE]) {
				res->problem = "fact without key or value";
				return;
			}
			if (strcmp(f[PROBE_F_KEY], "sandbox") == 0) {
				/* every child sends it; the report keeps one, the least confined */
				struct probe_sandbox sb;
				probe_sandbox_decode(f[PROBE_F_VALUE], &sb);
				if (!rep->sandbox.reported ||
				    (probe_sandbox_complete(&rep->sandbox) && !probe_sandbox_complete(&sb)))
					rep->sandbox = sb;
				break;
			}
			struct probe_fact *x = ARENA_PUSH(a, rep->facts, rep->n_facts, rep->cap_facts);
			x->stage = stage;
			x->target = f[PROBE_F_TARGET] ? f[PROBE_F_TARGET] : target;
			x->key = f[PROBE_F_KEY];
			x->value = f[PROBE_F_VALUE];
			break;
		}
		case PROBE_REC_END:
			res->ended = 1;
			break;
		default:
			res->problem = "unknown record type";
			return;
		}
	}
}
