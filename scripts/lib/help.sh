# Sourced first by every script: with -h or --help among the arguments, prints the script's header
# comment (its usage) and exits, before anything is built, installed or run.
#   source "$(dirname "$0")/lib/help.sh" "$0" "$@"

datalake_help() {
  local script="$1" arg
  shift
  for arg in "$@"; do
    if [ "$arg" = "-h" ] || [ "$arg" = "--help" ]; then
      # The comment block after the shebang, without its "# ".
      sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p;}' "$script"
      exit 0
    fi
  done
}

datalake_help "$@"
