// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one rule for a GID index with no peer named: check --gid-index holds
 * -g N to it, check --pid each stack's index, record a refused RTR's
 * source GID index. Pure: a port's GID table in.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/gidrule.h"
#include "model/gid.h"

const struct gid_slot *model_gidrule_slot(const struct port *p, int64_t index)
{
	for (size_t i = 0; i < p->ngids; i++)
		if (p->gids[i].index == index && !p->gids[i].empty)
			return &p->gids[i];
	return NULL;
}

bool model_gidrule(const char *dev, const struct port *p, int64_t index, const char *what,
		    bool peer, char *why, size_t len)
{
	const struct gid_slot *s = index >= 0 ? model_gidrule_slot(p, index) : NULL;
	char have[GID_ADDR_LEN] = "";

	*why = '\0';
	if (s)
		model_gid_addr(s->raw, have, sizeof(have));
	if (index < 0 || (p->gid_tbl_len && index >= p->gid_tbl_len))
		snprintf(why, len, "%s is out of range (0-%u): the GID table of %s has %u slots",
			 what, p->gid_tbl_len ? p->gid_tbl_len - 1 : 0, dev, p->gid_tbl_len);
	else if (!s)
		snprintf(why, len, "slot %" PRId64 " of %s is empty", index, dev);
	else if (strcmp(s->type, "RoCE v2"))
		snprintf(why, len, "%s is %s, a %s GID, not RoCE v2", what, have,
			 *s->type ? s->type : "typeless");
	/* fe80:: where an IPv4 GID is there: it reaches one link's fe80:: GIDs alone. */
	else if (!peer && model_gid_is_link_local(s->raw) && model_port_ipv4_gid_index(p, NULL) >= 0)
		snprintf(why, len, "%s is %s, the link-local IPv6 GID: it works only between "
			 "fe80:: GIDs on one link", what, have);
	return !*why;
}
