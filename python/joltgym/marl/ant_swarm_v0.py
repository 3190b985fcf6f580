"""joltgym/AntSwarm-v0: N Ants (num_ants, 2 to 16) push a heavy box to a goal, sharing one reward."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("AntSwarm")
