"""joltgym/Hopper-v0 and joltgym/Walker2d-v0: Gymnasium v5's planar walkers on Jolt Physics.

reward = healthy_reward (while healthy) + forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2;
the episode ends when the walker is unhealthy. Observation: qpos[1:] then qvel clipped to +-10.
"""

from joltgym.envs.base import task_env, vector_env_factory

HopperEnv = task_env(
    "Hopper",
    __name__,
    """Hop forward on one leg (Hopper-v5): observation 11, action Box(-1, 1, (3,)).""",
)
HopperVectorEnv = vector_env_factory("Hopper")

Walker2dEnv = task_env(
    "Walker2d",
    __name__,
    """Walk forward on two legs (Walker2d-v5, feet friction 1.9): observation 17, action Box(-1, 1, (6,)).""",
)
Walker2dVectorEnv = vector_env_factory("Walker2d")
