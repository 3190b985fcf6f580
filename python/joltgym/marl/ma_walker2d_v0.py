"""joltgym/MaWalker2d-v0: Walker2d split among agents (agent_conf "2x3")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaWalker2d")
