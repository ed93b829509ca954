/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What start and up print: the modules loaded and the persisted links made. */
#ifndef RDMACTL_VIEWS_SERVICE_H
#define RDMACTL_VIEWS_SERVICE_H

#include "ops/service.h"

struct out;

/* What the start sequence did: its modules and links, as far as it came. */
void view_service_start(struct out *o, const struct service_result *r);

/*
 * One link of the file and what became of it (a start_state's word, or
 * start --watch's "deleted" and "kept"): an object of the array open.
 */
void view_service_link(struct out *o, const char *name, const char *netdev, const char *result);
const char *view_start_state(enum start_state s);


#endif
