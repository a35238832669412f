# Installs dynalite, the open-source DynamoDB emulator of the local stack and the tests (Node.js; pinned by
# scripts/dynalite/package-lock.json), into a git-ignored folder at the repo root: .dynalite, or
# $DATALAKE_DYNALITE. Run it or source it; exports DATALAKE_DYNALITE. Needs node >= 20 and npm on PATH.
# Fast when nothing changed: a stamp file holds the hash of the package files and of node's version,
# and npm runs only when that hash differs. Prints one line of progress.

datalake_dynalite() {
  local root source target wanted stamp log node_version
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)" || return 1
  source="$root/scripts/dynalite"
  target="${DATALAKE_DYNALITE:-$root/.dynalite}"

  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "error: dynalite (the local DynamoDB) needs Node.js >= 20 and npm on PATH; install them (on Debian 13, apt-get install nodejs npm; Debian 12's Node.js is 18: use NodeSource's) and run again." >&2
    return 1
  fi
  node_version="$(node --version)"
  if [ "$(node -p 'Number(process.versions.node.split(".")[0]) >= 20')" != true ]; then
    echo "error: dynalite 4 needs Node.js >= 20; this node is $node_version." >&2
    return 1
  fi
  wanted="$( { cat "$source/package.json" "$source/package-lock.json"; echo "$node_version"; } |
             if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi | cut -d' ' -f1)"
  stamp="$target/.datalake-dynalite.sha256"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -f "$target/node_modules/dynalite/package.json" ]; then
    echo "dynalite: $target is up to date"
    export DATALAKE_DYNALITE="$target"
    return 0
  fi

  echo "dynalite: installing scripts/dynalite/package-lock.json into $target (node $node_version)"
  mkdir -p "$target"
  cp "$source/package.json" "$source/package-lock.json" "$target/"
  log="$(mktemp "${TMPDIR:-/tmp}/datalake-dynalite.XXXXXX")"
  # --ignore-scripts: dynalite runs in memory (memory-level); LevelDB's native build is never needed.
  if ! (cd "$target" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "error: could not install dynalite into $target (full log: $log)." >&2
    return 1
  fi
  rm -f "$log"
  echo "$wanted" >"$stamp"
  export DATALAKE_DYNALITE="$target"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  datalake_dynalite "$@" || exit 1
else
  datalake_dynalite "$@"
fi
