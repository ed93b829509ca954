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
	} else if (prev)	/* new, or reset with its device: no change to give (null) */
		out_str(o, "change", " %10s", NULL);
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

/*
 * The metric of the counter KERNEL_NAME: rdma_, its one name across kernels
 * (ack_deffered is ack_deferred) in lower case, anything but [a-z0-9] made '_', then
 * _total. A name that begins with rdma_ already (rdma_sends) keeps one.
 */
static void metric(char *buf, size_t len, const char *kernel_name)
{
	const struct model_counter_info *info = model_counter_info(kernel_name);
	const char *name = info ? info->name : kernel_name;
	size_t n;

	if (!strncmp(name, "rdma_", 5))
		name += 5;
	n = (size_t)snprintf(buf, len, "rdma_");
	for (; *name && n + sizeof("_total") < len; name++, n++) {
		char c = *name >= 'A' && *name <= 'Z' ? (char)(*name - 'A' + 'a') : *name;

		buf[n] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_';
	}
	snprintf(buf + n, len - n, "_total");
}

/* Each counter of M in turn, with the metric it is a sample of. */
struct sample_it {
	const struct model *m;
	size_t i, j, k;
	const struct rdma_dev *dev;
	const struct port *port;
	const struct counter *c;
	char metric[96];
};

static bool next_sample(struct sample_it *it)
{
	for (; it->i < it->m->n; it->i++, it->j = 0) {
		const struct rdma_dev *d = &it->m->devs[it->i];

		for (; it->j < d->nports; it->j++, it->k = 0) {
			const struct port *p = &d->ports[it->j];

			if (it->k < p->ncounters) {
				const struct counter *c = &p->counters[it->k++];

				it->dev = d, it->port = p, it->c = c;
				metric(it->metric, sizeof(it->metric), c->name);
				return true;
			}
		}
	}
	return false;
}

/* Whether a sample before AT in M's order is of metric NAME (and of DEV's PORT, when given). */
static bool said_before(const struct model *m, const struct counter *at, const char *name,
		   const struct rdma_dev *dev, const struct port *port)
{
	struct sample_it it = { .m = m };

	while (next_sample(&it) && it.c != at)
		if (!strcmp(it.metric, name) && (!dev || (it.dev == dev && it.port == port)))
			return true;
	return false;
}

/* HELP's text: backslash and newline escaped, as the format asks of it. */
static void help_text(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '\\')
			fputs("\\\\", f);
		else if (*text == '\n')
			fputs("\\n", f);
		else
			fputc(*text, f);
	}
}

/* The family of FIRST's metric: its help and type, then every port's sample of it, once each. */
static void family(FILE *f, const struct model *m, const struct sample_it *first)
{
	const struct model_counter_info *info = model_counter_info(first->c->name);
	struct sample_it it = { .m = m };

	fprintf(f, "# HELP %s ", first->metric);
	help_text(f, info ? info->meaning : "an RDMA port counter, as its driver names it");
	fprintf(f, "\n# TYPE %s counter\n", first->metric);
	while (next_sample(&it)) {
		/* Two kernel names of one port that make one metric: the first is its sample. */
		if (strcmp(it.metric, first->metric) || said_before(m, it.c, it.metric, it.dev, it.port))
			continue;
		fprintf(f, "%s{device=\"", it.metric);
		label(f, it.dev->name);
		fprintf(f, "\",port=\"%" PRIu32 "\"} %" PRIu64 "\n", it.port->num, it.c->value);
	}
}

void view_stat_prometheus(FILE *f, const struct model *m)
{
	struct sample_it it = { .m = m };

	/*
	 * Each family once, all its samples together, as the format asks: by its
	 * metric's name, which two kernels' names of one counter share.
	 */
	while (next_sample(&it))
		if (!said_before(m, it.c, it.metric, NULL, NULL))
			family(f, m, &it);
}
