"""joltgym/MaHumanoidStandup-v0: HumanoidStandup split among agents (agent_conf "9|8")."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("MaHumanoidStandup")
