// SPDX-License-Identifier: GPL-2.0-or-later
/* status: rxe_cfg's table of Ethernet devices and their rxe links. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/netdev.h"
#include "kernel/nl.h"
#include "kernel/verbs.h"
#include "model/model.h"
#include "ops/op_err.h"

/* A column of the table: JSON gets the value, plain text pads it. */
static void col(struct out *o, const char *key, const char *val, int width, bool last)
{
	out_str(o, key, "%s", val);
	if (!last)
		out_text(o, "%*s", width - (int)strlen(val ? val : "-") + 2, "");
}

static void col_num(struct out *o, const char *key, long v, int width, bool last)
{
	char buf[24];

	if (out_is_json(o)) {
		if (v < 0)
			out_str(o, key, NULL, NULL);
		else
			out_u64(o, key, NULL, (uint64_t)v);
		return;
	}
	snprintf(buf, sizeof(buf), "%ld", v);
	col(o, key, v < 0 ? NULL : buf, width, last);
}

struct status_row {
	struct netdev nd;
	const struct rdma_dev *rxe;
	int rmtu;
};

enum { C_NAME, C_LINK, C_DRIVER, C_SPEED, C_MTU, C_IPV4, C_RDEV, C_RMTU, NCOLS };

static void widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

static void print_row(struct out *o, const struct status_row *r, const int *w)
{
	bool up = netdev_carries(&r->nd);

	out_obj_open(o, NULL);
	col(o, "netdev", r->nd.name, w[C_NAME], false);
	out_text(o, "%-*s  ", w[C_LINK], up ? "yes" : "no");
	out_str(o, "netdev_state", NULL, r->nd.operstate);
	col(o, "netdev_driver", *r->nd.driver ? r->nd.driver : NULL, w[C_DRIVER], false);
	col_num(o, "netdev_speed_mbps", r->nd.speed, w[C_SPEED], false);
	/* 0 is no MTU: the file did not say (unknown is null, as in link). */
	col_num(o, "netdev_mtu", r->nd.mtu ? (long)r->nd.mtu : -1, w[C_MTU], false);
	col(o, "ipv4", *r->nd.ipv4 ? r->nd.ipv4 : NULL, w[C_IPV4], false);
	col(o, "ifname", r->rxe ? r->rxe->name : NULL, w[C_RDEV], false);
	col_num(o, "active_mtu", r->rmtu, w[C_RMTU], true);
	out_nl(o);
	out_obj_close(o);
}

int cmd_status(struct cmd_ctx *ctx, const struct cli_args *a)
{
	static const char *const heads[NCOLS] = {
		"Name", "Link", "Driver", "Speed", "NMTU", "IPv4_addr", "RDEV", "RMTU",
	};
	int w[NCOLS];
	struct netdev *nds = NULL;
	struct status_row *rows = NULL;
	struct model m = { 0 };
	size_t n = 0, nrows = 0;
	struct op_err e;
	int err;

	(void)a;
	err = cmd_device(ctx, NULL, (struct model_ask){ .mtu = MODEL_MTU_LINK }, &m);
	if (err)
		return err;
	err = netdev_list(ctx->sys.root, &nds, &n);
	if (err) {
		cmd_fail((op_err_netdev_list(&e, err, ctx->sys.root), &e));
		goto out;
	}
	rows = calloc(n + 1, sizeof(*rows));
	if (!rows) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < NCOLS; i++)
		w[i] = (int)strlen(heads[i]);
	/* rxe_cfg's view: every Ethernet device, and any other device carrying rxe. */
	for (size_t i = 0; i < n; i++) {
		struct status_row *r = &rows[nrows];
		char num[24];

		r->nd = nds[i];
		r->rxe = model_rxe_on(&m, nds[i].name);
		if (!netdev_is_ethernet(&nds[i]) && !r->rxe)
			continue;
		/* The model's answer, as link and show print it (rxe has one port). */
		r->rmtu = r->rxe && r->rxe->nports ? r->rxe->ports[0].active_mtu : -1;
		nrows++;
		widen(&w[C_NAME], r->nd.name);
		widen(&w[C_DRIVER], *r->nd.driver ? r->nd.driver : "-");
		snprintf(num, sizeof(num), "%d", r->nd.speed);
		widen(&w[C_SPEED], num);
		snprintf(num, sizeof(num), "%u", r->nd.mtu);
		widen(&w[C_MTU], num);
		widen(&w[C_IPV4], *r->nd.ipv4 ? r->nd.ipv4 : "-");
		if (r->rxe)
			widen(&w[C_RDEV], r->rxe->name);
	}
	for (int i = 0; i < NCOLS; i++)
		out_text(ctx->out, "%-*s%s", i == NCOLS - 1 ? 0 : w[i], heads[i],
			 i == NCOLS - 1 ? "\n" : "  ");
	out_arr_open(ctx->out, NULL);
	for (size_t i = 0; i < nrows; i++)
		print_row(ctx->out, &rows[i], w);
	out_arr_close(ctx->out);
out:
	free(rows);
	free(nds);
	model_free(&m);
	return err;
}
