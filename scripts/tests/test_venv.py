"""scripts/lib/venv.sh's constraints reach clients/python's isolated build, so a fresh machine builds it the same way."""
import pathlib
import re
import tomllib

from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pins(path):
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            found[re.sub(r"[-_.]+", "-", name).lower()] = version
    return found


def test_the_build_backend_of_clients_python_is_pinned_to_a_version_it_accepts():
    constraints = pins(ROOT / "scripts" / "constraints-dev.txt")
    build = tomllib.loads((ROOT / "clients" / "python" / "pyproject.toml").read_text())["build-system"]
    for spec in build["requires"]:
        requirement = Requirement(spec)
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in constraints, f"{name} (clients/python's build-system) is not pinned in constraints-dev.txt"
        assert requirement.specifier.contains(constraints[name]), f"{name}=={constraints[name]} is not {spec}"


def test_the_constraints_go_where_the_isolated_build_reads_them():
    # pip hands PIP_CONSTRAINT to the pip that fills a build environment; a -c option stays with the outer pip.
    script = (ROOT / "scripts" / "lib" / "venv.sh").read_text()
    installs = [line for line in script.splitlines() if "-m pip install" in line]
    assert installs
    for line in installs:
        assert 'PIP_CONSTRAINT="$constraints"' in line and " -c " not in line, line
