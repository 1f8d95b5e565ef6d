/* Placeholder: the loader rule family is filled in by its module. */
#include "diag/rule.h"

const struct rule_family rules_loader = { "loader", NULL, 0 };
