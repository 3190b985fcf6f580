"""joltgym/SumoHumanoids-v0: two Humanoids in a ring, each trying to topple the other or push it out."""

from joltgym.marl.modules import module_functions

parallel_env, env, raw_env = module_functions("SumoHumanoids")
