/* The fleet family: what `cudx compare` concludes from many nodes' reports (src/fleet/). It judges
 * the comparison the inventory points at (inv->fleet), which only compare sets: for every other
 * command these rules see nothing and say nothing. */
#include "diag/rule.h"
#include "fleet/fleet_compare.h"
#include "fleet/fleet_words.h"

static void check_node_differs(struct diag_ctx *d, const struct rule *self)
{
	const struct fleet *f = d->inv->fleet;
	if (!f)
		return;
	for (size_t i = 0; i < f->n_nodes; i++) {
		const struct fleet_node *n = &f->nodes[i];
		if (!fleet_node_is_outlier(f, n))
			continue;
		const char *diff[FLEET_NDIM + 1];
		size_t k = fleet_differences(f, n, diff);
		struct finding *fd =
			rule_emit(d, self, "%s differs from the majority: %s", n->name, fleet_outlier_line(f, n));
		finding_subject(fd, n->name);
		finding_cause(fd, "Most of the %zu nodes compared share this driver, CUDA runtime, cuDNN, GPU set and set of "
				  "findings; %s does not. A job that works on the others can fail or behave differently "
				  "there.",
			      f->n_nodes, n->name);
		finding_evidence(fd, "report: %s", n->file);
		for (size_t j = 0; j < k; j++)
			finding_evidence(fd, "%s", diff[j]);
		finding_fix(fd, "read the findings of %s's own report (cudx check on %s, or %s): they name the cause and "
				"the fix",
			    n->name, n->name, n->file);
		finding_fix(fd, "if the difference is intended (another partition, a canary), compare that group on its own");
	}
}

static void check_unreadable(struct diag_ctx *d, const struct rule *self)
{
	const struct fleet *f = d->inv->fleet;
	for (size_t i = 0; f && i < f->n_bad; i++) {
		struct finding *fd = rule_emit(d, self, "%s cannot be read: %s", f->bad[i].file, f->bad[i].error);
		finding_subject(fd, f->bad[i].file);
		finding_evidence(fd, "%s: %s", f->bad[i].file, f->bad[i].error);
	}
}

static const struct rule rules[] = {
	{ "fleet-node-differs", SEV_WARNING, check_node_differs,
	  .cause = "Most nodes compared share a driver, CUDA runtime, cuDNN, GPU set and set of findings; this node "
		   "does not. A job that works on the others can fail or behave differently there.",
	  .fix = "read the findings of the node's own report (cudx check on it): they name the cause and the fix\n"
		 "if the difference is intended (another partition, a canary), compare that group on its own" },
	{ "fleet-report-unreadable", SEV_WARNING, check_unreadable,
	  .cause = "compare reads the reports `cudx check --json` writes (schema cudx/1). This file is not one, so "
		   "its node is left out of the comparison.",
	  .fix = "collect the report again on that node: cudx check --json > NODE.json (the Slurm recipe: "
		 "srun --output=DIR/%N.json cudx check --json)" },
};

RULE_FAMILY(rules_fleet, "fleet", rules);
