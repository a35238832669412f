# Creates or updates a git-ignored virtualenv at the repo root. Run it or source it.
#   scripts/lib/venv.sh        the test virtualenv .venv (moto server, aws-sam-translator, the Python datalake client,
#                              pytest, cfn-lint) from scripts/requirements-dev.txt (constrained by
#                              scripts/constraints-dev.txt: every package's version, dependencies included), and this repository's
#                              clients/python (datalake-aws: signed sessions, datalake-explore); exports
#                              DATALAKE_VENV (which also overrides its location)
#   scripts/lib/venv.sh tools  the template tools .venv-tools (aws-sam-cli, checkov) from
#                              scripts/requirements-tools.txt (constraints-tools.txt); exports DATALAKE_TOOLS_VENV. A separate
#                              virtualenv because the datalake client pins a boto3 that sam rejects.
# The constraints go in PIP_CONSTRAINT, not -c: only the variable reaches pip's isolated build environments (an
# sdist's, clients/python's), so its build backend is pinned too.
# Fast when nothing changed: a stamp file in the venv holds the hash of the requirements and constraints, of the
# python3 version (and of clients/python's sources), and pip runs only when that hash differs.
# Prints one line of progress.

datalake_venv_hash() {
  # Hash of stdin; sha256sum on Linux, shasum on macOS.
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum | cut -d' ' -f1
  else
    shasum -a 256 | cut -d' ' -f1
  fi
}

datalake_venv() {
  local root kind requirements constraints venv python version stamp wanted log variable package
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)" || return 1
  if [ "${1:-}" = tools ]; then
    kind=tools
    venv="${DATALAKE_TOOLS_VENV:-$root/.venv-tools}"
    variable=DATALAKE_TOOLS_VENV
    package=
  else
    kind=dev
    venv="${DATALAKE_VENV:-$root/.venv}"
    variable=DATALAKE_VENV
    package="$root/clients/python"
  fi
  requirements="$root/scripts/requirements-$kind.txt"
  constraints="$root/scripts/constraints-$kind.txt"

  python="$(command -v python3 || true)"
  if [ -z "$python" ] || ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    echo "error: the test virtualenv needs python3 >= 3.11 on PATH, as the pinned schemathesis and its dependencies do (found: ${python:-none}${python:+ $("$python" --version 2>&1)}); install it (e.g. apt-get install python3 python3-venv) and run again." >&2
    return 1
  fi
  version="$("$python" --version 2>&1)"
  wanted="$( { cat "$requirements" "$constraints"; echo "$version"
              if [ -n "$package" ]; then
                find "$package" -type f \( -name '*.py' -o -name pyproject.toml \) -not -path '*/build/*' \
                  -not -path '*/tests/*' | LC_ALL=C sort | xargs cat
              fi; } | datalake_venv_hash )"
  stamp="$venv/.datalake-requirements.sha256"

  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && "$venv/bin/python" -c '' 2>/dev/null; then
    echo "venv: $venv is up to date"
    export "$variable=$venv"
    return 0
  fi

  echo "venv: installing ${requirements#"$root"/} into $venv ($version; takes a minute the first time)"
  log="$(mktemp "${TMPDIR:-/tmp}/datalake-venv.XXXXXX")"
  # A venv built by another python (or half-built) is not worth repairing: start over.
  if [ -d "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
    rm -rf "$venv"
  fi
  if ! { [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"; } >"$log" 2>&1 ||
     ! PIP_CONSTRAINT="$constraints" "$venv/bin/python" -m pip install --disable-pip-version-check -q -r "$requirements" >>"$log" 2>&1 ||
     { [ -n "$package" ] && ! PIP_CONSTRAINT="$constraints" "$venv/bin/python" -m pip install --disable-pip-version-check -q "$package" >>"$log" 2>&1; }; then
    tail -n 30 "$log" >&2
    echo "error: could not install ${requirements#"$root"/} into $venv (full log: $log); python3 -m venv needs the python3-venv package on Debian/Ubuntu." >&2
    return 1
  fi
  rm -f "$log"
  echo "$wanted" >"$stamp"
  export "$variable=$venv"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  datalake_venv "$@" || exit 1
else
  datalake_venv "$@"
fi
