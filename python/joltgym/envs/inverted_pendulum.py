"""joltgym/InvertedPendulum-v0 and joltgym/InvertedDoublePendulum-v0 (Gymnasium v5 conventions)."""

from joltgym.envs.base import task_env, vector_env_factory

InvertedPendulumEnv = task_env(
    "InvertedPendulum",
    __name__,
    """Reward 1 per step while |pole angle| <= 0.2 rad. Observation (qpos, qvel), action Box(-3, 3, (1,)).""",
)
InvertedPendulumVectorEnv = vector_env_factory("InvertedPendulum")

InvertedDoublePendulumEnv = task_env(
    "InvertedDoublePendulum",
    __name__,
    """Keep the tip high: reward = healthy_reward - 0.01 x^2 - (y - 2)^2 - velocity penalty; ends when y <= 1.""",
)
InvertedDoublePendulumVectorEnv = vector_env_factory("InvertedDoublePendulum")
