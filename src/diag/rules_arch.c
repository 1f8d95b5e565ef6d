/* Placeholder: the arch rule family is filled in by its module. */
#include "diag/rule.h"

const struct rule_family rules_arch = { "arch", NULL, 0 };
