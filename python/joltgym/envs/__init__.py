"""Gymnasium environment classes: thin wrappers that give each native task v5's signature."""

from joltgym.envs.ant import AntEnv
from joltgym.envs.apollo import ApolloJoystickFlatTerrainEnv
from joltgym.envs.barkour import BarkourJoystickEnv
from joltgym.envs.berkeley_humanoid import (BerkeleyHumanoidJoystickFlatTerrainEnv,
                                             BerkeleyHumanoidJoystickRoughTerrainEnv)
from joltgym.envs.g1 import G1JoystickFlatTerrainEnv, G1JoystickRoughTerrainEnv
from joltgym.envs.go1 import (Go1FootstandEnv, Go1GetupEnv, Go1HandstandEnv, Go1JoystickFlatTerrainEnv,
                              Go1JoystickRoughTerrainEnv)
from joltgym.envs.h1 import H1InplaceGaitTrackingEnv, H1JoystickGaitTrackingEnv
from joltgym.envs.half_cheetah import HalfCheetahEnv
from joltgym.envs.hopper import HopperEnv, Walker2dEnv
from joltgym.envs.humanoid import HumanoidEnv, HumanoidStandupEnv
from joltgym.envs.op3 import Op3JoystickEnv
from joltgym.envs.inverted_pendulum import InvertedDoublePendulumEnv, InvertedPendulumEnv
from joltgym.envs.reacher import ReacherEnv
from joltgym.envs.spot import SpotFlatTerrainJoystickEnv, SpotGetupEnv, SpotJoystickGaitTrackingEnv
from joltgym.envs.swimmer import SwimmerEnv
from joltgym.envs.t1 import T1JoystickFlatTerrainEnv, T1JoystickRoughTerrainEnv

__all__ = ["AntEnv", "ApolloJoystickFlatTerrainEnv", "BarkourJoystickEnv", "BerkeleyHumanoidJoystickFlatTerrainEnv", "BerkeleyHumanoidJoystickRoughTerrainEnv", "G1JoystickFlatTerrainEnv", "G1JoystickRoughTerrainEnv", "Go1FootstandEnv", "Go1GetupEnv", "Go1HandstandEnv", "Go1JoystickFlatTerrainEnv", "Go1JoystickRoughTerrainEnv", "H1InplaceGaitTrackingEnv", "H1JoystickGaitTrackingEnv", "HalfCheetahEnv", "HopperEnv", "HumanoidEnv", "HumanoidStandupEnv", "InvertedDoublePendulumEnv", "InvertedPendulumEnv", "Op3JoystickEnv", "ReacherEnv", "SpotFlatTerrainJoystickEnv", "SpotGetupEnv", "SpotJoystickGaitTrackingEnv", "SwimmerEnv", "T1JoystickFlatTerrainEnv", "T1JoystickRoughTerrainEnv", "Walker2dEnv"]
