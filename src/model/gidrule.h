/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one rule for a right GID index, shared by check --gid-index, check --pid and record. */
#ifndef RDMACTL_MODEL_GIDRULE_H
#define RDMACTL_MODEL_GIDRULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Slot INDEX of P's GID table when it holds a GID, else NULL. */
const struct gid_slot *model_gidrule_slot(const struct port *p, int64_t index);

/*
 * Whether INDEX of device DEV's port P is a GID RoCE v2 traffic can use: in
 * the table, not empty, RoCE v2, and (with no PEER named, whose family would
 * decide) not the link-local fe80:: GID where the port has an IPv4 GID. WHY
 * says what is wrong, naming the index as WHAT ("-g 0",
 * "NCCL_IB_GID_INDEX=0"); "" when it is right.
 */
bool model_gidrule(const char *dev, const struct port *p, int64_t index, const char *what,
		    bool peer, char *why, size_t len);

#endif
