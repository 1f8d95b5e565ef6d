#include "report/report.h"

#define STYLE(fn, code) \
	const char *fn(const struct cudx_ctx *ctx) { return ctx && ctx->opt && ctx->opt->color ? code : ""; }

STYLE(style_bold, "\033[1m")
STYLE(style_red, "\033[1;31m")
STYLE(style_yellow, "\033[1;33m")
STYLE(style_green, "\033[32m")
STYLE(style_dim, "\033[2m")
STYLE(style_reset, "\033[0m")
