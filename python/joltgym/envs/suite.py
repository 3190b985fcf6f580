"""The DeepMind Control Suite's benchmark tasks on dm_control's own models, with dm_control's semantics:
rewards in [0, 1] built from its ``tolerance`` shapes, its observation arrays in its order (flattened;
``dict_observation=True`` gives the Dict of them), its initial-state randomisation, 1000 control steps
per episode. ``action_repeat=k`` repeats each action over k control steps and sums their rewards (the
episode then has 1000 / k env steps). The models come from ``pip install "joltgym[dmc]"``."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, task_env, vector_env_factory
from joltgym.tasks import task_spec


class SuiteEnv(JoltEnv):
    """A Control Suite task: the episode ends (truncated) after its 1000 control steps, as dm_control's
    time limit ends it, whatever ``action_repeat``."""

    def __init__(self, task_name: str, **kwargs: Any):
        super().__init__(task_name, **kwargs)
        self.max_episode_steps = task_spec(task_name).episode_steps(kwargs)

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, truncated or self._elapsed_steps >= self.max_episode_steps, info

    def state_reward(self, action) -> float:
        """The task's reward of the current state under controls ``action`` (dm_control's
        ``task.get_reward(physics)`` after ``physics.set_control(action)``); the controls stay set."""
        self._check_open()
        return self._core.suite_reward(action)


def _suite_env(name: str, doc: str) -> tuple[type[JoltEnv], Any]:
    return task_env(name, __name__, doc, base=SuiteEnv), vector_env_factory(name)


CheetahRunEnv, CheetahRunVectorEnv = _suite_env(
    "CheetahRun",
    """cheetah run: reward tolerance(forward speed of the torso's subtree, (10, inf), margin 10, linear).
    Observation: position (qpos[1:], 8), velocity (qvel, 9). Episodes start from joint angles uniform in their
    limits, after 200 uncontrolled physics steps.""")
WalkerStandEnv, WalkerStandVectorEnv = _suite_env(
    "WalkerStand",
    """walker stand: reward (3 x tolerance(torso height, (1.2, inf), margin 0.6) + (1 + torso zz) / 2) / 4.
    Observation: orientations (xx and xz of every body's frame, 14), height (1), velocity (qvel, 9). Episodes
    start from random joint angles (limited ones within their limits, the root's any angle).""")
WalkerWalkEnv, WalkerWalkVectorEnv = _suite_env(
    "WalkerWalk",
    """walker walk: walker stand's reward x (5 x tolerance(forward speed, (1, inf), margin 0.5, linear,
    0.5) + 1) / 6; walker stand's observation and starts.""")
WalkerRunEnv, WalkerRunVectorEnv = _suite_env(
    "WalkerRun", """walker run: walker walk's reward at 8 m/s (margin 4).""")
CartpoleBalanceEnv, CartpoleBalanceVectorEnv = _suite_env(
    "CartpoleBalance",
    """cartpole balance: reward upright x centred x small control x small velocity, each in [0, 1]. Observation:
    position (cart, pole zz and xz: 3), velocity (2). Starts near upright, the cart within 0.1 m of the centre.""")
CartpoleBalanceSparseEnv, CartpoleBalanceSparseVectorEnv = _suite_env(
    "CartpoleBalanceSparse",
    """cartpole balance_sparse: reward 1 with the cart within 0.25 m of the centre and the pole's zz above
    0.995, else 0; cartpole balance's observation and starts.""")
CartpoleSwingupEnv, CartpoleSwingupVectorEnv = _suite_env(
    "CartpoleSwingup", """cartpole swingup: cartpole balance's reward, starting with the pole hanging down.""")
CartpoleSwingupSparseEnv, CartpoleSwingupSparseVectorEnv = _suite_env(
    "CartpoleSwingupSparse",
    """cartpole swingup_sparse: cartpole balance_sparse's reward, starting with the pole hanging down.""")
PendulumSwingupEnv, PendulumSwingupVectorEnv = _suite_env(
    "PendulumSwingup",
    """pendulum swingup: reward 1 with the pole within 8 degrees of upright, else 0. Observation: orientation
    (zz, xz: 2), velocity (1). Starts at any angle, at rest.""")
AcrobotSwingupEnv, AcrobotSwingupVectorEnv = _suite_env(
    "AcrobotSwingup",
    """acrobot swingup: reward tolerance(tip to target, (0, target radius), margin 1). Observation: orientations
    (xz then zz of both arms: 4), velocity (2). Starts at any shoulder and elbow angles, at rest.""")
AcrobotSwingupSparseEnv, AcrobotSwingupSparseVectorEnv = _suite_env(
    "AcrobotSwingupSparse", """acrobot swingup_sparse: 1 with the tip within the target, else 0.""")
PointMassEasyEnv, PointMassEasyVectorEnv = _suite_env(
    "PointMassEasy",
    """point_mass easy: reward tolerance(mass to target, (0, target size), margin target size) x small-control
    factor. Observation: position (2), velocity (2). Starts anywhere within the slides' limits.""")
ReacherEasyEnv, ReacherEasyVectorEnv = _suite_env(
    "ReacherEasy",
    """reacher easy: reward 1 while the finger touches a 5 cm target drawn 5-20 cm from the shoulder
    (``info["target"]`` at reset), else 0. Observation: position (2), to_target (2), velocity (2).""")
ReacherHardEnv, ReacherHardVectorEnv = _suite_env(
    "ReacherHard", """reacher hard: reacher easy with a 1.5 cm target.""")
HopperStandEnv, HopperStandVectorEnv = _suite_env(
    "HopperStand",
    """hopper stand: reward standing x (4 + small control) / 5, standing 1 while the torso's centre of mass is
    0.6-2 m above the foot's. Observation: position (qpos[1:], 6), velocity (qvel, 7), touch (log(1 + normal
    force) at the toe and the heel, 2). Starts from random joint angles (the root's any angle), at rest.""")
HopperHopEnv, HopperHopVectorEnv = _suite_env(
    "HopperHop",
    """hopper hop: standing x tolerance(forward speed of the torso's subtree, (2, inf), margin 1, linear, 0.5);
    hopper stand's observation and starts.""")
SwimmerSwimmer6Env, SwimmerSwimmer6VectorEnv = _suite_env(
    "SwimmerSwimmer6",
    """swimmer swimmer6: a 6-link swimmer in a viscous fluid; reward tolerance(nose to target, (0, 0.1), margin 0.5,
    long tail). Observation: joints (qpos[3:], 5), to_target (in the head's frame, 2), body_velocities (x and y of
    each body's velocimeter, z of its gyro: 18). Starts at any heading with joint angles in their limits; the
    target, drawn within 0.3 m of the centre one time in five, else within 2 m, is in ``info["target"]`` at
    reset.""")
SwimmerSwimmer15Env, SwimmerSwimmer15VectorEnv = _suite_env(
    "SwimmerSwimmer15",
    """swimmer swimmer15: swimmer6's task with 15 links (observation 14 + 2 + 45).""")
FingerSpinEnv, FingerSpinVectorEnv = _suite_env(
    "FingerSpin",
    """finger spin: reward 1 while the spinner's hinge turns faster than 15 rad/s (negative sense), else 0; the
    hinge's damping lowered to 0.03 as dm_control's spin does. Observation: position (the finger's two angles,
    the spinner's tip from its hinge: 4), velocity (3), touch (log(1 + normal force) at the fingertip's top and
    bottom, 2). Starts from random angles (the spinner's any), redrawn until nothing touches.""")
FingerTurnEasyEnv, FingerTurnEasyVectorEnv = _suite_env(
    "FingerTurnEasy",
    """finger turn_easy: reward 1 while the spinner's tip is within 7 cm of a target drawn on the tip's circle
    each episode (``info["target"]``: its x and z at reset). Observation: finger spin's, then target_position
    (from the hinge, 2) and dist_to_target (1).""")
FingerTurnHardEnv, FingerTurnHardVectorEnv = _suite_env(
    "FingerTurnHard", """finger turn_hard: finger turn_easy with a 3 cm target.""")
HumanoidStandEnv, HumanoidStandVectorEnv = _suite_env(
    "HumanoidStand",
    """humanoid stand: reward small control x standing x upright x don't move: standing tolerance(head height,
    (1.4, inf), margin 0.35), upright tolerance(torso zz, (0.9, inf), margin 1.9, linear, 0), small control (4 +
    mean quadratic tolerance of each control) / 5, don't move the mean of tolerance(x and y speed of the centre of
    mass, margin 2). Observation: joint_angles (qpos[7:], 21), head_height (1), extremities (hands and feet from the
    torso in its frame, 12), torso_vertical (torso zx, zy, zz: 3), com_velocity (3), velocity (qvel, 27). Starts
    from random joint angles and a random orientation where the model stands, redrawn until nothing touches.""")
HumanoidWalkEnv, HumanoidWalkVectorEnv = _suite_env(
    "HumanoidWalk",
    """humanoid walk: humanoid stand's small control x standing x upright x (5 x tolerance(horizontal speed of the
    centre of mass, (1, inf), margin 1, linear, 0) + 1) / 6; humanoid stand's observation and starts.""")
HumanoidRunEnv, HumanoidRunVectorEnv = _suite_env(
    "HumanoidRun", """humanoid run: humanoid walk's reward at 10 m/s (margin 10).""")
FishUprightEnv, FishUprightVectorEnv = _suite_env(
    "FishUpright",
    """fish upright: reward tolerance(torso zz, (1, 1), margin 1), the fish free in a dense fluid. Observation:
    joint_angles (tail and fins, qpos[7:], 7), upright (torso zz, 1), velocity (qvel, 13). Starts at a uniformly
    random orientation with every joint uniform in [-0.2, 0.2], at rest.""")
FishSwimEnv, FishSwimVectorEnv = _suite_env(
    "FishSwim",
    """fish swim: reward (7 x tolerance(mouth to target, (0, r), margin 2r) + (1 + torso zz) / 2) / 8, r the mouth's
    and the target's radii. Observation: joint_angles (7), upright (1), target (from the mouth, in its frame: 3),
    velocity (13). Fish upright's starts; the target, drawn uniform in [-0.4, 0.4] x [-0.4, 0.4] x [0.1, 0.3], is in
    ``info["target"]`` (x, y, z) at reset.""")
BallInCupCatchEnv, BallInCupCatchVectorEnv = _suite_env(
    "BallInCupCatch",
    """ball_in_cup catch: a cup on two sprung slides, a ball tied to it by a 30 cm string; reward 1 while the ball
    lies in the cup (within its target box), else 0. Observation: position (qpos: cup x, z, ball x, z: 4), velocity
    (4). Starts with the ball at rest anywhere 0.2-0.5 m above and within 0.2 m beside its origin, redrawn until
    nothing touches.""")
QuadrupedWalkEnv, QuadrupedWalkVectorEnv = _suite_env(
    "QuadrupedWalk",
    """quadruped walk: reward upright x move: upright tolerance(torso zz, (1, inf), margin 2, linear, 0), move
    tolerance(forward speed in the torso's frame, (0.5, inf), margin 0.5, linear, 0.5). Observation:
    egocentric_state (16 hinge angles, their rates, 12 actuator activations: 44), torso_velocity (3), torso_upright
    (1), imu (accelerometer, gyro: 6), force_torque (arcsinh of the force, then the torque, at the four toes:
    24). Starts at the model's joint angles, at rest, the torso at a uniformly random orientation and the lowest
    height (1 cm steps up from 0) that touches nothing; on a model without the walls, the ball and the terrain.""")
QuadrupedRunEnv, QuadrupedRunVectorEnv = _suite_env(
    "QuadrupedRun", """quadruped run: quadruped walk at 5 m/s (margin 5).""")
ManipulatorBringBallEnv, ManipulatorBringBallVectorEnv = _suite_env(
    "ManipulatorBringBall",
    """manipulator bring_ball: reward tolerance(ball to target, (0, 0.01), margin 0.02). Observation: arm_pos (sin and
    cos of the arm's 8 joints: 16), arm_vel (8), touch (log(1 + normal force) at the palm, the fingers and their tips:
    5), hand_pos, object_pos (x, z, quaternion w and y: 4 each), object_vel (the ball's joint rates: 3), target_pos (4).
    Starts with the arm's joints uniform in their limits, the target anywhere in x in [-0.4, 0.4], z in [0.1, 0.4] at
    any angle (``info["target"]``: x, z, angle at reset), and the ball in the hand, on the target or anywhere (one,
    one and eight times in ten), redrawn until nothing touches.""")
