/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What module status, install and remove print: the kernel's rdma_rxe, headers and source, and each result. */
#ifndef RDMACTL_VIEWS_MODULE_H
#define RDMACTL_VIEWS_MODULE_H

struct out;
struct kbuild;
struct module_install_req;
struct module_remove_req;

/* What rdma_rxe, its headers and source are for K's kernel, and whether it may load a module. */
void view_module_status(struct out *o, const struct kbuild *k);
/* What module install did (R once module_install returned 0). */
void view_module_install(struct out *o, const struct module_install_req *r);
/* What module remove did (R once module_remove returned 0). */
void view_module_remove(struct out *o, const struct module_remove_req *r);

#endif
