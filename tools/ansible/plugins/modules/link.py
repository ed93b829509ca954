# SPDX-License-Identifier: GPL-2.0-or-later
"""rdmactl.rxe.link: one Soft-RoCE link, present or absent, kept across boots."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: link
short_description: A Soft-RoCE (rdma_rxe) link, present or absent, kept across boots
description:
  - Makes or removes the rxe link O(name) on the Ethernet device O(netdev)
    through the C(rdmactl) binary of the managed host, and records it in
    rdmactl's persistent-links file (C(/etc/rdmactl/rxe.conf)), from which
    C(rdmactl.service) makes it again at boot and when the netdev comes back.
  - Idempotent. In check mode it says what it would change and changes
    nothing; in diff mode it shows the links that run and the links the file
    records, before and after.
  - Its errors are rdmactl's own explanations (what was wrong and what to do).
  - The rdma_rxe module must be loadable; C(rdmactl start) (or the role
    rdmactl.rxe.node) loads it, and C(rdmactl module install) builds it where
    the kernel has none.
version_added: 0.2.0
author: rdmactl developers (@rdmactl)
requirements:
  - rdmactl 0.2.0 or later on the managed host
options:
  name:
    description:
      - The RDMA device name of the link (C(rxe0)).
    type: str
    required: true
  netdev:
    description:
      - The Ethernet device that carries it (C(ens4)). Required when
        O(state=present); with O(state=absent) O(name) alone says which.
      - A netdev carries one rxe link; a link of another name on it is an
        error, not replaced.
    type: str
  state:
    description:
      - V(present) makes the link (a link of the same name on another netdev
        is removed first, and made again if the new one cannot be made);
        V(absent) removes it.
    type: str
    choices: [present, absent]
    default: present
  persist:
    description:
      - Also record the link in the persistent-links file (V(present)) or
        forget it there (V(absent)). With V(false) the file is not read or
        touched.
    type: bool
    default: true
  force:
    description:
      - Allow a loopback or non-Ethernet netdev (its port carries no RoCE
        traffic to other hosts), as C(rdmactl add --force).
    type: bool
    default: false
  config:
    description:
      - The persistent-links file, instead of rdmactl's own.
    type: path
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
"""

EXAMPLES = r"""
- name: Soft-RoCE on the netdev of the default route, kept across boots
  rdmactl.rxe.link:
    name: rxe0
    netdev: "{{ ansible_default_ipv4.interface }}"

- name: A link for now only
  rdmactl.rxe.link:
    name: rxe1
    netdev: ens5
    persist: false

- name: Gone, and gone from boot
  rdmactl.rxe.link:
    name: rxe0
    state: absent
"""

RETURN = r"""
link:
  description: The link as it is after the task (as it would be, in check mode).
  returned: always
  type: dict
  contains:
    ifname:
      description: The link's name.
      type: str
    netdev:
      description: Its netdev; null when absent.
      type: str
    running:
      description: Whether the link exists in the kernel.
      type: bool
    persisted:
      description: Whether the persistent-links file records it; null without O(persist).
      type: bool
commands:
  description: The rdmactl commands run (in check mode, that would run), in order.
  returned: always
  type: list
  elements: list
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.rxe.plugins.module_utils.rdmactl import (
    Rdmactl,
    explanation,
    links_text,
)

FILE = "/etc/rdmactl/rxe.conf"


def plan(p, live, rec):
    """The rdmactl commands that make the host as P asks, from the links
    running (LIVE) and recorded (REC, None without persist)."""
    name, netdev = p["name"], p["netdev"]
    cmds = []
    if p["state"] == "absent":
        recorded = rec is not None and name in rec
        if name in live:
            cmds.append(["del", "--persist", name] if recorded else ["del", name])
        elif recorded:
            cmds.append(["persist", "del", name])
        return cmds, None
    for table, where in ((live, "runs on"), (rec or {}, "is recorded on")):
        other = sorted(n for n, d in table.items() if d == netdev and n != name)
        if other:
            return None, ("%s: the rxe link %s %s it, and a netdev carries one rxe link: "
                          "remove %s first (state: absent), or name it here" %
                          (netdev, other[0], where, other[0]))
    need_live = live.get(name) != netdev
    need_rec = rec is not None and rec.get(name) != netdev
    if need_live and name in live:
        cmds.append(["del", name])
    if need_rec and name in rec:
        cmds.append(["persist", "del", name])
    add = ["add", "--force"] if p["force"] else ["add"]
    if need_live and need_rec:
        cmds.append(add[:1] + ["--persist"] + add[1:] + [name, netdev])
    elif need_live:
        cmds.append(add + [name, netdev])
    elif need_rec:
        cmds.append(["persist", "add", name, netdev])
    return cmds, None


def after(p, live, rec):
    """The running and recorded links once P is done."""
    live, rec = dict(live), None if rec is None else dict(rec)
    for table in (live, rec):
        if table is None:
            continue
        table.pop(p["name"], None)
        if p["state"] == "present":
            table[p["name"]] = p["netdev"]
    return live, rec


def undo(r, p, live, rec, done):
    """Puts back what DONE removed when a later step failed: the old link on
    its old netdev, and its old record. Returns what could not be."""
    name, left = p["name"], []
    for cmd in reversed(done):
        if cmd == ["del", name]:
            back = ["add", name, live[name]]
        elif cmd == ["persist", "del", name]:
            back = ["persist", "add", name, rec[name]]
        else:
            continue
        rc, _, err = r.run(*back, allow_fail=True)
        if rc != 0:
            left.append("'rdmactl %s' failed too: %s" % (" ".join(back), explanation(err)))
    return left


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type="str", required=True),
            netdev=dict(type="str"),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            persist=dict(type="bool", default=True),
            force=dict(type="bool", default=False),
            config=dict(type="path"),
        ),
        required_if=[("state", "present", ["netdev"])],
        supports_check_mode=True,
    )
    p = module.params
    r = Rdmactl(module, p["config"])
    live = r.links()
    rec = r.persisted() if p["persist"] else None
    cmds, problem = plan(p, live, rec)
    if problem:
        module.fail_json(msg=problem)
    live_after, rec_after = after(p, live, rec)

    if cmds and not module.check_mode:
        done = []
        for cmd in cmds:
            rc, _, err = r.run(*cmd, allow_fail=True)
            if rc != 0:
                left = undo(r, p, live, rec, done)
                r.fail(r.command(*cmd), rc, err, undone_failures=left,
                       commands=[r.command(*c) for c in done + [cmd]])
            done.append(cmd)
        live_after = r.links()
        rec_after = r.persisted() if p["persist"] else None

    diff = [dict(before_header="rxe links running", after_header="rxe links running",
                 before=links_text(live), after=links_text(live_after))]
    if rec is not None:
        where = p["config"] or FILE
        diff.append(dict(before_header=where, after_header=where,
                         before=links_text(rec), after=links_text(rec_after)))
    name = p["name"]
    module.exit_json(
        changed=bool(cmds),
        commands=[r.command(*c) for c in cmds],
        link=dict(ifname=name, netdev=live_after.get(name) or (rec_after or {}).get(name),
                  running=name in live_after,
                  persisted=None if rec_after is None else name in rec_after),
        diff=diff,
    )


if __name__ == "__main__":
    main()
