"""MuJoCo Menagerie's Google Barkour vB with EnvPool 1.2.5's conventions: joltgym/BarkourJoystick-v0."""

from joltgym.envs.base import task_env, vector_env_factory

BarkourJoystickEnv = task_env(
    "BarkourJoystick",
    __name__,
    """Follow a commanded forward, sideways and turning velocity with the Google Barkour vB quadruped
    (its model comes from ``pip install "joltgym[robots]"``), kicked every 50-150 steps, as EnvPool's
    ``BarkourJoystick-v1``: a flat observation (465: the last 15 frames of 31 noisy readings, newest
    first), actions in [-1, 1] moving the 12 PD targets by ``action_scale`` about home, 10 reward terms
    as ``info["reward_<term>"]``, a command redrawn every 500 steps, 1000-step episodes; every config
    field of EnvPool's spec is a keyword argument with its default.""",
)
BarkourJoystickVectorEnv = vector_env_factory("BarkourJoystick")
