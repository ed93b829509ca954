// SPDX-License-Identifier: GPL-2.0-or-later
/* The port counters, named and explained, with their change (plain, JSON, Prometheus). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/out.h"
#include "model/counter.h"
#include "model/model.h"
#include "views/stat.h"

/* PREV's value of the counter NAME of device DEV port PORT: false when it had none. */
static bool prev_value(const struct model *prev, const char *dev, uint32_t port, const char *name,
		       uint64_t *v)
{
	const struct rdma_dev *d = prev ? model_find(prev, dev) : NULL;

	for (size_t i = 0; d && i < d->nports; i++) {
		if (d->ports[i].num != port)
			continue;
		for (size_t k = 0; k < d->ports[i].ncounters; k++) {
			if (!strcmp(d->ports[i].counters[k].name, name)) {
				*v = d->ports[i].counters[k].value;
				return true;
			}
		}
	}
	return false;
}

static void counter(struct out *o, const struct model *prev, const struct rdma_dev *d,
		    const struct port *p, const struct counter *c)
{
	const struct model_counter_info *info = model_counter_info(c->name);
	uint64_t before;

	out_obj_open(o, NULL);
	out_str(o, "name", "    %-24s", info ? info->name : c->name);
	out_str(o, "kernel_name", NULL, c->name);
	out_u64(o, "value", " %14" PRIu64, c->value);
	if (prev && prev_value(prev, d->name, p->num, c->name, &before) && c->value >= before) {
		char text[24];

		snprintf(text, sizeof(text), "+%" PRIu64, c->value - before);
		out_u64(o, "change", NULL, c->value - before);
		out_text(o, " %10s", text);
	} else if (prev)	/* new, or reset with its device: no change to give */
		out_str(o, "change", " %10s", "-");
	else
		out_str(o, "change", NULL, NULL);
	out_str(o, "unit", NULL, info ? info->unit : NULL);
	out_str(o, "meaning", "  %s", info ? info->meaning : NULL);
	out_bool(o, "error", NULL, info && info->trouble);
	out_nl(o);
	out_obj_close(o);
}

void view_stat(struct out *o, const struct model *m, const struct model *prev,
	       unsigned int interval_s)
{
	out_arr_open(o, NULL);
	for (size_t i = 0; i < m->n; i++) {
		const struct rdma_dev *d = &m->devs[i];

		for (size_t j = 0; j < d->nports; j++) {
			const struct port *p = &d->ports[j];

			out_obj_open(o, NULL);
			out_str(o, "ifname", "%s", d->name);
			out_u64(o, "port", "/%" PRIu64, p->num);
			if (prev)
				out_u64(o, "interval_s", ": change over %" PRIu64 " s", interval_s);
			else
				out_str(o, "interval_s", NULL, NULL);
			out_text(o, "%s\n", prev ? "" : ":");
			out_arr_open(o, "counters");
			for (size_t k = 0; k < p->ncounters; k++)
				if (strcmp(p->counters[k].name, MODEL_COUNTER_LIFESPAN))
					counter(o, prev, d, p, &p->counters[k]);
			out_arr_close(o);
			out_obj_close(o);
		}
	}
	out_arr_close(o);
}

/*
 * TEXT as a label value: backslash, double quote and newline escaped, as the
 * format asks; any other control byte, which it has no escape for, is '?'.
 */
static void label(FILE *f, const char *text)
{
	for (; *text; text++) {
		unsigned char c = (unsigned char)*text;

		if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else
			fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
}

/* A metric's name: rdma_ and the counter's, anything but [a-z0-9_] made '_', then _total. */
static void metric(FILE *f, const char *name)
{
	fputs("rdma_", f);
	for (; *name; name++)
		fputc((*name >= 'a' && *name <= 'z') || (*name >= '0' && *name <= '9') ? *name : '_', f);
	fputs("_total", f);
}

/* Whether the counter NAME came before in M, at device I port J counter K: its family is said. */
static bool said(const struct model *m, size_t i, size_t j, size_t k, const char *name)
{
	for (size_t a = 0; a <= i; a++) {
		const struct rdma_dev *d = &m->devs[a];

		for (size_t b = 0; b < d->nports; b++) {
			const struct port *p = &d->ports[b];

			for (size_t c = 0; c < p->ncounters; c++) {
				if (a == i && b == j && c == k)
					return false;
				if (!strcmp(p->counters[c].name, name))
					return true;
			}
		}
	}
	return false;
}

/* The family of the counter NAME: its help, its type, then every port's sample of it. */
static void family(FILE *f, const struct model *m, const char *name)
{
	const struct model_counter_info *info = model_counter_info(name);
	const char *mname = info ? info->name : name;

	fputs("# HELP ", f);
	metric(f, mname);
	fprintf(f, " %s\n# TYPE ", info ? info->meaning : "an RDMA port counter, as its driver names it");
	metric(f, mname);
	fputs(" counter\n", f);
	for (size_t i = 0; i < m->n; i++) {
		for (size_t j = 0; j < m->devs[i].nports; j++) {
			const struct port *p = &m->devs[i].ports[j];

			for (size_t k = 0; k < p->ncounters; k++) {
				if (strcmp(p->counters[k].name, name))
					continue;
				metric(f, mname);
				fputs("{device=\"", f);
				label(f, m->devs[i].name);
				fprintf(f, "\",port=\"%" PRIu32 "\"} %" PRIu64 "\n", p->num,
					p->counters[k].value);
			}
		}
	}
}

void view_stat_prometheus(FILE *f, const struct model *m)
{
	/* Each family once, all its samples together, as the format asks. */
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->devs[i].nports; j++)
			for (size_t k = 0; k < m->devs[i].ports[j].ncounters; k++) {
				const char *name = m->devs[i].ports[j].counters[k].name;

				if (strcmp(name, MODEL_COUNTER_LIFESPAN) && !said(m, i, j, k, name))
					family(f, m, name);
			}
}
