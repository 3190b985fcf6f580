"""The native module's own code built with AddressSanitizer + UndefinedBehaviorSanitizer, and with
ThreadSanitizer, and a subset of this suite run against each build: a sanitizer report aborts the
run, so passing means none. The build is cached in joltgym's cache directory and rebuilt
incrementally; only our code is instrumented (CMake option JOLTGYM_SANITIZED_MODULES), on one Jolt
built as usual for both kinds (from ccache where the machine has it).

What runs where, and why the rest does not:
- ASan + UBSan: the whole suite but what starts other interpreters (RLlib, the side virtual
  environments, the examples, the benchmark scripts, the spawn-pickling test: a child imports the
  installed module, not this build), what measures memory (test_resources: ASan's quarantine holds freed memory) and the
  SB3 training run (minutes under ASan, and no native code the rest does not reach).
- TSan: the tests that step envs on threads (the pool, packed worlds, concurrent callers, vector
  envs). Python and Jolt are not instrumented; TSan still sees every lock and thread through its
  interceptors, and the pool synchronises through its own mutexes and condition variables."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from joltgym.tasks import TASKS
from side_venv import cache_dir
from stand_ins import STOOD_IN_FOR, without_stood_in

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # builds and runs two instrumented copies of the module

# Every task's own code runs under ASan through test_task_suite.py's steps of each task and
# test_suite_tasks.py's; elsewhere a few tasks stand for the rest (stand_ins.py), in both lanes.
# Files whose own cases are named after the tasks they check.
PER_TASK_FILES = ("test_task_suite", "test_suite_tasks", "test_go1_handstand")

# Every task's episodes through send/recv: under TSan (ten times slower) a light, a heavy, a
# self-colliding and a Playground task stand for all.
ASYNC_EVERY_TASK = "tests/test_async.py::test_every_task_runs_each_envs_episodes_whatever_order_envs_come_back_in"
ASYNC_UNDER_TSAN = ("HalfCheetah", "Ant", "Humanoid", "Go1JoystickFlatTerrain")
# Saved states of every task, likewise. A spawned process would not start under the sanitizer's
# preloaded runtime.
STATE_EVERY_TASK = ("tests/test_state.py::test_every_task_steps_on_bit_for_bit_from_a_restored_state",
                    "tests/test_state.py::test_the_single_env_restores_its_own_states_and_a_vector_envs")
STATE_IN_ANOTHER_PROCESS = "tests/test_state.py::test_a_pickled_state_steps_on_identically_in_another_process"

# Episodes beside EnvPool's: their time is EnvPool's; the same tasks' own steps run in test_task_suite.py.
ENVPOOL_EPISODES = ("op3_joystick", "g1_joystick", "go1_joystick", "go1_handstand", "go1_getup", "barkour_joystick")

KINDS = {
    "address,undefined": dict(
        runtime=["libasan.so", "libstdc++.so"],  # libstdc++ too: else ASan cannot find the real __cxa_throw
        options={"ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"},
        tests=["tests"],
        # The robots' comparisons with EnvPool and MuJoCo spend their time in those engines; every robot
        # task's own code runs here through test_task_suite.py's steps of each task.
        ignore=["tests/test_sanitizers.py", "tests/test_rllib.py", "tests/rllib", "tests/test_oldest_gymnasium.py",
                "tests/test_examples.py", "tests/test_resources.py", "tests/test_sb3_adapter.py",
                "tests/test_benchmark_scripts.py", "tests/test_main_job.py", "tests/test_spot.py", "tests/test_t1.py",
                "tests/test_berkeley_humanoid.py", "tests/test_apollo.py", "tests/test_h1.py"],
        deselect=["tests/test_pickling.py::test_vector_env_unpickled_in_another_process_runs_the_same_episodes",
                  STATE_IN_ANOTHER_PROCESS,
                  *[f"tests/test_{robot}.py::test_random_action_episodes_match_envpools" for robot in ENVPOOL_EPISODES],
                  # 10,000 steps of each task: the stood-in tasks' own code runs in that file's other cases.
                  *[f"tests/test_task_suite.py::test_random_actions_hold_joints[{task}]" for task in STOOD_IN_FOR]],
        keyword=without_stood_in(" or ".join(PER_TASK_FILES)),
        # In a process of their own, the tests that load torch (itself or through Stable-Baselines3): torch
        # and EnvPool's modules, loaded in one process, share pybind11's type registry and free each other's
        # allocations with the other's allocator, which ASan stops at as an alloc-dealloc mismatch inside
        # those libraries (torch 2.13 beside EnvPool 1.2.5).
        apart=["tests/test_zero_copy.py", "tests/test_render.py::test_sb3_make_vec_env_works_and_renders",
               "tests/test_render.py::test_the_sb3_adapter_renders_every_env_tiled",
               "tests/test_task_suite.py::test_sb3_check_env"],
    ),
    "thread": dict(
        runtime=["libtsan.so", "libstdc++.so"],
        options={"TSAN_OPTIONS": "halt_on_error=1:second_deadlock_stack=1"},
        tests=["tests/test_concurrency.py", "tests/test_packed_worlds.py", "tests/test_vector_env.py",
               "tests/test_marl_vector.py", "tests/test_async.py", "tests/test_marl_async.py", "tests/test_zero_copy.py",
               "tests/test_state.py", "tests/test_marl_state.py", "tests/test_pixels.py"],
        ignore=[],
        # The pool's threads run every task alike; the robots' thread-count and packing runs take minutes
        # and gigabytes each under TSan.
        deselect=[f"{test}[{mode}{task}]" for task in STOOD_IN_FOR for test, modes in (
            ("tests/test_vector_env.py::test_every_task_gives_the_same_episodes_for_any_thread_count_and_on_a_second_reset",
             [""]),
            ("tests/test_packed_worlds.py::test_results_do_not_depend_on_the_packing_or_the_thread_count",
             ["AutoresetMode.NEXT_STEP-", "AutoresetMode.SAME_STEP-"])) for mode in modes]
        + [f"{ASYNC_EVERY_TASK}[{task}]" for task in TASKS if task not in ASYNC_UNDER_TSAN]
        + [f"{test}[{task}]" for test in STATE_EVERY_TASK for task in TASKS if task not in ASYNC_UNDER_TSAN]
        + [STATE_IN_ANOTHER_PROCESS],
        keyword="",
        apart=[],
    ),
}


def compiler_file(name: str) -> str:
    path = subprocess.run(["g++", f"-print-file-name={name}"], capture_output=True, text=True, check=True).stdout.strip()
    if not os.path.isabs(path):
        raise AssertionError(f"g++ has no {name}: install its sanitizer runtime (Debian: libasan8, libtsan2, libubsan1)")
    return path


def build(kind: str) -> Path:
    """A folder holding the joltgym package with this kind's sanitized native module."""
    key = hashlib.sha256(f"{sys.prefix}\n{REPO}".encode()).hexdigest()[:10]
    root = cache_dir() / f"sanitized-{key}"
    build_dir = root / "build"
    name = kind.replace(",", "-")
    import pybind11

    # Every kind in one build folder, so that Jolt is compiled once for all of them.
    configure = subprocess.run(
        ["cmake", "-S", str(REPO), "-B", str(build_dir), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         f"-DJOLTGYM_SANITIZED_MODULES={';'.join(KINDS)}", f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
         f"-DPython_EXECUTABLE={sys.executable}"], capture_output=True, text=True, timeout=900)
    assert configure.returncode == 0, configure.stdout[-4000:] + configure.stderr[-4000:]
    done = subprocess.run(["cmake", "--build", str(build_dir), "--target", f"_native_{name}"], capture_output=True,
                          text=True, timeout=3600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    package = root / "package" / name / "joltgym"
    shutil.rmtree(package, ignore_errors=True)
    shutil.copytree(REPO / "python" / "joltgym", package, ignore=shutil.ignore_patterns("_native*", "__pycache__"))
    (module,) = (build_dir / "sanitized" / name).glob("_native*.so")
    shutil.copy2(module, package / module.name)
    return package.parent


@pytest.mark.parametrize("kind", KINDS)
def test_the_suite_runs_clean_under_sanitizers(kind):
    spec = KINDS[kind]
    env = dict(os.environ, **spec["options"])
    env["LD_PRELOAD"] = " ".join(compiler_file(name) for name in spec["runtime"])
    package_parent = build(kind)
    start = [sys.executable, str(REPO / "tests" / "sanitized_run.py"), str(package_parent), "-q", "-p", "no:cacheprovider"]
    apart_files = [a for a in spec["apart"] if "::" not in a]  # not even collected: their imports load torch
    apart_tests = [a for a in spec["apart"] if "::" in a]
    runs = [[*start, *[str(REPO / t) for t in spec["tests"]], *[f"--ignore={REPO / i}" for i in spec["ignore"] + apart_files],
             *[f"--deselect={d}" for d in spec["deselect"] + apart_tests],
             *(["-k", spec["keyword"]] if spec["keyword"] else [])]]
    if spec["apart"]:
        runs.append([*start, *[str(REPO / t) for t in spec["apart"]]])
    for args in runs:
        run = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True, timeout=3600)
        output = run.stdout + run.stderr
        reports = [line for line in output.splitlines() if "Sanitizer" in line or "runtime error:" in line]
        assert run.returncode == 0 and not reports, "\n".join(reports[:20]) + "\n" + output[-6000:]
        assert " passed" in output
