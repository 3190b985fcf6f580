"""MuJoCo Playground's Unitree G1 with EnvPool 1.2.5's conventions: joltgym/G1JoystickFlatTerrain-v0 and
G1JoystickRoughTerrain-v0."""

from joltgym.envs.base import task_env, vector_env_factory

G1JoystickFlatTerrainEnv = task_env(
    "G1JoystickFlatTerrain",
    __name__,
    """Follow a commanded forward, sideways and turning velocity on flat ground with the Unitree G1
    humanoid of MuJoCo Playground (its model comes from ``pip install "joltgym[robots]"``), as EnvPool's
    ``G1JoystickFlatTerrain-v1``: a Dict observation of the policy's noisy ``state`` (103: IMU, command,
    joints, previous action, gait phase) and the critic's ``privileged_state`` (216), actions in
    [-1, 1] moving the 29 PD targets by ``action_scale`` about the knees-bent pose, 24 reward terms as
    ``info["reward_<term>"]``, pushes every 5-10 s, a command redrawn every 500 steps
    (``info["command"]``), 1000-step episodes; every config field of EnvPool's spec is a keyword
    argument with its default.""",
)
G1JoystickFlatTerrainVectorEnv = vector_env_factory("G1JoystickFlatTerrain")

G1JoystickRoughTerrainEnv = task_env(
    "G1JoystickRoughTerrain",
    __name__,
    """G1JoystickFlatTerrain's task on Playground's rough ground (a 20 m x 20 m height field), as
    EnvPool's ``G1JoystickRoughTerrain-v1``.""",
)
G1JoystickRoughTerrainVectorEnv = vector_env_factory("G1JoystickRoughTerrain")
