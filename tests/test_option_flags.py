"""MuJoCo's `<option><flag .../>` switches: those joltgym follows change its physics as they change
MuJoCo's (contacts off, gravity off), and a switch it does not follow is refused by name when the
model has what it switches off, never ignored."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym

BALL = """
<mujoco>
  <option timestep="0.005">{flags}</option>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="ball" pos="0 0 0.3">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
    <body name="arm" pos="1 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" {joint}/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" {actuator}/></actuator>
</mujoco>
"""


def trajectories(build_world, xml: str, steps: int = 200):
    model, world = build_world(xml, None)
    m = model.mj_model
    d = mujoco.MjData(m)
    ours, theirs = [], []
    for _ in range(steps):
        mujoco.mj_step(m, d)
        world.step(np.zeros(m.nu, np.float32))
        theirs.append(d.qpos.copy())
        ours.append(np.array(world.qpos))
    return np.array(ours), np.array(theirs)


def test_contacts_off_lets_the_ball_fall_through_the_floor_as_mujocos(build_world):
    ours, theirs = trajectories(build_world, BALL.format(flags='<flag contact="disable"/>', joint="", actuator=""))
    assert theirs[-1, 2] < -0.5, "MuJoCo's ball fell through"
    np.testing.assert_allclose(ours[:, 2], theirs[:, 2], atol=2e-3)
    on, _ = trajectories(build_world, BALL.format(flags="", joint="", actuator=""))
    assert on[-1, 2] > 0.05, "with contacts on, it rests on the floor"


def test_gravity_off_leaves_everything_where_it_is(build_world):
    ours, theirs = trajectories(build_world, BALL.format(flags='<flag gravity="disable"/>', joint="", actuator=""))
    assert np.abs(theirs - theirs[0]).max() < 1e-9
    assert np.abs(ours - theirs[0]).max() < 1e-5


@pytest.mark.parametrize("flag, joint, actuator", [
    ("limit", 'limited="true" range="-1 1"', ""),
    ("spring", 'stiffness="2"', ""),
    ("damper", 'damping="0.5"', ""),
    ("clampctrl", "", 'ctrllimited="true" ctrlrange="-1 1"'),
    ("actuation", "", ""),
    ("filterparent", "", ""),
    ("refsafe", "", ""),
])
def test_a_switch_joltgym_does_not_follow_is_refused_by_name(tmp_path, flag, joint, actuator):
    path = tmp_path / "model.xml"
    path.write_text(BALL.format(flags=f'<flag {flag}="disable"/>', joint=joint, actuator=actuator))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=rf'<option><flag {flag}="disable"/>: switching off {flag}'):
        joltgym.load_model(path)


def test_a_switch_over_what_the_model_lacks_is_fine(tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(BALL.format(flags='<flag limit="disable" spring="disable" equality="disable" warmstart="disable"/>',
                                joint="", actuator=""))
    joltgym.load_model(path)


def test_contact_parameter_override_is_refused_by_name(tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(BALL.format(flags='<flag override="enable"/>', joint="", actuator=""))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=r"override.*overriding contact parameters"):
        joltgym.load_model(path)
