"""joltgym/HalfCheetah-v0: Gymnasium HalfCheetah-v5's task on Jolt Physics."""

from joltgym.envs.base import task_env, vector_env_factory

HalfCheetahEnv = task_env(
    "HalfCheetah",
    __name__,
    """Run forward: reward = forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2.

    Observation (17, float32): qpos[1:] (8) then qvel (9), as HalfCheetah-v5 with
    ``exclude_current_positions_from_observation``. Action Box(-1, 1, (6,)).""",
)
HalfCheetahVectorEnv = vector_env_factory("HalfCheetah")
