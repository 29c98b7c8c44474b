"""Hostile submissions: each must score exactly what its honest work earns.

A "student" submission is the untouched student notebook (honest work: 0 points) plus
hostile cells that try to fool the grader; a "solution" submission is the solution (honest
work: full marks) plus cells that try to break the grader or starve it of time, memory or
processes. Small limits keep the suite fast; after every test no sandbox process remains.
"""

import json
import os
import shlex
import shutil
import signal
import time
from pathlib import Path

import pytest
from hostile import (
    ALWAYS_EQUAL,
    CGROUP_WRITES,
    CPU_SPLIT,
    ESCALATIONS,
    ESCAPES,
    EX_BINARY,
    FILL_EVERYWHERE,
    FILL_SCRATCH,
    FIND_SOLUTION,
    FLOOD,
    HOLD_INOTIFY,
    HONEST_LIMITS,
    HUGE_REPR,
    IPYTHON_HOOKS,
    MEMORY_SPLIT,
    NUMPY_SUBCLASS,
    PATCH_BUILTINS,
    PATCH_CHECKER,
    PATCH_JSON_PICKLE,
    PATCH_SYS_MODULES,
    READ_ENVIRONMENTS,
    READ_SECRETS,
    REPLAY_KILL,
    SECRET_SEARCH,
    SPY,
    USE_DEV,
    WORKER_ATTACK,
    code_cells,
    forged_output,
    notebook,
)

from nbcourse.grading import Limits
from nbcourse.grading.assignment import load_assignment
from nbcourse.grading.batch import grade_batch
from nbcourse.grading.generate import student_path
from nbcourse.grading.grader import Spares, grade_notebook, probe_seconds
from nbcourse.grading.sandbox import Sandbox

LIMITS = Limits(cell_timeout=2.5, total_timeout=45, probe_timeout=2, memory_mb=1024,
                max_procs=40, file_mb=32)
# a flood is ended by the link's limit on the bytes it reads, not by the cell's time limit
FLOOD_LIMITS = LIMITS.replace(cell_timeout=30)
FULL = 12.0


@pytest.fixture(scope="module")
def assignment():
    return load_assignment(EX_BINARY)


def _not_someone_elses(group, ours):
    """A sandbox cgroup ``nbgrade-<pid>-<hex>`` counts unless a live process that is neither
    this one nor its descendant made it (a test running beside this one, under pytest -n)."""
    owner = group.split("-")[1]
    if not owner.isdigit():
        return True
    pid = int(owner)
    return pid in ours or not os.path.exists(f"/proc/{pid}")


def _descendants_of(root):
    """Every process below ``root``, from the parent each /proc/PID/stat names."""
    children = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cgroups_of_this_process():
    """``{controller: cgroup path}`` of this process, from /proc/self/cgroup."""
    out = {}
    with open("/proc/self/cgroup") as f:
        for line in f.read().splitlines():
            _, controllers, path = line.split(":", 2)
            for c in controllers.split(",") if controllers else ["unified"]:
                out[c] = path
    return out


def _line_within(stream, seconds):
    """One line of ``stream``, or ``b""`` if none starts within ``seconds``."""
    import selectors

    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(seconds):
            return b""
    return stream.readline()


def _leftovers():
    """Processes started by this test (kernels cannot leave the sandbox's PID namespace,
    whose first process is ours), and the sandboxes' cgroups under this process's own that
    this process, a descendant or a process now gone made."""
    descendants = _descendants_of(os.getpid())
    pids = {p for p in descendants if os.path.exists(f"/proc/{p}") and _read_state(p) != "Z"}
    memory = _cgroups_of_this_process().get("memory")
    groups = []
    if memory is not None:
        folder = f"/sys/fs/cgroup/memory{memory.rstrip('/')}"
        if os.path.isdir(folder):
            ours = {os.getpid(), *descendants}
            groups = [g for g in os.listdir(folder)
                      if g.startswith("nbgrade-") and _not_someone_elses(g, ours)]
    return pids, groups


@pytest.fixture(autouse=True)
def no_leftover_processes():
    yield
    deadline = time.monotonic() + 60  # a bound on waiting, not a timing check
    while _leftovers() != (set(), []) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _leftovers() == (set(), [])


def student_plus(*cells):
    return code_cells(student_path(EX_BINARY)) + list(cells)


def solution_plus(*cells, at=None):
    base = code_cells(EX_BINARY / "solution.ipynb")
    if at is None:
        return base + list(cells)
    return base[:at] + list(cells) + base[at:]


def grade(assignment, cells, tmp_path, name="submission", limits=LIMITS, metadata=None):
    path = notebook(cells, tmp_path / f"{name}.ipynb", metadata)
    return grade_notebook(assignment, path, limits, allow_per_process_limits=True)


# --- objects that try to compare equal to anything -------------------------------------


@pytest.mark.sandbox
def test_always_equal_objects_score_zero(assignment, tmp_path):
    result = grade(assignment, student_plus(ALWAYS_EQUAL), tmp_path)
    assert result.status == "graded" and result.total == 0
    messages = [f["message"] for fb in result.feedback.values() for f in fb if not f["hidden"]]
    assert any("unsupported type AlwaysEqual" in m for m in messages)


@pytest.mark.sandbox
def test_numpy_and_builtin_subclasses_score_zero(assignment, tmp_path):
    result = grade(assignment, student_plus(NUMPY_SUBCLASS), tmp_path)
    assert result.total == 0
    messages = " ".join(f["message"] for fb in result.feedback.values() for f in fb)
    assert "unsupported type Cheat" in messages


@pytest.mark.sandbox
def test_float_and_bool_tricks_score_zero(assignment, tmp_path):
    trick = (
        "import numpy as np\n"
        "class Sly:\n"
        "    def __float__(self): return 1.3862943611198906\n"
        "    def __index__(self): return 1\n"
        "    def __bool__(self): return True\n"
        "    def __int__(self): return 1\n"
        "def log_odds_weights(p, q): return [Sly(), Sly(), Sly()]\n"
        "useless_feature = True\n"          # True == 1, but a bool is not an index
        "prior1_for_omega2 = Sly()\n"
        "ex3_decisions = [True] * 8\n"
    )
    result = grade(assignment, student_plus(trick), tmp_path)
    assert result.total == 0


# --- monkeypatching the checker, json, pickle, builtins, sys.modules -------------------


@pytest.mark.sandbox
def test_patching_the_checking_code_scores_zero(assignment, tmp_path):
    assert grade(assignment, student_plus(PATCH_CHECKER, 'check("all")'), tmp_path).total == 0


@pytest.mark.sandbox
def test_patching_json_and_pickle_scores_zero(assignment, tmp_path):
    assert grade(assignment, student_plus(PATCH_JSON_PICKLE), tmp_path).total == 0


@pytest.mark.sandbox
def test_patching_builtins_scores_zero(assignment, tmp_path):
    assert grade(assignment, student_plus(PATCH_BUILTINS), tmp_path).total == 0


@pytest.mark.sandbox
def test_patching_builtins_cannot_steal_honest_marks_either(assignment, tmp_path):
    # the grader's extraction copes with an honest notebook that shadows common names
    cells = solution_plus("json = pickle = sys = None\n"
                          "isinstance = len = exec = globals = repr = str = None\n")
    assert grade(assignment, cells, tmp_path).total == FULL


@pytest.mark.sandbox
def test_patching_sys_modules_scores_zero(assignment, tmp_path):
    assert grade(assignment, student_plus(PATCH_SYS_MODULES), tmp_path).total == 0


# --- IPython hooks and forged output ---------------------------------------------------


@pytest.mark.sandbox
def test_ipython_hooks_score_zero(assignment, tmp_path):
    result = grade(assignment, student_plus(IPYTHON_HOOKS, "1/0"), tmp_path)
    assert result.total == 0


@pytest.mark.sandbox
def test_ipython_hooks_do_not_hide_honest_work(assignment, tmp_path):
    assert grade(assignment, solution_plus(IPYTHON_HOOKS), tmp_path).total == FULL


@pytest.mark.sandbox
def test_input_transformer_that_rewrites_code_scores_zero(assignment, tmp_path):
    rewrite = ("ip = get_ipython()\n"
               "ip.input_transformers_cleanup.append(lambda lines: ['log_odds_weights = "
               "lambda p, q: [1.3862943611198906] * 3\\n'])\n")
    assert grade(assignment, student_plus(rewrite), tmp_path).total == 0


@pytest.mark.sandbox
def test_printed_and_written_forged_results_are_ignored(assignment, tmp_path):
    out = tmp_path / "out"
    path = notebook(student_plus(forged_output(out, "forger"), IPYTHON_HOOKS),
                    tmp_path / "forger.ipynb")
    (result,) = grade_batch(EX_BINARY, [path], out, workers=1, limits=LIMITS, progress=None)
    assert result.total == 0
    results = json.loads((out / "forger.ipynb" / "results.json").read_text())
    assert results["score"] == 0
    rows = (out / "grades.csv").read_text().splitlines()
    assert len(rows) == 2 and not any(r.startswith("forged") for r in rows)


# --- text the grader parses ------------------------------------------------------------

PATHOLOGICAL = [" " * 200_000 + "x", "a " * 200_000 + "=", "(" * 200_000 + "= 1",
                "a" + " " * 200_000 + ":" * 200_000, "def" + " " * 200_000 + "(",
                "x" + " " * 200_000 + "*" * 200_000 + "== 1", "raise ValueError('(' * 400)"]


@pytest.mark.sandbox
def test_pathological_lines_cost_the_grader_little(assignment, tmp_path):
    """Lines that make a backtracking pattern take cubic time (a line of spaces), in a cell
    that fails and in one that times out: the grader reads every cell for the names it
    defines and every error message, in time linear in their length."""
    import resource

    text = "\n".join(PATHOLOGICAL)
    cells = solution_plus(text, text + "\nwhile True:\n    pass\n",
                          "raise ValueError('(' * 400 + ', line 1)')\n")
    limits = Limits(**{**HONEST_LIMITS, "cell_timeout": 2})
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    result = grade(assignment, cells, tmp_path, limits=limits)
    assert result.total == FULL
    assert "timed out" in result.reason
    # the grader's own processor time: the old pattern took hours on these lines
    assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - before < 10


# --- hidden tests ----------------------------------------------------------------------


def _digits(value):
    """The leading digits of every number in ``value`` that is not round (0.3 is, a random
    probability is not): what would give a hidden input or expected value away."""
    if isinstance(value, list | tuple):
        return {d for v in value for d in _digits(v)}
    if hasattr(value, "tolist"):
        return _digits(value.tolist())
    text = repr(float(value))
    return {text[:8]} if len(text.lstrip("-")) >= 6 else set()


@pytest.mark.sandbox
def test_nothing_a_hidden_test_passes_or_expects_is_shown(assignment, tmp_path):
    """A submission whose functions show, in every public test, the inputs of the calls
    made before: nothing visible in results.json (before publication) holds a hidden
    input or expected value, a hidden test's name, or a score that counts hidden passes."""
    from nbcourse import two_class_discriminant

    hidden = [t for q in assignment.questions for t in q.tests if t.hidden]
    secrets = set()
    for test in hidden:
        for probe in test.probes:
            secrets |= _digits(list(getattr(probe, "args", ())))
    p6, q6 = next(t for t in hidden if t.name == "six random features").probe.args
    p4, q4, prior = next(t for t in hidden if t.name.startswith("four random")).probe.args
    secrets |= _digits(two_class_discriminant(p6, q6)[0].tolist())
    secrets.add(repr(float(two_class_discriminant(p4, q4, prior)[1]))[:8])
    x_big = next(t for t in hidden if t.name.startswith("201 samples")).probe.args[0]
    secrets.add(json.dumps(x_big[:3])[1:-1])
    assert len(secrets) > 20
    out = tmp_path / "out"
    path = notebook(student_plus(SPY), tmp_path / "spy.ipynb")
    (result,) = grade_batch(EX_BINARY, [path], out, workers=1, limits=LIMITS, progress=None)
    data = json.loads((out / "spy.ipynb" / "results.json").read_text())
    shown = [data["output"]] + [t["name"] + " " + t["output"] for t in data["tests"]
                                if t["visibility"] == "visible"]
    assert any("your code raised ValueError: [" in text for text in shown)  # the spy works
    leaked = {s for s in secrets if any(s in text for text in shown)}
    assert not leaked, shown
    assert data["visibility"] == "after_published"  # the total counts hidden passes
    assert "execution_time" not in data
    names = " ".join(t["output"] for t in data["tests"] if t["visibility"] != "visible")
    assert not any(t.name in names for t in hidden)


# --- reading the tests or the solution --------------------------------------------------


def _plant(path, source=EX_BINARY / "solution.ipynb"):
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)
    return str(path)


def test_the_secret_search_works_outside_the_sandbox(tmp_path):
    """The attack is real: given a world without a sandbox, every clue it follows (a
    process's command line and working folder, the environment, the working and home
    folders, the interpreter's paths, a walk of the top folders) leads it to a copy of the
    solution, which it runs.  The world is built here, in the test's own folder."""
    import numpy as np

    world = tmp_path / "world"
    proc = world / "proc" / "4242"
    proc.mkdir(parents=True)
    (proc / "cmdline").write_bytes(b"python\0" + str(world / "runner" / "grade.py").encode())
    (proc / "cwd").symlink_to(world / "course-b")
    (world / "cwd" / "sub").mkdir(parents=True)
    expected = {
        _plant(world / "runner" / "exercises" / "02-binary-discriminant" / "solution.ipynb"),
        _plant(world / "course-b" / "02-binary-discriminant" / "solution.ipynb"),
        _plant(world / "from-env" / "solution.ipynb"),
        _plant(world / "cwd" / "exercises" / "02-binary-discriminant" / "solution.ipynb"),
        _plant(world / "venv" / "solution.ipynb"),
        _plant(world / "top" / "a" / "b" / "c" / "solution.ipynb"),
        _plant(world / "home" / "assignment" / "tests.py", EX_BINARY / "tests.py"),
    }
    _plant(world / "top" / "other" / "solution.ipynb",  # another assignment's: not run
           EX_BINARY.parent / "01-discrete-features" / "solution.ipynb")
    namespace = {"np": np}
    exec(SECRET_SEARCH, namespace)
    stolen = namespace["steal"](
        proc=str(world / "proc"), environ={"COURSE": str(world / "from-env" / "x.txt")},
        cwd=str(world / "cwd" / "sub"), home=str(world / "home"),
        interpreter=[str(world / "venv" / "bin" / "python")], tops=[str(world / "top")],
        world=str(world))
    assert set(stolen) == expected
    p, q = np.array([0.8, 0.6, 0.5]), np.array([0.2, 0.4, 0.5])
    expected_w = np.log(p / (1 - p)) - np.log(q / (1 - q))  # Duda, Hart & Stork (2001), eq. 88
    np.testing.assert_allclose(namespace["log_odds_weights"](p, q), expected_w)


@pytest.mark.sandbox
def test_reading_tests_or_solutions_from_disk_or_environment_scores_zero(assignment, tmp_path):
    os.environ["NBCOURSE_SECRET_PATH"] = str(EX_BINARY)
    try:
        result = grade(assignment, student_plus(READ_SECRETS), tmp_path)
    finally:
        del os.environ["NBCOURSE_SECRET_PATH"]
    assert result.status == "graded"
    assert result.total == 0


@pytest.mark.sandbox
def test_kernel_environment_is_scrubbed(assignment, tmp_path):
    os.environ["NBCOURSE_SECRET_TOKEN"] = "s3cret"
    cells = solution_plus("import os\nif 'NBCOURSE_SECRET_TOKEN' in os.environ or "
                          "any('exercises' in v for v in os.environ.values()):\n"
                          "    def log_odds_weights(p, q):\n        return None\n")
    try:
        assert grade(assignment, cells, tmp_path).total == FULL
    finally:
        del os.environ["NBCOURSE_SECRET_TOKEN"]


# --- time ------------------------------------------------------------------------------


@pytest.mark.sandbox
def test_infinite_loop_costs_only_its_own_cell(assignment, tmp_path):
    result = grade(assignment, solution_plus("while True:\n    pass\n", at=3), tmp_path)
    assert result.total == FULL
    assert "cell 4 timed out" in result.reason


@pytest.mark.sandbox
def test_loop_that_swallows_interrupts_is_killed_and_work_replayed(assignment, tmp_path):
    stubborn = ("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                "while True:\n    try:\n        pass\n    except BaseException:\n        pass\n")
    result = grade(assignment, solution_plus(stubborn, at=5), tmp_path)
    assert result.total == FULL
    assert "cell 6 timed out" in result.reason


@pytest.mark.sandbox
def test_sleep_costs_only_its_own_cell(assignment, tmp_path):
    result = grade(assignment, solution_plus("import time\ntime.sleep(1000)\n", at=2), tmp_path)
    assert result.total == FULL


@pytest.mark.sandbox
def test_slow_function_fails_only_its_own_tests(assignment, tmp_path):
    slow = "import time\ndef bias(p, q, prior1):\n    time.sleep(1000)\n"
    result = grade(assignment, solution_plus(slow), tmp_path)
    assert result.scores["q2"] == 0
    assert result.total == FULL - 2


@pytest.mark.sandbox
def test_function_that_swallows_the_probe_timeout_fails_only_its_own_tests(assignment, tmp_path):
    # every question's probes go in one round trip, which this call keeps from coming back;
    # each question is then checked on its own, and only q2's tests fail
    stubborn = ("import time\ndef bias(p, q, prior1):\n    while True:\n        try:\n"
                "            time.sleep(1000)\n        except BaseException:\n            pass\n")
    result = grade(assignment, solution_plus(stubborn), tmp_path)
    assert result.scores["q2"] == 0
    assert result.total == FULL - 2, result.reason
    assert "q2: checking timed out" in result.reason


@pytest.mark.sandbox
def test_total_time_limit_stops_the_notebook(assignment, tmp_path):
    # Five cells of 1.8 s under a 4 s total: without the total limit the solution after
    # them would run and score full marks, however slow the machine.
    limits = LIMITS.replace(total_timeout=4.0)
    cells = ["import time\ntime.sleep(1.8)\n"] * 5 + code_cells(EX_BINARY / "solution.ipynb")
    result = grade(assignment, cells, tmp_path, limits=limits)
    assert result.total == 0 and "total time limit" in result.reason


@pytest.mark.sandbox
def test_answers_defined_before_the_total_limit_still_count(assignment, tmp_path):
    """Later cells that use up the total time limit stop the notebook there, and the
    answers defined before them are still checked: the probes have time of their own."""
    limits = Limits(**{**HONEST_LIMITS, "total_timeout": 40})
    cells = code_cells(EX_BINARY / "solution.ipynb") + ["import time\ntime.sleep(10**6)\n"] * 3
    result = grade(assignment, cells, tmp_path, limits=limits)
    assert result.status == "graded"
    assert "total time limit" in result.reason, result.reason
    assert result.total == FULL, result.reason


# --- recursion, memory, processes, output ----------------------------------------------


@pytest.mark.sandbox
def test_deep_recursion_that_crashes_the_kernel(assignment, tmp_path):
    crash = ("import sys\nsys.setrecursionlimit(10**8)\n"
             "def f(n):\n    return f(n + 1) + 1\nf(0)\n")
    result = grade(assignment, solution_plus(crash, at=4), tmp_path)
    assert result.total == FULL
    assert "cell 5" in result.reason


@pytest.mark.sandbox
def test_plain_deep_recursion(assignment, tmp_path):
    cells = solution_plus("def g(n):\n    return g(n + 1)\ng(0)\n", at=4)
    assert grade(assignment, cells, tmp_path).total == FULL


@pytest.mark.sandbox
def test_memory_bomb_hits_the_limit(assignment, tmp_path):
    bombs = ["x = bytearray(64 * 2**30)\n",
             "def grow():\n    chunks = []\n    while True:\n"
             "        chunks.append(bytearray(32 * 2**20))\ngrow()\n",
             "import numpy as np\ny = np.ones((200000, 200000))\n"]
    # Time limits far beyond what the bombs need even on a loaded machine, and a memory
    # limit the growing bomb reaches within 16 steps: only the memory limit can stop them.
    limits = LIMITS.replace(cell_timeout=120, total_timeout=600, memory_mb=512)
    result = grade(assignment, solution_plus(*bombs, at=3), tmp_path, limits=limits)
    assert result.total == FULL
    assert "timed out" not in result.reason


@pytest.mark.sandbox
def test_fork_limit_is_enforced(tmp_path):
    """The mechanism, bounded: children that sleep; the count stops below max_procs."""
    box = Sandbox(LIMITS)
    try:
        box.start()
        code = ("import os, time\nn_forks = 0\nfor _ in range(200):\n    try:\n"
                "        pid = os.fork()\n    except OSError:\n        break\n"
                "    if pid == 0:\n        time.sleep(60)\n        os._exit(0)\n"
                "    n_forks += 1\n")
        assert box.execute(code, 10).status == "ok"
        reply = box.execute("", 5, {"n": "n_forks"}, silent=True)
        n_forks = int(reply.user_expressions["n"]["data"]["text/plain"])
        assert 0 < n_forks < LIMITS.max_procs
        children = [p for p in _descendants_of(box.child)]
        assert len(children) >= n_forks
    finally:
        box.close()
    assert not any(os.path.exists(f"/proc/{p}") and _read_state(p) != "Z" for p in children)


def _read_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


@pytest.mark.slow
@pytest.mark.sandbox
def test_fork_bomb(assignment, tmp_path):
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    result = grade(assignment, solution_plus(bomb, at=3), tmp_path)
    assert result.total == FULL


@pytest.mark.sandbox
def test_100_mb_of_output(assignment, tmp_path):
    flood = ["print('x' * 100_000_000)\n",
             "import sys\nfor _ in range(100):\n    sys.stdout.write('y' * 1_000_000)\n",
             "import os\nos.write(1, b'z' * 10_000_000)\nos.write(2, b'z' * 10_000_000)\n"]
    result = grade(assignment, solution_plus(*flood, at=3), tmp_path)
    assert result.total == FULL


@pytest.mark.sandbox
def test_huge_exception_message(assignment, tmp_path):
    cells = solution_plus("raise ValueError('e' * 50_000_000)\n", at=3)
    result = grade(assignment, cells, tmp_path)
    assert result.status == "graded" and result.total == FULL, result.reason


@pytest.mark.sandbox
def test_huge_exception_message_is_cut_and_read(assignment, tmp_path):
    """A 50 MB exception message raised by the cell that defines an answer: the link
    cuts the reply's long strings, the grading process reads a reply of bounded size, the
    answer counts and the note shows the start of the error. The cells have time enough
    for the kernel to send a reply of 100 MB (message and traceback)."""
    before = _peak_rss_mib()
    cells = code_cells(EX_BINARY / "solution.ipynb")
    at = next(i for i, c in enumerate(cells) if c.startswith("useless_feature ="))
    cells[at] += "\nraise ValueError('e' * 50_000_000)\n"
    result = grade(assignment, cells, tmp_path, limits=LIMITS.replace(cell_timeout=60))
    assert result.status == "graded" and result.total == FULL, result.reason
    assert _peak_rss_mib() - before < 200  # a whole reply, read and decoded, is 200 MB
    note = (f"q6: the cell that defines useless_feature (code cell {at + 1}) failed with "
            f"ValueError: eeeeeeeeee")
    assert note in result.reason and len(result.reason) < 400, result.reason


@pytest.mark.sandbox
def test_disk_filling_is_bounded(assignment, tmp_path):
    fill = ("with open('big.bin', 'wb') as f:\n"
            "    for _ in range(1000):\n        f.write(b'0' * 2**20)\n")
    assert grade(assignment, solution_plus(fill, at=3), tmp_path).total == FULL


# --- exits and kills -------------------------------------------------------------------


@pytest.mark.parametrize("code", [
    "import os\nos._exit(0)\n",
    "import sys\nsys.exit(0)\n",
    "exit()\n",
    "quit()\n",
    "get_ipython().ask_exit()\n",
    "import time\nget_ipython().exit_now = True\ntime.sleep(0.5)\n",
    "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
    "raise SystemExit('bye')\n",
    "raise KeyboardInterrupt\n",
], ids=["os._exit", "sys.exit", "exit", "quit", "ask_exit", "exit_now", "kill-self", "killpg", "SystemExit", "KeyboardInterrupt"])
@pytest.mark.sandbox
def test_exits_and_self_kills_cost_nothing(code, assignment, tmp_path):
    result = grade(assignment, solution_plus(code, at=3), tmp_path)
    assert result.status == "graded"
    assert result.total == FULL


@pytest.mark.sandbox
def test_exit_in_every_cell_scores_what_remains(assignment, tmp_path):
    cells = [c + "\nimport os\nos._exit(1)\n" for c in code_cells(EX_BINARY / "solution.ipynb")]
    result = grade(assignment, cells, tmp_path)
    assert result.status == "graded"
    assert result.total < FULL  # the kernel never survives long enough to be checked fully


@pytest.mark.sandbox
def test_killing_the_grader_fails(assignment, tmp_path):
    kill = ("import os, signal, time\nfor pid in range(1, 400):\n    try:\n"
            "        if pid != os.getpid():\n            os.kill(pid, signal.SIGSTOP)\n"
            "    except OSError:\n        pass\n"
            "while True:\n    time.sleep(0.01)\n")
    # the cell stops what it can reach in its sandbox, its own kernel included, and waits
    # until that stop reaches the thread running it: a stop sent to another of the kernel's
    # threads takes effect once that thread is scheduled, which on a loaded machine can be
    # after a cell that returned at once had sent its reply (the next cell would then time
    # out in its place). So the cell times out and the kernel is restarted and replayed; the
    # probes after that restart get time to spare on a loaded machine (what is tested is the
    # grader's survival, not its speed)
    result = grade(assignment, solution_plus(kill, at=3), tmp_path,
                   limits=LIMITS.replace(probe_timeout=6))
    assert result.total == FULL, result.reason
    assert _read_state(os.getpid()) in ("R", "S")


# --- the notebook file itself ----------------------------------------------------------


@pytest.mark.sandbox
def test_deleted_test_cells_and_edited_metadata_change_nothing(assignment, tmp_path):
    cells = [c for c in code_cells(EX_BINARY / "solution.ipynb") if not c.startswith("check(")]
    metadata = {"nbgrader": {"grade": True, "points": 100}, "nbcourse": {"score": 10},
                "kernelspec": {"name": "bash", "language": "bash", "display_name": "Bash"}}
    assert grade(assignment, cells, tmp_path, metadata=metadata).total == FULL
    student = [c for c in code_cells(student_path(EX_BINARY)) if not c.startswith("check(")]
    assert grade(assignment, student, tmp_path, name="s2", metadata=metadata).total == 0


@pytest.mark.sandbox
@pytest.mark.parametrize("content", [
    b"{not json", b"\xff\xfe\x00\x01garbage", b"{\"cells\": 3, \"nbformat\": 4}",
    b"{\"nbformat\": 3, \"worksheets\": [{\"cells\": []}]}", b"",
    b"[" * 100_000 + b"]" * 100_000,
    json.dumps({"nbformat": 4, "cells": [{"cell_type": "code", "source": 42}]}).encode(),
    json.dumps({"nbformat": 4, "cells": ["not a cell"]}).encode(),
    "{\"nbformat\": 4, \"cells\": []}".encode("utf-16"),
], ids=["json", "binary", "cells-int", "nbformat3", "empty", "deep", "source-int",
        "cell-str", "utf16"])
def test_malformed_notebooks_get_a_row_with_a_reason(content, assignment, tmp_path):
    path = tmp_path / "bad.ipynb"
    path.write_bytes(content)
    result = grade_notebook(assignment, path, LIMITS)
    assert result.status == "invalid"
    assert result.reason and result.total == 0
    assert set(result.scores) == {q.name for q in assignment.questions}


@pytest.mark.sandbox
def test_one_bad_submission_never_stops_the_batch(tmp_path):
    subs = []
    for i, content in enumerate([b"\xff", None, b"{}", None]):
        path = tmp_path / f"s{i}.ipynb"
        if content is None:
            notebook(solution_plus("import os\nos._exit(0)\n", at=2), path)
        else:
            path.write_bytes(content)
        subs.append(path)
    lines = []
    results = grade_batch(EX_BINARY, subs, tmp_path / "out", workers=2, limits=LIMITS,
                          progress=lines.append)
    assert [r.status for r in results] == ["invalid", "graded", "invalid", "graded"]
    assert [r.total for r in results] == [0, FULL, 0, FULL]
    assert len(lines) == 4


# --- sandboxes launched ahead ----------------------------------------------------------


class _Recorded(Spares):
    """Spares that keep each sandbox they hand out."""

    def __init__(self, *args):
        super().__init__(*args)
        self.taken = []

    def take(self):
        box = super().take()
        self.taken.append(box)
        return box


def _spares(assignment, limits=LIMITS):
    from nbcourse.grading.sandbox import isolation

    return _Recorded(limits, isolation().tree_limits, probe_seconds(assignment.questions, limits))


# the solution's answers, left for whoever runs next: in the scratch directory, in the
# kernel's namespace and in a process that outlives the cell
LEAVE_ANSWERS = """
import json, os, subprocess, sys
answers = {n: globals()[n] for n in ("prior1_for_omega2", "useless_feature")}
with open("/tmp/answers.json", "w") as f:
    json.dump(answers, f)
LEFT = answers
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
"""
TAKE_ANSWERS = """
import json, os
found = []
if os.path.exists("/tmp/answers.json"):
    found.append("file")
    globals().update(json.load(open("/tmp/answers.json")))
if "LEFT" in globals():
    found.append("namespace")
    globals().update(LEFT)
if any(b"sleep(600)" in open(f"/proc/{p}/cmdline", "rb").read()
       for p in os.listdir("/proc") if p.isdigit()):
    found.append("process")
    prior1_for_omega2, useless_feature = 0.45, 1
"""


@pytest.mark.sandbox
def test_a_sandbox_launched_ahead_holds_nothing_of_the_previous_submission(assignment,
                                                                           tmp_path):
    spares = _spares(assignment)
    spares.wanted = True
    try:
        first = grade_notebook(assignment, notebook(solution_plus(LEAVE_ANSWERS),
                                                    tmp_path / "a.ipynb"),
                               LIMITS, allow_per_process_limits=True, spares=spares)
        assert first.total == FULL, first.reason
        waiting = spares.spare
        assert waiting is not None and waiting.alive()  # launched while the first one ran
        # the leaving-behind works within one kernel: the test can fail
        same = grade(assignment, solution_plus(
            LEAVE_ANSWERS, "del prior1_for_omega2, useless_feature", TAKE_ANSWERS), tmp_path)
        assert same.total == FULL, same.reason
        # the notebook answers the two questions only with what it finds left behind
        nothing = [c for c in student_plus() if "prior1_for_omega2 = ..." not in c
                   and "useless_feature = ..." not in c]
        second = grade_notebook(assignment, notebook(nothing + [TAKE_ANSWERS],
                                                     tmp_path / "b.ipynb"),
                                LIMITS, allow_per_process_limits=True, spares=spares)
        assert spares.taken[1] is waiting and spares.taken[0] is not waiting
        assert second.scores["q5"] == second.scores["q6"] == 0, second.feedback
        assert spares.spare is not None and spares.spare is not waiting
    finally:
        spares.close()  # a sandbox launched and never started leaves nothing either


@pytest.mark.sandbox
def test_a_sandbox_launched_ahead_that_stopped_is_replaced(assignment, tmp_path):
    spares = _spares(assignment)
    spares.wanted = True
    try:
        path = notebook(solution_plus(), tmp_path / "a.ipynb")
        assert grade_notebook(assignment, path, LIMITS, allow_per_process_limits=True,
                              spares=spares).total == FULL
        spares.spare.proc.kill()
        spares.spare.proc.wait()
        spares.wanted = False
        result = grade_notebook(assignment, path, LIMITS, allow_per_process_limits=True,
                                spares=spares)
        assert result.total == FULL, result.reason
        assert spares.taken[1].proc is None and spares.spare is None  # closed; none wanted
    finally:
        spares.close()


# --- the path and the shell ------------------------------------------------------------


@pytest.mark.sandbox
def test_local_numpy_module_in_the_kernel(assignment, tmp_path):
    fake = ("%%writefile numpy.py\nallclose = isclose = lambda *a, **k: True\n"
            "def array(x, *a, **k):\n    return x\nndarray = list\n")
    reload = ("import sys\nfor name in list(sys.modules):\n    if name.split('.')[0] == 'numpy':\n"
              "        del sys.modules[name]\nimport numpy as np\n"
              "def log_odds_weights(p, q):\n    return np.array([1.3862943611198906] * 3)\n")
    assert grade(assignment, student_plus(fake, reload), tmp_path).total == 0


@pytest.mark.sandbox
def test_local_numpy_module_does_not_break_honest_work(assignment, tmp_path):
    fake = "%%writefile numpy.py\nraise ImportError('shadowed')\n"
    assert grade(assignment, solution_plus(fake), tmp_path).total == FULL


@pytest.mark.sandbox
def test_shell_escapes_score_zero(assignment, tmp_path):
    shell = [
        "!cat /etc/passwd | head -3\n!find / -name solution.ipynb -not -path '/proc/*' 2>/dev/null | head\n",
        "%%bash\necho '{\"score\": 10}' > results.json\n"
        "echo '{\"score\": 10}' > /autograder/results/results.json 2>/dev/null\n"
        "kill -9 $PPID 2>/dev/null\nsleep 100 &\n",
        "files = !find / -path '*02-binary-discriminant/solution.ipynb' -not -path '/proc/*' 2>/dev/null\n"
        "import json\nfor path in files:\n    try:\n        nb = json.load(open(path))\n"
        "        for cell in nb['cells']:\n            src = ''.join(cell['source'])\n"
        "            if cell['cell_type'] == 'code' and 'check(' not in src:\n"
        "                exec(src)\n    except Exception:\n        pass\n",
    ]
    result = grade(assignment, student_plus(*shell), tmp_path)
    assert result.total == 0


@pytest.mark.sandbox
def test_shell_escapes_in_honest_work(assignment, tmp_path):
    cells = solution_plus("!echo hello\n", "%%bash\nls > /dev/null\n", at=2)
    assert grade(assignment, cells, tmp_path).total == FULL


@pytest.mark.sandbox
def test_signals_to_the_kernel_process_group_are_contained(assignment, tmp_path):
    cells = solution_plus("import os, signal\nos.kill(0, signal.SIGTERM)\n", at=3)
    assert grade(assignment, cells, tmp_path).total == FULL
    assert signal.getsignal(signal.SIGTERM) is not None  # this process was not touched




# --- the sandbox: nothing outside it can be reached ------------------------------------

LEVELS = ["tree-limits", "per-process-limits"]


@pytest.fixture(params=LEVELS)
def level(request, monkeypatch):
    """Each isolation level this machine supports, in this process: the sandbox with
    whole-tree (cgroup) limits, and the sandbox with per-process limits only."""
    from nbcourse.grading import sandbox

    found = sandbox.isolation()
    if not found.sandbox:
        pytest.skip("bubblewrap cannot create sandboxes here: " + "; ".join(found.problems))
    if request.param == "tree-limits" and not found.tree_limits:
        pytest.skip("no writable cgroup here: " + "; ".join(found.problems))
    if request.param == "per-process-limits":
        monkeypatch.setattr(sandbox, "isolation",
                            lambda: sandbox.Isolation(True, False, ("test",)))
    return request.param


def _value(box, expression):
    reply = box.execute("", 10, {"v": expression}, silent=True)
    assert reply.status == "ok", reply
    return reply.user_expressions["v"]["data"]["text/plain"]


def test_nothing_outside_the_sandbox_is_reachable(level, tmp_path):
    import socket
    import subprocess
    import sys

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    abstract = socket.socket(socket.AF_UNIX)
    abstract_name = f"nbgrade-test-{os.getpid()}"
    abstract.bind("\0" + abstract_name)
    abstract.listen()
    marker = f"nbgrade-marker-{os.getpid()}"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])
    box = None
    try:
        while marker not in open(f"/proc/{other.pid}/cmdline").read():
            time.sleep(0.01)
        out = tmp_path / "out"
        out.mkdir()
        code = ESCAPES.format(abstract=abstract_name, marker=marker,
                              repo=str(EX_BINARY.parents[1]), solution=str(EX_BINARY / "solution.ipynb"),
                              out=str(out), subs=str(tmp_path), port=server.getsockname()[1])
        # the attempts work outside the sandbox: the test can fail
        outside = {}
        exec(code, outside)
        assert {"repository", "solution", "outputs", "tcp", "abstract-socket", "cmdline",
                "other-processes", "etc"} <= set(outside["escaped"])
        box = Sandbox(LIMITS, tree_limits=level == "tree-limits")
        box.start()
        assert box.execute(code, 20).status == "ok"
        assert _value(box, "escaped") == "[]"
        assert _value(box, "os.getuid() != 0 and os.getcwd()") == "'/tmp'"
    finally:
        if box is not None:
            box.close()
        other.kill()
        other.wait()
        server.close()
        abstract.close()


@pytest.mark.sandbox
def test_memory_limit_covers_the_whole_process_tree(tmp_path):
    """Four children of 300 MiB each under a 600 MiB limit: at most one keeps its memory."""
    from nbcourse.grading.sandbox import isolation

    if not isolation().tree_limits:
        pytest.skip("no writable cgroup here: " + "; ".join(isolation().problems))
    limits = LIMITS.replace(memory_mb=600, cell_timeout=300)
    box = Sandbox(limits)
    try:
        box.start()
        reply = box.execute(MEMORY_SPLIT.format(n=4, mb=300), 300)
        if reply.status == "ok":
            assert int(_value(box, "held")) <= 1
        else:  # the OOM killer may pick the kernel itself
            assert reply.status == "dead"
    finally:
        box.close()


@pytest.mark.sandbox
def test_cpu_limit_covers_children_in_their_own_sessions(tmp_path):
    from nbcourse.grading.sandbox import isolation

    if not isolation().tree_limits:
        pytest.skip("no writable cgroup here: " + "; ".join(isolation().problems))
    box = Sandbox(LIMITS.replace(cell_timeout=20))
    try:
        box.start()
        assert box.execute(CPU_SPLIT.format(n=3, seconds=2.0), 20).status == "ok"
        used = float(_value(box, "cpu_used"))
        assert 0 < used <= 2.0 * 1.3  # one CPU for the whole tree, not one per session
    finally:
        box.close()


def test_filling_the_scratch_directory_leaves_nothing_behind(level, assignment, tmp_path,
                                                            monkeypatch):
    import tempfile

    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(host_tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(host_tmp))
    result = grade(assignment, solution_plus(FILL_SCRATCH, at=3), tmp_path)
    assert result.total == FULL
    assert not list(tmp_path.rglob("nbfill-*"))
    again = grade(assignment, code_cells(EX_BINARY / "solution.ipynb"), tmp_path, name="next")
    assert again.total == FULL


@pytest.mark.sandbox
def test_huge_forged_repr_is_refused_before_parsing(assignment, tmp_path):
    """A display formatter that turns the probe's reply into millions of characters: under
    the message limit it is refused by size before parsing, over it the link cuts it and
    it is refused all the same."""
    import resource

    limits = LIMITS.replace(total_timeout=15)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for n in (7_000_000, 12_000_000):
        cpu_before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        result = grade(assignment, solution_plus(HUGE_REPR.format(n=n)), tmp_path,
                       name=f"r{n}", limits=limits)
        assert result.total == 0
        # the grader's own processor time, not the clock: parsing millions of characters
        # would cost seconds of it, however idle or busy the machine is
        assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu_before < 5
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 400


def _peak_rss_mib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024


@pytest.mark.parametrize("attack", [dict(n=300, parts=0), dict(n=0, parts=300)],
                         ids=["many-messages", "one-message-of-many-parts"])
def test_flood_of_messages_to_the_grader_is_bounded(attack, level, assignment, tmp_path):
    """2.4 GB sent into the kernel's shell socket, addressed to the grader: the grading
    process's peak memory and processor time stay small, and the submission ends with a
    reason that says why (its answers, all defined before the flood, do not count). The
    flooding cell has time enough to send past the link's limit on a busy machine."""
    import resource

    cpu_before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    before = _peak_rss_mib()
    cells = solution_plus(FLOOD.format(mb=8, **attack), "x = 1\n")
    result = grade(assignment, cells, tmp_path, limits=FLOOD_LIMITS)
    assert _peak_rss_mib() - before < 300  # the memory the flood would take is 2.4 GB
    assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu_before < 10
    assert result.status == "error"
    assert "grading stopped: the kernel sent the grader" in result.reason, result.reason


@pytest.mark.parametrize("attack", ["flood", "spy"])
@pytest.mark.sandbox
def test_gradescope_run_autograder_path(attack, tmp_path):
    """The flood and the hidden-input spy through Gradescope's run_autograder: the flood
    ends with a reason the student sees, the spy sees no hidden input."""
    import subprocess
    import sys
    import zipfile

    from nbcourse.grading.gradescope import build_bundle

    bundle = build_bundle(EX_BINARY, tmp_path / "bundle.zip", limits=FLOOD_LIMITS)
    root = tmp_path / "autograder"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    config = json.loads((root / "source" / "config.json").read_text())
    config["hidden_seconds"] = 2  # the hidden tests' fixed time: short, for a short test
    (root / "source" / "config.json").write_text(json.dumps(config))
    (root / "submission").mkdir()
    cells = (solution_plus(FLOOD.format(mb=8, n=300, parts=0)) if attack == "flood"
             else student_plus(SPY))
    notebook(cells, root / "submission" / "hw.ipynb")
    env = {**os.environ, "NBCOURSE_AUTOGRADER_ROOT": str(root),
           "NBCOURSE_AUTOGRADER_PYTHON": sys.executable}
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], env=env,
                          capture_output=True, text=True, timeout=600, cwd=root / "submission")
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0
    if attack == "flood":
        assert "Status: error" in results["output"]
        assert "the kernel sent the grader" in results["output"]
    else:
        shown = " ".join([results["output"]] + [t["output"] for t in results["tests"]
                                                if t["visibility"] == "visible"])
        assert "ValueError: [" in shown and "0.102223" not in shown
        assert results["visibility"] == "after_published"


SLOW_ON_EVERY_CALL = """
import time
for _name in ("log_odds_weights", "bias", "decide"):
    if _name in globals():
        globals()[_name] = (lambda f: lambda *a, **k: (time.sleep(3), f(*a, **k))[1])(
            globals()[_name])
"""


@pytest.mark.sandbox
@pytest.mark.parametrize("cells", ["honest", "slow"])
def test_the_hidden_tests_take_a_fixed_time(cells, assignment, tmp_path, monkeypatch):
    """Where a student sees how long grading took (Gradescope), the hidden tests' phase
    takes a fixed time whatever the student's code does with their inputs: the phase that
    would end at once (honest work) is padded, one whose functions take longer on the
    hidden inputs is stopped at the budget. Checked by the phase's length, which is at
    least the budget by construction; honest work still scores full marks."""
    from nbcourse.grading import grader

    lengths = []
    extract = grader.extract_answers

    def timed(*args, **kwargs):
        began = time.monotonic()
        try:
            return extract(*args, **kwargs)
        finally:
            lengths.append(time.monotonic() - began)

    monkeypatch.setattr(grader, "extract_answers", timed)
    fixed = 4.0
    code = solution_plus() if cells == "honest" else solution_plus(SLOW_ON_EVERY_CALL)
    result = grade_notebook(assignment, notebook(code, tmp_path / "hw.ipynb"), LIMITS,
                            allow_per_process_limits=True, hidden_seconds=fixed)
    assert len(lengths) == 1 and lengths[0] >= fixed + grader.STOP_SECONDS
    if cells == "honest":
        assert result.total == FULL, result.reason
    else:  # each probe runs into its time limit: the budget, not the probes, ends the phase
        assert result.status == "graded" and result.total < FULL, result.reason


@pytest.mark.sandbox
def test_a_flood_ends_only_its_own_submission(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    notebook(solution_plus(FLOOD.format(mb=8, n=300, parts=0)), subs / "flood.ipynb")
    for i in range(2):
        notebook(solution_plus(), subs / f"honest{i}.ipynb")
    results = grade_batch(EX_BINARY, sorted(subs.iterdir()), tmp_path / "out", workers=1,
                          limits=FLOOD_LIMITS, progress=None, allow_per_process_limits=True)
    by_name = {r.name: r for r in results}
    assert by_name["flood.ipynb"].status == "error"
    assert "the kernel sent the grader" in by_name["flood.ipynb"].reason
    assert [by_name[f"honest{i}.ipynb"].total for i in range(2)] == [FULL, FULL]


def test_replays_count_against_the_total_deadline(level, assignment, tmp_path):
    limits = LIMITS.replace(total_timeout=12, cell_timeout=12)
    many = ["x = 1\n"] * 3000
    cells = code_cells(EX_BINARY / "solution.ipynb") + many + [REPLAY_KILL.format(seconds=10)] + many
    result = grade(assignment, cells, tmp_path, limits=limits)
    # The reason, not the clock, shows that the total limit ended the notebook, replays
    # after the kernel's death included.
    assert "total time limit" in result.reason


# --- a batch that no submission can spoil ----------------------------------------------


# in the grader's environment while a hostile batch runs; no kernel may read it
BATCH_TOKEN = "nbgrade-batch-token-5e1d"
# the answers of the solution, spoilt if any of the escalations before it worked
PRIVILEGE_SHOWN = """
if escalations or cgroup_writes or seen or sum(written.values()) > 64:
    def log_odds_weights(p, q):
        return [0.0] * len(p)
"""


def _hostile_batch(folder):
    """Hostile files and names next to honest work; returns ``{name: total}`` expected
    for the output rows (None: the row must exist with status invalid). Files that only
    test names hold an unreadable notebook, so that no kernel is spent on them."""
    sol = code_cells(EX_BINARY / "solution.ipynb")
    stu = code_cells(student_path(EX_BINARY))
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    notebook(sol, folder / "a" / "hw.ipynb")
    notebook(stu, folder / "b" / "hw.ipynb")
    notebook(stu + [READ_SECRETS], folder / "=HYPERLINK(1).ipynb")
    notebook(sol + [FLOOD.format(mb=8, n=300, parts=0)], folder / "flood.ipynb")
    notebook(stu + [SPY], folder / "spy.ipynb")
    notebook(sol + ["\n".join(PATHOLOGICAL)], folder / "spaces.ipynb")
    for name in ("hw-2.ipynb", "grades.csv.ipynb", "...ipynb", "\x1b[2K\x1b[1Aevil.ipynb"):
        (folder / name).write_text("{}")
    (folder / "link.ipynb").symlink_to(EX_BINARY / "solution.ipynb")
    (folder / "null.ipynb").symlink_to("/dev/null")
    (folder / "zero.ipynb").symlink_to("/dev/zero")
    os.mkfifo(folder / "fifo.ipynb")
    big = {"nbformat": "x" * 19_000_000, "cells": []}
    (folder / "big.ipynb").write_text(json.dumps(big))
    notebook(sol + [ESCALATIONS, CGROUP_WRITES, READ_ENVIRONMENTS.format(secret=BATCH_TOKEN),
                    FILL_EVERYWHERE.format(mb=80), PRIVILEGE_SHOWN], folder / "privilege.ipynb")
    return {"privilege.ipynb": FULL, "a/hw.ipynb": FULL, "b/hw.ipynb": 0, "%3D%48%59%50%45%52%4C%49%4E%4B%281%29.ipynb": 0,
            "flood.ipynb": ("error", 0), "spy.ipynb": 0, "spaces.ipynb": FULL,
            "hw-2.ipynb": None, "grades.csv.ipynb": None, "%2E..ipynb": None,
            "%1B%5B2%4B%1B%5B1%41evil.ipynb": None, "link.ipynb": None, "null.ipynb": None,
            "zero.ipynb": None, "fifo.ipynb": None, "big.ipynb": None}


def _check_batch(folder, out, stdout, expected):
    import csv

    with open(out / "grades.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    by_name = {r["submission"].lstrip("'"): r for r in rows}
    assert len(rows) == len(by_name) == len(expected)  # one row each, names injective
    assert set(by_name) == set(expected)
    for name, total in expected.items():
        row = by_name[name]
        if total is None:
            assert row["status"] == "invalid" and float(row["total"]) == 0, (name, row)
        elif isinstance(total, tuple):  # (status, total)
            assert (row["status"], float(row["total"])) == total, (name, row)
        else:
            assert row["status"] == "graded" and float(row["total"]) == total, (name, row)
        assert json.loads((out / name / "results.json").read_text())["score"] == \
            float(row["total"])
    assert "the kernel sent the grader" in by_name["flood.ipynb"]["reason"]
    spy = json.loads((out / "spy.ipynb" / "results.json").read_text())
    shown = " ".join(t["output"] for t in spy["tests"] if t["visibility"] == "visible")
    assert "ValueError: [" in shown and "0.102223" not in shown  # no hidden input
    formula = [r for r in rows if r["submission"].lstrip("'").startswith("%3D")]
    assert all(not r["submission"].startswith(("=", "+", "-", "@")) for r in rows)
    assert formula and all(len(r["reason"]) <= 2000 for r in rows)
    assert "\x1b" not in stdout and "\x1b" not in (out / "grades.csv").read_text()
    inside = {p.resolve() for p in out.rglob("*")}
    assert all(out.resolve() in p.parents for p in inside)
    assert not list(folder.parent.glob("results.json*"))  # nothing outside --out
    assert not [p for p in out.rglob("*.tmp")]


LEVEL_COMMANDS = {
    "root": lambda cmd: cmd,
    "root-without-cap-sys-admin": lambda cmd: ["capsh", "--drop=cap_sys_admin", "--", "-c",
                                               shlex.join(cmd)],
    "per-process-limits": lambda cmd: cmd + ["--allow-per-process-limits"],
}


@pytest.mark.parametrize("level_name", list(LEVEL_COMMANDS))
@pytest.mark.sandbox
def test_hostile_batch_at_every_level(level_name, tmp_path):
    import subprocess
    import sys

    if os.geteuid() != 0:
        pytest.skip("the root levels need root")
    if level_name == "root-without-cap-sys-admin" and not shutil.which("capsh"):
        pytest.skip("capsh (Debian libcap2-bin) is not installed")
    subs = tmp_path / "subs"
    subs.mkdir()
    expected = _hostile_batch(subs)
    out = tmp_path / "out"
    cmd = [sys.executable, "-P", "-m", "nbcourse", "grade", "--assignment", str(EX_BINARY),
           "--out", str(out), "--workers", "2", "--cell-timeout", "20", "--total-timeout", "90",
           "--memory-mb", "1024", str(subs)]
    env = {**os.environ, "PYTHONPATH": str(EX_BINARY.parents[1]),  # this checkout
           "NBCOURSE_TEST_TOKEN": BATCH_TOKEN}
    if level_name == "per-process-limits":
        env["NBCOURSE_GRADING_TREE_LIMITS"] = "0"
        refused = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        assert refused.returncode == 2
        assert "--allow-per-process-limits" in refused.stderr and not out.exists()
    proc = subprocess.run(LEVEL_COMMANDS[level_name](cmd), capture_output=True, text=True,
                          env=env, timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    _check_batch(subs, out, proc.stdout, expected)


# --- the grader run by a normal user -------------------------------------------------------

# Run in a private mount namespace made for one command: a mode-0755 tmpfs hides the folder
# other users cannot enter (e.g. /root), with the folders the grader needs (the Python
# installation, the checkout) bound back at their own paths; then the command runs as the user.
# Nothing changes outside the namespace, which ends with the command.
AS_USER = r"""set -e
hidden=$1; stage=$2; shift 2
if [ -n "$hidden" ]; then mount -t tmpfs -o mode=0755,size=1m nbgrade "$stage"; fi
while [ "$1" != "--" ]; do
    mkdir -p "$stage${1#"$hidden"}"
    mount --rbind "$1" "$stage${1#"$hidden"}"
    shift
done
shift
if [ -n "$hidden" ]; then mount --move "$stage" "$hidden"; fi
exec "$@"
"""


def _hidden_folder(paths):
    """The outermost folder above any of ``paths`` that other users cannot enter, and the
    folders directly inside it on the way to ``paths`` (to be kept visible)."""
    for path in paths:
        for folder in reversed(Path(path).parents):
            if not os.stat(folder).st_mode & 0o001:
                keep = {folder / Path(p).relative_to(folder).parts[0] for p in paths
                        if folder in Path(p).parents}
                return folder, sorted(keep)
    return None, []


@pytest.fixture
def normal_user():
    """A user created for this test, a folder it owns, and how to run a command as it."""
    import pwd
    import subprocess
    import sys
    import tempfile

    if os.geteuid() != 0:
        pytest.skip("creating a user needs root")
    missing = [t for t in ("useradd", "userdel", "unshare", "setpriv") if not shutil.which(t)]
    if missing:
        pytest.skip(f"creating and becoming a user needs {', '.join(missing)} (util-linux, "
                    f"passwd)")
    user = f"nbgr{os.getpid()}"
    made = subprocess.run(["useradd", "--no-create-home", "--user-group", "--shell",
                           "/usr/sbin/nologin", user], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"useradd cannot create a user here ({made.stderr.strip()[-200:]})")
    entry = pwd.getpwnam(user)
    work = Path(tempfile.mkdtemp(prefix="nbgrade-user-"))
    try:
        (work / ".stage").mkdir()
        os.chown(work, entry.pw_uid, entry.pw_gid)
        hidden, keep = _hidden_folder([os.path.realpath(sys.base_prefix),
                                       os.path.realpath(sys.prefix), str(EX_BINARY.parents[1])])
        prefix = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                  AS_USER, "sh", str(hidden or ""), str(work / ".stage"), *map(str, keep),
                  "--", "setpriv", "--reuid", user, "--regid", user, "--init-groups",
                  "--inh-caps=-all", "--bounding-set=-all", "--"]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work),
               "LANG": "C.UTF-8", "PYTHONPATH": str(EX_BINARY.parents[1]),  # this checkout
               "NBCOURSE_TEST_TOKEN": BATCH_TOKEN}
        probe = subprocess.run(
            prefix + [sys.executable, "-P", "-c", "import json, nbcourse.grading.sandbox as s;"
                      "f = s.isolation(); print(json.dumps([f.sandbox, f.tree_limits, "
                      "f.problems]))"],
            capture_output=True, text=True, env=env, timeout=60)
        if probe.returncode != 0:
            pytest.skip(f"a user cannot run {sys.executable} with the checkout here, even in "
                        f"a mount namespace ({probe.stderr.strip()[-300:]})")
        sandbox, tree_limits, problems = json.loads(probe.stdout)
        yield {"user": user, "uid": entry.pw_uid, "gid": entry.pw_gid, "work": work,
               "prefix": prefix, "env": env, "sandbox": sandbox, "tree_limits": tree_limits,
               "problems": problems}
    finally:
        _kill_user_processes(entry.pw_uid)  # e.g. a batch stopped by an attack that worked
        deadline = time.monotonic() + 60  # userdel refuses while processes of the user run
        while subprocess.run(["userdel", user], capture_output=True).returncode == 8 and \
                time.monotonic() < deadline:
            time.sleep(0.2)
        shutil.rmtree(work, ignore_errors=True)


def _kill_user_processes(uid):
    """SIGKILL every process whose real uid is ``uid`` (a user created by the test)."""
    for _ in range(50):
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/status") as f:
                    uids = next(line for line in f if line.startswith("Uid:")).split()
            except (OSError, StopIteration):
                continue
            if int(uids[1]) == uid:
                found.append(int(pid))
        if not found:
            return
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.1)


def _give(folder, owner):
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, owner["uid"], owner["gid"])


def _forged_line(name):
    return json.dumps({"name": name, "scores": {"q1": FULL}, "max_scores": {"q1": FULL},
                       "status": "graded", "reason": "", "seconds": 0.0, "feedback": {}})


def test_worker_attack_works_outside_the_sandbox(normal_user):
    """As the grading user but outside the sandbox, WORKER_ATTACK reaches a process of that
    user: it writes into its pipe, traces and stops it, and runs a neighbour's solution.
    So the attack can fail the normal-user batch below if the sandbox lets it through."""
    import subprocess
    import sys

    work = normal_user["work"]
    notebook(code_cells(EX_BINARY / "solution.ipynb"), work / "neighbour.ipynb")
    _give(work, normal_user)
    marker = f"nbgrade-decoy-{os.getpid()}"
    # a process of the user writing into a pipe of its own (as a worker does), forwarded here
    decoy = subprocess.Popen(
        ["setpriv", "--reuid", normal_user["user"], "--regid", normal_user["user"],
         "--init-groups", "--", "/bin/sh", "-c", "{ while :; do sleep 1; done; } | cat", marker],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, start_new_session=True)
    try:
        code = WORKER_ATTACK.format(marker=marker, forged=_forged_line("thief"),
                                    neighbour=str(work / "neighbour.ipynb"))
        code += "\nprint(json.dumps([reached, callable(globals().get('bias'))]))\n"
        deadline = time.monotonic() + 60
        while marker not in _read_cmdline(decoy.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        attack = subprocess.run(normal_user["prefix"] + [sys.executable, "-P", "-c", code],
                                capture_output=True, text=True, env=normal_user["env"],
                                timeout=60)
        assert attack.returncode == 0, attack.stderr[-2000:]
        reached, solved = json.loads(attack.stdout.splitlines()[-1])
        kinds = {r.split()[0] for r in reached}
        assert {"saw", "wrote", "traced", "stopped"} <= kinds, reached
        assert "read neighbour" in reached and solved
        assert _line_within(decoy.stdout, 10) == (_forged_line("thief") + "\n").encode(), reached
    finally:
        os.killpg(decoy.pid, signal.SIGKILL)  # the stopped shells and cat
        decoy.wait()
        decoy.stdout.close()


def _read_cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def test_normal_user_level(normal_user):
    """The grader run by an unprivileged user created here: the hostile batch, plus a
    kernel that attacks the grading processes of its own uid and a neighbour's notebook."""
    import subprocess
    import sys

    if not normal_user["sandbox"]:
        pytest.skip("bubblewrap cannot create sandboxes as a normal user here (unprivileged "
                    "user namespaces unavailable?): " + "; ".join(normal_user["problems"]))
    work = normal_user["work"]
    subs = work / "subs"
    subs.mkdir()
    expected = _hostile_batch(subs)
    notebook(student_plus(WORKER_ATTACK.format(
        marker="nbcourse", forged=_forged_line("thief.ipynb"),
        neighbour=str(subs / "a" / "hw.ipynb"))), subs / "thief.ipynb")
    expected["thief.ipynb"] = 0
    _give(work, normal_user)
    out = work / "out"
    cmd = normal_user["prefix"] + [
        sys.executable, "-P", "-m", "nbcourse", "grade", "--assignment", str(EX_BINARY), "--out",
        str(out), "--workers", "2", "--cell-timeout", "20", "--total-timeout", "90", str(subs)]
    if not normal_user["tree_limits"]:
        refused = subprocess.run(cmd, capture_output=True, text=True, env=normal_user["env"],
                                 timeout=120)
        assert refused.returncode == 2, refused.stderr[-2000:]
        assert "--allow-per-process-limits" in refused.stderr and not out.exists()
        cmd.append("--allow-per-process-limits")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=normal_user["env"],
                          timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    _check_batch(subs, out, proc.stdout, expected)


@pytest.mark.sandbox
def test_stopping_the_batch_leaves_no_sandbox_running(tmp_path):
    """The batch process killed hard while its kernels spin: workers and sandboxes die."""
    import subprocess
    import sys

    from nbcourse.grading.sandbox import isolation

    if not isolation().tree_limits:
        pytest.skip("counting sandbox processes uses their cgroups: " + "; ".join(
            isolation().problems))
    subs = tmp_path / "subs"
    subs.mkdir()
    for i in range(2):
        notebook(["import os\nfor _ in range(3):\n    os.fork()\nwhile True:\n    pass\n"],
                 subs / f"spin{i}.ipynb")
    cmd = [sys.executable, "-P", "-m", "nbcourse", "grade", "--assignment", str(EX_BINARY), "--out",
           str(tmp_path / "out"), "--workers", "2", "--cell-timeout", "60", str(subs)]
    batch = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    owners, groups = {batch.pid}, set()  # this batch's workers and their sandboxes' cgroups
    try:
        deadline = time.monotonic() + 60
        while len(_in_sandbox_cgroups(groups)) < 8 and time.monotonic() < deadline:
            owners |= set(_descendants_of(batch.pid))
            groups |= _sandbox_groups_of(owners)
            time.sleep(0.2)
        assert len(_in_sandbox_cgroups(groups)) >= 8  # both kernels and their children spin
    finally:
        batch.kill()
        batch.wait()
    # every kernel and every process of a submission dies with its worker; a sandbox that
    # was being set up as the worker died may stay, idle, until the next batch kills it
    groups |= _sandbox_groups_of(owners)
    deadline = time.monotonic() + 60
    while (left := [p for p in _in_sandbox_cgroups(groups) if _comm(p) != "bwrap"]) and (
            time.monotonic() < deadline):
        time.sleep(0.1)
    assert left == []
    from nbcourse.grading.sandbox import TreeLimits

    deadline = time.monotonic() + 60
    while (_in_sandbox_cgroups(groups) or _sandbox_groups_of(owners)) and (
            time.monotonic() < deadline):
        TreeLimits.remove_stale()  # what the next batch does with what was left
        time.sleep(0.1)
    assert _in_sandbox_cgroups(groups) == []
    assert _sandbox_groups_of(owners) == set()


@pytest.mark.sandbox
def test_a_grader_killed_while_a_sandbox_is_set_up_leaves_nothing_running(tmp_path):
    """bwrap binds itself to its parent only after it has forked the sandbox, and that fork
    waits for a word from bwrap before it goes on. A grader that dies in between leaves the
    fork waiting, idle, with nothing of a submission in it; the next batch kills it."""
    dirs = _what_a_dead_grader_printed("from nbcourse.grading.sandbox import Sandbox\n"
                                       "box = Sandbox()\n"
                                       "box.launch()\n"
                                       "print(*box.cgroup.dirs, flush=True)\n")
    left = set()
    deadline = time.monotonic() + 60  # a bound on waiting, not a timing check
    while time.monotonic() < deadline:
        left = {int(p) for d in dirs for p in Path(d, "cgroup.procs").read_text().split()}
        if all(_read_state(p) == "S" for p in left):
            break
        time.sleep(0.1)
    assert {_comm(p) for p in left} <= {"bwrap"}  # no kernel started: nothing of a submission
    _remove_stale_until_gone(dirs)
    assert all(_read_state(p) in ("gone", "Z") for p in left)


def _what_a_dead_grader_printed(code):
    """Run ``code`` in a grading process that then dies at once, leaving its sandbox cgroups
    as a worker killed hard does; return what it printed, split into words."""
    import subprocess
    import sys

    from nbcourse.grading.sandbox import isolation

    if not isolation().tree_limits:
        pytest.skip("no sandbox cgroups here: " + "; ".join(isolation().problems))
    grader = subprocess.run([sys.executable, "-c", code + "import os\nos._exit(0)\n"],
                            capture_output=True, text=True, check=True, timeout=60)
    return grader.stdout.split()


def _remove_stale_until_gone(dirs):
    """What the next batches do: kill what is left and remove the cgroups. A cgroup is
    removed once the processes killed in it have been reaped by their new parent."""
    from nbcourse.grading.sandbox import TreeLimits

    deadline = time.monotonic() + 60  # a bound on waiting, not a timing check
    while any(os.path.isdir(d) for d in dirs) and time.monotonic() < deadline:
        TreeLimits.remove_stale()
    assert not any(os.path.isdir(d) for d in dirs)


def _comm(pid):
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


@pytest.mark.sandbox
def test_the_next_batch_kills_what_a_hard_killed_one_left_in_its_cgroups():
    """Whatever is still in a sandbox cgroup whose grading process is gone is killed, and
    the cgroup removed, when grading next starts (``TreeLimits.remove_stale``)."""
    from nbcourse.grading.sandbox import TreeLimits

    left, *dirs = _what_a_dead_grader_printed(
        "import subprocess\n"
        "from nbcourse.grading.sandbox import Limits, TreeLimits\n"
        "group = TreeLimits(Limits())\n"
        "left = subprocess.Popen(['sleep', '600'], stdout=subprocess.DEVNULL,\n"
        "                        stderr=subprocess.DEVNULL, start_new_session=True)\n"
        "for procs in group.procs_files():\n"
        "    open(procs, 'w').write(str(left.pid))\n"
        "print(left.pid, *group.dirs, flush=True)\n")
    assert _read_state(int(left)) not in ("gone", "Z")  # the case under test
    assert all(os.path.isdir(d) for d in dirs)
    TreeLimits.remove_stale()
    assert _read_state(int(left)) in ("gone", "Z")
    _remove_stale_until_gone(dirs)


def _sandbox_groups_of(owners):
    """Names of the sandbox cgroups (``nbgrade-<pid>-<hex>``) under this process's memory
    cgroup whose grading process is one of ``owners``: those of other grading runs on the
    machine are left out."""
    folder = "/sys/fs/cgroup/memory" + _cgroups_of_this_process().get("memory", "").rstrip("/")
    try:
        names = os.listdir(folder)
    except OSError:
        return set()
    return {n for n in names if n.startswith("nbgrade-") and n.split("-")[1].isdigit()
            and int(n.split("-")[1]) in owners}


def _in_sandbox_cgroups(groups):
    """Processes in the sandbox cgroups named ``groups``."""
    mine = _cgroups_of_this_process().get("memory", "").rstrip("/") + "/"
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cgroup") as f:
                text = f.read()
        except OSError:
            continue
        for line in text.splitlines():
            path = line.split(":", 2)[2] if ":memory:" in line else ""
            if path.startswith(mine) and path[len(mine):].split("/")[0] in groups:
                found.append(int(pid))
    return found


@pytest.mark.sandbox
def test_a_python_installation_under_tmp_stays_visible_and_read_only(tmp_path, monkeypatch):
    """The sandbox mounts its private /tmp first and binds the Python installation over it,
    so a checkout whose environment lies under /tmp (like this test's folder) still grades."""
    import subprocess
    import sys

    from nbcourse.grading import sandbox

    if not sandbox.isolation().sandbox:
        pytest.skip("no sandbox here: " + "; ".join(sandbox.isolation().problems))
    installed = tmp_path / "site"
    installed.mkdir()
    (installed / "marker.py").write_text("VALUE = 42\n")
    assert str(installed).startswith(sandbox.SCRATCH + "/"), "the case under test"
    monkeypatch.setattr(sys, "prefix", str(installed))  # an installation whose prefix is there
    code = (f"import sys; sys.path.insert(0, {str(installed)!r}); import marker; "
            f"print(marker.VALUE, flush=True); open({str(installed / 'new')!r}, 'w')")
    run = sandbox.popen([sys.executable, "-I", "-S", "-c", code], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    out, err = run.communicate(timeout=60)
    assert out.strip() == "42", err[-500:]
    assert "Read-only file system" in err
    assert not (installed / "new").exists()


# --- least privilege: nothing beyond the sandbox's own limits -----------------------------


def _run_outside(code):
    """Run one of the hostile cells in a Python process of this user, outside any sandbox;
    return its namespace (the attack works there: the test can fail)."""
    namespace = {}
    exec(code, namespace)
    return namespace


def _started(level, limits=LIMITS):
    box = Sandbox(limits, tree_limits=level == "tree-limits")
    box.start()
    return box


def test_no_namespaces_mounts_tracing_or_kernel_keys_in_the_sandbox(level):
    """A process of the kernel tries to make user, mount, IPC, UTS, network and PID
    namespaces, to mount a file system in a user namespace of its own, to trace a process
    and to use the kernel's key store: every attempt fails. A user namespace would let it
    mount cgroup file systems and raise its own limits."""
    if os.geteuid() == 0:  # as root every escalation works outside; as a user, most do
        assert {"user-namespace", "mount", "ptrace", "add_key"} <= set(
            _run_outside(ESCALATIONS)["escalations"])
    box = _started(level)
    try:
        assert box.execute(ESCALATIONS, 20).status == "ok"
        assert _value(box, "escalations") == "[]"
    finally:
        box.close()


def _attack_cgroups_left():
    """Cgroups named like the one the attack makes, anywhere under /sys/fs/cgroup (removed:
    the attack removes its own at once, so any found is one it could not)."""
    found = []
    for top, dirs, _ in os.walk("/sys/fs/cgroup"):
        found += [os.path.join(top, d) for d in dirs if d == "nbgrade-attack"]
    for path in sorted(found, key=len, reverse=True):
        os.rmdir(path)
    return found


def test_the_sandbox_cannot_change_any_cgroup(level):
    """Mounting the cgroup hierarchies from a user namespace of its own, the kernel could
    raise its own memory, process and CPU limits, make cgroups, and at a hierarchy's root
    where the grader left it write rules for the whole host (a disk throttle). Nothing of
    that works: the sandbox makes no user namespace, and it sits in a cgroup of its own."""
    box = _started(level)
    try:
        assert box.execute(CGROUP_WRITES, 30).status == "ok"
        assert _value(box, "cgroup_writes") == "[]"
    finally:
        box.close()
        assert _attack_cgroups_left() == []


def test_the_sandbox_sees_nothing_of_the_graders_environment(level, monkeypatch):
    """A value in the grader's environment (a token of a CI runner) is in no process the
    sandbox can read, the sandbox's first process (bubblewrap) included, and bubblewrap
    itself starts without it."""
    secret = f"nbgrade-token-{os.getpid()}"
    monkeypatch.setenv("NBCOURSE_TEST_TOKEN", secret)
    box = _started(level)
    try:
        assert box.execute(READ_ENVIRONMENTS.format(secret=secret), 20).status == "ok"
        assert _value(box, "seen") == "[]"
        bwrap = [p for p in [box.proc.pid, *_descendants_of(box.proc.pid)]
                 if _comm(p) == "bwrap"]
        assert bwrap
        for pid in bwrap:
            with open(f"/proc/{pid}/environ", "rb") as f:
                assert secret.encode() not in f.read()
    finally:
        box.close()


def test_nothing_is_writable_beyond_the_file_cap(level):
    """/dev, /dev/shm and / hold nothing a kernel writes, beyond its scratch directory's
    cap: all it writes anywhere fits in ``file_mb``. What an honest notebook needs of /dev
    (semaphores and shared memory for multiprocessing, /dev/null) still works."""
    import ast

    limits = LIMITS.replace(file_mb=8)
    box = _started(level, limits)
    try:
        assert box.execute(USE_DEV, 30).status == "ok"
        assert _value(box, "dev_ok") == "True"
        assert box.execute(FILL_EVERYWHERE.format(mb=32), 60).status == "ok"
        written = ast.literal_eval(_value(box, "written"))
        assert written["/tmp"] >= 4  # the scratch directory takes what fits
        assert sum(written.values()) <= limits.file_mb, written
    finally:
        box.close()


def _host_uid(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("Uid:")).split()[1])


def test_the_kernel_runs_as_an_unprivileged_host_user(level):
    """Graded by root, the kernel's processes are not root's on the host: the quotas the
    kernel keeps per user (inotify instances, kernel keys, message queues) are not host
    root's, and an inotify instance the grader makes still works while the kernel holds as
    many as it can get."""
    import ctypes

    if os.geteuid() != 0:
        pytest.skip("graded by a normal user, the kernel runs as that user")
    box = _started(level)
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        uids = {_host_uid(p) for p in [box.child, *_descendants_of(box.child)]}
        assert 0 not in uids and len(uids) == 1, uids
        assert box.execute(HOLD_INOTIFY, 30).status == "ok"
        assert int(_value(box, "len(held)")) > 0
        fd = libc.inotify_init1(0)
        assert fd >= 0, os.strerror(ctypes.get_errno())
        os.close(fd)
    finally:
        box.close()


# --- layouts that would put the course inside the sandbox ---------------------------------

LAYOUTS = ["environment-at-course-root", "course-inside-environment", "out-inside",
           "submissions-inside", "roster-inside"]


def _layout(kind, tmp_path):
    """A Python prefix ``env`` and where a careless set-up puts the course around it: the
    assignment, the submissions, the output folder and the roster."""
    env = tmp_path / "env"
    course = {"environment-at-course-root": env,
              "course-inside-environment": env / "course"}.get(kind, tmp_path / "course")
    inside = {"out-inside": "out", "submissions-inside": "subs", "roster-inside": "roster"}
    paths = {}
    for part in ("assignment", "subs", "out", "roster"):
        top = env if inside.get(kind) == part else course
        paths[part] = top / {"assignment": "ex", "roster": "roster.csv"}.get(part, part)
    shutil.copytree(EX_BINARY, paths["assignment"])
    paths["subs"].mkdir(parents=True)
    notebook(student_plus(FIND_SOLUTION), paths["subs"] / "thief.ipynb")
    paths["roster"].parent.mkdir(parents=True, exist_ok=True)
    paths["roster"].write_text("submission,student_id\nthief.ipynb,s1\n")
    (env / "lib").mkdir(parents=True, exist_ok=True)
    return env, paths


@pytest.mark.sandbox
def test_a_bound_python_prefix_shows_the_sandbox_what_it_holds(tmp_path, monkeypatch):
    """Why such layouts are refused: the sandbox binds the Python installation's prefix,
    so whatever lies in it is readable by the kernel (here a solution in a prefix)."""
    import subprocess
    import sys

    from nbcourse.grading import sandbox

    if not sandbox.isolation().sandbox:
        pytest.skip("no sandbox here: " + "; ".join(sandbox.isolation().problems))
    env, paths = _layout("environment-at-course-root", tmp_path)
    monkeypatch.setattr(sys, "prefix", str(env))
    solution = paths["assignment"] / "solution.ipynb"
    code = f"print(len(open({str(solution)!r}).read()))"
    run = sandbox.popen([sys.executable, "-I", "-S", "-c", code], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    out, err = run.communicate(timeout=60)
    assert out.strip() == str(len(solution.read_text())), err[-500:]


@pytest.mark.sandbox
@pytest.mark.parametrize("kind", LAYOUTS)
def test_a_python_prefix_that_holds_the_course_is_refused(kind, tmp_path, monkeypatch):
    """A virtual environment made at the course root (``python -m venv .``), a course
    cloned inside one, or an output folder, submissions or a roster inside the Python
    prefix: grading is refused before any kernel starts or any output is written, with a
    message that says what to do."""
    import sys

    from nbcourse.grading.sandbox import IsolationError
    from nbcourse.grading.variants import read_roster

    env, paths = _layout(kind, tmp_path)
    monkeypatch.setattr(sys, "prefix", str(env))
    subs = sorted(paths["subs"].iterdir())
    with pytest.raises(IsolationError, match="outside") as refused:
        grade_batch(paths["assignment"], subs, paths["out"], workers=1, limits=LIMITS,
                    progress=None, allow_per_process_limits=True,
                    roster=read_roster(paths["roster"]))
    assert str(env) in str(refused.value)
    assert not paths["out"].exists()
    if kind not in ("out-inside", "roster-inside"):  # grade_notebook has neither
        with pytest.raises(IsolationError, match="outside"):
            grade_notebook(paths["assignment"], subs[0], LIMITS, allow_per_process_limits=True)


# --- the grader's own memory ------------------------------------------------------------


def _dense():
    """19 MB of JSON: six million empty lists once parsed."""
    return "[" + "[]," * 6_399_999 + "[]]"


READ_AS_THE_GRADER_DOES = """
import json, sys
from pathlib import Path
from nbcourse.grading.grader import read_code_cells
from nbcourse.grading.files import NotebookError
from nbcourse.grading.written import WrittenExport
path, assignment, out = map(Path, sys.argv[1:4])
try:
    cells = len(read_code_cells(path))
except NotebookError as exc:
    cells = str(exc)
export = WrittenExport(assignment, out)
export.update("dense", path, write=False)
answers = sorted({row["answer"] for row in export.rows.values()})
peak = next(int(line.split()[1]) for line in open("/proc/self/status")
            if line.startswith("VmHWM:")) / 1024
print(json.dumps({"cells": cells, "answers": answers, "peak": peak}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("where", ["metadata", "outputs", "honest-image", "small"])
def test_a_dense_notebook_costs_the_grading_process_little_memory(where, tmp_path):
    """19 MB of empty lists (in the notebook's metadata, or in a cell's outputs) would take
    some 500 MB once parsed. The grading process reads the code cells and the written
    answers of it and stays under 300 MiB: it never holds such a notebook parsed whole (the
    notebook is refused as too complex). A notebook as large whose bulk is one image output
    is read as usual, and so is a dense notebook of 1 MiB (read in the grading process)."""
    import subprocess
    import sys

    from nbcourse.grading.cells import IN_PROCESS_BYTES

    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
          "cells": [{"cell_type": "code", "id": "c0", "metadata": {}, "execution_count": 1,
                     "source": "x = 1\n", "outputs": []},
                    {"cell_type": "markdown", "id": "m0", "metadata": {},
                     "source": "## Question 5\nA written answer."}]}
    text = json.dumps(nb)
    dense = _dense()
    small = "[" + "[]," * (IN_PROCESS_BYTES // 3 - 200) + "[]]"
    bulk = {"metadata": '{"x": ' + dense + "}", "outputs": dense, "small": small,
            "honest-image": json.dumps([{"output_type": "display_data", "metadata": {},
                                         "data": {"image/png": "iVBO" * 4_800_000}}])}[where]
    marker = '"metadata": {}' if where == "metadata" else '"outputs": []'
    text = text.replace(marker, marker[:-2] + bulk, 1)
    path = tmp_path / "dense.ipynb"
    path.write_text(text)
    if where == "small":
        assert IN_PROCESS_BYTES - 1000 < path.stat().st_size <= IN_PROCESS_BYTES
    else:
        assert path.stat().st_size > 19_000_000
    run = subprocess.run([sys.executable, "-c", READ_AS_THE_GRADER_DOES, str(path),
                          str(EX_BINARY), str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout)
    assert found["peak"] < 300, found
    if where in ("honest-image", "small"):
        assert found["cells"] == 1, found
    else:
        assert "too complex" in found["cells"], found


# --- the system call filter, decided without a kernel --------------------------------------


def _decide(program, arch, nr, arg0=0):
    """What the classic BPF ``program`` returns for a system call (the few opcodes it uses:
    load a word, jump if equal / greater or equal / any bit set, return)."""
    import struct

    ops = [struct.unpack_from("<HBBI", program, i) for i in range(0, len(program), 8)]
    data = struct.pack("<iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = ops[pc]
        if code == 0x20:
            acc = struct.unpack_from("<I", data, k)[0]
        elif code == 0x06:
            return k
        else:
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += jt if taken else jf
        pc += 1


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_filter_denies_namespaces_mounts_tracing_and_keys_only(machine):
    import errno

    from nbcourse.grading import seccomp

    arch, numbers, x32 = seccomp.TABLES[machine]
    program = seccomp.program(machine)
    eperm = seccomp.RET_ERRNO | errno.EPERM
    sigchld, thread = 17, 0x00010000 | 0x00000100 | 0x00000200 | 0x00000400 | 0x00000800
    assert _decide(program, arch, numbers["clone"], sigchld) == seccomp.ALLOW
    assert _decide(program, arch, numbers["clone"], thread) == seccomp.ALLOW
    for flag in (0x10000000, 0x00020000, 0x40000000, 0x20000000, 0x02000000):
        assert _decide(program, arch, numbers["clone"], sigchld | flag) == eperm
        assert _decide(program, arch, numbers["unshare"], flag) == eperm
    assert _decide(program, arch, numbers["unshare"], 0x00000080) == eperm  # CLONE_NEWTIME
    assert _decide(program, arch, numbers["unshare"], 0x00000400) == seccomp.ALLOW  # CLONE_FILES
    assert _decide(program, arch, numbers["clone3"]) == seccomp.RET_ERRNO | errno.ENOSYS
    for name in seccomp.DENIED:
        if name in numbers:
            assert _decide(program, arch, numbers[name]) == eperm, name
    for nr in (0, 1, 2, 3, 9, 39, 60, 63, 202, 231):  # read, write, mmap, futex, exit_group...
        if nr not in numbers.values():
            assert _decide(program, arch, nr) == seccomp.ALLOW, nr
    other = 0x40000003  # AUDIT_ARCH_I386: a 32-bit call is killed, whatever its number
    assert _decide(program, other, 1) == seccomp.KILL_PROCESS
    if x32:
        assert _decide(program, arch, 0x40000000 | 1) == seccomp.KILL_PROCESS
    with pytest.raises(ValueError, match="machine must be one of"):
        seccomp.program("ppc64le")
