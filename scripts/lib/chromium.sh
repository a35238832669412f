# Makes sure Debian's chromium and chromium-driver are there for the explorer page's browser test
# (local-runner ExplorerIT); sourced by scripts/test.sh. Installs them with apt-get when running as root
# (as CI does, on a clean machine). Where that cannot be done: in CI (CI=true) an error, since the
# browser test must run there; elsewhere a warning, and DATALAKE_SKIP_BROWSER=1 so that the test is
# reported as skipped with that reason. DATALAKE_CHROMIUM and DATALAKE_CHROMEDRIVER point elsewhere.

datalake_chromium() {
  local chromium="${DATALAKE_CHROMIUM:-/usr/bin/chromium}" driver="${DATALAKE_CHROMEDRIVER:-/usr/bin/chromedriver}" log
  if [ -x "$chromium" ] && [ -x "$driver" ]; then
    echo "chromium: $("$chromium" --version 2>/dev/null | head -n 1)"
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium: installing Debian's chromium and chromium-driver for the browser test (a minute or two)"
    log="$(mktemp "${TMPDIR:-/tmp}/datalake-chromium.XXXXXX")"
    if { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; } >"$log" 2>&1; then
      rm -f "$log"
    else
      tail -n 20 "$log" >&2
      echo "chromium: apt-get install chromium chromium-driver failed (full log: $log)" >&2
    fi
  fi
  if [ -x "$chromium" ] && [ -x "$driver" ]; then
    echo "chromium: $("$chromium" --version 2>/dev/null | head -n 1)"
    return 0
  fi
  if [ "${CI:-}" = true ]; then
    echo "error: the explorer page's browser test needs $chromium and $driver (Debian: apt-get install chromium chromium-driver, as root), and they could not be installed." >&2
    return 1
  fi
  echo "warning: no $chromium or $driver, and they cannot be installed here (run as root, or apt-get install chromium chromium-driver): the browser test is skipped." >&2
  export DATALAKE_SKIP_BROWSER=1
}
