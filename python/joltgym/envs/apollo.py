"""MuJoCo Playground's Apptronik Apollo with EnvPool 1.2.5's conventions:
joltgym/ApolloJoystickFlatTerrain-v0."""

from joltgym.envs.base import task_env, vector_env_factory

ApolloJoystickFlatTerrainEnv = task_env(
    "ApolloJoystickFlatTerrain",
    __name__,
    """Follow a commanded forward, sideways and turning velocity with a periodic gait on flat ground
    with Playground's Apptronik Apollo humanoid (its model comes from ``pip install
    "joltgym[robots]"``), as EnvPool's ``ApolloJoystickFlatTerrain-v1``: a Dict observation of the
    policy's noisy ``state`` (112, with the two feet's gait phases) and the critic's
    ``privileged_state`` (224); actions in [-1, 1] moving the 32 PD targets by ``action_scale`` about
    the bent-knees pose; 12 reward terms as ``info["reward_<term>"]``; the base pushed every 5-10 s;
    the command redrawn after Exp(1) x 5 s (``info["steps_until_next_cmd"]``); episodes end when the
    robot turns over, else after 1000 steps; every config field of EnvPool's spec is a keyword
    argument with its default.""",
)
ApolloJoystickFlatTerrainVectorEnv = vector_env_factory("ApolloJoystickFlatTerrain")
