"""Vectorized throughput (HalfCheetah by default, --task Ant, ...): joltgym's JoltVectorEnv against MuJoCo peers, side by side.

Contenders, per batch size n:
  joltgym  JoltVectorEnv(n, num_threads=T), copy=True and copy=False, fixed float32 action batches
  joltgym  BareLoop: the same envs, seeds, actions and episodes (the same trajectories) stepped in
           plain C++ loops, no pool and no Python; 1 thread, and N with a barrier after every step
  machine  the same work again in two processes, a BareLoop of half the envs each, run one after
           the other and at once: the two-core scaling this machine gives with nothing shared
  mujoco   mujoco.rollout (MuJoCo's C rollout, open loop, no task logic), 1 thread and N threads
  gym      gymnasium.make("<Task>-v5") stepped in a Python loop (n=1 only)
  gym      gymnasium.vector.AsyncVectorEnv of <Task>-v5 (small n only: one process per env)
  envpool  EnvPool's <Task>-v5 at batch_size = num_envs, 1 and N threads, if it is importable

Rounds are interleaved: each round runs every contender of a size once (rotating the order),
so CPU-frequency drift and noisy neighbours hit all contenders alike. Best and median over
rounds are reported. A separate section measures resident memory per env in fresh processes.

    python benchmarks/bench_vector.py [--quick] [--sizes 1,16,64,256,1024] [--threads 1,2] [--json out.json]

benchmarks/report.py runs it for every task and writes the report from its --json output.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable

import gymnasium
import mujoco
import numpy as np
from mujoco import rollout as mj_rollout

import joltgym
from joltgym import _native
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv

# The task under test; --task replaces these before anything runs.
TASK = "HalfCheetah"
SOLVER = "default"  # the task's solver preset (--solver)
MJ_ID = "HalfCheetah-v5"
ACT_DIM = 6
ACT_LOW, ACT_HIGH = -1.0, 1.0  # the action space's bounds (the Humanoids': ±0.4)
N_ACTION_BATCHES = 4
MJ_WARNINGS: set[str] = set()

Runner = Callable[[], "tuple[float, float] | None"]  # one round; (wall, cpu) seconds only if it times itself


@dataclass
class Contender:
    name: str
    kind: str  # jolt, jolt-nocopy, bare, rollout, gym, async
    n: int
    threads: int
    make: Callable[[int], Runner]  # vector steps per round -> runner
    close: Callable[[], None] = lambda: None
    cpu_clock: Callable[[], float] = time.process_time
    steps: int = 1
    run: Runner | None = None
    # A BareLoop follows the pool it is paired with: it makes the same calls with the same step
    # counts, calibration included, so round r of both starts at the same step of the same
    # trajectories (a Humanoid's step costs more once it lies on the floor).
    follows: "Contender | None" = None
    calls: list[int] = field(default_factory=list)  # vector steps per call so far
    observations: Callable[[], np.ndarray] | None = None  # joltgym's: every env's latest observation
    worlds: int = 0  # a JoltVectorEnv's Jolt worlds, for the BareLoops that follow it to pack alike
    wall_rates: list[float] = field(default_factory=list)
    cpu_rates: list[float] = field(default_factory=list)

    def timed(self) -> tuple[float, float]:
        self.calls.append(self.steps)
        w0, c0 = time.perf_counter(), self.cpu_clock()
        own = self.run()
        wall, cpu = time.perf_counter() - w0, self.cpu_clock() - c0
        if own is not None:  # BareLoop.run times its own steps
            wall, cpu = own
        return wall, cpu

    def record(self) -> None:
        wall, cpu = self.timed()
        env_steps = self.n * self.steps
        self.wall_rates.append(env_steps / wall)
        self.cpu_rates.append(env_steps / max(cpu, 1e-9))

    @property
    def median(self) -> float:
        return statistics.median(self.wall_rates)

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu_rates)


# ---------------------------------------------------------------- machine
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown"


def envpool_version() -> str | None:
    try:
        import envpool
    except ImportError:
        return None
    return getattr(envpool, "__version__", "?")


def print_machine() -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {cpu_model()} | cpu_count={os.cpu_count()} | load average {load}")
    print(
        f"python {platform.python_version()} | numpy {np.__version__} | gymnasium {gymnasium.__version__}"
        f" | mujoco {mujoco.__version__} | joltgym {joltgym.__version__}"
    )


# ---------------------------------------------------------------- contenders
def action_batches(n: int, seed: int = 0) -> np.ndarray:
    """Every contender's actions: uniform over the action space, as a policy's clipped samples are."""
    shape = (N_ACTION_BATCHES, n, ACT_DIM)
    return np.random.default_rng(seed).uniform(ACT_LOW, ACT_HIGH, shape).astype(np.float32)


def jolt_contender(n: int, threads: int, copy: bool) -> Contender:
    env = JoltVectorEnv(n, task=TASK, num_threads=threads, copy=copy, solver=SOLVER)
    env.reset(seed=0)
    actions = action_batches(n)

    def make(k: int) -> Runner:
        def run() -> None:
            for i in range(k):
                env.step(actions[i % N_ACTION_BATCHES])

        return run

    kind, label = ("jolt", "") if copy else ("jolt-nocopy", ", copy=False")
    return Contender(f"joltgym JoltVectorEnv T={threads}{label}", kind, n, threads, make, env.close,
                     observations=lambda: env._obs.copy(), worlds=len(env._pool.world_sizes))


def bare_contender(n: int, threads: int, pool: Contender) -> Contender:
    """The pool's work in plain C++ loops: the seeds, actions and episodes of ``pool`` (the same
    trajectories as its JoltVectorEnv), in the same calls (``follows``), so that pool efficiency
    compares the same work, round by round, packed into worlds as the pool packs them. With N
    threads each runs a fixed share of the worlds and all wait at a barrier after every step."""
    s = task_spec(TASK)
    model = joltgym.load_model(s.xml_file, solver=s.resolve_solver(SOLVER))
    loop = _native.BareLoop(model.native, s.make_task(model), n, max_episode_steps=s.max_episode_steps, seed=0,
                            worlds=pool.worlds)
    actions = action_batches(n)

    def make(k: int) -> Runner:
        return lambda: loop.run(actions, k, num_threads=threads)

    return Contender(f"joltgym BareLoop (C++) T={threads}", "bare", n, threads, make, follows=pool,
                     observations=lambda: np.array(loop.observations))


# A process of machine_contender: a BareLoop of envs [first, first + count) of the pool's, stepping
# on "k" from stdin and answering its CPU seconds ("save <path>": its observations there).
MACHINE_WORKER = """
import sys, time
import numpy as np
import joltgym
from joltgym import _native
from joltgym.tasks import task_spec
task, solver, path = sys.argv[1], sys.argv[2], sys.argv[5]
first, count, worlds = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[6])
s = task_spec(task)
model = joltgym.load_model(s.xml_file, solver=s.resolve_solver(solver))
loop = _native.BareLoop(model.native, s.make_task(model), count, max_episode_steps=s.max_episode_steps, seed=first,
                        worlds=worlds)
actions = np.ascontiguousarray(np.load(path)[:, first:first + count])
print("ready", flush=True)
for line in sys.stdin:
    if line.startswith("save "):
        np.save(line[5:].strip(), np.array(loop.observations))
        print("saved", flush=True)
        continue
    cpu = time.process_time()
    loop.run(actions, int(line), num_threads=1)
    print(time.process_time() - cpu, flush=True)
"""


def machine_contender(n: int, concurrent: bool, pool: Contender) -> Contender:
    """What this machine's two cores give with nothing shared: the pool's envs (seeds, actions and
    episodes: its trajectories) as two processes, a BareLoop of half the envs each, following the
    pool's calls as the BareLoop contenders do. Run one after the other (T=1) or at once (T=2), the
    ratio of the two is the reference for an in-process pool's scaling: no memory, lock or barrier is
    shared, only the cores and their caches."""
    handle, path = tempfile.mkstemp(suffix=".npy")
    with os.fdopen(handle, "wb") as f:
        np.save(f, action_batches(n))
    half = n // 2
    procs = [
        subprocess.Popen([sys.executable, "-c", MACHINE_WORKER, TASK, SOLVER, str(first), str(count), path,
                          str(pool.worlds // 2)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for first, count in ((0, half), (half, n - half))
    ]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            raise RuntimeError(f"a machine_contender worker failed to start (exit code {p.wait()})")
    os.remove(path)

    def send(p: subprocess.Popen, line: object) -> None:
        p.stdin.write(f"{line}\n")
        p.stdin.flush()

    def make(k: int) -> Runner:
        def run() -> tuple[float, float]:
            start, cpu = time.perf_counter(), 0.0
            if concurrent:
                for p in procs:
                    send(p, k)
                cpu = sum(float(p.stdout.readline()) for p in procs)
            else:
                for p in procs:
                    send(p, k)
                    cpu += float(p.stdout.readline())
            return time.perf_counter() - start, cpu

        return run

    def close() -> None:
        for p in procs:
            p.stdin.close()
            p.wait()

    def observations() -> np.ndarray:
        halves = []
        for p in procs:
            handle, saved = tempfile.mkstemp(suffix=".npy")
            os.close(handle)
            send(p, f"save {saved}")
            p.stdout.readline()
            halves.append(np.load(saved))
            os.remove(saved)
        return np.concatenate(halves)

    mode = "at once" if concurrent else "in turn"
    return Contender(f"machine 2 BareLoop processes, {mode}", "machine", n, 2 if concurrent else 1, make, close,
                     follows=pool, observations=observations)


def mid_episode_states(model: mujoco.MjModel, frame_skip: int, count: int) -> np.ndarray:
    """States from a random-action trajectory, so rollouts start in contact, as a running env is."""
    data = mujoco.MjData(model)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    states = np.empty((count, mujoco.mj_stateSize(model, spec)))
    rng = np.random.default_rng(1)
    for i in range(50 + count):
        data.ctrl[:] = rng.uniform(*model.actuator_ctrlrange.T)
        mujoco.mj_step(model, data, nstep=frame_skip)
        if i >= 50:
            mujoco.mj_getState(model, data, states[i - 50], spec)
    return states


def rollout_contender(n: int, threads: int, model: mujoco.MjModel, frame_skip: int) -> Contender:
    # A Rollout object per contender keeps each thread pool alive across rounds; the module-level
    # persistent pool would be torn down whenever 1-thread and N-thread rounds alternate.
    pool = mj_rollout.Rollout(nthread=threads if threads > 1 else 0)
    datas = [mujoco.MjData(model) for _ in range(threads)]
    initial = mid_episode_states(model, frame_skip, n)
    nstate = initial.shape[1]

    def make(k: int) -> Runner:
        nstep = frame_skip * k
        low, high = model.actuator_ctrlrange.T  # the action space's bounds, as the other contenders draw
        control = np.random.default_rng(2).uniform(low, high, (n, nstep, model.nu))
        state_out = np.empty((n, nstep, nstate))
        sensor_out = np.empty((n, nstep, model.nsensordata))

        def run() -> None:
            pool.rollout(model, datas, initial, control, nstep=nstep, state=state_out, sensordata=sensor_out)

        return run

    return Contender(f"mujoco  rollout T={threads}", "rollout", n, threads, make, pool.close)


def envpool_contender(n: int, threads: int) -> Contender:
    import envpool

    env = envpool.make(MJ_ID, env_type="gymnasium", num_envs=n, num_threads=threads, batch_size=n, seed=0)
    env.reset()
    actions = action_batches(n).astype(np.float64)

    def make(k: int) -> Runner:
        def run() -> None:
            for i in range(k):
                env.step(actions[i % N_ACTION_BATCHES])

        return run

    return Contender(f"envpool {MJ_ID} T={threads}", "envpool", n, threads, make, env.close)


def gym_contender() -> Contender:
    env = gymnasium.make(MJ_ID)
    env.reset(seed=0)
    actions = action_batches(1)[:, 0]

    def make(k: int) -> Runner:
        def run() -> None:
            for i in range(k):
                _, _, terminated, truncated, _ = env.step(actions[i % N_ACTION_BATCHES])
                if terminated or truncated:
                    env.reset()

        return run

    return Contender(f"gym     make({MJ_ID}) loop", "gym", 1, 1, make, env.close)


def proc_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def async_contender(n: int, max_concurrency: int) -> Contender:
    env = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make(MJ_ID)] * n, max_concurrency=min(n, max_concurrency)
    )
    env.reset(seed=0)
    actions = action_batches(n)
    pids = [p.pid for p in env.processes]

    def make(k: int) -> Runner:
        def run() -> None:
            for i in range(k):
                env.step(actions[i % N_ACTION_BATCHES])

        return run

    def cpu_clock() -> float:  # the workers do the physics; count their CPU time too (10 ms ticks)
        return time.process_time() + sum(proc_cpu_seconds(pid) for pid in pids)

    name = f"gym     AsyncVectorEnv ({n} procs, <={min(n, max_concurrency)} busy)"
    return Contender(name, "async", n, min(n, max_concurrency), make, env.close, cpu_clock)


def build_contenders(n: int, threads: list[int], args, mj_model, frame_skip: int) -> list[Contender]:
    cpus = os.cpu_count() or 1
    out: list[Contender] = []
    # Worker processes fork first, before this process has any native thread pools.
    if n <= args.async_max:
        out.append(async_contender(n, args.async_workers))
    if n == 1:
        out.append(gym_contender())
    # Each BareLoop right after the pool at its thread count: pool efficiency is taken round by
    # round, so the two run next to each other in every round (the order only rotates).
    bare_threads = sorted({1, min(cpus, n)} & set(threads))
    for t in threads:
        if t <= n:
            out.append(jolt_contender(n, t, copy=True))
            if t in bare_threads:
                out.append(bare_contender(n, t, out[-1]))
    for t in bare_threads:
        out.append(jolt_contender(n, t, copy=False))
    if n >= 2 and cpus >= 2 and 2 in threads and 1 in threads:
        pool = next(c for c in out if c.kind == "jolt" and c.threads == 1)
        out += [machine_contender(n, concurrent, pool) for concurrent in (False, True)]
    for t in sorted({1, cpus}):
        if t <= n:
            out.append(rollout_contender(n, t, mj_model, frame_skip))
    if envpool_version():
        for t in sorted({1, cpus}):
            if t <= n:
                out.append(envpool_contender(n, t))
    return out


# ---------------------------------------------------------------- timing
def calibrate(c: Contender, round_seconds: float) -> None:
    """Pick vector steps per round so one round takes about round_seconds; a contender that
    follows another repeats its calls instead (which must have been calibrated first)."""
    if c.follows is not None:
        for k in c.follows.calls:
            c.steps, c.run = k, c.make(k)
            c.timed()
        c.steps, c.run = c.follows.steps, c.make(c.follows.steps)
        return
    c.steps, c.run = 1, c.make(1)
    c.timed()  # warm-up: first touch of buffers, caches, lazy initialisation
    k = 1
    while True:
        c.steps, c.run = k, c.make(k)
        wall, _ = c.timed()
        if wall >= round_seconds / 10 or k >= 1 << 20:
            break
        k *= 8
    c.steps = max(1, round(k * round_seconds / wall))
    c.run = c.make(c.steps)


def measure_size(contenders: list[Contender], rounds: int, round_seconds: float) -> None:
    for c in contenders:
        calibrate(c, round_seconds)
    for r in range(rounds):
        shift = r % len(contenders)
        for c in contenders[shift:] + contenders[:shift]:
            c.record()


def print_size(n: int, contenders: list[Contender]) -> None:
    print(f"\n--- {n} env(s) ---")
    print(f"{'contender':44} {'env-steps/s best':>16} {'median':>9} {'per CPU-s':>10} {'cpu/wall':>8} {'steps/round':>11}")
    for c in contenders:
        cpu_wall = c.median / c.cpu_median
        print(
            f"{c.name:44} {max(c.wall_rates):16.0f} {c.median:9.0f} {c.cpu_median:10.0f}"
            f" {cpu_wall:8.2f} {c.n * c.steps:11d}"
        )


# ---------------------------------------------------------------- summary
def best(contenders: list[Contender], kind: str, attr: str = "median", threads: int | None = None) -> float | None:
    rates = [getattr(c, attr) for c in contenders if c.kind == kind and (threads is None or c.threads == threads)]
    return max(rates) if rates else None


def jolt_over(contenders: list[Contender], kind: str, attr: str = "median") -> float | None:
    jolt, peer = best(contenders, "jolt", attr), best(contenders, kind, attr)
    return jolt / peer if jolt and peer else None


def pool_efficiency(contenders: list[Contender], t: int) -> float | None:
    """The pool at t threads over the bare loops at t threads (or t times one, where not run)."""
    jolt, bare = best(contenders, "jolt", threads=t), best(contenders, "bare", threads=t)
    if bare is None and (one := best(contenders, "bare", threads=1)):
        bare = t * one
    return jolt / bare if jolt and bare else None


def fmt_ratio(value: float | None) -> str:
    return f"{value:.2f}x" if value else "-"


def fmt_pct(value: float | None) -> str:
    return f"{value:.0%}" if value else "-"


PEERS = [("envpool", "EnvPool"), ("rollout", "mujoco rollout"), ("gym", "gym env loop"), ("async", "AsyncVectorEnv")]


def print_summary(results: dict[int, list[Contender]], cpus: int) -> None:
    print("\n=== joltgym / peer: median rates, each side at its best config, as wall | per CPU-second ===")
    head = "".join(f" {label:>17}" for _, label in PEERS)
    print(f"{'n':>5} {'jolt env-steps/s':>16} {'per CPU-s':>9}{head} {'pool eff T=1':>12} {f'T={cpus}':>5}")
    for n, cs in results.items():
        cells = "".join(
            f" {fmt_ratio(jolt_over(cs, k)):>8}|{fmt_ratio(jolt_over(cs, k, 'cpu_median')):<8}" for k, _ in PEERS
        )
        effs = f"{fmt_pct(pool_efficiency(cs, 1)):>12} {fmt_pct(pool_efficiency(cs, cpus)):>5}"
        print(f"{n:>5} {best(cs, 'jolt'):16.0f} {best(cs, 'jolt', 'cpu_median'):9.0f}{cells} {effs}")


def print_targets(results: dict[int, list[Contender]], mem: dict[int, float], cpus: int) -> None:
    at256 = results.get(256, [])
    async_n = max((n for n, cs in results.items() if best(cs, "async")), default=None)
    t1, t2 = best(at256, "jolt", threads=1), best(at256, "jolt", threads=2)
    m1, m2 = best(at256, "machine", threads=1), best(at256, "machine", threads=2)
    mem_n = max(mem, default=None)
    rows = [  # label, value, goal, formatter, higher is better
        ("per CPU-s vs EnvPool @256", jolt_over(at256, "envpool", "cpu_median"), 1.0, fmt_ratio, True),
        ("per CPU-s vs mujoco rollout @256", jolt_over(at256, "rollout", "cpu_median"), 1.0, fmt_ratio, True),
        (f"wall vs AsyncVectorEnv @{async_n}", jolt_over(results.get(async_n, []), "async"), 5.0, fmt_ratio, True),
        ("pool efficiency T=1 @256", pool_efficiency(at256, 1), 0.95, fmt_pct, True),
        (f"pool efficiency T={cpus} @256", pool_efficiency(at256, cpus), 0.95, fmt_pct, True),
        ("2-thread scaling @256", t2 / t1 if t1 and t2 else None, 1.85, fmt_ratio, True),
        ("the machine's: 2 processes @256", m2 / m1 if m1 and m2 else None, 1.85, fmt_ratio, True),
        (f"memory KB/env @{mem_n}", mem.get(mem_n), 100.0, lambda v: f"{v:.1f}" if v else "-", False),
    ]
    print("\n=== targets ===")
    for label, value, goal, fmt, higher in rows:
        if value is None:
            verdict = "n/a"
        else:
            verdict = "PASS" if (value >= goal if higher else value <= goal) else "MISS"
        print(f"{label:36} {fmt(value):>8}  goal {'>=' if higher else '<='} {fmt(goal):>6}  {verdict}")


# ---------------------------------------------------------------- memory
MEM_SCRIPT = """
import sys
import numpy as np
import joltgym
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv

def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

n, task_name = int(sys.argv[1]), sys.argv[2]
before = rss_kb()
if n == 0:
    s = task_spec(task_name)
    model = joltgym.load_model(s.xml_file, solver=s.solver)
    task = s.make_task(model)
else:
    env = JoltVectorEnv(n, task=task_name)
    env.reset(seed=0)
    actions = np.random.default_rng(0).uniform(-1, 1, env.action_space.shape).astype(np.float32)
    for _ in range(10):
        env.step(actions)
print(before, rss_kb())
"""


def rss_growth_kb(n: int) -> int | None:
    out = subprocess.run([sys.executable, "-c", MEM_SCRIPT, str(n), TASK], capture_output=True, text=True)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        print(f"memory probe for n={n} failed: {last}")
        return None
    before, after = map(int, out.stdout.split()[-2:])
    return after - before


def memory_section(sizes: list[int]) -> dict[int, float]:
    print("\n=== memory: VmRSS growth in a fresh process (after imports; create + reset + 10 steps) ===")
    model_kb = rss_growth_kb(0)
    if model_kb is None:
        return {}
    print(f"model load alone (load_model + task): {model_kb} KB")
    per_env = {}
    for n in sizes:
        total = rss_growth_kb(n)
        if total is None:
            continue
        per_env[n] = (total - model_kb) / n
        print(f"JoltVectorEnv({n:5}): {total:7d} KB total, {total / n:6.1f} KB/env, {per_env[n]:6.1f} KB/env without the model")
    return per_env


def write_json(path: str, results: dict[int, list[Contender]], mem: dict[int, float]) -> None:
    """Every contender's per-round rates (round r of every contender ran in the same interleaved pass)."""
    out = {
        "task": TASK,
        "peer": MJ_ID,
        "machine": {"cpu": cpu_model(), "cpu_count": os.cpu_count(), "load_average": os.getloadavg()},
        "versions": {"joltgym": joltgym.__version__, "mujoco": mujoco.__version__, "gymnasium": gymnasium.__version__,
                     "envpool": envpool_version()},
        "sizes": {
            str(n): [{"name": c.name, "kind": c.kind, "threads": c.threads, "wall_rates": c.wall_rates,
                      "cpu_rates": c.cpu_rates} for c in cs]
            for n, cs in results.items()
        },
        "memory_kb_per_env": {str(n): kb for n, kb in mem.items()},
    }
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


# ---------------------------------------------------------------- main
def int_list(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def parse_args() -> argparse.Namespace:
    cpus = os.cpu_count() or 1
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int_list, default=[1, 16, 64, 256, 1024], help="env counts, comma separated")
    p.add_argument("--threads", type=int_list, default=list(range(1, cpus + 1)), help="JoltVectorEnv thread counts")
    p.add_argument("--rounds", type=int, default=7, help="interleaved rounds per size (default 7)")
    p.add_argument("--round-seconds", type=float, default=0.3, help="target seconds per contender round")
    p.add_argument("--async-max", type=int, default=16, help="largest n run with AsyncVectorEnv (one process per env)")
    p.add_argument("--async-workers", type=int, default=min(cpus, 4), help="AsyncVectorEnv max_concurrency")
    p.add_argument("--mem-sizes", type=int_list, default=[256, 4096], help="env counts for the memory section")
    p.add_argument("--quick", action="store_true", help="about one minute: 5 rounds of 0.08 s")
    p.add_argument("--task", default="HalfCheetah", help="joltgym task name; its Gymnasium v5 twin is the peer")
    p.add_argument("--solver", default="default", choices=["default", "fast"], help="joltgym's solver preset")
    p.add_argument("--json", default=None, metavar="PATH", help="also write every contender's rounds here")
    args = p.parse_args()
    if args.quick:
        args.rounds, args.round_seconds = 5, 0.08
    return args


def print_header(args: argparse.Namespace) -> None:
    print(__doc__.split("\n\n")[0])
    print(
        f"\nPer size: every contender is first calibrated to ~{args.round_seconds} s per round, then"
        f" {args.rounds} rounds run interleaved\n(contender A, B, C, ... then B, C, ..., A), so load"
        " spikes on this shared machine hit all alike.\n'best' = fastest round, 'median' = median round;"
        " the ratio tables use medians.\nper CPU-s = env steps per CPU-second of this process (all its"
        " threads); AsyncVectorEnv adds its workers'\nCPU time read live from /proc/<pid>/stat (10 ms ticks)."
        " BareLoop reports its own wall and CPU time\n(the pool's seeds, actions and episodes, no pool or Python). mujoco rollout has no"
        " task logic or resets and starts from\nmid-episode states; joltgym rows include observations,"
        " rewards and auto-reset."
    )
    version = envpool_version()
    print("envpool:", f"version {version} (envpool.make(<Task>-v5, env_type='gymnasium', batch_size=n))"
          if version else "not installed (skipped)")


def select_task(name: str) -> None:
    global TASK, MJ_ID, ACT_DIM, ACT_LOW, ACT_HIGH
    TASK, MJ_ID = task_spec(name).name, f"{name}-v5"
    space = gymnasium.make(MJ_ID).action_space
    ACT_DIM, ACT_LOW, ACT_HIGH = space.shape[0], space.low, space.high


def main() -> None:
    args = parse_args()
    select_task(args.task)
    global SOLVER
    SOLVER = args.solver
    cpus = os.cpu_count() or 1
    mujoco.set_mju_user_warning(MJ_WARNINGS.add)  # keeps the model's deprecation warnings out of the tables
    t_start = time.perf_counter()
    print_header(args)
    print_machine()

    mj_env = gymnasium.make(MJ_ID)
    mj_model, frame_skip = mj_env.unwrapped.model, mj_env.unwrapped.frame_skip

    results: dict[int, list[Contender]] = {}
    for n in args.sizes:
        contenders = build_contenders(n, args.threads, args, mj_model, frame_skip)
        try:
            measure_size(contenders, args.rounds, args.round_seconds)
        finally:
            for c in contenders:
                c.close()
        results[n] = contenders
        print_size(n, contenders)

    print_summary(results, cpus)
    mem = memory_section(args.mem_sizes)
    print_targets(results, mem, cpus)
    if args.json:
        write_json(args.json, results, mem)
    for warning in sorted(MJ_WARNINGS):
        print(f"(MuJoCo warning, silenced: {warning})")
    print(f"\ntotal benchmark time {time.perf_counter() - t_start:.0f} s")
    mj_env.close()


if __name__ == "__main__":
    main()
