/* The message family: causes an error message proves, or shows together with the machine, that
 * no other family can see on the machine alone. They run only for `cudx explain`, which puts what
 * the messages say into the inventory (inv->message, src/explain/explain_message.h: each message
 * with the causes its text points to, best first). A rule emits its finding when a message's
 * most likely cause is its own (the message is the evidence: "[WinError 1455]" is the page file),
 * or, where the machine can add something, when its cause is among the message's candidates and
 * the machine shows it (a container without GPU device nodes, a WSL system). */
#include <ctype.h>
#include <string.h>

#include "diag/rule.h"
#include "explain/explain_message.h"

static const struct message_cause *cause_of(const struct message_entry *e, const char *id, bool top_only)
{
	for (size_t i = 0; i < e->n_causes && (!top_only || i == 0); i++)
		if (strcmp(e->causes[i].finding, id) == 0)
			return &e->causes[i];
	return NULL;
}

/* One finding for every message that points to this rule's cause, the messages as evidence. */
static struct finding *emit(struct diag_ctx *d, const struct rule *self, bool top_only, const char *machine_evidence)
{
	const struct message_inventory *mi = d->inv->message;
	struct finding *f = NULL;
	for (size_t i = 0; mi && i < mi->n; i++) {
		const struct message_entry *e = &mi->v[i];
		const struct message_cause *c = cause_of(e, self->id, top_only);
		if (!c)
			continue;
		if (!f) {
			f = rule_emit(d, self, "%s", c->summary);
			finding_cause(f, "The error message says so: %s.%s%s", c->because ? c->because : "its text",
				      machine_evidence ? " The machine agrees: " : "", machine_evidence ? machine_evidence : "");
			for (size_t k = 0; k < c->n_fix; k++)
				finding_fix(f, "%s", c->fix[k]);
			if (machine_evidence) /* explain tells a finding the machine backs by this prefix */
				finding_evidence(f, "machine: %s", machine_evidence);
		}
		finding_evidence(f, "message (line %zu%s): %s", e->line_no, e->count > 1 ? ", repeated" : "", e->line);
	}
	return f;
}

static void check_top(struct diag_ctx *d, const struct rule *self)
{
	emit(d, self, true, NULL);
}

/* /dev/nvidia0, /dev/nvidia1, ...: one node per GPU the driver drives. */
static bool gpu_nodes(const struct inventory *inv)
{
	for (size_t i = 0; i < inv->driver.n_nodes; i++) {
		const char *p = inv->driver.nodes[i].path;
		if (inv->driver.nodes[i].exists && strncmp(p, "/dev/nvidia", 11) == 0 && isdigit((unsigned char)p[11]))
			return true;
	}
	return false;
}

/* A container with no GPU device nodes: "no device" and "no driver" messages there mean the
 * container was started without the GPUs. */
static void check_container(struct diag_ctx *d, const struct rule *self)
{
	const struct inventory *inv = d->inv;
	if (inv->system.container && inv->system.live && !gpu_nodes(inv))
		emit(d, self, false, "this is a container (/.dockerenv or /run/.containerenv) without /dev/nvidia0, /dev/nvidia1, ...");
	else
		emit(d, self, true, NULL);
}

static void check_wsl(struct diag_ctx *d, const struct rule *self)
{
	if (d->inv->driver.wsl)
		emit(d, self, false, "this system is WSL (/usr/lib/wsl/lib or /dev/dxg present)");
	else
		emit(d, self, true, NULL);
}

static const struct rule message_rules[] = {
	{ "windows-pagefile-too-small", SEV_ERROR, check_top },
	{ "container-no-gpu", SEV_ERROR, check_container },
	{ "container-toolkit-missing", SEV_ERROR, check_top },
	{ "wsl-libcuda", SEV_ERROR, check_wsl },
	{ "fabric-manager-not-running", SEV_ERROR, check_top },
	{ "gpu-lost", SEV_ERROR, check_top },
	{ "nvcc-host-compiler-unsupported", SEV_ERROR, check_top },
	{ "cuda-toolkit-not-found", SEV_ERROR, check_top },
	{ "framework-cpu-build", SEV_WARNING, check_top },
	{ "conda-cuda-virtual-package", SEV_WARNING, check_top },
	{ "harmless-warning", SEV_INFO, check_top },
};

RULE_FAMILY(rules_message, "message", message_rules);
