"""MuJoCo Playground's Robotis OP3 with EnvPool 1.2.5's conventions: joltgym/Op3Joystick-v0."""

from joltgym.envs.base import task_env, vector_env_factory

Op3JoystickEnv = task_env(
    "Op3Joystick",
    __name__,
    """Follow a commanded forward, sideways and turning velocity with the Robotis OP3 humanoid of MuJoCo
    Playground (its model comes from ``pip install "joltgym[robots]"``), as EnvPool's ``Op3Joystick-v1``:
    a flat observation (147, EnvPool's ``state``: the last three frames of 49 noisy readings, newest
    first), actions in [-1, 1] moving the 20 PD targets by ``action_scale`` about the bent-knees pose,
    12 reward terms as ``info["reward_<term>"]``, a command redrawn every 500 steps, 1000-step episodes;
    every config field of EnvPool's spec is a keyword argument with its default.""",
)
Op3JoystickVectorEnv = vector_env_factory("Op3Joystick")
