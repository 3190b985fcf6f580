"""joltgym/MaAnt-v0: Ant split among agents (agent_conf "2x4", "2x4d", "4x2")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaAnt")
