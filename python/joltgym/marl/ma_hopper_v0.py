"""joltgym/MaHopper-v0: Hopper split among agents (agent_conf "3x1")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaHopper")
