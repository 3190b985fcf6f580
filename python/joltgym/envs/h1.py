"""MuJoCo Playground's Unitree H1 with EnvPool 1.2.5's conventions: joltgym/H1JoystickGaitTracking-v0 and
H1InplaceGaitTracking-v0."""

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

H1InplaceGaitTrackingEnv = task_env(
    "H1InplaceGaitTracking",
    __name__,
    """Step in place at a drawn gait (walking or hopping), frequency and swing height with
    Playground's Unitree H1, as EnvPool's ``H1InplaceGaitTracking-v1``: a flat observation (186: noisy
    IMU and joints, the previous action, the last 3 frames of the joints' velocities and errors, the
    feet's contacts, the gait phase, frequency, gait and swing height); actions in [-1, 1] setting the
    19 PD targets to home plus ``action_scale`` x a, clipped to the control ranges; the reward the
    swing-height phase term times exp(0.2 x (body motion and pose costs)); episodes end when a joint
    leaves its range or the torso tilts past ~32 degrees, else after 1000 steps.""",
)
H1InplaceGaitTrackingVectorEnv = vector_env_factory("H1InplaceGaitTracking")
