"""MuJoCo Playground's Unitree H1 with EnvPool 1.2.5's conventions: joltgym/H1JoystickGaitTracking-v0."""

from joltgym.envs.base import task_env, vector_env_factory

H1JoystickGaitTrackingEnv = task_env(
    "H1JoystickGaitTracking",
    __name__,
    """Step at a drawn gait frequency and swing height while following a commanded velocity with
    Playground's Unitree H1 humanoid (its model comes from ``pip install "joltgym[robots]"``), as
    EnvPool's ``H1JoystickGaitTracking-v1``: a flat observation (113: noisy IMU and joints, the
    previous action, the command, the joints' velocities and errors, the feet's contacts, the gait
    phase, frequency and swing height); actions in [-1, 1] that move the 19 PD targets (zero at reset)
    by ``action_scale``, clipped to the control ranges; 11 reward terms as ``info["reward_<term>"]``;
    a command redrawn every 500 steps; episodes end when a joint leaves its range or the torso tilts
    past ~32 degrees, else after 1000 steps; every config field of EnvPool's spec is a keyword
    argument with its default.""",
)
H1JoystickGaitTrackingVectorEnv = vector_env_factory("H1JoystickGaitTracking")
