"""Fixed tendons: driven by actuators (MuJoCo's tendon transmission, as dm_control's point_mass,
fish and dog use it) and pulled by their own springs and dampers (fish's fins). Against MuJoCo on
the same XML (Euler): the actuator forces MuJoCo reports on each joint (gear times the tendon's
coefficient) and the motion they make, for motors and position servos on the tendon's length, and
the swing of a pendulum held by tendon springs (with and without a dead band) and dampers. What
tendons do beyond that is refused by name."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from arm_runs import ARTICULATED, JOINT_BY_JOINT, close, run, side_by_side

ARM = """
<mujoco>
  <option timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
      <body name="forearm" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.04" mass="0.5" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="sum"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="0.6"/></fixed>
    <fixed name="difference"><joint joint="shoulder" coef="0.5"/><joint joint="elbow" coef="-1"/></fixed>
    {tendons}
  </tendon>
  <actuator>
    {actuators}
  </actuator>
</mujoco>
"""
ACTUATORS = {
    "motors": '<motor tendon="sum" gear="2"/><motor tendon="difference" gear="0.5"/>',
    "position servos": '<position tendon="sum" kp="20"/><position tendon="difference" kp="8" kv="0.3" gear="1.5"/>',
    "motor on a tendon beside one on a joint": '<motor tendon="difference" gear="3"/><position joint="shoulder" kp="15"/>',
}



@pytest.mark.parametrize("kind", ACTUATORS)
def test_tendon_actuators_drive_the_arm_as_mujocos(build_world, kind):
    ours, theirs = run(build_world, ARM.format(tendons="", actuators=ACTUATORS[kind]), [0.7, -0.4], 400, ARTICULATED)
    assert np.abs(theirs[:, 0:2] - theirs[0, 0:2]).max() > 0.05, "MuJoCo's arm moved"
    # Both joints take a share of each tendon's force: gear * coef, MuJoCo's actuator_moment.
    assert np.all(np.abs(theirs[0, 4:]) > 1e-3)
    np.testing.assert_allclose(ours[0, 4:], theirs[0, 4:], rtol=1e-4, atol=1e-4)
    assert close(ours, theirs, 0.005)


def test_joint_by_joint_rows_follow_mujoco_too(build_world):
    ours, theirs = run(build_world, ARM.format(tendons="", actuators=ACTUATORS["position servos"]), [0.7, -0.4], 300,
                       JOINT_BY_JOINT)
    assert close(ours[:, :4], theirs[:, :4], 0.02)


POINT_MASS = """
<mujoco>
  <option timestep="0.02"><flag contact="disable"/></option>
  <default><joint type="hinge" axis="0 0 1" limited="true" range="-.29 .29" damping="1"/></default>
  <worldbody>
    <body name="pointmass" pos="0 0 .01">
      <joint name="root_x" type="slide" pos="0 0 0" axis="1 0 0"/>
      <joint name="root_y" type="slide" pos="0 0 0" axis="0 1 0"/>
      <geom name="pointmass" type="sphere" size=".01" mass=".3"/>
    </body>
  </worldbody>
  <tendon>
    <fixed name="t1"><joint joint="root_x" coef="1"/><joint joint="root_y" coef="0.4"/></fixed>
    <fixed name="t2"><joint joint="root_x" coef="-0.3"/><joint joint="root_y" coef="1"/></fixed>
  </tendon>
  <actuator>
    <motor tendon="t1" gear=".1" ctrlrange="-1 1" ctrllimited="true"/>
    <motor tendon="t2" gear=".1" ctrlrange="-1 1" ctrllimited="true"/>
  </actuator>
</mujoco>
"""


def test_a_point_mass_pushed_through_two_tendons_moves_as_mujocos(build_world):
    # dm_control's point_mass shape (two slides, each motor on a tendon over both, limits, damping),
    # with coefficients that mix the slides; controls beyond ctrlrange are clipped alike.
    model, world = build_world(POINT_MASS, None)
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    rng = np.random.default_rng(0)
    ours, theirs = [], []
    for _ in range(150):
        ctrl = rng.uniform(-1.5, 1.5, 2).astype(np.float32)
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        theirs.append(np.concatenate([d.qpos, d.qvel, d.qfrc_actuator]))
        ours.append(np.concatenate([world.qpos, world.qvel, world.qfrc_actuator]))
    ours, theirs = np.array(ours), np.array(theirs)
    assert np.abs(theirs[:, :2]).max() > 0.02, "MuJoCo's point mass moved"
    assert close(ours, theirs, 0.01)


PASSIVE = {
    "spring": '<fixed name="spring" stiffness="6"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-0.5"/></fixed>',
    "spring with a dead band": '<fixed name="band" stiffness="8" springlength="-0.1 0.2">'
                               '<joint joint="shoulder" coef="0.7"/><joint joint="elbow" coef="1"/></fixed>',
    "damper": '<fixed name="damper" damping="0.4"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="1"/></fixed>',
    "spring and damper": '<fixed name="both" stiffness="5" damping="0.2" springlength="0.3">'
                         '<joint joint="shoulder" coef="-1"/><joint joint="elbow" coef="0.8"/></fixed>',
}


@pytest.mark.parametrize("kind", PASSIVE)
def test_tendon_springs_and_dampers_swing_the_arm_as_mujocos(build_world, kind):
    # No actuator pushes (zero controls on a motor the template needs): gravity, the joints'
    # damping and the tendon's passive force alone.
    xml = ARM.format(tendons=PASSIVE[kind], actuators='<motor tendon="sum" gear="0.001"/>')
    ours, theirs = run(build_world, xml, [0.0], 500, ARTICULATED)
    without, _ = run(build_world, ARM.format(tendons="", actuators='<motor tendon="sum" gear="0.001"/>'), [0.0], 500,
                     ARTICULATED)
    assert np.abs(without[:, :4] - theirs[:, :4]).max() > 0.05, "the tendon's force matters on this swing"
    assert close(ours[:, :4], theirs[:, :4], 0.005)


@pytest.mark.parametrize("tendon, actuator, match", [
    ('<fixed name="ranged" limited="true" range="-1 1"><joint joint="elbow" coef="1"/></fixed>', "",
     r"tendon 'ranged': fixed tendon limits"),
    ('<fixed name="rough" frictionloss="0.2"><joint joint="elbow" coef="1"/></fixed>', "",
     r"tendon 'rough': tendon frictionloss"),
    ('<spatial name="string"><site site="s1"/><site site="s2"/></spatial>', '<motor tendon="string"/>',
     r"tendon 'string': spatial tendons driven by actuators, springs or dampers"),
    ('<spatial name="string" stiffness="10"><site site="s1"/><site site="s2"/></spatial>', "",
     r"tendon 'string': spatial tendons driven by actuators, springs or dampers"),
    ('<spatial name="string" limited="true" range="0 1"><site site="s1"/><site site="s0"/><site site="s2"/></spatial>',
     "", r"tendon 'string': spatial tendons through more than two sites, around geoms or over pulleys"),
    ('<spatial name="string" limited="true" range="0 1"><site site="s1"/><geom geom="wheel"/><site site="s2"/></spatial>',
     "", r"tendon 'string': spatial tendons through more than two sites, around geoms or over pulleys"),
    ("", '<motor site="s2" gear="1 0 0 0 0 0"/>', r"actuator '.*': site transmission"),
])
def test_what_tendons_do_beyond_transmission_is_refused_by_name(tmp_path, tendon, actuator, match):
    xml = ARM.format(tendons=tendon, actuators=actuator or '<motor tendon="sum"/>')
    xml = xml.replace('mass="0.5" contype="0" conaffinity="0"/>',
                      'mass="0.5" contype="0" conaffinity="0"/><site name="s2" pos="0.25 0 0"/>')
    xml = xml.replace('<body name="arm" pos="0 0 1">',
                      '<site name="s1" pos="0 0 1.2"/><site name="s0" pos="0.1 0 1.2"/><body name="arm" pos="0 0 1">')
    xml = xml.replace('<site name="s0"', '<geom name="wheel" type="sphere" size="0.02" pos="0.1 0 1.3" contype="0" '
                      'conaffinity="0"/><site name="s0"')
    path = tmp_path / "model.xml"
    path.write_text(xml)
    with pytest.raises(joltgym.UnsupportedFeatureError, match=match):
        joltgym.load_model(path)


def test_implicitfast_with_a_tendon_actuators_velocity_terms_is_refused_by_name(tmp_path):
    # The implicit velocity terms of a tendon couple its joints' rates: not the per-joint damping
    # joltgym takes implicitly, so refused rather than approximated.
    path = tmp_path / "model.xml"
    path.write_text(ARM.format(tendons="", actuators=ACTUATORS["position servos"]).replace(
        '<option timestep="0.002"', '<option integrator="implicitfast" timestep="0.002"'))
    with pytest.raises(joltgym.UnsupportedFeatureError,
                       match=r"actuator '.*': the implicitfast integrator with a tendon actuator's velocity terms"):
        joltgym.load_model(path)


# A spatial tendon straight between two sites whose length is limited: a string (dm_control's ball_in_cup)
# or, with a lower limit, a strut. A bob hangs from a hook by a 30 cm string, starting slack 22 cm from
# it: it falls, the string catches it and it swings; in the two-body case the hook is on a sprung cup.
STRING = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <site name="hook" pos="0 0 1"/>
    {cup}
    <body name="bob" pos="0.2 0 0.9">
      {joints}
      <geom type="sphere" size="0.02" mass="0.1" contype="0" conaffinity="0"/>
      <site name="knot" pos="{knot}"/>
    </body>
  </worldbody>
  <tendon>
    <spatial name="string" limited="true" range="{range}"><site site="{hook}"/><site site="knot"/></spatial>
  </tendon>
</mujoco>
"""
SLIDES = '<joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 0 1"/>'
CUP = """<body name="cup" pos="0 0 1">
      <joint type="slide" axis="1 0 0" stiffness="20" damping="3"/><joint type="slide" axis="0 0 1" stiffness="20" damping="3"/>
      <geom type="box" size="0.03 0.03 0.01" mass="0.3" contype="0" conaffinity="0"/><site name="rim"/>
    </body>"""
STRINGS = {
    "slack string catching a bob on two slides": dict(joints=SLIDES),
    "string at a free bob's centre": dict(joints="<freejoint/>"),
    "string off a free bob's centre (it spins)": dict(joints="<freejoint/>", knot="0.02 0.01 0.005"),
    "string between a sprung cup and a bob": dict(joints=SLIDES, cup=CUP, hook="rim"),
    "strut (lower limit) pushing a bob away": dict(joints=SLIDES, range="0.25 0.4"),
}


ONE_PASS = joltgym.SolverSettings(velocity_iterations=1, position_iterations=1, baumgarte=1.0)  # BallInCupCatch's


def _string_xml(joints: str, knot: str = "0 0 0", cup: str = "", hook: str = "hook", range: str = "0 0.3") -> str:
    return STRING.format(joints=joints, knot=knot, cup=cup, hook=hook, range=range)


def _string_runs(build_world, xml: str, solver=None, steps: int = 600):
    model, world = build_world(xml, solver)
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    world.set_state(d.qpos.astype(np.float32), np.zeros(m.nv, np.float32))
    ours, theirs, length = [], [], []
    for _ in range(steps):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        theirs.append(np.concatenate([d.qpos, d.qvel]))
        ours.append(np.concatenate([world.qpos, world.qvel]))
        length.append(d.ten_length[0])
    return np.array(ours), np.array(theirs), np.array(length), m


@pytest.mark.parametrize("kind", STRINGS)
def test_a_limited_spatial_tendon_holds_as_mujocos(build_world, kind):
    ours, theirs, length, m = _string_runs(build_world, _string_xml(**STRINGS[kind]), ONE_PASS)
    lo, hi = m.tendon_range[0]
    assert (length > hi - 1e-3).sum() > 50 or (length < lo + 1e-3).sum() > 50, "the limit engaged in MuJoCo's run"
    # One pass solves the row exactly, then the cup's damping implicitly, as MuJoCo's Euler step does: the same
    # motion to float precision.
    assert close(ours, theirs, 1e-4), np.abs(ours - theirs).max(axis=0)
    # load_model's default iterates the row with the damping in one solve: close, not equal (measured 0.14%).
    default, _, _, _ = _string_runs(build_world, _string_xml(**STRINGS[kind]))
    assert close(default, theirs, 0.005)
    # Without the limit the bob falls away: the tendon is what holds it.
    free, _, _, _ = _string_runs(build_world, _string_xml(**STRINGS[kind]).replace('limited="true"', 'limited="false"'))
    assert not close(free, theirs, 0.05)


def test_a_limited_spatial_tendon_in_an_articulated_tree_is_refused_by_name(tmp_path):
    xml = _string_xml(joints='<joint type="hinge" axis="0 1 0" pos="-0.2 0 0.1"/>')
    path = tmp_path / "model.xml"
    path.write_text(xml)
    with pytest.raises(joltgym.UnsupportedFeatureError,
                       match=r"spatial tendon 'string': a limited spatial tendon on body 'bob' of an articulated tree"):
        joltgym.load_model(path, solver=joltgym.SolverSettings(articulated_joints=True))


# A fixed tendon held at its length by a tendon equality (dm_control's manipulator couples its fingers so,
# its quadruped each leg's joints): one soft row over the tendon's joints.
COUPLED_ARM = ARM.format(tendons='<fixed name="coupling"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-0.7"/></fixed>',
                         actuators='<motor joint="shoulder" gear="0.5"/>').replace(
    "</mujoco>", '<equality><tendon name="hold" tendon1="coupling" {params}/></equality></mujoco>')
# A hand on a hinge with two fingers on it, a motor closing them through a grasp tendon while the
# equality keeps them mirrored: three bodies under one row, two of them sharing the parent.
HAND = """
<mujoco>
  <option timestep="0.001" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="hand" pos="0 0 1">
      <joint name="wrist" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="box" size="0.03 0.03 0.08" mass="0.5" contype="0" conaffinity="0"/>
      <body name="thumb" pos="-0.03 0 -0.08"><joint name="thumb" type="hinge" axis="0 1 0" damping="0.02"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.1" size="0.01" mass="0.05" contype="0" conaffinity="0"/></body>
      <body name="finger" pos="0.03 0 -0.08"><joint name="finger" type="hinge" axis="0 1 0" damping="0.02"/>
        <geom type="capsule" fromto="0 0 0 0.02 0 -0.12" size="0.01" mass="0.08" contype="0" conaffinity="0"/></body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="grasp"><joint joint="thumb" coef=".5"/><joint joint="finger" coef=".5"/></fixed>
    <fixed name="coupling"><joint joint="thumb" coef="-.5"/><joint joint="finger" coef=".5"/></fixed>
  </tendon>
  <equality><tendon name="coupling" tendon1="coupling" solimp="0.95 0.99 0.001" solref=".005 .5"/></equality>
  <actuator><motor tendon="grasp" gear="0.05"/><motor joint="wrist" gear="0.3"/></actuator>
</mujoco>
"""


# MuJoCo's default equality, and a stiff underdamped one with an offset (polycoef's constant). The stiff one
# on undamped joints: joint by joint, a joint's damping is implicit in the same solve as the equality's row,
# where MuJoCo finds the constraint forces first and then the damping (its Euler step): under this stiff row
# that leaves the first step's rates 1.7% apart (measured), under the default row within 1% over the run.
EQUALITIES = {
    "default": ("", 'damping="0.05"'),
    "stiff, offset, undamped joints": ('solref="0.01 0.5" solimp="0.95 0.99 0.001" polycoef="0.2 1 0 0 0"', 'damping="0"'),
}


SOLVES = {"joint by joint": JOINT_BY_JOINT, "articulated": ARTICULATED}


@pytest.mark.parametrize("solve", SOLVES)
@pytest.mark.parametrize("kind", EQUALITIES)
def test_a_tendon_equality_holds_the_arm_as_mujocos(build_world, kind, solve):
    # From (0.4, -0.6) the tendon stands 0.82 off its length (0.2 further with polycoef's offset): pulled in.
    params, damping = EQUALITIES[kind]
    xml = COUPLED_ARM.format(params=params).replace('damping="0.05"', damping)
    ours, theirs = run(build_world, xml, [0.3], 500, SOLVES[solve])
    coupling = theirs[:, 0] - 0.7 * theirs[:, 1]
    offset = 0.2 if "polycoef" in params else 0.0
    assert abs(coupling[0] - offset) > 0.5 and abs(coupling[-1] - offset) < 0.05, "MuJoCo's equality pulled it in"
    if damping == 'damping="0"':  # the first step's rates, where the row pulls hardest: MuJoCo's
        np.testing.assert_allclose(ours[0, 2:4], theirs[0, 2:4], rtol=1e-4)
    # measured 0.8% joint by joint; 2e-5 in the tree's joint space, where the row meets the whole arm's mass
    assert close(ours[:, :4], theirs[:, :4], 0.01 if solve == "joint by joint" else 1e-4), np.abs(ours - theirs).max(axis=0)
    without, _ = run(build_world, ARM.format(tendons="", actuators='<motor joint="shoulder" gear="0.5"/>'), [0.3], 500,
                     JOINT_BY_JOINT)
    assert not close(without[:, :4], theirs[:, :4], 0.1), "the equality is what holds it"


@pytest.mark.parametrize("solve", SOLVES)
def test_a_tendon_equality_mirrors_two_fingers_on_one_hand_as_mujocos(build_world, solve):
    model, world = build_world(HAND, SOLVES[solve])
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    ours, theirs = side_by_side(m, d, world, lambda t: [np.sin(t / 150.0), np.cos(t / 200.0)], 1500)
    assert np.abs(theirs[:, 1]).max() > 0.3 and np.abs(theirs[:, 1] - theirs[:, 2]).max() < 0.02, "mirrored fingers"
    assert close(ours[:, :3], theirs[:, :3], 0.01), np.abs(ours - theirs).max(axis=0)


# dm_control's quadruped's leg in small: a free torso, a hip on two hinges (yaw, pitch), knee and ankle,
# the three pitch joints coupled by a stiff tendon equality, the leg swung by filtered servos on the yaw
# and on an "extend" tendon: the row spans a multi-hinge body and its children in a 3-D tree.
LEG = """
<mujoco>
  <option timestep="0.005" integrator="Euler"/>
  <default>
    <joint type="hinge" damping="3" armature=".01" limited="true" solimplimit="0 .99 .01"/>
    <geom type="capsule" size=".04" density="500" contype="0" conaffinity="0"/>
    <general ctrllimited="true" gainprm="100" biasprm="0 -100" biastype="affine" dyntype="filter" dynprm=".1"/>
  </default>
  <worldbody>
    <body name="torso" pos="0 0 1">
      <freejoint/>
      <geom type="ellipsoid" size=".3 .27 .2" density="300"/>
      <body name="hip" pos=".2 .2 0" euler="0 0 45">
        <joint name="yaw" axis="0 0 1" range="-50 50"/>
        <joint name="pitch" axis="0 1 0" range="-20 60"/>
        <geom fromto="0 0 0 .3 0 .11"/>
        <body name="knee" pos=".3 0 .11">
          <joint name="knee" axis="0 1 0" range="-60 50"/>
          <geom fromto="0 0 0 .25 0 -.25"/>
          <body name="ankle" pos=".25 0 -.25">
            <joint name="ankle" axis="0 1 0" range="-45 55"/>
            <geom fromto="0 0 0 0 0 -.25"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="coupling"><joint joint="pitch" coef=".333"/><joint joint="knee" coef=".333"/><joint joint="ankle" coef=".333"/></fixed>
    <fixed name="extend"><joint joint="pitch" coef=".25"/><joint joint="knee" coef="-.5"/><joint joint="ankle" coef=".25"/></fixed>
  </tendon>
  <equality><tendon name="coupling" tendon1="coupling" solimp="0.95 0.99 0.01" solref=".005 .5"/></equality>
  <actuator><general joint="yaw" ctrlrange="-1 1"/><general tendon="extend" ctrlrange="-.8 .8"/></actuator>
</mujoco>
"""


@pytest.mark.parametrize("mujoco_euler", [False, True])
def test_a_tendon_equality_over_a_multi_hinge_hip_holds_the_leg_as_mujocos(build_world, mujoco_euler):
    model, world = build_world(LEG, joltgym.SolverSettings(velocity_iterations=1, position_iterations=1, baumgarte=1.0,
                                                          articulated_joints=True, mujoco_euler=mujoco_euler))
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qpos[7:] = [0.3, 0.5, -0.4, -0.1]  # yaw, pitch, knee, ankle: the coupling at its length
    world.set_state(d.qpos.astype(np.float32), np.zeros(m.nv, np.float32))
    ours, theirs = side_by_side(m, d, world, lambda t: [np.sin(t / 40), 0.8 * np.cos(t / 30)], 400)
    extend = theirs[:, 8] * 0.25 - 0.5 * theirs[:, 9] + 0.25 * theirs[:, 10]
    assert np.ptp(extend) > 0.5, "the servo swung the leg"
    coupling = ours[:, 8:11].sum(axis=1) * 0.333
    assert np.abs(coupling).max() < 2e-3  # measured 1e-4 (9.1e-4 with MuJoCo's order); MuJoCo's 9.1e-4
    assert np.abs(ours[:, 7:11] - theirs[:, 7:11]).max() < 0.01  # measured 0.0031 of the joints' 0.89 reach
    if mujoco_euler:  # the joints' damping after the constraint forces, as MuJoCo's Euler step: measured 0.020
        assert np.abs(ours[:, 11:] - theirs[:, 11:]).max() < 0.05
    else:  # solved with them: measured 0.077 of 5.7 after the first 20 steps, 0.43 on the ankle before them
        assert np.abs(ours[20:, 11:] - theirs[20:, 11:]).max() < 0.15


def test_a_tendon_equality_on_a_multi_hinge_body_joint_by_joint_is_refused_by_name(build_world):
    with pytest.raises(joltgym.UnsupportedFeatureError,
                       match=r"equality 'coupling': a tendon equality on joint 'pitch' of a multi-hinge body outside an "
                             r"articulated tree; use SolverSettings\(articulated_joints=True\)"):
        build_world(LEG)


@pytest.mark.parametrize("equality, match", [
    ('<tendon name="pair" tendon1="sum" tendon2="difference"/>', r"equality 'pair': tendon equalities between two tendons"),
    ('<tendon name="onspatial" tendon1="string"/>', r"equality 'onspatial': tendon equalities on spatial tendons"),
    ('<joint name="j" joint1="elbow"/>', r"equality 'j': joint equality constraints"),
    ('<connect name="c" body1="arm" body2="forearm" anchor="0 0 0"/>', r"equality 'c': connect equality constraints"),
])
def test_what_equalities_do_beyond_one_fixed_tendon_is_refused_by_name(tmp_path, equality, match):
    xml = ARM.format(tendons='<spatial name="string"><site site="s1"/><site site="s2"/></spatial>',
                     actuators='<motor tendon="sum"/>')
    xml = xml.replace('<body name="arm" pos="0 0 1">', '<site name="s1" pos="0 0 1.2"/><body name="arm" pos="0 0 1">')
    xml = xml.replace('mass="0.5" contype="0" conaffinity="0"/>', 'mass="0.5" contype="0" conaffinity="0"/><site name="s2"/>')
    path = tmp_path / "model.xml"
    path.write_text(xml.replace("</mujoco>", f"<equality>{equality}</equality></mujoco>"))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=match):
        joltgym.load_model(path)
