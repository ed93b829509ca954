// SPDX-License-Identifier: GPL-2.0-or-later
/* What module status, install and remove found and did, plain and JSON (module.h). */
#include <inttypes.h>
#include <stdio.h>

#include "cli/out.h"
#include "kernel/kbuild.h"
#include "ops/module.h"
#include "views/module.h"

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/* K's kernel, its rdma_rxe, headers and source, and what may load a module into it. */
static void facts(struct out *o, const struct kbuild *k)
{
	out_str(o, "kernel", "kernel %s", k->kver);
	out_str(o, "kernel_version", *k->kernel_pkgver ? " (Debian %s)" : NULL,
		or_null(k->kernel_pkgver));
	out_bool(o, "running", k->running ? ", running" : ", not running", k->running);
	out_nl(o);
	out_obj_open(o, "rdma_rxe");
	out_str(o, "origin", "rdma_rxe %s", kbuild_origin_name(k->origin));
	out_str(o, "path", *k->module_path ? " %s" : NULL, or_null(k->module_path));
	out_str(o, "dkms_version", *k->dkms_version ? ", DKMS version %s" : NULL,
		or_null(k->dkms_version));
	if (k->running) {
		out_bool(o, "loaded", k->loaded ? ", loaded" : ", not loaded", k->loaded);
		out_str(o, "taint", *k->taint ? ", taints the kernel %s" : NULL, or_null(k->taint));
	} else {
		out_str(o, "loaded", NULL, NULL);
		out_str(o, "taint", NULL, NULL);
	}
	out_nl(o);
	out_obj_close(o);
	out_str(o, "headers", "headers %s", or_null(k->headers));
	out_str(o, "upstream_version", *k->upstream ? " (Linux %s)" : NULL, or_null(k->upstream));
	if (!*k->headers)
		out_text(o, " (apt-get install linux-headers-%s)", k->kver);
	out_nl(o);
	out_str(o, "source", "source %s", or_null(k->source));
	out_str(o, "source_version", *k->source_pkgver ? " (%s)" : NULL, or_null(k->source_pkgver));
	if (!*k->source)
		out_text(o, " (apt-get install linux-source-%s)", k->series);
	out_nl(o);
	if (k->running) {
		out_bool(o, "sig_enforce", k->sig_enforce ? "module signatures enforced" :
			 "module signatures not enforced", k->sig_enforce);
		out_str(o, "lockdown", *k->lockdown ? " (lockdown %s)" : NULL, or_null(k->lockdown));
		out_nl(o);
	} else {
		out_str(o, "sig_enforce", NULL, NULL);
		out_str(o, "lockdown", NULL, NULL);
	}
}

void view_module_status(struct out *o, const struct kbuild *k)
{
	out_obj_open(o, NULL);
	facts(o, k);
	out_obj_close(o);
}

void view_module_install(struct out *o, const struct module_install_req *r)
{
	out_obj_open(o, NULL);
	out_str(o, "kernel", NULL, r->k.kver);
	out_str(o, "result", NULL, r->unchanged && r->loaded ? "loaded" : r->unchanged ? "unchanged" :
		*r->package ? "package" : "built");
	if (r->unchanged && r->loaded)
		out_str(o, "detail", "%s, not loaded: loading it (--force builds it again)\n",
			r->unchanged);
	else if (r->unchanged)
		out_str(o, "detail", "%s: nothing to do (--force builds anyway)\n", r->unchanged);
	else if (*r->package)
		out_str(o, "package", "installed %s\n", r->package);
	else
		out_text(o, "rdma_rxe %s built for %s and installed with DKMS in %.1f s\n",
			 r->version, r->k.kver, (double)r->build_ms / 1000);
	out_str(o, "version", NULL, or_null(r->version));
	out_u64(o, "build_ms", NULL, r->build_ms);
	out_bool(o, "loaded", r->loaded ? "rdma_rxe loaded" : NULL, r->loaded);
	out_bool(o, "proved", r->proved ? "; a link on lo was made and deleted\n" :
		 r->loaded ? "\n" : NULL, r->proved);
	out_obj_close(o);
}

void view_module_remove(struct out *o, const struct module_remove_req *r)
{
	out_obj_open(o, NULL);
	out_str(o, "kernel", NULL, r->k.kver);
	out_str(o, "result", NULL, r->unchanged ? "unchanged" : "removed");
	if (r->unchanged)
		out_str(o, "detail", "%s: nothing to do\n", r->unchanged);
	else
		out_str(o, "version", "rdma_rxe %s removed from DKMS and /usr/src\n",
			r->k.dkms_version);
	out_bool(o, "unloaded", r->unloaded ? "rdma_rxe unloaded\n" : NULL, r->unloaded);
	out_obj_close(o);
}
