#!/usr/bin/env bash
# Stops the one-node cluster of scripts/slurm_up.sh, by its pid files (TERM,
# then KILL after 10 s). Idempotent. Stops munged only if slurm_up.sh started it.
#   KEEP_MUNGE=1  leave munged running
#   PURGE=1       also remove the state directory ($HALOBW_SLURM_DIR, default /var/spool/halobw-slurm)
set -uo pipefail
D=${HALOBW_SLURM_DIR:-/var/spool/halobw-slurm}

stop() { # NAME PIDFILE
  local p
  if [ ! -s "$2" ]; then
    echo "[slurm_down] $1 not running (no $2)"
    return 0
  fi
  p=$(cat "$2")
  if [ -r "/proc/$p/comm" ] && [ "$(cat "/proc/$p/comm")" = "$1" ]; then
    kill -TERM "$p" 2>/dev/null
    for _ in $(seq 100); do [ -d "/proc/$p" ] || break; sleep 0.1; done
    if [ -d "/proc/$p" ]; then
      echo "[slurm_down] $1 (pid $p) ignored SIGTERM: SIGKILL"
      kill -KILL "$p" 2>/dev/null
    fi
    echo "[slurm_down] stopped $1 (pid $p)"
  else
    echo "[slurm_down] $1 not running (stale pid $p)"
  fi
  rm -f "$2"
}

stop slurmd "$D/slurmd.pid"
stop slurmctld "$D/slurmctld.pid"
if [ -e "$D/munged.ours" ] && [ "${KEEP_MUNGE:-0}" != 1 ]; then
  stop munged /run/munge/munged.pid
  rm -f "$D/munged.ours"
fi
if [ "${PURGE:-0}" = 1 ]; then
  # Only the link slurm_up.sh made.
  [ "$(readlink /etc/slurm/slurm.conf 2>/dev/null)" = "$D/slurm.conf" ] && rm -f /etc/slurm/slurm.conf
  rm -rf "$D" && echo "[slurm_down] removed $D"
fi
exit 0
