"""MuJoCo Playground's Booster T1 with EnvPool 1.2.5's conventions: joltgym/T1JoystickFlatTerrain-v0
and T1JoystickRoughTerrain-v0."""

from joltgym.envs.base import task_env, vector_env_factory

T1JoystickFlatTerrainEnv = task_env(
    "T1JoystickFlatTerrain",
    __name__,
    """Follow a commanded forward, sideways and turning velocity with a periodic gait on flat ground
    with Playground's Booster T1 humanoid (its model comes from ``pip install "joltgym[robots]"``), as
    EnvPool's ``T1JoystickFlatTerrain-v1``: a Dict observation of the policy's noisy ``state`` (85,
    with the two feet's gait phases) and the critic's ``privileged_state`` (180); actions in [-1, 1]
    moving the 23 PD targets by ``action_scale`` about home; 25 reward terms as
    ``info["reward_<term>"]``; a gait of 1.25-1.75 Hz per episode that rests while the command is
    zero; the base pushed every 5-10 s; the command redrawn every 500 steps; episodes end when the
    robot turns over, else after 1000 steps; every config field of EnvPool's spec is a keyword
    argument with its default.""",
)
T1JoystickFlatTerrainVectorEnv = vector_env_factory("T1JoystickFlatTerrain")

T1JoystickRoughTerrainEnv = task_env(
    "T1JoystickRoughTerrain",
    __name__,
    """T1JoystickFlatTerrain's task on Playground's rough ground (a height field), as EnvPool's
    ``T1JoystickRoughTerrain-v1``.""",
)
T1JoystickRoughTerrainVectorEnv = vector_env_factory("T1JoystickRoughTerrain")
