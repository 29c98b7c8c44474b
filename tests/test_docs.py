"""The documentation's commands are the project's: every `make` target a page names exists and
`make help` lists it, and the packages the README tells a reader to install are the ones CI
installs."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "exercises" / "README.md",
         ROOT / "instructor" / "README.md"]
MAKE = re.compile(r"(?<![\w./-])make\s+((?:-[-\w]+\s+)*)([a-z][\w-]*)")


def make_targets():
    """Targets named in the Makefile (rules whose name has no variable or pattern)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*)\s*:(?!=)", text, re.M))


def named_targets():
    """``{target: [pages]}`` for every ``make <target>`` inside code in a documentation page."""
    found = {}
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        code = re.findall(r"```.*?```", text, re.S) + re.findall(r"`[^`\n]+`", text)
        for snippet in code:
            for _, target in MAKE.findall(snippet):
                found.setdefault(target, set()).add(page.relative_to(ROOT).as_posix())
    return found


def test_the_pages_name_make_targets():
    assert {"book", "test", "check"} <= set(named_targets())


@pytest.mark.parametrize("target", sorted(named_targets()))
def test_every_make_target_a_page_names_exists_and_make_help_lists_it(target):
    assert target in make_targets(), f"{sorted(named_targets()[target])} name `make {target}`"
    shown = subprocess.run(["make", "--no-print-directory", "help"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout
    assert re.search(rf"^make {re.escape(target)}\b", shown, re.M), f"make help omits {target}"


def _apt_packages(text):
    return {word for line in text for word in line.split() if re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", word)}


def test_the_readme_installs_what_ci_installs():
    """The README's `apt-get install` line names exactly the Debian packages `.ci/run` may
    install (beyond `make`, which the README asks for by itself)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"apt-get install ((?:[^\n]*\\\n)*[^\n]*)", readme)
    assert block, "the README has no apt-get install line"
    told = _apt_packages(block.group(1).replace("\\", " ").splitlines())
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installed = set(re.findall(r"need_apt\+=\(([\w.+-]+)\)", ci))
    for group in re.findall(r"^\w+_pkgs=\(([^)]*)\)", ci, re.M | re.S):
        installed |= set(group.split())
    assert installed - {"make"}, "found no packages in .ci/run"
    assert told == installed - {"make"}
