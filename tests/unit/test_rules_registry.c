/* The rule registry (src/diag/registry.c, emit.c): every finding id is owned by exactly one
 * entry, which gives every finding with that id its severity and default texts. Enumerated from
 * the registry itself, so a new family or entry is checked without editing this file. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "diag/rule.h"

static void each_id_has_one_owner(void **state)
{
	(void)state;
	size_t n_fam, n_ids = 0;
	const struct rule_family *const *fams = diag_families(&n_fam);
	assert_true(n_fam >= 9);
	for (size_t f = 0; f < n_fam; f++)
		for (size_t i = 0; i < fams[f]->n_rules; i++) {
			const struct rule *r = &fams[f]->rules[i];
			if (!r->id) { /* a walker: it must walk */
				assert_non_null(r->check);
				continue;
			}
			n_ids++;
			/* stable ids are lower-case words joined by '-' */
			for (const char *p = r->id; *p; p++)
				assert_true(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-');
			/* the registry finds this entry, and no other family has the id */
			assert_ptr_equal(diag_rule(r->id), r);
			for (size_t g = 0; g < n_fam; g++)
				if (g != f)
					assert_null(rule_family_find(fams[g], r->id));
			for (size_t k = i + 1; k < fams[f]->n_rules; k++)
				assert_true(!fams[f]->rules[k].id || strcmp(fams[f]->rules[k].id, r->id) != 0);
		}
	assert_true(n_ids > 40);
}

static void each_entry_says_what_it_means(void **state)
{
	(void)state;
	size_t n_fam;
	const struct rule_family *const *fams = diag_families(&n_fam);
	for (size_t f = 0; f < n_fam; f++)
		for (size_t i = 0; i < fams[f]->n_rules; i++) {
			const struct rule *r = &fams[f]->rules[i];
			if (!r->id)
				continue;
			/* the cause shown when a detector has nothing more specific, and in `cudx kb findings` */
			assert_non_null(r->cause);
			assert_true(strlen(r->cause) > 20);
			/* a milder severity is milder, and says when */
			if (r->mild_when) {
				assert_true(r->mild < r->severity);
				assert_true(strlen(r->mild_when) > 10);
			}
		}
}

struct fixture {
	struct arena a;
	struct options opt;
	struct cudx_ctx ctx;
	struct inventory inv;
	struct findings fs;
	struct diag_ctx d;
};

static struct fixture *fixture(void)
{
	static struct fixture f;
	memset(&f, 0, sizeof f);
	arena_init(&f.a);
	f.ctx.arena = &f.a;
	f.ctx.opt = &f.opt;
	f.ctx.os = OS_LINUX;
	findings_init(&f.fs, &f.a);
	f.d = (struct diag_ctx){ .ctx = &f.ctx, .inv = &f.inv, .out = &f.fs };
	return &f;
}

static void emit_takes_the_entry_severity_and_defaults(void **state)
{
	(void)state;
	struct fixture *f = fixture();
	const struct rule *stub = diag_rule("stub-libcuda"), *oom = diag_rule("gpu-out-of-memory");
	const struct rule *tkit = diag_rule("gpu-unsupported-by-toolkit");
	assert_non_null(stub);
	struct finding *a = rule_emit(&f->d, tkit, "a warning");
	struct finding *b = rule_emit(&f->d, stub, "a stub: %d", 34);
	finding_fix(b, "the detector's own fix");
	struct finding *c = rule_emit(&f->d, stub, "a milder stub");
	finding_mild(c);
	rule_emit(&f->d, oom, "no fix from the detector");
	diag_finish(&f->d);
	/* sorted: errors first, order kept within a severity */
	assert_string_equal(f->fs.v[0].summary, "a stub: 34");
	assert_int_equal(f->fs.v[0].severity, SEV_ERROR);
	assert_string_equal(f->fs.v[1].summary, "no fix from the detector");
	assert_int_equal(f->fs.v[2].severity, SEV_WARNING);
	assert_int_equal(f->fs.v[3].severity, SEV_WARNING);
	(void)a;
	/* the detector's fix stands; the entry's cause fills in; a finding with no fix takes the entry's */
	assert_int_equal(f->fs.v[0].n_fix, 1);
	assert_string_equal(f->fs.v[0].cause, stub->cause);
	assert_true(f->fs.v[1].n_fix >= 1);
	assert_ptr_equal(f->fs.v[1].rule, oom);
	arena_free(&f->a);
}

static void join_adds_to_the_finding_another_family_made(void **state)
{
	(void)state;
	struct fixture *f = fixture();
	const struct rule *owner = diag_rule("driver-too-old");
	f->fs.family_bit = 1u << 0;
	rule_emit(&f->d, owner, "from the files");
	f->fs.family_bit = 1u << 6;
	bool created = true;
	struct finding *x = rule_join(&f->d, owner, NULL, &created, "from the probe");
	assert_false(created);
	assert_string_equal(x->summary, "from the files");
	assert_int_equal(x->families, (1u << 0) | (1u << 6));
	/* with a subject, only the finding about it is joined */
	x = rule_join(&f->d, owner, "/lib/libcudart.so.13", &created, "another runtime");
	assert_true(created);
	assert_int_equal(f->fs.n, 2);
	assert_string_equal(x->subject, "/lib/libcudart.so.13");
	arena_free(&f->a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_id_has_one_owner),
		cmocka_unit_test(each_entry_says_what_it_means),
		cmocka_unit_test(emit_takes_the_entry_severity_and_defaults),
		cmocka_unit_test(join_adds_to_the_finding_another_family_made),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
