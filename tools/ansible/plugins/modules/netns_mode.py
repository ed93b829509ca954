# SPDX-License-Identifier: GPL-2.0-or-later
"""rdmactl.rxe.netns_mode: the RDMA subsystem's network namespace mode."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: netns_mode
short_description: The RDMA subsystem's network namespace mode, now and from boot
description:
  - Sets the RDMA subsystem's network namespace mode through the C(rdmactl)
    binary of the managed host, as C(rdmactl system set netns MODE).
  - V(shared) (the kernel's default) shows every RDMA device in every network
    namespace; V(exclusive) gives each device to one namespace, which is what
    containers and pods with their own RDMA device need.
  - The kernel changes the mode only while no network namespace but the
    initial one exists. With O(persist) the mode is also made the one from
    boot (ib_core's C(netns_mode) option, in
    C(/etc/modprobe.d/rdmactl-netns.conf)); a mode the running kernel cannot
    take now is then taken from the next boot, and the result says
    RV(reboot_required). Without O(persist) that is an error, in rdmactl's
    words.
  - Idempotent, with check mode and diff mode (the mode now and from boot).
version_added: 0.2.0
author: rdmactl developers (@rdmactl)
requirements:
  - rdmactl 0.2.0 or later on the managed host
options:
  mode:
    description:
      - The mode.
    type: str
    choices: [shared, exclusive]
    required: true
  persist:
    description:
      - Make it the mode from boot too.
    type: bool
    default: true
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
"""

EXAMPLES = r"""
- name: Each pod's RDMA device its own
  rdmactl.rxe.netns_mode:
    mode: exclusive

- name: Reboot where the running kernel keeps its mode for now
  ansible.builtin.reboot:
  when: rdmactl_netns is defined and rdmactl_netns.reboot_required
"""

RETURN = r"""
netns:
  description: The mode the running kernel has after the task.
  returned: always
  type: str
netns_boot:
  description: The mode from the next boot, after the task.
  returned: always
  type: str
reboot_required:
  description: The running kernel keeps another mode until the next boot.
  returned: always
  type: bool
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.rxe.plugins.module_utils.rdmactl import Rdmactl


def state_text(s):
    return "netns %s\nnetns from boot %s\n" % (s["netns"], s["netns_boot"])


def main():
    module = AnsibleModule(
        argument_spec=dict(
            mode=dict(type="str", choices=["shared", "exclusive"], required=True),
            persist=dict(type="bool", default=True),
        ),
        supports_check_mode=True,
    )
    mode, persist = module.params["mode"], module.params["persist"]
    r = Rdmactl(module)
    _, before, _ = r.run("system", "show")
    if "netns_boot" not in before:
        module.fail_json(msg="this rdmactl does not say the mode from boot (system show has "
                         "no netns_boot): install rdmactl 0.2.0 or later")
    changed = before["netns"] != mode or (persist and before["netns_boot"] != mode)
    now = dict(before)
    if changed and module.check_mode:
        now["netns"] = mode
        if persist:
            now["netns_boot"] = mode
    elif changed:
        cmd = ["system", "set"] + (["--persist"] if persist else []) + ["netns", mode]
        _, now, _ = r.run(*cmd)
    module.exit_json(
        changed=changed,
        netns=now["netns"],
        netns_boot=now["netns_boot"],
        reboot_required=now["netns"] != mode,
        diff=dict(before_header="RDMA namespace mode", after_header="RDMA namespace mode",
                  before=state_text(before), after=state_text(now)),
    )


if __name__ == "__main__":
    main()
