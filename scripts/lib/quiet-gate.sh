# quiet_gate NAME MAX_LOAD: benchmarks want a quiet machine. Prints the
# 1-minute load average; above MAX_LOAD waits up to 120 s for it to fall,
# then warns that the round's figures are not from a quiet machine (they
# are kept, marked by the warning). Sourced by scripts/bench-*.
quiet_gate() {
  local name=$1 max=$2 load waited=0
  load=$(cut -d' ' -f1 /proc/loadavg)
  while awk -v l="$load" -v m="$max" 'BEGIN {exit !(l > m)}' && [ $waited -lt 120 ]; do
    [ $waited -eq 0 ] && echo "$name: load average $load > $max; waiting up to 120 s" >&2
    sleep 10
    waited=$((waited + 10))
    load=$(cut -d' ' -f1 /proc/loadavg)
  done
  if awk -v l="$load" -v m="$max" 'BEGIN {exit !(l > m)}'; then
    echo "$name: WARNING: load average $load > $max: not a quiet machine, ratios are noisy" >&2
  else
    echo "$name: load average $load" >&2
  fi
}
