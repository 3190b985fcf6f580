"""The MJCF front end: parity with Gymnasium's XML, and clear errors for bad models."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest

import joltgym
from joltgym.model import compile_mjcf, describe

GYMNASIUM_ASSETS = Path(gymnasium.__file__).parent / "envs" / "mujoco" / "assets"


def flatten(desc) -> dict[str, np.ndarray]:
    """Every number of a model description, keyed by where it lives."""
    out: dict[str, np.ndarray] = {"timestep": np.array([desc.timestep]), "gravity": np.array(desc.gravity)}
    for b in desc.bodies:
        out[f"body {b.name}"] = np.array([b.parent, *b.pos, *b.quat, b.mass, *b.com, *b.inertia])
        for g in b.geoms:
            out[f"geom {g.name}"] = np.array(
                [int(g.type), *g.size, *g.pos, *g.quat, g.contype, g.conaffinity, g.friction]
            )
    for g in desc.world_geoms:
        out[f"world geom {g.name}"] = np.array([int(g.type), *g.pos, *g.quat, g.contype, g.conaffinity, g.friction])
    for j in desc.joints:
        out[f"joint {j.name}"] = np.array(
            [int(j.type), j.body, *j.pos, *j.axis, j.limited, *j.range, j.qposadr, j.dofadr, *j.qpos0,
             j.armature, j.damping, j.stiffness, j.springref]
        )
    for a in desc.actuators:
        out[f"actuator {a.name}"] = np.array([a.joint, a.gear, *a.gainprm, *a.biasprm, a.ctrllimited, *a.ctrlrange])
    return out


def test_our_half_cheetah_compiles_to_gymnasiums_model():
    ours = flatten(describe(compile_mjcf("half_cheetah.xml")))
    theirs = flatten(describe(compile_mjcf(GYMNASIUM_ASSETS / "half_cheetah.xml")))
    assert ours.keys() == theirs.keys()
    for key in ours:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-5, atol=1e-6, err_msg=key)


def test_gymnasium_xml_runs_in_our_env():
    env = gymnasium.make("joltgym/HalfCheetah-v0", xml_file=str(GYMNASIUM_ASSETS / "half_cheetah.xml"))
    obs, _ = env.reset(seed=0)
    for _ in range(50):
        obs, *_ = env.step(env.action_space.sample())
    assert np.all(np.isfinite(obs))


def test_half_cheetah_description_is_what_mujoco_compiled():
    desc = describe(compile_mjcf("half_cheetah.xml"))
    assert [b.name for b in desc.bodies] == ["torso", "bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot"]
    assert sum(b.mass for b in desc.bodies) == pytest.approx(14.0, rel=1e-6)  # total mass as settotalmass="14"
    assert [j.name for j in desc.joints][:3] == ["rootx", "rootz", "rooty"]
    assert [a.gear for a in desc.actuators] == [120, 90, 60, 120, 60, 30]
    assert desc.nq == desc.nv == 9 and desc.timestep == pytest.approx(0.01)


WELDED = """
<mujoco>
  <worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body name="base" pos="0 0 1">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
      <body name="welded" pos="0.5 0 0">
        <geom type="sphere" size="0.1" mass="3"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def test_jointless_bodies_are_welded_with_combined_mass(tmp_path):
    path = tmp_path / "welded.xml"
    path.write_text(WELDED)
    desc = describe(compile_mjcf(path))
    assert [b.name for b in desc.bodies] == ["base"]
    body = desc.bodies[0]
    assert body.mass == pytest.approx(4.0)
    np.testing.assert_allclose(body.com, [0.375, 0, 0], atol=1e-7)
    assert len(body.geoms) == 2
    # parallel-axis: sphere inertias plus 1*0.375^2 + 3*0.125^2 about y and z
    sphere = 0.4 * 0.1**2
    expected_yy = 4 * sphere + 1 * 0.375**2 + 3 * 0.125**2
    assert body.inertia[4] == pytest.approx(expected_yy, rel=1e-6)


@pytest.mark.parametrize(
    "snippet,needle",
    [
        ('<geom name="hull" type="mesh" mesh="tetrahedron"/>', "geom 'hull': colliding mesh geoms"),
    ],
)
def test_unsupported_geoms_are_named(tmp_path, snippet, needle):
    xml = f"""<mujoco><asset><mesh name="tetrahedron" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>
      <worldbody><body name="thing"><freejoint/>{snippet}</body></worldbody></mujoco>"""
    path = tmp_path / "bad.xml"
    path.write_text(xml)
    with pytest.raises(joltgym.UnsupportedFeatureError, match=needle):
        joltgym.load_model(path)


def test_an_actuator_with_a_user_gain_is_rejected_by_name(tmp_path):
    xml = """<mujoco><worldbody><body name="arm"><joint name="j" type="hinge"/>
      <geom type="capsule" fromto="0 0 0 1 0 0" size="0.05"/></body></worldbody>
      <actuator><general name="servo" joint="j" gaintype="user"/></actuator></mujoco>"""
    path = tmp_path / "servo.xml"
    path.write_text(xml)
    with pytest.raises(joltgym.UnsupportedFeatureError, match="actuator 'servo': user gains"):
        joltgym.load_model(path)


def test_equality_constraints_are_rejected(tmp_path):
    xml = """<mujoco><worldbody>
      <body name="a"><freejoint/><geom size="0.1"/></body>
      <body name="b" pos="1 0 0"><freejoint/><geom size="0.1"/></body></worldbody>
      <equality><weld name="glue" body1="a" body2="b"/></equality></mujoco>"""
    path = tmp_path / "eq.xml"
    path.write_text(xml)
    with pytest.raises(joltgym.UnsupportedFeatureError, match="glue.*equality"):
        joltgym.load_model(path)


def test_missing_model_file():
    with pytest.raises(FileNotFoundError, match="no_such_robot.xml"):
        joltgym.load_model("no_such_robot.xml")
    with pytest.raises(FileNotFoundError):
        gymnasium.make("joltgym/HalfCheetah-v0", xml_file="/nonexistent/cheetah.xml")


def test_malformed_model_file_reports_file_and_line(tmp_path):
    path = tmp_path / "broken.xml"
    path.write_text("<mujoco>\n  <worldbody>\n    <body>\n  </worldbody>\n</mujoco>\n")
    with pytest.raises(joltgym.ModelLoadError, match=r"(?si)broken\.xml.*line number=3"):
        joltgym.load_model(path)


def test_invalid_solver_settings():
    with pytest.raises(ValueError, match="solver"):
        joltgym.load_model("half_cheetah.xml", solver=joltgym.SolverSettings(substeps=0))
