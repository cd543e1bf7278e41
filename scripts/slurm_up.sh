#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the srun tests (tests/launch_cases.py):
# as root, without systemd or cgroups, in a fresh container too. Idempotent and
# fast (well under a second from cold; a no-op when it is already up).
#
#   scripts/slurm_up.sh            start munged (unless one answers), slurmctld, slurmd;
#                                  wait until the node is idle
#   SLURM_CONF=/var/spool/halobw-slurm/slurm.conf srun -n 2 hostname
#   scripts/slurm_down.sh          stop what this script started
#
# The cluster is its own: its configuration, state, logs and pid files live in
# $HALOBW_SLURM_DIR (default /var/spool/halobw-slurm), it listens on its own
# ports (6827, 6828), and its jobs count from 800000, so it can run beside
# another cluster on the same machine; srun and sinfo find it through
# SLURM_CONF. /etc/slurm/slurm.conf is written only where there is none.
#
# Needs (Debian 12): apt-get install --no-install-recommends slurmd slurmctld slurm-client munge libpmix-dev
#   (libpmix-dev: Slurm's mpi_pmix plugin dlopen()s the unversioned libpmix.so that only it ships)
#
# Settings: KillOnBadExit=1 (a task that fails ends the step: else MPICH/pmi2
# survivors wait for ever), MpiDefault=pmix (none when the plugin cannot load),
# select/cons_tres with CR_Core, NodeName=$(hostname -s) CPUs=$(nproc).
# Environment: HALOBW_SLURM_DIR, HALOBW_SLURM_PORT (slurmctld's; slurmd's is the next),
# HALOBW_SLURM_TIMEOUT (seconds to wait for the node, default 30).
# Exit status: 0 up; 1 could not bring it up (the reason and the logs' tails on stderr);
# 3 not possible here (not root, or Slurm or munge not installed).
set -euo pipefail

D=${HALOBW_SLURM_DIR:-/var/spool/halobw-slurm}
CONF=$D/slurm.conf
PORT=${HALOBW_SLURM_PORT:-6827}
TIMEOUT=${HALOBW_SLURM_TIMEOUT:-30}
PMIX_LIB=/usr/lib/x86_64-linux-gnu/pmix2/lib/libpmix.so
t0=$(date +%s%N)
log() { echo "[slurm_up] $*"; }
die() { echo "[slurm_up] $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || { echo "[slurm_up] must run as root (it starts munged, slurmctld, slurmd)" >&2; exit 3; }
for b in munged munge unmunge slurmctld slurmd sinfo scontrol srun; do
  command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$b" >/dev/null 2>&1 || {
    echo "[slurm_up] $b not found: apt-get install --no-install-recommends slurmd slurmctld slurm-client munge libpmix-dev" >&2
    exit 3
  }
done
id munge >/dev/null 2>&1 || { echo "[slurm_up] no user munge: reinstall the munge package" >&2; exit 3; }
export PATH=$PATH:/usr/sbin

# A pid file whose process is alive and is the named program.
running() { # NAME PIDFILE
  local p
  [ -s "$2" ] || return 1
  p=$(cat "$2")
  [ -r "/proc/$p/comm" ] && [ "$(cat "/proc/$p/comm")" = "$1" ]
}
tail_logs() {
  for f in "$D/slurmctld.log" "$D/slurmd.log"; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 15 "$f" >&2; }
  done
  return 0
}

# ---------------------------------------------------------------- munge
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  log "creating the munge key"
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile=/etc/munge/munge.key --force
  else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  fi
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
munge_ok() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
if munge_ok; then
  log "munged answers"
else
  if running munged /run/munge/munged.pid; then
    log "munged (pid $(cat /run/munge/munged.pid)) does not answer yet; waiting"
  else
    rm -f /run/munge/munge.socket.2 /run/munge/munge.socket.2.lock /run/munge/munged.pid
    log "starting munged"
    install -d -m 0755 "$D"
    runuser -u munge -- /usr/sbin/munged </dev/null >/dev/null 2>&1 || die "munged did not start (see /var/log/munge/munged.log)"
    touch "$D/munged.ours"   # slurm_down.sh stops only a munged this script started
  fi
  for _ in $(seq 50); do munge_ok && break; sleep 0.1; done
  munge_ok || die "munged does not answer (see /var/log/munge/munged.log)"
fi

# ---------------------------------------------------------------- configuration
install -d -m 0755 "$D" "$D/ctld" "$D/d" "$D/tmp"
NODE=$(hostname -s)
MPIDEF=pmix
if ! [ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] || ! [ -e "$PMIX_LIB" ]; then
  MPIDEF=none
  log "no PMIx for Slurm ($PMIX_LIB: install libpmix-dev): MpiDefault=none, srun --mpi=pmix will fail"
fi
cat >"$CONF.new" <<EOF
# Written by halo-bandwidth's scripts/slurm_up.sh: a one-node cluster for tests.
# Daemons run as root without systemd or cgroups. Use it with SLURM_CONF=$CONF.
ClusterName=halobw
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$D/ctld
SlurmdSpoolDir=$D/d
TmpFS=$D/tmp
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
FirstJobId=800000
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=$MPIDEF
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=5
KillWait=5
MailProg=/bin/true
# A task that exits non-zero ends the whole step (MPICH's survivors under pmi2 would wait for ever).
KillOnBadExit=1
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
changed=0
if cmp -s "$CONF.new" "$CONF"; then
  rm -f "$CONF.new"
else
  mv "$CONF.new" "$CONF"
  changed=1
  log "wrote $CONF (NodeName=$NODE CPUs=$(nproc) MpiDefault=$MPIDEF)"
fi
# A machine with no Slurm of its own: plain srun finds this one too.
if [ ! -e /etc/slurm/slurm.conf ] && [ ! -L /etc/slurm/slurm.conf ]; then
  install -d -m 0755 /etc/slurm
  ln -s "$CONF" /etc/slurm/slurm.conf
  log "linked /etc/slurm/slurm.conf to $CONF"
fi
export SLURM_CONF=$CONF

# ---------------------------------------------------------------- daemons
ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }
if running slurmctld "$D/slurmctld.pid"; then
  log "slurmctld already running (pid $(cat "$D/slurmctld.pid"))"
  if [ "$changed" = 1 ]; then
    log "configuration changed: scontrol reconfigure"
    scontrol reconfigure || true
  fi
else
  log "starting slurmctld"
  # No stdio of ours: a daemon holding ctest's pipes would keep the test from ending.
  slurmctld -f "$CONF" </dev/null >/dev/null 2>&1 || { tail_logs; die "slurmctld did not start"; }
fi
for _ in $(seq $((TIMEOUT * 10))); do ctld_up && break; sleep 0.1; done
ctld_up || { tail_logs; die "slurmctld does not answer on port $PORT after ${TIMEOUT} s"; }

if running slurmd "$D/slurmd.pid"; then
  log "slurmd already running (pid $(cat "$D/slurmd.pid"))"
else
  log "starting slurmd"
  slurmd -f "$CONF" -N "$NODE" </dev/null >/dev/null 2>&1 || { tail_logs; die "slurmd did not start"; }
fi

state=""
for _ in $(seq $((TIMEOUT * 10))); do
  state=$(sinfo -h -n "$NODE" -o %t 2>/dev/null | head -n 1 || true)
  case "$state" in
    idle | mix | alloc | comp) break ;;
    down* | drain* | drng* | fail*) scontrol update NodeName="$NODE" State=RESUME >/dev/null 2>&1 || true ;;
  esac
  sleep 0.1
done
case "$state" in
  idle | mix | alloc | comp)
    t1=$(date +%s%N)
    log "node $NODE is $state after $(((t1 - t0) / 1000000)) ms; use SLURM_CONF=$CONF" ;;
  *)
    tail_logs
    die "node $NODE is '${state:-unknown}' after ${TIMEOUT} s" ;;
esac
