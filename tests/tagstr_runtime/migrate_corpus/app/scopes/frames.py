"""Fields that read their own frame see the tag string's closure, a t-string's see the function."""

import sys

from scopes.common import v

outer = "module"


def locals_seen():
    mine = 1
    return v"{sorted(locals())}"  # expect: MIG019


def eval_seen():
    mine = 2
    try:
        return v"{eval('mine')}"  # expect: MIG019
    except NameError as error:
        return f"NameError: {error}"


def frame_seen():
    return v"{sys._getframe().f_code.co_name}"  # expect: MIG019


def vars_seen():
    local = 3
    return v"{len(vars())}"  # expect: MIG019


def closure_seen():
    captured = "captured"
    return v"{captured} {outer}"


print(locals_seen(), eval_seen(), frame_seen(), vars_seen(), closure_seen())
