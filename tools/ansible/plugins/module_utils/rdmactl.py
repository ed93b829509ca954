# SPDX-License-Identifier: GPL-2.0-or-later
"""Running rdmactl for the collection's modules.

rdmactl's JSON (-j) on standard output is its stable interface for programs
(docs/json.md); when it fails, its own explanation is on standard error, and
that is what the module reports.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

# rdmactl goes to /usr/sbin; an Ansible user's PATH over SSH may lack it.
SBIN_DIRS = ["/usr/sbin", "/usr/local/sbin", "/sbin"]


class Rdmactl:
    """The rdmactl binary on the managed host."""

    def __init__(self, module, config=None):
        self.module = module
        self.config = config
        self.bin = module.get_bin_path("rdmactl", required=True, opt_dirs=SBIN_DIRS)

    def command(self, *args):
        cmd = [self.bin, "-j"]
        if self.config:
            cmd += ["--config", self.config]
        return cmd + list(args)

    def run(self, *args, **kw):
        """Run rdmactl -j ARGS: (status, the JSON it printed or None, stderr).

        With allow_fail=False (the default) a failure ends the module with
        rdmactl's own words.
        """
        allow_fail = kw.get("allow_fail", False)
        cmd = self.command(*args)
        rc, out, err = self.module.run_command(cmd, environ_update={"LC_ALL": "C.UTF-8"})
        if rc != 0 and not allow_fail:
            self.fail(cmd, rc, err)
        data = None
        if out.strip():
            try:
                data = json.loads(out)
            except ValueError as e:
                self.module.fail_json(msg="'%s' printed what is not JSON (%s): is rdmactl older "
                                      "than this collection?" % (" ".join(cmd), e),
                                      cmd=cmd, rc=rc, stdout=out, stderr=err)
        return rc, data, err

    def fail(self, cmd, rc, err, **extra):
        self.module.fail_json(msg=explanation(err) or "rdmactl exited %d and said nothing" % rc,
                              cmd=cmd, rc=rc, stderr=err, **extra)

    def links(self):
        """The rxe links that run now: {name: netdev}."""
        _, data, _ = self.run("link", "show")
        return dict((l["ifname"], l.get("netdev")) for l in data or [])

    def persisted(self):
        """The links the persistent-links file records: {name: netdev}."""
        _, data, _ = self.run("persist", "list")
        return dict((l["ifname"], l.get("netdev")) for l in data or [])


def explanation(err):
    """rdmactl's messages, one a line, without the program's name before each."""
    lines = []
    for line in (err or "").strip().splitlines():
        lines.append(line[len("rdmactl: "):] if line.startswith("rdmactl: ") else line)
    return "\n".join(lines)


def links_text(links):
    """The links the file records as the file writes them: NAME NETDEV, a line each."""
    return "".join("%s %s\n" % (n, d) for n, d in sorted(links.items()))
