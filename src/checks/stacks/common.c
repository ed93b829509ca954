// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check --pid's reading of the RDMA stacks' variables: the ports a program
 * here sees, the helpers every stack's reader says its verdicts through,
 * and stacks_check, which runs each reader (nccl.c, ucx.c, libfabric.c,
 * openmpi.c). Pure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gidrule.h"
#include "checks/stacks/internal.h"
#include "model/gid.h"

#define PORT_ACTIVE 4

void stacks_say_fmt(struct run *r, enum verdict v, const char *fix, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->said++;
	r->say(r->arg, v, fix, msg);
}

const char *stacks_env(const struct run *r, const char *name)
{
	return r->in->env(r->in->arg, name);
}

bool stacks_active(const struct sport *s)
{
	return s->p->state == PORT_ACTIVE;
}

void stacks_ports_text(const struct sport *v, size_t n, char *buf, size_t len)
{
	*buf = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s:%" PRIu32, i ? ", " : "",
			 v[i].d->name, v[i].p->num);
	if (!n)
		snprintf(buf, len, "none");
}

size_t stacks_active_ports(const struct run *r, struct sport *out)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nall; i++)
		if (stacks_active(&r->all[i]))
			out[n++] = r->all[i];
	return n;
}

const uint8_t *stacks_gid_at(const struct port *p, int64_t index, const struct gid_slot **slot)
{
	static const uint8_t zero[16];

	*slot = model_gidrule_slot(p, index);
	return *slot ? (*slot)->raw : zero;
}

/* "1 (10.11.11.251)" for the GID at INDEX of P. */
static void gid_text(const struct port *p, int64_t index, char *buf, size_t len)
{
	const struct gid_slot *s;
	char addr[GID_ADDR_LEN];

	model_gid_addr(stacks_gid_at(p, index, &s), addr, sizeof(addr));
	snprintf(buf, len, "%" PRId64 " (%s)", index, s ? addr : "empty");
}

int stacks_roce_version(const struct gid_slot *s)
{
	if (!s)
		return -1;
	if (!strcmp(s->type, "RoCE v2"))
		return 2;
	return strstr(s->type, "v1") ? 1 : -1;
}

bool stacks_list_takes(const char *value, const char *name, const char *seps)
{
	bool negate = *value == '^', found = false;
	size_t len = strlen(name);

	for (const char *s = value + negate; *s && !found; s += strcspn(s, seps), s += *s != '\0')
		found = strcspn(s, seps) == len && !strncmp(s, name, len);
	return found != negate;
}

bool stacks_c_number(const char *s, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return end != s && !errno;
}

bool stacks_gids_ok(struct run *r, const char *stack, const struct sport *v, size_t n,
		    const int64_t *index, const char *what, const char *fix, enum verdict bad)
{
	bool ok = true;

	for (size_t i = 0; i < n; i++) {
		char why[256], name[96];

		snprintf(name, sizeof(name), "GID index %" PRId64, index[i]);
		if (model_gidrule(v[i].d->name, v[i].p, index[i], name, false, why, sizeof(why)))
			continue;
		stacks_say_fmt(r, bad, fix, "%s: on %s port %" PRIu32 ", %s (%s)", stack, v[i].d->name,
		    v[i].p->num, why, what);
		ok = false;
	}
	return ok;
}

void stacks_uses_text(const struct sport *v, size_t n, const int64_t *index, char *buf, size_t len)
{
	*buf = '\0';
	for (size_t i = 0; i < n; i++) {
		char g[80];

		gid_text(v[i].p, index[i], g, sizeof(g));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s port %" PRIu32 " with GID %s",
			 i ? ", " : "", v[i].d->name, v[i].p->num, g);
	}
}

int stacks_check(const struct stacks_in *in, stacks_say cb, void *arg)
{
	static void (*const stacks[])(struct run *) = { stacks_nccl, stacks_ucx, stacks_libfabric,
							 stacks_openmpi };
	struct run r = { .in = in, .say = cb, .arg = arg };
	int used = 0;

	for (size_t i = 0; i < in->m->n; i++) {
		const struct rdma_dev *d = &in->m->devs[i];

		if (in->here && !in->here(in->arg, d))
			continue;
		for (size_t k = 0; k < d->nports && r.nall < MAX_PORTS; k++)
			r.all[r.nall++] = (struct sport){ d, &d->ports[k] };
	}
	/* Each stack says something when any of its variables is set, nothing else. */
	for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
		size_t before = r.said;

		stacks[i](&r);
		used += r.said > before;
	}
	return used;
}
