/* Placeholder: the probe rule family is filled in by its module. */
#include "diag/rule.h"

const struct rule_family rules_probe = { "probe", NULL, 0 };
