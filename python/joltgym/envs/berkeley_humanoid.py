"""MuJoCo Playground's Berkeley Humanoid with EnvPool 1.2.5's conventions:
joltgym/BerkeleyHumanoidJoystickFlatTerrain-v0 and BerkeleyHumanoidJoystickRoughTerrain-v0."""

from joltgym.envs.base import task_env, vector_env_factory

BerkeleyHumanoidJoystickFlatTerrainEnv = task_env(
    "BerkeleyHumanoidJoystickFlatTerrain",
    __name__,
    """Follow a commanded forward, sideways and turning velocity with a periodic gait on flat ground
    with Playground's Berkeley Humanoid (its model comes from ``pip install "joltgym[robots]"``), as
    EnvPool's ``BerkeleyHumanoidJoystickFlatTerrain-v1``: a Dict observation of the policy's noisy
    ``state`` (52, with the two feet's gait phases) and the critic's ``privileged_state`` (114);
    actions in [-1, 1] moving the 12 PD targets by ``action_scale`` about home; 21 reward terms as
    ``info["reward_<term>"]``; a gait of 1.25-1.5 Hz per episode; the base pushed every 5-10 s; the
    command redrawn every 500 steps; episodes end when the robot turns over, else after 1000 steps;
    every config field of EnvPool's spec is a keyword argument with its default.""",
)
BerkeleyHumanoidJoystickFlatTerrainVectorEnv = vector_env_factory("BerkeleyHumanoidJoystickFlatTerrain")

BerkeleyHumanoidJoystickRoughTerrainEnv = task_env(
    "BerkeleyHumanoidJoystickRoughTerrain",
    __name__,
    """BerkeleyHumanoidJoystickFlatTerrain's task on Playground's rough ground (a height field), as
    EnvPool's ``BerkeleyHumanoidJoystickRoughTerrain-v1``.""",
)
BerkeleyHumanoidJoystickRoughTerrainVectorEnv = vector_env_factory("BerkeleyHumanoidJoystickRoughTerrain")
