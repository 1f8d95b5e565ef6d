/* The record stream a probe child sends its parent: round trip, and the parent's checks on a
 * stream that vendor code could have scribbled on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "probe/probe_record.h"

/* Records written through a pipe, as the child does, and read back. */
static size_t write_records(uint8_t *out, size_t cap, void (*fill)(int fd))
{
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	fill(fds[1]);
	close(fds[1]);
	size_t n = 0;
	ssize_t r;
	while ((r = read(fds[0], out + n, cap - n)) > 0)
		n += (size_t)r;
	close(fds[0]);
	return n;
}

static void fill_normal(int fd)
{
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_BEGIN);
	probe_rec_str(&r, PROBE_F_NAME, "cuInit");
	probe_rec_send(&r, fd);
	probe_rec_start(&r, PROBE_REC_STEP);
	probe_rec_str(&r, PROBE_F_NAME, "cuInit");
	probe_rec_str(&r, PROBE_F_OUTCOME, "1");
	probe_rec_str(&r, PROBE_F_CODE, "100");
	probe_rec_str(&r, PROBE_F_API, "cu");
	probe_rec_str(&r, PROBE_F_LIB_NAME, "CUDA_ERROR_NO_DEVICE");
	probe_rec_str(&r, PROBE_F_LIBRARY, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.309.01");
	probe_rec_str(&r, PROBE_F_MS, "63.5");
	probe_rec_send(&r, fd);
	probe_rec_start(&r, PROBE_REC_FACT);
	probe_rec_str(&r, PROBE_F_KEY, "driver_cuda_version");
	probe_rec_str(&r, PROBE_F_VALUE, "12020");
	probe_rec_send(&r, fd);
	probe_rec_start(&r, PROBE_REC_BEGIN);
	probe_rec_str(&r, PROBE_F_NAME, "cuDeviceGetCount");
	probe_rec_send(&r, fd);
}

static void round_trip(void **state)
{
	(void)state;
	uint8_t buf[8192];
	size_t n = write_records(buf, sizeof buf, fill_normal);
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	memset(&rep, 0, sizeof rep);
	struct probe_rec_result res;
	probe_records_apply(span_make(buf, n), &a, "driver", "libcuda.so.1", &rep, &res);
	assert_null(res.problem);
	assert_int_equal(res.n_records, 4);
	assert_false(res.ended);
	/* the step begun last with no result is where the child was */
	assert_string_equal(res.last_begun, "cuDeviceGetCount");
	assert_int_equal(rep.n_steps, 1);
	assert_string_equal(rep.steps[0].stage, "driver"); /* the parent's label, not the child's */
	assert_string_equal(rep.steps[0].name, "cuInit");
	assert_int_equal(rep.steps[0].outcome, PROBE_FAILED);
	assert_true(rep.steps[0].has_code);
	assert_int_equal(rep.steps[0].code, 100);
	assert_string_equal(rep.steps[0].lib_code_name, "CUDA_ERROR_NO_DEVICE");
	assert_true(rep.steps[0].ms > 63 && rep.steps[0].ms < 64);
	assert_string_equal(probe_fact_get(&rep, "driver", "libcuda.so.1", "driver_cuda_version"), "12020");
	arena_free(&a);
}

static void apply_bytes(const void *p, size_t n, struct probe_report *rep, struct probe_rec_result *res,
			struct arena *a)
{
	memset(rep, 0, sizeof *rep);
	probe_records_apply(span_make(p, n), a, "s", "t", rep, res);
}

static void rejects_bad_streams(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	struct probe_rec_result res;

	const uint8_t short_len[] = { 5, 0 };
	apply_bytes(short_len, sizeof short_len, &rep, &res, &a);
	assert_string_equal(res.problem, "truncated record length");

	const uint8_t huge[] = { 0xff, 0xff, 0xff, 0x7f, 1 };
	apply_bytes(huge, sizeof huge, &rep, &res, &a);
	assert_string_equal(res.problem, "record length out of range");

	const uint8_t zero[] = { 0, 0, 0, 0 };
	apply_bytes(zero, sizeof zero, &rep, &res, &a);
	assert_string_equal(res.problem, "record length out of range");

	const uint8_t cut[] = { 10, 0, 0, 0, 1, 1 };
	apply_bytes(cut, sizeof cut, &rep, &res, &a);
	assert_string_equal(res.problem, "truncated record");

	/* a field whose length runs past its record */
	const uint8_t field[] = { 5, 0, 0, 0, PROBE_REC_BEGIN, PROBE_F_NAME, 200, 0, 'x' };
	apply_bytes(field, sizeof field, &rep, &res, &a);
	assert_string_equal(res.problem, "field runs past its record");

	const uint8_t type[] = { 1, 0, 0, 0, 99 };
	apply_bytes(type, sizeof type, &rep, &res, &a);
	assert_string_equal(res.problem, "unknown record type");

	/* a step with an outcome out of range */
	const uint8_t outcome[] = { 10, 0, 0, 0, PROBE_REC_STEP, PROBE_F_NAME, 1, 0, 'a', PROBE_F_OUTCOME, 1, 0, '9' };
	apply_bytes(outcome, sizeof outcome, &rep, &res, &a);
	assert_non_null(res.problem);
	assert_int_equal(rep.n_steps, 0);

	/* good records before the damage are kept */
	const uint8_t partial[] = { 4, 0, 0, 0, PROBE_REC_BEGIN, PROBE_F_NAME, 0, 0, 3, 0 };
	apply_bytes(partial, sizeof partial, &rep, &res, &a);
	assert_int_equal(res.n_records, 1);
	assert_string_equal(res.problem, "truncated record length");
	arena_free(&a);
}

static void cleans_strings(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	struct probe_rec_result res;
	const uint8_t esc[] = { 15, 0, 0, 0, PROBE_REC_FACT, PROBE_F_KEY, 1, 0, 'k', PROBE_F_VALUE, 7, 0,
				0x1b, '[', '3', '1', 'm', 0, 'x' };
	apply_bytes(esc, sizeof esc, &rep, &res, &a);
	assert_null(res.problem);
	assert_int_equal(rep.n_facts, 1);
	/* no escape sequence or NUL survives into a terminal or JSON */
	assert_string_equal(rep.facts[0].value, "?[31m?x");
	arena_free(&a);
}

static void fill_long(int fd)
{
	char big[3 * PROBE_FIELD_MAX];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_FACT);
	probe_rec_str(&r, PROBE_F_KEY, "k");
	probe_rec_str(&r, PROBE_F_VALUE, big);
	probe_rec_send(&r, fd);
	for (int i = 0; i < 8; i++) { /* more than a record holds: cut, never overflowing */
		probe_rec_start(&r, PROBE_REC_FACT);
		for (int k = 0; k < 8; k++)
			probe_rec_str(&r, PROBE_F_VALUE, big);
		probe_rec_str(&r, PROBE_F_KEY, "k2");
		probe_rec_send(&r, fd);
	}
}

static void bounds_long_fields(void **state)
{
	(void)state;
	static uint8_t buf[1 << 16];
	size_t n = write_records(buf, sizeof buf, fill_long);
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	memset(&rep, 0, sizeof rep);
	struct probe_rec_result res;
	probe_records_apply(span_make(buf, n), &a, "s", "t", &rep, &res);
	/* the overfull records lost their key: refused, not misread */
	assert_string_equal(res.problem, "fact without key or value");
	assert_int_equal(rep.n_facts, 1);
	assert_int_equal(strlen(rep.facts[0].value), PROBE_FIELD_MAX);
	arena_free(&a);
}

/* Every child reports its sandbox; the report keeps one state, the least confined, and no fact. */
static size_t sandbox_record(uint8_t *buf, size_t cap, const struct probe_sandbox *sb)
{
	char text[512];
	probe_sandbox_encode(sb, text, sizeof text);
	struct probe_rec_buf r;
	probe_rec_start(&r, PROBE_REC_FACT);
	probe_rec_str(&r, PROBE_F_KEY, "sandbox");
	probe_rec_str(&r, PROBE_F_VALUE, text);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(probe_rec_send(&r, fds[1]), 0);
	close(fds[1]);
	ssize_t n = read(fds[0], buf, cap);
	close(fds[0]);
	assert_true(n > 0);
	return (size_t)n;
}

static void sandbox_state(void **state)
{
	(void)state;
	struct arena a;
	arena_init(&a);
	struct probe_report rep;
	memset(&rep, 0, sizeof rep);
	struct probe_rec_result res;
	uint8_t buf[1024];
	struct probe_sandbox full = { .no_new_privs = true, .caps_dropped = true, .dev_needed = true, .dev_readonly = true };
	struct probe_sandbox part = full;
	part.dev_readonly = false;
	snprintf(part.failed[0], sizeof part.failed[0], "unshare(CLONE_NEWNS): Operation not permitted");
	part.n_failed = 1;
	size_t n = sandbox_record(buf, sizeof buf, &full);
	probe_records_apply(span_make(buf, n), &a, "driver", "libcuda.so.1", &rep, &res);
	assert_null(res.problem);
	assert_true(rep.sandbox.reported);
	assert_true(probe_sandbox_complete(&rep.sandbox));
	assert_int_equal(rep.n_facts, 0);
	n = sandbox_record(buf, sizeof buf, &part); /* a second child, less confined: it wins */
	probe_records_apply(span_make(buf, n), &a, "nvml", "libnvidia-ml.so.1", &rep, &res);
	assert_false(probe_sandbox_complete(&rep.sandbox));
	assert_false(rep.sandbox.dev_readonly);
	assert_int_equal(rep.sandbox.n_failed, 1);
	assert_string_equal(rep.sandbox.failed[0], "unshare(CLONE_NEWNS): Operation not permitted");
	n = sandbox_record(buf, sizeof buf, &full); /* a complete one later does not hide it */
	probe_records_apply(span_make(buf, n), &a, "runtime", "libcudart.so.13", &rep, &res);
	assert_false(probe_sandbox_complete(&rep.sandbox));
	/* garbage from the pipe: recognised as reported, nothing claimed */
	struct probe_sandbox g;
	probe_sandbox_decode("nnp=x|caps|root=|fail=|dev=11|||zzz", &g);
	assert_true(g.reported);
	assert_false(g.no_new_privs || g.caps_dropped || g.dev_readonly || g.dev_needed);
	assert_false(probe_sandbox_complete(&g));
	arena_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(rejects_bad_streams),
		cmocka_unit_test(cleans_strings),
		cmocka_unit_test(bounds_long_fields),
		cmocka_unit_test(sandbox_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
