"""joltgym/Reacher-v0: Gymnasium Reacher-v5's task on Jolt Physics."""

from joltgym.envs.base import task_env, vector_env_factory

ReacherEnv = task_env(
    "Reacher",
    __name__,
    """Bring the fingertip of a two-link arm to a random target: reward = -|fingertip - target|
    * reward_dist_weight - |a|^2 * reward_control_weight. Observation (10): cos and sin of the arm
    angles, target position, arm joint rates, fingertip - target in the plane.""",
)
ReacherVectorEnv = vector_env_factory("Reacher")
