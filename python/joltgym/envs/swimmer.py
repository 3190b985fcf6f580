"""joltgym/Swimmer-v0: Gymnasium Swimmer-v5's task on Jolt Physics (MuJoCo's inertia-box fluid model)."""

from joltgym.envs.base import task_env, vector_env_factory

SwimmerEnv = task_env(
    "Swimmer",
    __name__,
    """Swim forward: reward = forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2.
    Observation: qpos[2:] (3) then qvel (5).""",
)
SwimmerVectorEnv = vector_env_factory("Swimmer")
