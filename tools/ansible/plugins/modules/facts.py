# SPDX-License-Identifier: GPL-2.0-or-later
"""rdmactl.rxe.facts: what rdmactl knows of a host's RDMA, as host facts."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: facts
short_description: A host's RDMA devices, links, GIDs, settings and check verdicts as facts
description:
  - Reads, through the C(rdmactl) binary of the managed host, what it shows
    of the host's RDMA and sets it as the fact C(rdmactl) (C(ansible_facts.rdmactl)).
  - The members are rdmactl's JSON (docs/json.md), one command each, so a
    play reads the same keys a program reading C(rdmactl -j) does.
  - Changes nothing. The check verdicts are read, not enforced; see
    O(fail_on_check).
version_added: 0.2.0
author: rdmactl developers (@rdmactl)
requirements:
  - rdmactl 0.2.0 or later on the managed host
options:
  check:
    description:
      - Run C(rdmactl check) (a few seconds) and add its verdicts.
    type: bool
    default: true
  fail_on_check:
    description:
      - Fail the task when a check fails, naming each with its fix.
    type: bool
    default: false
attributes:
  check_mode:
    support: full
  facts:
    support: full
"""

EXAMPLES = r"""
- name: What rdmactl sees
  rdmactl.rxe.facts:

- name: Each link's GID index for RoCE v2 over its address
  ansible.builtin.debug:
    msg: "{{ item.ifname }}: -g {{ item.gid_index }}"
  loop: "{{ ansible_facts.rdmactl.env }}"
"""

RETURN = r"""
ansible_facts:
  description: The fact C(rdmactl).
  returned: always
  type: complex
  contains:
    rdmactl:
      description: What rdmactl says of the host.
      type: complex
      contains:
        version:
          description: rdmactl's version.
          type: str
        devices:
          description: C(rdmactl -j show).
          type: list
        links:
          description: C(rdmactl -j link show), the rxe links.
          type: list
        persisted:
          description: C(rdmactl -j persist list), the links the file records.
          type: list
        gids:
          description: C(rdmactl -j gids).
          type: list
        env:
          description: >-
            C(rdmactl -j env DEV) of each rxe link whose netdev has an address:
            the address, the recommended GID index (RoCE v2) and the settings
            each RDMA stack needs.
          type: list
        system:
          description: C(rdmactl -j system show), the namespace mode now and from boot.
          type: dict
        module:
          description: C(rdmactl -j module status), where rdma_rxe comes from.
          type: dict
        check:
          description: C(rdmactl -j check)'s verdicts; null without O(check).
          type: list
        check_failed:
          description: The ids of the checks that failed.
          type: list
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.rdmactl.rxe.plugins.module_utils.rdmactl import Rdmactl, explanation


def main():
    module = AnsibleModule(
        argument_spec=dict(
            check=dict(type="bool", default=True),
            fail_on_check=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    r = Rdmactl(module)
    facts = dict(version=r.run("version")[1]["version"])
    # What rdmactl cannot tell (no RDMA module loaded yet, a fixture) is
    # null, and a warning carries its words.
    for key, cmd in (("devices", ["show"]), ("links", ["link", "show"]),
                     ("persisted", ["persist", "list"]), ("gids", ["gids"]),
                     ("system", ["system", "show"]), ("module", ["module", "status"])):
        rc, facts[key], err = r.run(*cmd, allow_fail=True)
        if rc != 0:
            facts[key] = None
            module.warn("rdmactl %s: %s" % (" ".join(cmd), explanation(err)))
    # A link whose netdev has no address yet has no RoCE v2 GID: env says
    # so and fails.
    facts["env"] = []
    for link in facts["links"] or []:
        rc, env, err = r.run("env", link["ifname"], allow_fail=True)
        if rc == 0:
            facts["env"].append(env)
        else:
            module.warn("rdmactl env %s: %s" % (link["ifname"], explanation(err)))
    facts["check"] = facts["check_failed"] = None
    if module.params["check"]:
        # check exits 1 when a check fails; its verdicts are still its JSON.
        rc, verdicts, err = r.run("check", allow_fail=True)
        if verdicts is None:
            r.fail(r.command("check"), rc, err)
        facts["check"] = verdicts
        facts["check_failed"] = [v["id"] for v in verdicts if v["result"] == "fail"]
        if module.params["fail_on_check"] and facts["check_failed"]:
            module.fail_json(
                msg="; ".join("%s: %s (fix: %s)" % (v["id"], v["detail"], v["fix"])
                              for v in verdicts if v["result"] == "fail"),
                ansible_facts=dict(rdmactl=facts))
    module.exit_json(changed=False, ansible_facts=dict(rdmactl=facts))


if __name__ == "__main__":
    main()
