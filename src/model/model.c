// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA model in memory: devices, ports, GIDs and counters, whichever
 * source filled it (model/load.c); what sysfs's texts mean; finding and
 * picking rxe devices. It reads nothing itself.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/counter.h"
#include "model/gid.h"
#include "model/model.h"
#include "model/sources.h"

const char *model_port_state_name(uint8_t state)
{
	static const char *const names[] = {
		"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "UNKNOWN";
}

const char *model_phys_state_name(uint8_t state)
{
	static const char *const names[] = {
		"NOP", "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION_TRAINING",
		"LINK_UP", "LINK_ERROR_RECOVERY", "PHY_TEST",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "UNKNOWN";
}

uint8_t model_parse_state(const char *text)
{
	unsigned long v = strtoul(text, NULL, 10);

	return v > 255 ? 0 : (uint8_t)v;
}

void model_parse_rate(struct port *p)
{
	/* "10 Gb/sec (1X FDR10)", "2.5 Gb/sec (1X SDR)" */
	const char *open = strchr(p->rate, '(');
	char *end;

	p->speed_gbps = strtod(p->rate, &end);
	/* strtod takes "nan" and "inf" too: a rate is a finite count of Gb/s, else unknown (0). */
	if (end == p->rate || !isfinite(p->speed_gbps) || p->speed_gbps < 0)
		p->speed_gbps = 0;
	if (open) {
		size_t n = strcspn(open + 1, " )");

		if (n < sizeof(p->width)) {
			memcpy(p->width, open + 1, n);
			p->width[n] = '\0';
		}
	}
}

bool model_parse_counter(const char *name, const char *text, struct counter *c)
{
	char *end;

	/* lifespan is how long the kernel keeps a reading, a setting: no counter. */
	if (strlen(name) >= sizeof(c->name) || !isdigit((unsigned char)*text) ||
	    !strcmp(name, MODEL_COUNTER_LIFESPAN))
		return false;
	errno = 0;
	c->value = strtoull(text, &end, 10);
	/* Past 64 bits no counter counts: unknown, never read as 2^64 - 1. */
	if (*end || errno == ERANGE)
		return false;
	strcpy(c->name, name);
	return true;
}

void model_parse_node_type(const char *text, struct rdma_dev *d)
{
	const char *t = strchr(text, ':');

	/* "1: CA" is shown as "ca", as iproute2's rdma does. */
	t = t ? t + 1 + strspn(t + 1, " ") : text;
	memset(d->node_type, 0, sizeof(d->node_type));
	for (size_t i = 0; i < sizeof(d->node_type) - 1 && t[i]; i++)
		d->node_type[i] = (char)tolower((unsigned char)t[i]);
}

void model_dev_free(struct rdma_dev *d)
{
	for (size_t i = 0; i < d->nports; i++) {
		free(d->ports[i].gids);
		free(d->ports[i].counters);
	}
	free(d->ports);
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->n; i++)
		model_dev_free(&m->devs[i]);
	free(m->devs);
	m->devs = NULL;
	m->n = 0;
}

/* The same of one scope: with IPV6, global or LINK_LOCAL only. */
static const struct gid_slot *model_port_roce_gid_scoped(const struct port *p,
							 const char *netdev, bool ipv6,
							 bool link_local)
{
	for (size_t i = 0; i < p->ngids; i++) {
		const struct gid_slot *g = &p->gids[i];
		bool family = ipv6 ? !model_gid_is_v4mapped(g->raw) && model_gid_is_link_local(g->raw) == link_local :
				     model_gid_is_v4mapped(g->raw);

		if (!g->empty && family && !strcmp(g->type, "RoCE v2") &&
		    (!netdev || !strcmp(g->netdev, netdev)))
			return g;
	}
	return NULL;
}

const struct gid_slot *model_port_roce_gid(const struct port *p, const char *netdev, bool ipv6)
{
	const struct gid_slot *g = model_port_roce_gid_scoped(p, netdev, ipv6, false);

	return g || !ipv6 ? g : model_port_roce_gid_scoped(p, netdev, true, true);
}

int64_t model_port_ipv4_gid_index(const struct port *p, const char *netdev)
{
	const struct gid_slot *g = model_port_roce_gid(p, netdev, false);

	return g ? (int64_t)g->index : -1;
}

bool model_dev_is_rxe(const struct rdma_dev *d)
{
	return !strcmp(d->driver, "rxe");
}

const struct rdma_dev *model_find(const struct model *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->devs[i].name, name))
			return &m->devs[i];
	return NULL;
}

static bool has_netdev(const struct rdma_dev *d, const char *netdev)
{
	for (size_t i = 0; i < d->nports; i++)
		if (!strcmp(d->ports[i].netdev, netdev))
			return true;
	return false;
}

const struct rdma_dev *model_rxe_on(const struct model *m, const char *netdev)
{
	for (size_t i = 0; i < m->n; i++)
		if (model_dev_is_rxe(&m->devs[i]) && has_netdev(&m->devs[i], netdev))
			return &m->devs[i];
	return NULL;
}

int model_select_rxe(const struct model *m, const char *name, const char *netdev,
		     const struct rdma_dev **targets, size_t *n, const struct rdma_dev **bad)
{
	bool found = false;

	for (size_t i = 0; i < m->n; i++) {
		const struct rdma_dev *d = &m->devs[i];
		bool dup = false;

		if (name && strcmp(d->name, name))
			continue;
		if (netdev && !(model_dev_is_rxe(d) && has_netdev(d, netdev)))
			continue;
		if (!name && !netdev && !model_dev_is_rxe(d))
			continue;
		found = true;
		if (!model_dev_is_rxe(d)) {
			*bad = d;
			return -EPERM;
		}
		for (size_t j = 0; j < *n; j++)
			dup |= targets[j] == d;
		if (!dup)
			targets[(*n)++] = d;
	}
	return found || (!name && !netdev) ? 0 : -ENODEV;
}

