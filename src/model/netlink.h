/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the model: its netlink source (model_load with MODEL_NETLINK). */
#ifndef RDMACTL_MODEL_NETLINK_H
#define RDMACTL_MODEL_NETLINK_H

#include "model/model.h"

int model_load_netlink(const struct model_src *src, const char *only, unsigned int flags,
		       struct model *m);

#endif
