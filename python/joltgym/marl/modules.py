"""PettingZoo's module convention: ``parallel_env``, ``env`` (AEC) and ``raw_env`` for one table row."""

from __future__ import annotations

import importlib
from typing import Any, Callable

from pettingzoo.utils.conversions import parallel_to_aec, parallel_to_aec_wrapper

from joltgym.marl.tasks import multi_agent_spec


def make_parallel_env(name: str, **kwargs: Any):
    """The ParallelEnv of table row `name`, with `kwargs` over the row's own."""
    spec = multi_agent_spec(name)
    module, attr = spec.entry_point.split(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls(**{**spec.kwargs, "max_cycles": spec.max_cycles, **kwargs})


def module_functions(name: str) -> tuple[Callable, Callable, Callable]:
    """(parallel_env, env, raw_env) of table row `name`."""

    def parallel_env(**kwargs: Any):
        return make_parallel_env(name, **kwargs)

    def env(**kwargs: Any):
        return parallel_to_aec(parallel_env(**kwargs))

    def raw_env(**kwargs: Any):
        return parallel_to_aec_wrapper(parallel_env(**kwargs))

    for function, kind in ((parallel_env, "ParallelEnv"), (env, "AEC env"), (raw_env, "AEC env without wrappers")):
        function.__doc__ = f"joltgym/{name}-v0 as a PettingZoo {kind}; keyword arguments as its env class takes them."
    return parallel_env, env, raw_env
