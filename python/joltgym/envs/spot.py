"""MuJoCo Playground's Boston Dynamics Spot with EnvPool 1.2.5's conventions:
joltgym/SpotFlatTerrainJoystick-v0, SpotGetup-v0 and SpotJoystickGaitTracking-v0."""

from joltgym.envs.base import task_env, vector_env_factory

SpotFlatTerrainJoystickEnv = task_env(
    "SpotFlatTerrainJoystick",
    __name__,
    """Follow a commanded forward, sideways and turning velocity on flat ground with Playground's
    Spot (its model comes from ``pip install "joltgym[robots]"``), as EnvPool's
    ``SpotFlatTerrainJoystick-v1``: a Dict observation of the policy's noisy ``state`` (81: IMU, joints,
    the last 3 frames of joint errors, the feet's positions, the previous action, the command) and
    the critic's ``privileged_state`` (167); actions in [-1, 1] moving the 12 PD targets by
    ``action_scale`` about home, clipped to the control ranges; 18 reward terms as
    ``info["reward_<term>"]`` (those this task does not use are zero); a command redrawn every 200
    steps; episodes end when the body tilts past ~32 degrees, else after 1000 steps; every config
    field of EnvPool's spec is a keyword argument with its default.""",
)
SpotFlatTerrainJoystickVectorEnv = vector_env_factory("SpotFlatTerrainJoystick")

SpotGetupEnv = task_env(
    "SpotGetup",
    __name__,
    """Stand up and hold still with Playground's Spot, dropped from 1 m in a random orientation and
    joint pose (or set down at home), every geom of it colliding, as EnvPool's ``SpotGetup-v1``: the
    robot first settles for ``settle_time`` holding its pose; a noisy observation (30: gyro, up
    vector, joints, previous action); actions in [-1, 1] set the PD targets to the joints' positions
    plus ``action_scale`` x a; 18 reward terms as ``info["reward_<term>"]``; a joint outside its
    control range ends the episode, else 300 steps do.""",
)
SpotGetupVectorEnv = vector_env_factory("SpotGetup")

SpotJoystickGaitTrackingEnv = task_env(
    "SpotJoystickGaitTracking",
    __name__,
    """Follow a commanded velocity with a drawn gait (trot, walk, pace, bound or pronk), frequency and
    swing height with Playground's Spot, as EnvPool's ``SpotJoystickGaitTracking-v1``: a flat
    observation (69: noisy IMU and joints, the last 3 frames of joint errors, the feet's contacts,
    each foot's phase as cos and sin, the gait's frequency, index and swing height); actions in
    [-1, 1] moving the 12 PD targets by ``action_scale`` about home; the reward the tracking and phase
    terms times exp(0.2 x (body motion and hip splay costs)); the command redrawn every 200 steps;
    episodes end when the body tilts past ~32 degrees, else after 1000 steps.""",
)
SpotJoystickGaitTrackingVectorEnv = vector_env_factory("SpotJoystickGaitTracking")
