/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What start and up print: the modules loaded and the persisted links made. */
#ifndef RDMACTL_VIEWS_SERVICE_H
#define RDMACTL_VIEWS_SERVICE_H

#include <stdbool.h>

#include "kernel/kmods.h"
#include "ops/service.h"

struct out;

/* What the start sequence did: its modules and links, as far as it came (a record). */
void view_service_start(struct out *o, const struct service_result *r);

/*
 * One link of the file and what became of it (a start_state's word, or
 * start --watch's "deleted" and "kept"): an object of the array open.
 */
void view_service_link(struct out *o, const char *name, const char *netdev, const char *result);
const char *view_start_state(enum start_state s);
/* start --watch's record of the links a pass changed: begun, a view_service_link each, ended. */
void view_service_links_begin(struct out *o);
void view_service_links_end(struct out *o);

/*
 * stop's record: begun, each link deleted said as it goes, ended with
 * rdma_rxe's fate when stop TRIED to unload it (ERR the errno, AFTER the
 * module's state then).
 */
void view_stop_begin(struct out *o);
void view_stop_deleted(struct out *o, const char *name);
void view_stop_end(struct out *o, bool tried, int err, enum kmod_state after);

/*
 * up's last line: NETDEV, the link MADE ("" none), proven or the step that
 * FAILED.
 */
void view_up(struct out *o, const char *netdev, const char *made, const char *failed);


#endif
