"""Multi-agent joltgym: PettingZoo ParallelEnvs over native multi-agent tasks."""

from joltgym.marl.factored import FactoredEnv
from joltgym.marl.parallel_env import JoltParallelEnv

__all__ = ["FactoredEnv", "JoltParallelEnv"]
