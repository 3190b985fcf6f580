"""Actuators with MuJoCo's affine gain and bias (position, velocity, general), activation dynamics
(filter, filterexact, integrator, actrange, actearly), ctrlrange, forcerange and the joint's
actuatorfrcrange, and the joint damping of MuJoCo's Euler step with
eulerdamp disabled: against MuJoCo on the same XML (Euler), the actuator forces MuJoCo reports
and the motion they make. Whatever stays unsupported is refused by name."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from arm_runs import ARTICULATED, JOINT_BY_JOINT, close, run
from joltgym import _native

ARM = """
<mujoco>
  <option timestep="0.002" gravity="0 0 -9.81">{flags}</option>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" {joint}/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
      <body name="forearm" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" {joint}/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.04" mass="0.5" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    {actuators}
  </actuator>
</mujoco>
"""
ACTUATORS = {
    "position": '<position joint="shoulder" kp="20"/><position joint="elbow" kp="10" kv="0.5" gear="2"/>',
    "position, forcerange": '<position joint="shoulder" kp="40" forcerange="-3 3"/>'
                            '<position joint="elbow" kp="10" kv="0.5" forcerange="-1 1"/>',
    "position, ctrlrange": '<position joint="shoulder" kp="20" ctrlrange="-0.3 0.3"/>'
                           '<position joint="elbow" kp="10" ctrlrange="0 0.5"/>',
    "velocity": '<velocity joint="shoulder" kv="2"/><velocity joint="elbow" kv="1" gear="0.5"/>',
    "general affine": '<general joint="shoulder" gaintype="affine" gainprm="5 1 0.2" biastype="affine" biasprm="0.5 -8 -0.3"/>'
                      '<general joint="elbow" gainprm="3" biastype="affine" biasprm="0 -4 -0.2"/>',
    "motor beside position": '<motor joint="shoulder" gear="3"/><position joint="shoulder" kp="15"/>'
                             '<position joint="elbow" kp="10"/>',
    # Activation dynamics: the force takes the activation, which follows the control.
    "position with timeconst (filterexact)": '<position joint="shoulder" kp="20" timeconst="0.05"/>'
                                             '<position joint="elbow" kp="10" timeconst="0.02"/>',
    "general filter": '<general joint="shoulder" dyntype="filter" dynprm="0.03" gainprm="2"/>'
                      '<general joint="elbow" dyntype="filter" dynprm="0.01" gainprm="1.5" actearly="true"/>',
    "intvelocity (integrator, actrange)": '<intvelocity joint="shoulder" kp="10" actrange="-0.3 0.5"/>'
                                          '<general joint="elbow" dyntype="integrator" gainprm="0.8"/>',
}


@pytest.mark.parametrize("kind", ACTUATORS)
def test_actuators_drive_the_arm_as_mujocos(build_world, kind):
    nu = ACTUATORS[kind].count("joint=")
    ctrl = [0.9, -0.2, 0.5][:nu]
    ours, theirs = run(build_world, ARM.format(flags="", joint='damping="0.05"', actuators=ACTUATORS[kind]), ctrl, 400,
                       ARTICULATED)
    assert np.abs(theirs[:, 0:2] - theirs[0, 0:2]).max() > 0.05, "MuJoCo's arm moved"
    np.testing.assert_allclose(ours[0, 4:], theirs[0, 4:], rtol=1e-4, atol=1e-4)  # the first step's forces
    # MuJoCo's own Euler step, its float32 rounding grown over 400 steps of a double pendulum.
    assert close(ours, theirs, 0.005)


def test_a_reset_starts_the_activations_from_zero(build_world):
    # The activation is state: a world reset after a run must step as a fresh one, not from the
    # activations the run left (the filters here are far from zero after it).
    _, world = build_world(ARM.format(flags="", joint='damping="0.05"', actuators=ACTUATORS["general filter"]),
                           ARTICULATED)
    ctrl = np.array([0.9, -0.7], np.float32)

    def run_from_reset():
        world.restore_initial_state()
        qpos = []
        for _ in range(100):
            world.step(ctrl)
            qpos.append(np.array(world.qpos))
        return np.array(qpos)

    first = run_from_reset()
    np.testing.assert_array_equal(run_from_reset(), first)


@pytest.mark.parametrize("kind", ["position", "general affine"])
def test_joint_by_joint_rows_follow_mujoco_too(build_world, kind):
    nu = ACTUATORS[kind].count("joint=")
    ours, theirs = run(build_world, ARM.format(flags="", joint='damping="0.05"', actuators=ACTUATORS[kind]),
                       [0.9, -0.2][:nu], 300, JOINT_BY_JOINT)
    assert close(ours[:, :4], theirs[:, :4], 0.02)


def test_the_joints_actuatorfrcrange_clips_the_summed_force(build_world):
    xml = ARM.format(flags="", joint='actuatorfrcrange="-2 2"', actuators=ACTUATORS["motor beside position"])
    ours, theirs = run(build_world, xml, [1.0, 0.9, 0.4], 200, ARTICULATED)
    assert np.abs(theirs[:, 4:]).max() == pytest.approx(2.0), "MuJoCo clipped it"
    assert np.abs(ours[:, 4:]).max() == pytest.approx(2.0)
    assert close(ours, theirs, 0.005)


@pytest.mark.parametrize("flags", ['<flag eulerdamp="disable"/>', ""])
def test_joint_damping_follows_mujocos_eulerdamp_flag(build_world, flags):
    # Stiff damping at this timestep: explicit (eulerdamp disabled) and implicit damping part clearly.
    xml = ARM.format(flags=flags, joint='damping="0.4" armature="0.01"', actuators=ACTUATORS["position"])
    ours, theirs = run(build_world, xml, [0.9, -0.2], 300, ARTICULATED)
    assert close(ours, theirs, 0.005)
    other = ARM.format(flags="" if flags else '<flag eulerdamp="disable"/>', joint='damping="0.4" armature="0.01"',
                       actuators=ACTUATORS["position"])
    elsewhere, _ = run(build_world, other, [0.9, -0.2], 300, ARTICULATED)
    assert np.abs(elsewhere - theirs).max() > 0.1, "the flag matters on this model"


@pytest.mark.parametrize("actuator, match", [
    ('<general joint="shoulder" gaintype="user"/>', r"actuator '.*': user gains"),
    ('<general joint="shoulder" biastype="user"/>', r"actuator '.*': user biases"),
    ('<muscle joint="shoulder" lengthrange="-1 1"/>', r"actuator '.*': muscle activation dynamics"),
    ('<general joint="shoulder" dyntype="user"/>', r"actuator '.*': user activation dynamics"),
    ('<damper joint="shoulder" kv="1" ctrlrange="0 1"/>', None),
])
def test_what_stays_unsupported_is_refused_by_name(tmp_path, actuator, match):
    path = tmp_path / "model.xml"
    path.write_text(ARM.format(flags="", joint="", actuators=actuator))
    if match is None:  # a damper is an affine gain on the velocity: supported
        joltgym.load_model(path)
        return
    with pytest.raises(joltgym.UnsupportedFeatureError, match=match):
        joltgym.load_model(path)


def test_the_implicit_integrator_is_refused_by_name(tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(ARM.format(flags="", joint="", actuators=ACTUATORS["position"]).replace(
        '<option timestep="0.002"', '<option integrator="implicit" timestep="0.002"'))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=r"the implicit integrator \(implicitfast is supported\)"):
        joltgym.load_model(path)


# A free base swinging a two-link arm by stiff, heavily damped position servos at a 10 ms step, at
# which Euler, taking their kv explicitly, blows up; implicitfast takes it implicitly.
SERVO_ARM = """
<mujoco>
  <option timestep="0.01" integrator="{integrator}" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="root" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" mass="2" contype="0" conaffinity="0"/>
      <body name="arm" pos="0.1 0 0">
        <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.5" armature="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="0.5" contype="0" conaffinity="0"/>
        <body name="fore" pos="0.4 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0" armature="0.01"/>
          <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="0.3" contype="0" conaffinity="0"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position joint="shoulder" kp="50" kv="8" {shoulder}/>
    <position joint="elbow" kp="30" kv="6"/>
  </actuator>
</mujoco>
"""


@pytest.mark.parametrize("shoulder", ["", 'forcerange="-1.5 1.5"'])  # saturated about two steps in three
def test_implicitfast_takes_the_servos_kv_implicitly_as_mujoco(build_world, shoulder):
    solver = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                    articulated_joints=True)
    model, world = build_world(SERVO_ARM.format(integrator="implicitfast", shoulder=shoulder), solver)
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qvel[6] = 3.0
    world.set_state(d.qpos.astype(np.float32), d.qvel.astype(np.float32))
    worst = 0.0
    for t in range(200):
        ctrl = np.array([np.sin(0.05 * t), -0.5], np.float32)
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        worst = max(worst, np.abs(world.qpos[7:] - d.qpos[7:]).max())
    assert worst < 0.006  # rad, over 2 s
    np.testing.assert_allclose(world.actuator_force, d.actuator_force, rtol=0.02, atol=0.02)
    assert abs(d.qpos[7] - m.qpos0[7]) > 0.1  # the servo did swing the arm


def test_a_motor_only_model_reads_no_joint_state_for_its_forces():
    # The motor path stays gain * ctrl: the compiled actuator says it is not affine.
    model = joltgym.load_model("half_cheetah.xml")
    assert all(list(a.gainprm)[1:] == [0.0, 0.0] and list(a.biasprm) == [0.0, 0.0, 0.0]
               for a in model.native.desc.actuators)
    assert isinstance(model.native, _native.Model)
