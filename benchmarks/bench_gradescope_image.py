"""Setup time and size of the Gradescope autograder image: the bundle's ``setup.sh`` run into a
fresh folder with the grader's requirements (``requirements-grader.txt``, what the bundle
ships) and, for comparison, with the whole pinned environment (``requirements.txt``, what the
bundle shipped before). Each image then grades an assignment's solution through the bundle's
``run_autograder``, to show that it grades.

    .venv/bin/python benchmarks/bench_gradescope_image.py [--assignment exercises/02-...]

Needs the package index that pip uses (the packages are downloaded, as on Gradescope, without
a cache) and bubblewrap. Prints, for each image, the seconds ``setup.sh`` took, the size of
its environment (``du -sm``) and the score of the solution.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def requirements(which):
    if which == "grader":
        return (ROOT / "requirements-grader.txt").read_text(encoding="utf-8")
    lines = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return "\n".join(x for x in lines if not x.strip().startswith("-e")) + "\n"


def image(bundle, which, folder, assignment):
    """Unpack the bundle into ``folder`` as Gradescope does, with ``which`` requirements, run
    ``setup.sh``, then grade the solution. Returns (seconds, MiB, score)."""
    source = folder / "source"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(source)
    (source / "requirements.txt").write_text(requirements(which), encoding="utf-8")
    env = {**os.environ, "NBCOURSE_AUTOGRADER_ROOT": str(folder), "PYTHON": sys.executable}
    env.pop("PYTHONPATH", None)
    start = time.monotonic()
    subprocess.run(["bash", str(source / "setup.sh")], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    size = int(subprocess.run(["du", "-sm", str(folder / "venv")], capture_output=True,
                              text=True, check=True).stdout.split()[0])
    (folder / "submission").mkdir()
    (folder / "results").mkdir()
    shutil.copy(assignment / "solution.ipynb", folder / "submission" / "solution.ipynb")
    (folder / "submission_metadata.json").write_text(
        json.dumps({"users": [{"email": "example-student", "sid": None}]}))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder), "NBCOURSE_AUTOGRADER_ROOT": str(folder)}
    subprocess.run(["bash", str(source / "run_autograder")], env=env, check=True,
                   cwd=folder / "submission", stdout=subprocess.DEVNULL)
    score = json.loads((folder / "results" / "results.json").read_text())["score"]
    return seconds, size, score


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assignment", default=str(ROOT / "exercises" / "02-binary-discriminant"))
    parser.add_argument("--only", choices=["grader", "full"], help="measure one image only")
    args = parser.parse_args()
    from nbcourse.grading.gradescope import build_bundle

    assignment = Path(args.assignment).resolve()
    with tempfile.TemporaryDirectory(prefix="nbcourse-image-") as tmp:
        os.chmod(tmp, 0o755)  # the sandboxed kernel runs as another user and uses the venv
        bundle = build_bundle(assignment, Path(tmp) / "bundle.zip")
        for which in [args.only] if args.only else ["grader", "full"]:
            folder = Path(tmp) / which
            seconds, size, score = image(bundle, which, folder, assignment)
            count = sum(1 for line in requirements(which).splitlines()
                        if line.strip() and not line.startswith("#"))
            print(f"{which:6s} {count:3d} packages: setup.sh {seconds:6.1f} s, "
                  f"venv {size:4d} MiB, solution of {assignment.name} scored {score}",
                  flush=True)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
