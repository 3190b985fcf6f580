"""Resources: envs release what they take. Creating, stepping and closing envs a thousand times
does not grow the process; a pool's worker threads are joined at close and at interpreter exit;
close twice is fine and a closed env refuses to step, with a clear error, whatever its kind."""

from __future__ import annotations

import os

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import joltgym  # noqa: F401  (registers the ids)
from joltgym.marl.vector import MultiAgentVectorEnv


def rss_mb() -> float:
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def cycles_growth(make_and_use, cycles: int = 1000, warm_up: int = 100) -> float:
    for _ in range(warm_up):
        make_and_use()
    before = rss_mb()
    for _ in range(cycles):
        make_and_use()
    return rss_mb() - before


def vector_cycle():
    env = gym.make_vec("joltgym/Hopper-v0", num_envs=4, num_threads=2)
    env.reset(seed=0)
    env.step(np.zeros((4, 3), np.float32))
    env.close()


def single_cycle():
    env = gym.make("joltgym/Hopper-v0")
    env.reset(seed=0)
    env.step(np.zeros(3, np.float32))
    env.close()


@pytest.mark.parametrize("cycle", [vector_cycle, single_cycle], ids=["vector", "single"])
def test_a_thousand_create_step_close_cycles_do_not_grow_the_process(cycle):
    # Measured: 0.4 MB (vector) and 0.0 MB (single) over 1000 cycles. One leaked pool or world
    # per cycle (tens of KB and the model's buffers) would cost tens of MB.
    assert cycles_growth(cycle) < 4.0


def thread_ids() -> set[str]:
    return set(os.listdir("/proc/self/task"))


def test_a_pools_threads_are_joined_at_close():
    # By thread id, not by count: a thread of an earlier test that ends meanwhile must not matter.
    before = thread_ids()
    env = gym.make_vec("joltgym/Hopper-v0", num_envs=4, num_threads=2)
    env.reset(seed=0)
    workers = thread_ids() - before
    assert workers  # the pool's workers (the calling thread is one of them)
    env.close()
    assert not workers & thread_ids(), workers & thread_ids()


MEMORY_OF_POOL = """
import sys
import numpy as np
from joltgym.vector import JoltVectorEnv
task, n = sys.argv[1], int(sys.argv[2])
def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
before = rss_kb()
env = JoltVectorEnv(n, task=task, num_threads=2)
env.reset(seed=0)
rng = np.random.default_rng(0)
for _ in range(50):  # random actions: robots fall, lie on the floor and touch themselves
    env.step(rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32))
print(rss_kb() - before)
"""


@pytest.mark.slow
@pytest.mark.parametrize("task", ["Humanoid", "HumanoidStandup", "Ant"])
def test_each_further_env_costs_under_100_kb(task):
    # What one more env costs, from 512 to 1536 envs in fresh processes (the model's and the threads'
    # share cancels out). Measured: Humanoid ~80 KB, HumanoidStandup ~85 KB, Ant ~47 KB (4,096 envs:
    # benchmarks/memory_per_env.py). A per-env copy of what one update builds and throws away (the
    # articulation's matrix, rows and contact points: 20-40 KB), or of what the model holds for every
    # env, would cross the line.
    import subprocess
    import sys

    def growth_kb(n):
        done = subprocess.run([sys.executable, "-c", MEMORY_OF_POOL, task, str(n)], capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        return int(done.stdout.split()[-1])

    per_env = (growth_kb(1536) - growth_kb(512)) / 1024
    assert per_env < 100.0, f"{task}: {per_env:.1f} KB per env"


EXIT_WITH_OPEN_POOLS = """
import threading
import gymnasium as gym, numpy as np
import joltgym
from joltgym.marl.vector import MultiAgentVectorEnv
vector = gym.make_vec("joltgym/Hopper-v0", num_envs=4, num_threads=2)
vector.reset(seed=0)
vector.step(np.zeros((4, 3), np.float32))
marl = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 4, num_threads=2)
marl.reset(seed=0)
marl.step(np.zeros((4, 2, 8), np.float32))
assert threading.active_count() == 1  # the pools' workers are native threads, not Python's
print("stepped", flush=True)
"""


def test_pools_left_open_are_joined_at_interpreter_exit():
    # A script that never calls close(): the interpreter must exit at once and cleanly, its pools'
    # worker threads joined by the envs' finalisers (not left blocking exit, not killed mid-step).
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", EXIT_WITH_OPEN_POOLS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "stepped"
    assert "Error" not in done.stderr and "Warning" not in done.stderr, done.stderr[-2000:]


def closed_single():
    env = gym.make("joltgym/Hopper-v0")
    env.reset(seed=0)
    return env, lambda: env.step(np.zeros(3, np.float32)), lambda: env.reset(seed=1)


def closed_vector():
    env = gym.make_vec("joltgym/Hopper-v0", num_envs=2)
    env.reset(seed=0)
    return env, lambda: env.step(np.zeros((2, 3), np.float32)), lambda: env.reset(seed=1)


def closed_parallel():
    env = pettingzoo.make("parallel", "joltgym/SumoAnts-v0")
    env.reset(seed=0)
    return env, lambda: env.step({a: np.zeros(8, np.float32) for a in env.possible_agents}), lambda: env.reset(seed=1)


def closed_multi_agent_vector():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 2, num_threads=1)
    env.reset(seed=0)
    return env, lambda: env.step(np.zeros((2, 2, 3), np.float32)), lambda: env.reset(seed=1)


@pytest.mark.parametrize("build", [closed_single, closed_vector, closed_parallel, closed_multi_agent_vector],
                         ids=["single", "vector", "parallel", "multi-agent-vector"])
def test_close_twice_is_fine_and_a_closed_env_refuses_to_step(build):
    env, step, reset = build()
    env.close()
    env.close()
    for call in (step, reset):
        with pytest.raises(gym.error.ClosedEnvironmentError, match="closed"):
            call()


def test_ctrl_c_interrupts_a_long_world_step_promptly(tmp_path):
    import signal
    import threading
    import time

    from joltgym import _native
    from joltgym.tasks import task_spec

    model = joltgym.load_model(task_spec("Hopper").xml_file)
    world = _native.World(model.native)
    # Python's own Ctrl-C handler, whatever an earlier test's native library did to it (in the full
    # suite, twice on a loaded machine, a SIGINT sent here was never seen by Python), and Ctrl-C
    # pressed again every 0.3 s until the step returns: what this tests is that the step looks.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def press_ctrl_c():
        while not stopped.wait(0.3):
            os.kill(os.getpid(), signal.SIGINT)

    stopped = threading.Event()
    presser = threading.Thread(target=press_ctrl_c)
    start = time.monotonic()
    try:
        presser.start()
        with pytest.raises(KeyboardInterrupt):
            world.step(np.zeros(3, np.float32), nsteps=10**8)  # hours of stepping if nothing stopped it
    finally:
        stopped.set()
        try:
            presser.join()
            time.sleep(0.01)  # a press sent just before the stop is handled here
        except KeyboardInterrupt:
            pass
        signal.signal(signal.SIGINT, previous)
    # Generous: this bounds a hang, not speed (a chunk of steps takes milliseconds).
    assert time.monotonic() - start < 30.0
    world.step(np.zeros(3, np.float32))  # the world is usable after the interruption
    assert np.isfinite(world.qpos).all()


def _in_forked_child(body) -> int:
    """Runs body() in a child forked from this process; returns its exit code (77: timed out)."""
    import time

    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 1
        try:
            code = body()
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return 77


@pytest.mark.parametrize("kind", ["vector", "multi-agent-vector"])
def test_a_forked_child_can_drop_an_inherited_pool_and_is_told_it_cannot_step_it(kind):
    """A child forked after a pool's threads started (multiprocessing's and AsyncVectorEnv's
    default on Linux) inherits the pool but not its threads. Dropping it used to hang the child
    forever (a condition variable the threads waited on cannot be destroyed), stepping it to
    wait forever for workers that are not there."""
    import gc

    if kind == "vector":
        env = gym.make_vec("joltgym/Hopper-v0", num_envs=4, num_threads=2)
        actions = np.zeros((4, 3), np.float32)
    else:
        env = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 4, num_threads=2)
        actions = np.zeros((4, 2, 8), np.float32)
    env.reset(seed=0)
    env.step(actions)

    def child() -> int:
        try:
            env.step(actions)
            return 2  # stepped with workers it does not have
        except RuntimeError as error:
            if "forked" not in str(error) or "create the env in this process" not in str(error):
                return 3
        fresh = gym.make_vec("joltgym/Hopper-v0", num_envs=4, num_threads=2)  # its own threads work
        fresh.reset(seed=0)
        fresh.step(np.zeros((4, 3), np.float32))
        fresh.close()
        env.close()
        gc.collect()
        return 0

    assert _in_forked_child(child) == 0
    env.step(actions)  # the parent's pool is untouched
    env.close()
