// SPDX-License-Identifier: GPL-2.0-or-later
/* An event's line as a journal entry's fields (journal.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/journal.h"
#include "cli/out.h"

/* A field's name: journald takes at most 64 bytes of A-Z, 0-9 and _. */
#define NAME_MAX_LEN 64

static char *keep(struct out_journal *e, char *s)
{
	if (!s)
		return NULL;
	if (e->nmem >= sizeof(e->mem) / sizeof(e->mem[0])) {
		free(s);
		return NULL;
	}
	e->mem[e->nmem++] = s;
	return s;
}

int out_journal_add(struct out_journal *e, const char *name, const char *value)
{
	if (e->n >= OUT_JOURNAL_MAX)
		return 0;
	e->f[e->n++] = (struct journal_field){ name, value };
	return 1;
}

/* TEXT escaped as plain text prints it, in memory E keeps; NULL: no memory. */
static char *escaped(struct out_journal *e, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	out_escape(m, text, strlen(text));
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return keep(e, buf);
}

/* "RDMACTL_" PREFIX KEY in capitals, every other byte '_'. */
static char *field_name(struct out_journal *e, const char *prefix, const char *key)
{
	char name[NAME_MAX_LEN + 1];
	int n = snprintf(name, sizeof(name), "RDMACTL_%s%s", prefix, key);

	if (n < 0 || n > NAME_MAX_LEN)
		return NULL;
	for (char *c = name; *c; c++)
		*c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
	return keep(e, strdup(name));
}

/* O's members as fields, their names after PREFIX ("" or "SEES_"). */
static int members(struct out_journal *e, struct json_object *o, const char *prefix)
{
	struct json_object_iterator it = json_object_iter_begin(o);
	struct json_object_iterator end = json_object_iter_end(o);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *key = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		char *name, *value, sub[NAME_MAX_LEN];

		if (e->n >= OUT_JOURNAL_MAX)
			break;
		if (!v || json_object_is_type(v, json_type_array))
			continue;
		if (json_object_is_type(v, json_type_object)) {
			int err;

			/* The owner's pid and comm are the event's: RDMACTL_PID, as a call's are. */
			if (!strcmp(key, "owner"))
				*sub = '\0';
			else if (snprintf(sub, sizeof(sub), "%s%s_", prefix, key) >= (int)sizeof(sub))
				continue;
			err = members(e, v, sub);
			if (err)
				return err;
			continue;
		}
		name = field_name(e, prefix, key);
		value = escaped(e, json_object_get_string(v));
		if (!name || !value)
			return -ENOMEM;
		out_journal_add(e, name, value);
	}
	return 0;
}

int out_journal_make(struct out_journal *e, const char *json, const char *plain)
{
	struct json_object *o = json_tokener_parse(json);
	const char *sp;
	char *line;
	int err;

	memset(e, 0, sizeof(*e));
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EINVAL;
	}
	/* The journal has its own time: the message begins with the event. */
	sp = strchr(plain, ' ');
	line = keep(e, strndup(sp ? sp + 1 : plain, strcspn(sp ? sp + 1 : plain, "\n")));
	err = line ? 0 : -ENOMEM;
	if (!err) {
		out_journal_add(e, "MESSAGE", line);
		out_journal_add(e, "RDMACTL_JSON", json);
		err = members(e, o, "");
	}
	json_object_put(o);
	if (err)
		out_journal_free(e);
	return err;
}

void out_journal_free(struct out_journal *e)
{
	for (size_t i = 0; i < e->nmem; i++)
		free(e->mem[i]);
	memset(e, 0, sizeof(*e));
}
