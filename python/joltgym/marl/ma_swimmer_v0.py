"""joltgym/MaSwimmer-v0: Swimmer split among agents (agent_conf "2x1")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaSwimmer")
