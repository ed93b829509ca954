// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The modules check's reading of the kernel log: each failure the module
 * loader printed for an RDMA module, explained, unless it is history (the
 * module is loaded now, or what it lacked is there now).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/checks.h"
#include "kernel/kbuild.h"
#include "kernel/klog.h"
#include "kernel/kmods.h"
#include "kernel/release.h"

static int rdma_module(const char *m)
{
	static const char *const named[] = { "siw", "mlx4_ib", "mlx5_ib", "mlx_compat" };

	if (!strncmp(m, "rdma_", 5) || !strncmp(m, "ib_", 3) || !strncmp(m, "iw_", 3))
		return 1;
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(m, named[i]))
			return 1;
	return 0;
}

static bool loaded(struct kmods *km, const char *m)
{
	enum kmod_state s = kmods_state(km, m);

	return s == KMOD_LOADED || s == KMOD_BUILTIN;
}

/* " (and N more like it)" for an event seen on more than one line. */
static const char *more(const struct klog_event *ev, char *buf, size_t len)
{
	if (ev->count < 2)
		return "";
	snprintf(buf, len, " (and %u more like it)", ev->count - 1);
	return buf;
}

/* Whether a module file is the kernel's own (under /lib/modules/KVER/kernel/). */
static bool in_tree(const char *path)
{
	return strstr(path, "/kernel/") != NULL;
}

/* Takes WORD off the end of the space-separated LIST. */
static void drop_last(char *list, const char *word)
{
	size_t n = strlen(list), w = strlen(word);

	if (n >= w && !strcmp(list + n - w, word) && (n == w || list[n - w - 1] == ' '))
		list[n == w ? 0 : n - w - 1] = '\0';
}

/* Loaded with insmod before its dependencies: name them in load order. */
static int unknown_symbol(struct check_ctx *c, struct kmods *km, const struct klog_event *ev)
{
	char order[512] = "", lost[256] = "", syms[sizeof(ev->symbols)], m[64], *save = NULL;

	/* An installed module's own dependencies, then whoever exports each symbol. */
	kmods_load_order(km, ev->module, order, sizeof(order));
	drop_last(order, ev->module);
	snprintf(syms, sizeof(syms), "%s", ev->symbols);
	for (char *s = strtok_r(syms, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		if (kmods_provider(km, s, m, sizeof(m)) == 0)
			kmods_load_order(km, m, order, sizeof(order));
		else if (!*lost)
			snprintf(lost, sizeof(lost), "%s", s);
	}
	if (*lost) {
		check_report(c, V_FAIL, "rebuild it against this kernel's headers: rdmactl module install "
			     "--force", "the kernel log says \"%s\"%s: no module of kernel %s exports %s, "
			     "so %s was built for another kernel or configuration", ev->text,
			     more(ev, m, sizeof(m)), release_name(c->sys->root), lost, ev->module);
		return 1;
	}
	if (!*order)
		return 0;	/* what it lacked is loaded now: a retry would work */
	{
		char fix[768], path[4096];

		/* Installed: modprobe does it all. A file of one's own: load them first. */
		if (kmods_path(km, ev->module, path, sizeof(path)) == 0)
			snprintf(fix, sizeof(fix), "modprobe %s (it loads them in order); or modprobe "
				 "-a %s before insmod", ev->module, order);
		else
			snprintf(fix, sizeof(fix), "modprobe -a %s, then insmod %s again; or 'rdmactl "
				 "module install', which installs it for modprobe", order, ev->module);
		check_report(c, V_FAIL, fix, "the kernel log says \"%s\"%s: %s was loaded (insmod) before "
			     "the modules it needs; load them first, in this order: %s", ev->text,
			     more(ev, m, sizeof(m)), ev->module, order);
	}
	return 1;
}

/* Built against other headers, or against another stack's ib_core. */
static int symbol_version(struct check_ctx *c, struct kmods *km, const struct klog_event *ev)
{
	char prov[64] = "", path[4096] = "", buf[64];

	/* Every module uses module_layout: its version differs only in another kernel's module. */
	if (!strcmp(ev->symbol, "module_layout")) {
		check_report(c, V_FAIL, !strcmp(ev->module, "rdma_rxe") ?
			     "rdmactl module install (builds rdma_rxe for this kernel)" :
			     "install the modules of the running kernel",
			     "the kernel log says \"%s\"%s: %s was built for another kernel than %s "
			     "(module_layout, which every module uses, differs), so it cannot load "
			     "(insmod says \"Invalid module format\")", ev->text,
			     more(ev, buf, sizeof(buf)), ev->module, release_name(c->sys->root));
		return 1;
	}
	if (kmods_provider(km, ev->symbol, prov, sizeof(prov)) == 0 &&
	    kmods_path(km, prov, path, sizeof(path)) == 0 && !in_tree(path)) {
		check_report(c, V_FAIL, "use the RDMA stack's own modules, or remove the stack (its DKMS "
			     "packages) to go back to the kernel's",
			     "the kernel log says \"%s\"%s: %s here is not the kernel's own but %s (a "
			     "vendor's RDMA stack such as MLNX or DOCA OFED installs its own), and %s was "
			     "built against the kernel's %s", ev->text, more(ev, buf, sizeof(buf)), prov,
			     path, ev->module, prov);
		return 1;
	}
	check_report(c, V_FAIL, "rebuild it against /lib/modules/$(uname -r)/build: rdmactl module "
		     "install --force", "the kernel log says \"%s\"%s: %s was built against other "
		     "headers than kernel %s's (its version of %s%s%s differs)", ev->text,
		     more(ev, buf, sizeof(buf)), ev->module, release_name(c->sys->root), ev->symbol,
		     *prov ? " from " : "", prov);
	return 1;
}

static int vermagic(struct check_ctx *c, const struct klog_event *ev)
{
	check_report(c, V_FAIL, !strcmp(ev->module, "rdma_rxe") ?
		     "rdmactl module install (builds rdma_rxe for this kernel)" :
		     "install the modules of the running kernel",
		     "the kernel log says \"%s\": %s was built for kernel %.*s, this is %.*s, so it "
		     "cannot load (insmod says \"Invalid module format\")", ev->text, ev->module,
		     (int)strcspn(ev->got, " "), ev->got, (int)strcspn(ev->want, " "), ev->want);
	return 1;
}

/* The line names no module: it is rdma_rxe's when rdma_rxe is out of tree and not loaded. */
static int sig_rejected(struct check_ctx *c, struct kmods *km, const struct klog_event *ev)
{
	char path[4096];

	if (kmods_path(km, "rdma_rxe", path, sizeof(path)) || in_tree(path))
		return 0;
	check_report(c, V_FAIL, MOK_ENROLL, "the kernel log says \"%s\": this kernel demands signed "
		     "modules (module.sig_enforce=1, or Secure Boot's lockdown) and %s is not signed by "
		     "a key it trusts", ev->text, path);
	return 1;
}

int check_modules_log(struct check_ctx *c, struct kmods *km)
{
	struct klog_event ev[16];
	char *text;
	int err = klog_read(&text), failed = 0;
	size_t n;

	if (err) {
		check_report(c, V_SKIP, NULL, "the kernel log cannot be read (%s): run as root to look "
			     "for modules that failed to load", strerror(-err));
		return 0;
	}
	n = klog_module_failures(text, rdma_module, ev, sizeof(ev) / sizeof(ev[0]));
	free(text);
	for (size_t i = 0; i < n; i++) {
		/* Loaded since: that failure is history. */
		if (loaded(km, *ev[i].module ? ev[i].module : "rdma_rxe"))
			continue;
		switch (ev[i].kind) {
		case KLOG_UNKNOWN_SYMBOL:
			failed += unknown_symbol(c, km, &ev[i]);
			break;
		case KLOG_SYMBOL_VERSION:
			failed += symbol_version(c, km, &ev[i]);
			break;
		case KLOG_VERMAGIC:
			failed += vermagic(c, &ev[i]);
			break;
		case KLOG_SIG_REJECTED:
			failed += sig_rejected(c, km, &ev[i]);
			break;
		}
	}
	return failed;
}
