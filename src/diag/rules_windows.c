/* Placeholder: the windows rule family is filled in by its module. */
#include "diag/rule.h"

const struct rule_family rules_windows = { "windows", NULL, 0 };
