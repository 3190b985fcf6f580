"""MuJoCo Playground's Go1 tasks with EnvPool 1.2.5's conventions: joltgym/Go1JoystickFlatTerrain-v0,
Go1JoystickRoughTerrain-v0, Go1Handstand-v0, Go1Footstand-v0 and Go1Getup-v0."""

from joltgym.envs.base import task_env, vector_env_factory

Go1JoystickFlatTerrainEnv = task_env(
    "Go1JoystickFlatTerrain",
    __name__,
    """Follow a commanded forward, sideways and turning velocity on flat ground with the Unitree Go1
    of MuJoCo Playground (its model comes from ``pip install "joltgym[robots]"``). As EnvPool's
    ``Go1JoystickFlatTerrain-v1``: a Dict observation of the policy's noisy ``state`` (48) and the
    critic's ``privileged_state`` (123), actions in [-1, 1] that move the 12 PD targets by
    ``action_scale`` about the home pose, 16 reward terms reported as ``info["reward_<term>"]``, a
    command resampled every few seconds (``info["command"]``), 1000-step episodes; every config
    field of EnvPool's spec is a keyword argument with its default.""",
)
Go1JoystickFlatTerrainVectorEnv = vector_env_factory("Go1JoystickFlatTerrain")

Go1JoystickRoughTerrainEnv = task_env(
    "Go1JoystickRoughTerrain",
    __name__,
    """Go1JoystickFlatTerrain's task on Playground's rough ground (a 20 m x 20 m height field with
    bumps up to 5 cm), as EnvPool's ``Go1JoystickRoughTerrain-v1``.""",
)
Go1JoystickRoughTerrainVectorEnv = vector_env_factory("Go1JoystickRoughTerrain")

Go1HandstandEnv = task_env(
    "Go1Handstand",
    __name__,
    """Balance on the front legs, nose down, with Playground's Go1 (every leg's geoms collide), as
    EnvPool's ``Go1Handstand-v1``: a Dict observation of ``state`` (45) and ``privileged_state`` (94),
    actions in [-1, 1] added (times ``action_scale``) to the PD targets, 11 reward terms as
    ``info["reward_<term>"]``, 500-step episodes that end when a front leg's calf, thigh or hip
    touches the floor.""",
)
Go1HandstandVectorEnv = vector_env_factory("Go1Handstand")

Go1FootstandEnv = task_env(
    "Go1Footstand",
    __name__,
    """Go1Handstand's task on the rear legs, nose up, as EnvPool's ``Go1Footstand-v1``.""",
)
Go1FootstandVectorEnv = vector_env_factory("Go1Footstand")

Go1GetupEnv = task_env(
    "Go1Getup",
    __name__,
    """Stand up and hold still with Playground's Go1, dropped from 0.5 m in a random orientation and
    joint pose (or set down at home), every geom of it colliding, as EnvPool's ``Go1Getup-v1``: the
    robot first settles for ``settle_time`` holding its pose; a Dict observation of ``state`` (42)
    and ``privileged_state`` (91); actions in [-1, 1] set the PD targets to the joints' positions
    plus ``action_scale`` x a; 9 reward terms as ``info["reward_<term>"]``; 1000-step episodes.""",
)
Go1GetupVectorEnv = vector_env_factory("Go1Getup")
