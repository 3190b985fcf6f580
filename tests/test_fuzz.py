"""Fuzzing the two doors bad input comes through (hypothesis): the model front end (MJCF the user
edits: extreme or degenerate values, malformed text) and the step path (actions of any shape,
dtype, layout and value). Whatever comes in, the outcome is a Python exception that says what is
wrong, or a correct step: finite observations, or the divergence flag (tests/test_divergence.py).
Never a crash, a hang, or NaN passed on silently. Inputs that found bugs are kept as @example."""

from __future__ import annotations

import os
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import joltgym
from joltgym.divergence import DIVERGED_KEY
from joltgym.model import resolve_model_path
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv

# Each example builds a model or steps an env (milliseconds): these counts keep the file to a few
# seconds in CI; FUZZ_EXAMPLES=600 pytest tests/test_fuzz.py runs a longer search (8 s).
FAST = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 60)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
MODELS = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", 40)), deadline=None)

CHEETAH_XML = resolve_model_path(task_spec("HalfCheetah").xml_file).read_text()

# ---------------------------------------------------------------------------------------------
# The step path


@pytest.fixture(scope="module")
def env():
    return gym.make("joltgym/HalfCheetah-v0").unwrapped


@pytest.fixture(scope="module")
def venv():
    return JoltVectorEnv(3, task="HalfCheetah")


ODD_VALUES = st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-45, 1e38, -1e38, np.inf, -np.inf, np.nan, 3.4e38])
DTYPES = st.sampled_from([np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.bool_,
                          np.complex64])


def any_array(shape):
    return DTYPES.flatmap(lambda dtype: hnp.arrays(dtype, shape, elements=_elements(dtype)))


def _elements(dtype):
    if np.issubdtype(dtype, np.floating):
        return st.one_of(st.floats(width=16 if dtype == np.float16 else 32, allow_nan=True, allow_infinity=True))
    if np.issubdtype(dtype, np.complexfloating):
        return st.complex_numbers(width=64, allow_nan=False, allow_infinity=False, max_magnitude=10)
    return None


def assert_clean_step(outcome, obs_shape):
    obs, reward = outcome[0], outcome[1]
    assert np.asarray(obs).shape == obs_shape
    assert np.isfinite(obs).all() and np.isfinite(reward).all()


def check_step_or_clear_error(step, action, obs_shape):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # a divergence warning fails the property
            outcome = step(action)
    except (ValueError, TypeError) as e:
        assert "action" in str(e).lower(), f"the error does not name the action: {e}"
        return False
    assert_clean_step(outcome, obs_shape)
    return True


@FAST
@given(action=st.one_of(
    hnp.array_shapes(min_dims=0, max_dims=3, max_side=8).flatmap(any_array),
    any_array((6,)),
    st.lists(ODD_VALUES, min_size=0, max_size=8),
    st.lists(st.one_of(ODD_VALUES, st.text(max_size=2), st.none()), min_size=6, max_size=6),
))
@example(action=np.full(6, np.nan, np.float32))
@example(action=np.full(6, 1e38, np.float32))  # its control cost was -inf: now refused by name
@example(action=np.full(6, 1e17, np.float32))  # far outside ctrlrange, still finite costs: clamped as MuJoCo does
@example(action=np.zeros(6, np.float32)[::-1])  # negative stride
@example(action=np.array([1, 0, 1, 0, 1, 0], np.bool_))
def test_single_env_step_takes_any_action_or_names_what_is_wrong(env, action):
    env.reset(seed=0)
    check_step_or_clear_error(env.step, action, (17,))


@FAST
@given(base=hnp.arrays(np.float64, (3, 12), elements=st.floats(-1e18, 1e18)),
       layout=st.sampled_from(["strided", "transposed", "read_only", "fortran", "list"]))
def test_vector_env_step_takes_any_memory_layout(venv, base, layout):
    if layout == "strided":
        action = base[:, ::2]
    elif layout == "transposed":
        action = np.ascontiguousarray(base[:, :6].T).T
    elif layout == "read_only":
        action = base[:, :6].copy()
        action.setflags(write=False)
    elif layout == "fortran":
        action = np.asfortranarray(base[:, :6])
    else:
        action = base[:, :6].tolist()
    venv.reset(seed=1)
    assert check_step_or_clear_error(venv.step, action, (3, 17))


@FAST
@given(action=hnp.arrays(np.float32, (3, 6), elements=ODD_VALUES))
def test_vector_env_names_the_envs_with_unusable_actions(venv, action):
    venv.reset(seed=2)
    bad = [i for i in range(3) if not (np.abs(action[i]) <= 1e18).all()]
    if not bad:
        assert_clean_step(venv.step(action), (3, 17))
        return
    with pytest.raises(ValueError, match=r"NaN, inf or values beyond ±1e18 for env\(s\) " + ", ".join(map(str, bad)) + "$"):
        venv.step(action)


# ---------------------------------------------------------------------------------------------
# The model front end: HalfCheetah's MJCF with one thing changed

NUMBERS = st.sampled_from(["0", "-1", "1e-12", "1e12", "1e30", "-1e30", "nan", "inf", "0.5", "3"])


def edit(xml: str, pattern: str, replacement: str) -> str:
    out, count = re.subn(pattern, replacement, xml, count=1)
    assert count == 1, pattern
    return out


MUTATIONS = st.one_of(
    st.builds(lambda v: ("timestep", edit(CHEETAH_XML, r'timestep="[^"]*"', f'timestep="{v}"')), NUMBERS),
    st.builds(lambda v: ("gear", edit(CHEETAH_XML, r'gear="[^"]*"', f'gear="{v}"')), NUMBERS),
    st.builds(lambda v: ("density", edit(CHEETAH_XML, r'density="[^"]*"', f'density="{v}"')), NUMBERS),
    st.builds(lambda v: ("mass", edit(CHEETAH_XML, r'<geom name="bthigh"', f'<geom name="bthigh" mass="{v}"')), NUMBERS),
    st.builds(lambda v: ("size", edit(CHEETAH_XML, r'size="0.046 0.145"', f'size="{v} 0.145"')), NUMBERS),
    st.builds(lambda v: ("length", edit(CHEETAH_XML, r'size="0.046 0.145"', f'size="0.046 {v}"')), NUMBERS),
    st.builds(lambda lo, hi: ("range", edit(CHEETAH_XML, r'range="-0.52 1.05"', f'range="{lo} {hi}"')),
              NUMBERS, NUMBERS),
    st.builds(lambda v: ("damping", edit(CHEETAH_XML, r'damping="6"', f'damping="{v}"')), NUMBERS),
    st.builds(lambda v: ("armature", edit(CHEETAH_XML, r'armature="0.1"', f'armature="{v}"')), NUMBERS),
    st.builds(lambda v: ("frictionloss", edit(CHEETAH_XML, r'armature="0.1"', f'armature="0.1" frictionloss="{v}"')),
              NUMBERS),
    st.builds(lambda kp, kv: ("position actuator", edit(CHEETAH_XML, r'<motor name="bthigh" joint="bthigh" gear="120"/>',
                                                       f'<position name="bthigh" joint="bthigh" kp="{kp}" kv="{kv}"/>')),
              NUMBERS, NUMBERS),
    st.builds(lambda lo, hi: ("forcerange", edit(CHEETAH_XML, r'<motor name="bthigh" joint="bthigh" gear="120"/>',
                                                 f'<general name="bthigh" joint="bthigh" biastype="affine" '
                                                 f'biasprm="0 -50 -2" forcerange="{lo} {hi}"/>')), NUMBERS, NUMBERS),
    st.builds(lambda v: ("actuatorfrcrange", edit(CHEETAH_XML, r'armature="0.1"',
                                                  f'armature="0.1" actuatorfrcrange="-{v} {v}"')), NUMBERS),
    st.builds(lambda tc, imp: ("friction softness", edit(CHEETAH_XML, r'armature="0.1"',
                                                        f'armature="0.1" frictionloss="0.5" solreffriction="{tc} 1" '
                                                        f'solimpfriction="{imp} 0.95 0.001"')), NUMBERS, NUMBERS),
    st.builds(lambda a, b, c: ("height field", edit(
        edit(CHEETAH_XML, r'<geom name="floor" type="plane" size="40 40 40"', '<geom name="floor" type="hfield" hfield="h"'),
        r"<worldbody>", f'<asset><hfield name="h" nrow="3" ncol="3" size="{a} 10 {b} {c}" '
                        f'elevation="0 1 0 1 0 1 0 1 0"/></asset><worldbody>')), NUMBERS, NUMBERS, NUMBERS),
    st.builds(lambda mu, margin, tc, dim, other: ("contact pair", edit(
        CHEETAH_XML, r"<actuator>", f'<contact><pair geom1="bfoot" geom2="{other}" condim="{dim}" friction="{mu} {mu}" '
                                    f'margin="{margin}" solref="{tc} 1"/></contact><actuator>')),
              NUMBERS, NUMBERS, NUMBERS, st.sampled_from([1, 3, 4, 6]), st.sampled_from(["floor", "ffoot", "bthigh"])),
    st.builds(lambda v: ("fromto", edit(CHEETAH_XML, r'fromto="-0.5 0 0 0.5 0 0"', f'fromto="{v}"')),
              st.sampled_from(["0 0 0 0 0 0", "1 1 1 1 1 1", "nan 0 0 1 0 0", "0 0 0 1e30 0 0"])),
    st.builds(lambda v: ("geom type", edit(CHEETAH_XML, r'<geom name="bthigh"', f'<geom name="bthigh" type="{v}"')),
              st.sampled_from(["sphere", "box", "cylinder", "ellipsoid", "mesh", "hfield", "sdf", "bogus"])),
    st.builds(lambda cut: ("truncated text", CHEETAH_XML[:cut]), st.integers(0, len(CHEETAH_XML) - 1)),
    st.builds(lambda junk: ("junk", edit(CHEETAH_XML, r"<worldbody>", "<worldbody>" + junk)),
              st.sampled_from(["<bogus/>", "<body/>", "<geom/>", "<joint/>", "<body><joint type='ball'/></body>",
                               "<body><freejoint/><geom size='0.1'/></body>", "&", "<!--"])),
)

# Python exceptions a bad model may raise: MuJoCo's compiler reports XML errors as ValueError; ours
# (unsupported features, settings out of range) are ValueError or NotImplementedError.
MODEL_ERRORS = (ValueError, NotImplementedError, TypeError)


@MODELS
@given(mutation=MUTATIONS)
@example(mutation=("zero timestep", edit(CHEETAH_XML, r'timestep="[^"]*"', 'timestep="0"')))
@example(mutation=("reversed range", edit(CHEETAH_XML, r'range="-0.52 1.05"', 'range="1.05 -0.52"')))
@example(mutation=("degenerate fromto", edit(CHEETAH_XML, r'fromto="-0.5 0 0 0.5 0 0"', 'fromto="0 0 0 0 0 0"')))
# A 1e30 m torso: its inertia (~1e90) reached Jolt as inf and every observation as NaN; now refused.
@example(mutation=("huge fromto", edit(CHEETAH_XML, r'fromto="-0.5 0 0 0.5 0 0"', 'fromto="0 0 0 1e30 0 0"')))
def test_an_edited_model_loads_and_steps_cleanly_or_is_refused_with_a_message(tmp_path_factory, mutation):
    what, xml = mutation
    path = tmp_path_factory.mktemp("fuzz") / "model.xml"
    path.write_text(xml)
    try:
        venv = JoltVectorEnv(2, xml_file=str(path), task="HalfCheetah")
    except MODEL_ERRORS as e:
        assert str(e).strip(), f"{what}: an empty error message"
        return
    venv.reset(seed=0)
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # divergence warns; its flag is checked below
        for _ in range(10):
            obs, reward, terminated, truncated, info = venv.step(rng.uniform(-1, 1, (2, 6)).astype(np.float32))
            diverged = info.get(DIVERGED_KEY, np.zeros(2, bool))
            # An observation may only be non-finite where the env says its physics diverged.
            assert np.isfinite(obs[~diverged]).all(), what
            assert np.isfinite(reward[~diverged]).all(), what
            assert (truncated | terminated)[diverged].all(), what
    venv.close()


PARAMETERS = st.sampled_from(["floor_friction", "body_mass", "joint_frictionloss", "joint_armature", "joint_damping",
                              "actuator_kp"])


@MODELS
@given(name=PARAMETERS, value=NUMBERS)
def test_any_physics_parameter_value_steps_cleanly_or_is_refused_naming_it(venv, name, value):
    values = np.full(venv.get_physics(name).shape, float(value), np.float32)
    try:
        venv.set_physics(name, values)
    except ValueError as e:
        assert str(e).startswith(name + ":"), str(e)
        return
    venv.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for _ in range(5):
            obs, reward, terminated, truncated, info = venv.step(np.zeros((venv.num_envs, 6), np.float32))
            diverged = info.get(DIVERGED_KEY, np.zeros(venv.num_envs, bool))
            assert np.isfinite(obs[~diverged]).all() and np.isfinite(reward[~diverged]).all(), (name, value)
    venv.set_physics(name, venv.model_physics(name))  # the module's env goes back to its model


def test_load_model_names_a_missing_or_non_mjcf_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere.xml"):
        joltgym.load_model(str(tmp_path / "nowhere.xml"))
    text = tmp_path / "notes.xml"
    text.write_text("just some words")
    with pytest.raises(ValueError):
        joltgym.load_model(str(text))
