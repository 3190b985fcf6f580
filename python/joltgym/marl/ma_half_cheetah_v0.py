"""joltgym/MaHalfCheetah-v0: HalfCheetah split among agents (agent_conf "2x3", "6x1")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaHalfCheetah")
