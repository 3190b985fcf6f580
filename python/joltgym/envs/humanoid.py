"""joltgym/Humanoid-v0 and HumanoidStandup-v0: Gymnasium's v5 tasks of the same names on Jolt Physics.

Both report v5's ``tendon_length`` and ``tendon_velocity`` in info (the model's fixed tendons).
"""

from joltgym.envs.base import task_env, vector_env_factory

HumanoidEnv = task_env(
    "Humanoid",
    __name__,
    """Walk forward without falling. Observation as Humanoid-v5 (348 by default): qpos[2:] (22),
    qvel (23), cinert (130), cvel (78), qfrc_actuator[6:] (17), cfrc_ext (78) of the 13 bodies,
    each in MuJoCo's frames (world axes about the robot's centre of mass).""",
)
HumanoidVectorEnv = vector_env_factory("Humanoid")

HumanoidStandupEnv = task_env(
    "HumanoidStandup",
    __name__,
    """Stand up from lying on the back. Observation as Humanoid (348 by default); reward: root height
    / model timestep - control cost - impact cost + 1, as HumanoidStandup-v5; never terminates.
    HumanoidStandup-v5 ignores ``uph_cost_weight``; here it scales the height term (default 1).""",
)
HumanoidStandupVectorEnv = vector_env_factory("HumanoidStandup")
