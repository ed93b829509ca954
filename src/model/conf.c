// SPDX-License-Identifier: GPL-2.0-or-later
/* The persistent-links file: "NAME NETDEV" a line, comments kept, atomic rewrite. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/safe.h"
#include "model/conf.h"
#include "model/names.h"

#define CONF_HEADER_1 "# rdmactl persistent rxe links, created by 'rdmactl start' at boot."
#define CONF_HEADER_2 "# One link a line: NAME NETDEV. '#' starts a comment."

#define CONF_MAX_SIZE (1 << 20)

/* Room for one more of N items of SIZE at *V, which holds *CAP: grown by doubling. */
static int grow(void *v, size_t n, size_t *cap, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*(void **)v, (*cap ? *cap * 2 : 8) * size);
	if (!p)
		return -ENOMEM;
	*(void **)v = p;
	*cap = *cap ? *cap * 2 : 8;
	return 0;
}

static int push_line(struct conf *c, const char *s, size_t len)
{
	if (grow(&c->lines, c->nlines, &c->lines_cap, sizeof(*c->lines)))
		return -ENOMEM;
	c->lines[c->nlines] = strndup(s, len);
	if (!c->lines[c->nlines])
		return -ENOMEM;
	c->nlines++;
	return 0;
}

/* E names NAME on NETDEV at LINE: both strings in one allocation, freed with NAME. */
static int set_entry(struct conf_entry *e, const char *name, const char *netdev, size_t line)
{
	size_t a = strlen(name) + 1, b = strlen(netdev) + 1;
	char *both = malloc(a + b);

	if (!both)
		return -ENOMEM;
	memcpy(both, name, a);
	memcpy(both + a, netdev, b);
	e->name = both;
	e->netdev = both + a;
	e->line = line;
	return 0;
}

static void drop(char *copy, const char *small)
{
	if (copy != small)
		free(copy);
}

/* Splits line I into an entry, if it holds one. */
static int parse_line(struct conf *c, size_t i, const char *path, char *err, size_t errlen)
{
	char small[256], *copy, *tok[3], *save = NULL, *hash;
	size_t len = strlen(c->lines[i]);
	int ntok = 0, ret;

	/* Tokens are cut in a copy: on the stack for any line a person writes. */
	copy = len < sizeof(small) ? small : malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, c->lines[i], len + 1);
	hash = strchr(copy, '#');
	if (hash)
		*hash = '\0';
	for (char *t = strtok_r(copy, " \t\r", &save); t && ntok < 3;
	     t = strtok_r(NULL, " \t\r", &save))
		tok[ntok++] = t;
	if (ntok == 0) {
		drop(copy, small);
		return 0;
	}
	if (ntok != 2) {
		snprintf(err, errlen, "%s:%zu: expected 'NAME NETDEV', found %s", path, i + 1,
			 ntok == 1 ? "one word" : "more than two words");
		drop(copy, small);
		return -EINVAL;
	}
	for (int k = 0; k < 2; k++) {
		const char *why = k ? model_names_netdev_invalid(tok[1]) : model_names_rdma_invalid(tok[0]);

		if (why) {
			/* Bytes as they are: the message is escaped where it is printed (\xNN). */
			snprintf(err, errlen, "%s:%zu: '%s' is not a valid %s name: %s", path, i + 1,
				 tok[k], k ? "network device" : "RDMA device", why);
			drop(copy, small);
			return -EINVAL;
		}
	}
	if (model_conf_find(c, tok[0])) {
		snprintf(err, errlen, "%s:%zu: %s is listed twice", path, i + 1, tok[0]);
		drop(copy, small);
		return -EINVAL;
	}
	if (grow(&c->e, c->n, &c->e_cap, sizeof(*c->e))) {
		drop(copy, small);
		return -ENOMEM;
	}
	ret = set_entry(&c->e[c->n], tok[0], tok[1], i + 1);
	drop(copy, small);
	if (ret)
		return ret;
	c->n++;
	return 0;
}

int model_conf_parse(const char *buf, size_t len, const char *path, struct conf *c, char *err,
	       size_t errlen)
{
	size_t start = 0;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (errlen)
		err[0] = '\0';
	if (len > CONF_MAX_SIZE) {
		snprintf(err, errlen, "%s: larger than 1 MiB: not a configuration file", path);
		return -EFBIG;
	}
	if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%s: contains NUL bytes: not a text file", path);
		return -EINVAL;
	}
	/* Line by line; a last line without its newline is a line too. */
	while (!ret && start < len) {
		const char *nl = memchr(buf + start, '\n', len - start);
		size_t n = nl ? (size_t)(nl - (buf + start)) : len - start;

		ret = push_line(c, buf + start, n);
		if (!ret)
			ret = parse_line(c, c->nlines - 1, path, err, errlen);
		start += n + 1;
	}
	if (ret)
		model_conf_free(c);
	return ret;
}

int model_conf_load(const char *path, struct conf *c, char *err, size_t errlen, struct safe_path *p)
{
	struct safe_path own;
	char *buf;
	size_t len;
	int ret;

	memset(c, 0, sizeof(*c));
	if (errlen)
		err[0] = '\0';
	buf = malloc(CONF_MAX_SIZE + 1);
	if (!buf)
		return -ENOMEM;
	/* A regular file only: a FIFO or a device is refused, never opened. */
	ret = safe_read(path, buf, CONF_MAX_SIZE, &len, p ? p : &own);
	if (ret == -ENOENT)
		ret = 0;	/* no file: no links */
	else if (!ret)
		ret = model_conf_parse(buf, len, path, c, err, errlen);
	free(buf);
	return ret;
}

void model_conf_entry_free(struct conf_entry *e)
{
	free(e->name);	/* and netdev, in the same block */
	e->name = e->netdev = NULL;
}

void model_conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->nlines; i++)
		free(c->lines[i]);
	for (size_t i = 0; i < c->n; i++) {
		model_conf_entry_free(&c->e[i]);
	}
	free(c->lines);
	free(c->e);
	memset(c, 0, sizeof(*c));
}

const struct conf_entry *model_conf_find(const struct conf *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].name, name))
			return &c->e[i];
	return NULL;
}

const struct conf_entry *model_conf_find_netdev(const struct conf *c, const char *netdev)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].netdev, netdev))
			return &c->e[i];
	return NULL;
}

int model_conf_add(struct conf *c, const char *name, const char *netdev)
{
	const struct conf_entry *e = model_conf_find(c, name);
	char *line;
	int err;

	if (e)
		return strcmp(e->netdev, netdev) ? -EEXIST : 1;
	/* The kernel makes one rxe link a netdev: a second would fail at every boot. */
	if (model_conf_find_netdev(c, netdev))
		return -EBUSY;
	/* A new file says what it is. */
	if (c->nlines == 0 && (push_line(c, CONF_HEADER_1, strlen(CONF_HEADER_1)) ||
			       push_line(c, CONF_HEADER_2, strlen(CONF_HEADER_2))))
		return -ENOMEM;
	if (asprintf(&line, "%s %s", name, netdev) < 0)
		return -ENOMEM;
	err = push_line(c, line, strlen(line));
	free(line);
	if (err)
		return err;
	err = grow(&c->e, c->n, &c->e_cap, sizeof(*c->e));
	if (!err)
		err = set_entry(&c->e[c->n], name, netdev, c->nlines);
	if (err)
		return err;
	c->n++;
	return 0;
}

int model_conf_del(struct conf *c, const char *name)
{
	int removed = 0;

	for (size_t i = 0; i < c->n;) {
		struct conf_entry *e = &c->e[i];

		if (strcmp(e->name, name) && strcmp(e->netdev, name)) {
			i++;
			continue;
		}
		/* Drop the line; later entries move up one line. */
		free(c->lines[e->line - 1]);
		memmove(&c->lines[e->line - 1], &c->lines[e->line],
			(c->nlines - e->line) * sizeof(*c->lines));
		c->nlines--;
		for (size_t j = 0; j < c->n; j++)
			if (c->e[j].line > e->line)
				c->e[j].line--;
		model_conf_entry_free(e);
		memmove(e, e + 1, (c->n - i - 1) * sizeof(*e));
		c->n--;
		removed++;
	}
	return removed;
}

char *model_conf_format(const struct conf *c, size_t *len)
{
	char *text;
	size_t n = 0;

	for (size_t i = 0; i < c->nlines; i++)
		n += strlen(c->lines[i]) + 1;
	text = malloc(n + 1);
	if (!text)
		return NULL;
	*len = 0;
	for (size_t i = 0; i < c->nlines; i++) {
		size_t k = strlen(c->lines[i]);

		memcpy(text + *len, c->lines[i], k);
		text[*len + k] = '\n';
		*len += k + 1;
	}
	text[*len] = '\0';
	return text;
}

int model_conf_save(const struct conf *c, const char *path, struct safe_path *p)
{
	struct safe_path own;
	size_t len;
	char *text;
	int err;

	text = model_conf_format(c, &len);
	if (!text)
		return -ENOMEM;
	err = safe_write(path, text, len, 0644, p ? p : &own);
	free(text);
	return err;
}
