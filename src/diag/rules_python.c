/* Placeholder: the python rule family is filled in by its module. */
#include "diag/rule.h"

const struct rule_family rules_python = { "python", NULL, 0 };
