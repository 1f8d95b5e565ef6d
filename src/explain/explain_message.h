/* What the messages `cudx explain` read say, for the rules that judge them with the inventory
 * (src/diag/rules_message.c): each recognised message with the causes its text points to, best
 * first, their summaries and fixes filled from the message's facts. inv->message is set by
 * explain before the rules run and NULL for every other command. Plain data. */
#ifndef CUDX_EXPLAIN_MESSAGE_H
#define CUDX_EXPLAIN_MESSAGE_H

#include <stddef.h>

#define MESSAGE_MAX_CAUSES 6

struct message_cause {
	const char *key;     /* explain's cause key ("pagefile-too-small") */
	const char *finding; /* the finding id it stands for */
	const char *summary; /* one line, the message's facts filled in */
	const char *because; /* the fact of the message behind it */
	const char *const *fix;
	size_t n_fix;
	double score;        /* the text's score */
};

struct message_entry {
	const char *line; /* as seen (normalised) */
	size_t line_no, count;
	struct message_cause causes[MESSAGE_MAX_CAUSES];
	size_t n_causes;
};

struct message_inventory {
	struct message_entry *v;
	size_t n;
};

#endif
