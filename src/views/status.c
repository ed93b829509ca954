// SPDX-License-Identifier: GPL-2.0-or-later
/* rxe_cfg's status table: a netdev a row, in columns, and each row a record in JSON (status.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/out.h"
#include "model/model.h"
#include "views/status.h"

enum { C_NAME, C_LINK, C_DRIVER, C_SPEED, C_MTU, C_IPV4, C_RDEV, C_RMTU, NCOLS };

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

static void widen(int *w, const char *s)
{
	if ((int)strlen(s) > *w)
		*w = (int)strlen(s);
}

/* Each column's width W: its head's, or its widest cell's. */
static void widths(const char *const *heads, const struct view_status_row *rows, size_t n, int *w)
{
	for (int i = 0; i < NCOLS; i++)
		w[i] = (int)strlen(heads[i]);
	for (size_t i = 0; i < n; i++) {
		const struct view_status_row *r = &rows[i];
		char num[24];

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
}

static void row(struct out *o, const struct view_status_row *r, const int *w)
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

void view_status(struct out *o, const struct view_status_row *rows, size_t n)
{
	static const char *const heads[NCOLS] = {
		"Name", "Link", "Driver", "Speed", "NMTU", "IPv4_addr", "RDEV", "RMTU",
	};
	int w[NCOLS];

	widths(heads, rows, n, w);
	for (int i = 0; i < NCOLS; i++)
		out_text(o, "%-*s%s", i == NCOLS - 1 ? 0 : w[i], heads[i], i == NCOLS - 1 ? "\n" : "  ");
	out_arr_open(o, NULL);
	for (size_t i = 0; i < n; i++)
		row(o, &rows[i], w);
	out_arr_close(o);
}
