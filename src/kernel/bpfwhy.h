/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What libbpf says when a step of loading an eBPF program fails: libbpf
 * prints nothing itself here; its first warning is kept, to be the words
 * of the failure (capture's loopback, record's probes).
 */
#ifndef RDMACTL_KERNEL_BPFWHY_H
#define RDMACTL_KERNEL_BPFWHY_H

#include <stddef.h>

/* libbpf's messages kept from now on, the first warning among them. */
void bpfwhy_begin(void);
/* Into WHY (LEN bytes), unless it says something already: the first warning, else ERR's words. */
void bpfwhy_say(int err, char *why, size_t len);

#endif
