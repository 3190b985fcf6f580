"""joltgym/Ant-v0: Gymnasium Ant-v5's task on Jolt Physics."""

from joltgym.envs.base import task_env, vector_env_factory

AntEnv = task_env(
    "Ant",
    __name__,
    """Run forward on four legs. Observation: qpos[2:] (13), qvel (14) and, by default, the
    clipped external contact forces cfrc_ext of the 13 bodies (78) = 105, as Ant-v5.""",
)
AntVectorEnv = vector_env_factory("Ant")
