#!/usr/bin/env bash
# Runs inside the Debian system scripts/systemd-check.sh boots, as a unit of its systemd:
# installs Tessera from /root/tessera with its install.sh, then checks the service live.
# Writes one PASS or FAIL line per check, with its evidence, to /check/report, then DONE,
# and powers the container off.
set -uo pipefail
report=/check/report
: > "$report"
export SYSTEMD_PAGER='' SYSTEMD_COLORS=0 LC_ALL=C.UTF-8
# (each line says when, in seconds since the check started: where its time goes)
pass() { echo "PASS $1 [${SECONDS} s]: $2" | tee -a "$report"; }
fail() { echo "FAIL $1 [${SECONDS} s]: $2" | tee -a "$report"; }
check() { # name, evidence, condition...
  local name=$1 evidence=$2
  shift 2
  if "$@"; then pass "$name" "$evidence"; else fail "$name" "$evidence"; fi
}
finish() {
  journalctl -u tessera.service -o short-precise > /check/tessera.journal
  journalctl -u tessera-worker.service -o short-precise > /check/tessera-worker.journal
  if [ -n "${user_uid:-}" ]; then journalctl "_UID=$user_uid" -o short-precise > /check/tessera-user.journal; fi
  echo DONE >> "$report"
  systemctl --no-block poweroff
  exit 0
}
trap finish EXIT

# Polls a fact every 0.1 s until it holds or `seconds` pass.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}
# A top-level field of `tessera status --json` (two spaces in: nested objects have fields of
# the same names), as root; the daemon's socket comes from /etc/tessera/config.yaml.
field() { tessera status --json 2> /dev/null | sed -n "s/^  \"$1\" : \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p"; }
progress_done() { tessera status --json 2> /dev/null | sed -n 's/^    "done" : \([0-9]*\).*/\1/p'; }
idle_after() { [ "$(field state)" = idle ] && [ "$(field scansFinished)" -ge "$1" ] 2> /dev/null; }
idle_with_photos() { [ "$(field state)" = idle ] && [ "$(field photos)" -ge "$1" ] 2> /dev/null; }
scanning_past() { [ "$(progress_done)" -ge "$1" ] 2> /dev/null; }
prop() { systemctl show -p "$1" --value "${2:-tessera.service}"; }
status_text_is() { [ "$(prop StatusText)" = "$1" ]; }
status_text_is_not() { ! status_text_is "$1"; }
status_text_scanning() { [[ "$(prop StatusText)" == "Scanning: "* ]]; }
restarted_since() { [ "$(prop NRestarts)" -gt "$1" ] && [ "$(prop ActiveState)" = active ]; }
inbox_listed() { tessera list --album Inbox 2> /dev/null | grep -q arrived.jpg; }
journal_since() { journalctl -u tessera.service --since "@$1" -o cat --no-pager; }
now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# STATUS= says Idle with the last scan's line as soon as the daemon is idle, and keeps saying it
# (a late progress line would replace it: the defect this guards against).
status_settles() { # name
  local expected text
  expected="Idle; last scan $(tessera status | sed -n 's/^  last scan    //p')"
  if ! wait_for 5 status_text_is "$expected"; then
    fail "$1" "STATUS=\"$(prop StatusText)\" while tessera status says \"$expected\""
    return
  fi
  # Two of the progress reporter's periods: any straggler would have arrived.
  if wait_for 4 status_text_is_not "$expected"; then
    fail "$1" "STATUS changed after idle to \"$(prop StatusText)\""
  else
    pass "$1" "STATUS=\"$expected\", unchanged 4 s later; tessera status: $(field state)"
  fi
}

echo "systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p') is PID 1 ($(cat /proc/1/comm)); $(. /etc/os-release; echo "$PRETTY_NAME")" | tee -a "$report"

# A folder the service may not read: the walk logs a warning for it and goes on.
install -d -m 0700 /srv/photos/Private

# A second photo folder whose name YAML must quote.
second='/srv/Fotos "2024" & more\'
install -d "$second" && cp /root/photos-inbox/second-root.jpg "$second/"

# 1. The install, as docs/INSTALL.md says; it returns once the unit is started.
begin=$(now)
log=/check/install.log
if /root/tessera/install.sh --root /srv/photos --root "$second" --timer > "$log" 2>&1; then
  took=$(elapsed_since "$begin")
  line=$(systemctl status tessera.service | sed -n 's/^ *Active: //p')
  # Right after `systemctl start` returns, the control socket already answers: READY=1 came after it listened.
  state=$(field state)
  check install-and-start "install.sh exit 0 in $took s; Active: $line; socket answers at once: state=$state" \
    test "$(prop ActiveState)/$(prop SubState)" = active/running -a -n "$state"
else
  fail install-and-start "install.sh failed: $(tail -3 "$log" | tr '\n' ' ')"
  exit 1
fi
# Every library found: Debian's, or the Swift runtime install.sh put in /usr/local/lib/tessera.
runtime=$(ldd /usr/local/bin/tessera | grep -cE "=> /usr/local/(bin/\.\./)?lib/tessera/" || true)
missing=$(ldd /usr/local/bin/tessera | grep -c "not found" || true)
check swift-runtime "ldd /usr/local/bin/tessera: $(ldd /usr/local/bin/tessera | wc -l) libraries, $runtime from /usr/local/lib/tessera, $missing not found" \
  test "$missing" -eq 0 -a "$runtime" -gt 0

# 2. The first scan, and STATUS= after it.
wait_for 120 idle_after 1 || fail first-scan "not idle after 120 s: $(tessera status 2>&1 | head -2 | tr '\n' ' ')"
status_settles status-after-first-scan
check both-roots "$(grep '^roots:' /etc/tessera/config.yaml); indexed: $(tessera list | grep -o '/srv/Fotos.*')" \
  sh -c 'tessera list | grep -qF "$1/second-root.jpg"' _ "$second"

# 3. journald: lines from tessera with their priorities.
info=$(journalctl -u tessera.service -p info..info -o cat | grep -m1 '^scan 1 started')
warning=$(journalctl -u tessera.service -p warning..warning -o cat | grep -m1 'Private')
prefixed=$(journalctl -u tessera.service -o cat | grep -c '^<[0-9]>' || true)
check journal-priorities "priority 6: \"$info\"; priority 4: \"$warning\"; $prefixed lines with an unparsed <N> prefix" \
  test -n "$info" -a -n "$warning" -a "$prefixed" -eq 0

# 4. systemctl reload = exactly one rescan.
started=$(field scansStarted)
since=$(date +%s)
systemctl reload tessera.service
wait_for 30 idle_after "$((started + 1))"
# A second scan would start within the debounce; wait past it before counting.
wait_for 3 test "$(field scansStarted)" -gt "$((started + 1))"
count=$(journal_since "$since" | grep -c '^scan [0-9]* started' || true)
check reload-one-rescan "scansStarted $started -> $(field scansStarted); journal: $count \"scan N started\" since the reload" \
  test "$(field scansStarted)" -eq "$((started + 1))" -a "$count" -eq 1
status_settles status-after-reload

# 5. The control socket: members of the tessera group only.
useradd --create-home alice && usermod -aG tessera alice
useradd --create-home bob
as() { local user=$1; shift; runuser -u "$user" -- env HOME="/home/$user" "$@"; }
out=$(as alice tessera rescan --wait 2>&1); rescan=$?
out_status=$(as alice tessera status 2>&1); status=$?
listed=$(as alice tessera list --limit 1 2>&1); list=$?
check group-member-allowed "alice (group tessera): rescan --wait exit $rescan, \"$(echo "$out" | tail -1)\"; status exit $status, \"$(echo "$out_status" | head -1)\"; list exit $list" \
  test "$rescan" -eq 0 -a "$status" -eq 0 -a "$list" -eq 0
out=$(as bob tessera rescan 2>&1); rescan=$?
out_status=$(as bob tessera status 2>&1); status=$?
check others-refused "bob: rescan exit $rescan, \"$out\"; status exit $status, \"$(echo "$out_status" | head -1)\"" \
  sh -c '[ "$1" -ne 0 ] && [ "$2" -ne 0 ] && echo "$3$4" | grep -q "ermission denied" && ! echo "$3$4" | grep -q "no tessera daemon is running"' \
  _ "$rescan" "$status" "$out" "$out_status"

# 6. The timer: enabled by install.sh --timer, accepted, and its service asks for a rescan.
verify=$(systemd-analyze verify --man=no /etc/systemd/system/tessera-rescan.timer /etc/systemd/system/tessera-rescan.service \
  /etc/systemd/system/tessera.service 2>&1)
verified=$?
next=$(systemctl list-timers --all tessera-rescan.timer | sed -n 2p | tr -s ' ')
started=$(field scansStarted)
systemctl start tessera-rescan.service
wait_for 30 idle_after "$((started + 1))"
check timer "systemd-analyze verify exit $verified${verify:+ ($verify)}; $(prop ActiveState tessera-rescan.timer): $next; tessera-rescan.service $(prop Result tessera-rescan.service), scansStarted $started -> $(field scansStarted)" \
  test "$verified" -eq 0 -a "$(prop ActiveState tessera-rescan.timer)" = active -a "$(prop Result tessera-rescan.service)" = success \
  -a "$(field scansStarted)" -gt "$started"

# 7. inotify in the sandbox: a photo added under the root is indexed without being asked.
started=$(field scansStarted)
mkdir /srv/photos/Inbox && cp /root/photos-inbox/arrived.jpg /srv/photos/Inbox/
if wait_for 60 inbox_listed; then
  pass inotify "$(tessera list --album Inbox | head -1 | tr -s ' '); scansStarted $started -> $(field scansStarted) without a request"
else
  fail inotify "/srv/photos/Inbox/arrived.jpg not in the index after 60 s; $(journalctl -u tessera.service -o cat | tail -2 | tr '\n' ' ')"
fi
wait_for 30 idle_after "$(field scansStarted)"
status_settles status-after-inotify

# 8. systemctl stop during a scan: exit 0 within a few seconds, the scan recorded as interrupted.
# The photos are on a slow disk (TESSERA_FAULT: each read waits 20 ms), so that the scan is at
# work for seconds whatever the machine's speed, with small photos.
mkdir -p /run/systemd/system/tessera.service.d
printf '[Service]\nEnvironment=TESSERA_FAULT=read:SLOW\n' > /run/systemd/system/tessera.service.d/slow-disk.conf
systemctl daemon-reload
systemctl restart tessera.service
wait_for 60 idle_after 1
photos=$(field photos)
cp -r /root/photos-big /srv/photos/Big
big=$(find /srv/photos/Big -name '*.jpg' | wc -l)
if wait_for 60 scanning_past 5; then
  # The progress line STATUS= shows while the scan runs (it is sent every 2 s).
  wait_for 10 status_text_scanning
  check status-during-scan "STATUS=\"$(prop StatusText)\" while tessera status says \"$(tessera status | sed -n 's/^  scanning *//p')\"" \
    status_text_scanning
  during=$(tessera status | sed -n 's/^  scanning *//p')
  since=$(date +%s)
  begin=$(now)
  systemctl stop tessera.service
  stopped=$?
  took=$(elapsed_since "$begin")
  ended=$(journal_since "$since" | grep -m1 -E '^scan [0-9]+ interrupted')
  check stop-during-scan "stopped at $during: systemctl stop exit $stopped in $took s; Result=$(prop Result), ExecMainStatus=$(prop ExecMainStatus); \"$ended\"" \
    awk -v s="$stopped" -v t="$took" -v r="$(prop Result)" -v m="$(prop ExecMainStatus)" -v e="$ended" \
      'BEGIN { exit !(s == 0 && t < 5 && r == "success" && m == 0 && e != "") }'
  # Started again, then SIGKILLed mid-scan: systemd restarts it, and the scan still completes.
  systemctl start tessera.service
  killed=$(( $(progress_done 2> /dev/null || echo 0) + 20 ))
  wait_for 60 scanning_past "$killed"
  restarts=$(prop NRestarts)
  during=$(tessera status | sed -n 's/^  scanning *//p')
  systemctl kill --signal=KILL --kill-whom=main tessera.service
  wait_for 30 restarted_since "$restarts"
  wait_for 180 idle_with_photos "$((photos + big))"
  check sigkill-mid-scan "SIGKILL at $during: NRestarts $restarts -> $(prop NRestarts), $(prop ActiveState); $(field photos) photos (expected $photos + $big); \"$(journal_since "$since" | grep -m1 'interrupted; finishing')\"; \"$(journal_since "$since" | grep -E '^scan [0-9]+ finished' | tail -1)\"" \
    test "$(prop NRestarts)" -gt "$restarts" -a "$(field photos)" -eq "$((photos + big))"
  status_settles status-after-long-scan
else
  fail stop-during-scan "no scan of /srv/photos/Big in progress after 60 s: $(tessera status 2>&1 | head -2 | tr '\n' ' ')"
fi

# 9. The watchdog restarts a daemon that stops answering (SIGSTOP), with a short WatchdogSec.
rm /run/systemd/system/tessera.service.d/slow-disk.conf
printf '[Service]\nWatchdogSec=3s\nTimeoutAbortSec=2s\nRestartSec=1s\n' > /run/systemd/system/tessera.service.d/watchdog.conf
systemctl daemon-reload
systemctl restart tessera.service
wait_for 60 idle_after 1
pid=$(prop MainPID)
restarts=$(prop NRestarts)
since=$(date +%s)
kill -STOP "$pid"
wait_for 40 restarted_since "$restarts"
timeout_line=$(journalctl -u tessera.service --since "@$since" -o cat | grep -m1 -i 'watchdog timeout')
check watchdog-restart "SIGSTOP to $pid: \"$timeout_line\"; NRestarts $restarts -> $(prop NRestarts), MainPID $(prop MainPID), $(prop ActiveState)" \
  test "$(prop NRestarts)" -gt "$restarts" -a "$(prop MainPID)" != "$pid" -a "$(prop ActiveState)" = active -a -n "$timeout_line"
rm -r /run/systemd/system/tessera.service.d
systemctl daemon-reload
systemctl restart tessera.service

# 10. Exposure, as systemd rates it here.
exposure=$(systemd-analyze security tessera.service | sed -n 's/.*Overall exposure level for tessera.service: \([0-9.]*\).*/\1/p')
check security "systemd-analyze security tessera.service: $exposure" awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 1.0) }'

# 10b. The cluster worker's unit, in the bundle for a cluster's hosts (docs/SCALE.md): accepted by
# this systemd, and as little exposed as the network it needs allows (the network alone rates
# 1.0: no private network, Internet sockets, no address allow list).
install -m 0644 /root/tessera/systemd/tessera-worker.service /etc/systemd/system/
systemctl daemon-reload
worker_verify=$(systemd-analyze verify --man=no /etc/systemd/system/tessera-worker.service 2>&1)
worker_verified=$?
worker_exposure=$(systemd-analyze security tessera-worker.service | sed -n 's/.*Overall exposure level for tessera-worker.service: \([0-9.]*\).*/\1/p')
check worker-unit "systemd-analyze verify exit $worker_verified${worker_verify:+ ($worker_verify)}; security: $worker_exposure" \
  sh -c '[ "$1" -eq 0 ] && awk -v e="$2" "BEGIN { exit !(e != \"\" && e <= 1.1) }"' _ "$worker_verified" "$worker_exposure"

# 11. A quiet journal: no libdispatch complaints, whatever else was logged at warning or worse.
noise=$(journalctl -u tessera.service -o cat | grep -c 'Failed to set thread priority' || true)
worst=$(journalctl -u tessera.service -p warning -o cat | grep -vE '^(Started|Stopped|Stopping|Starting|tessera.service: )' | sort | uniq -c | sort -rn | head -4 | tr -s ' ' | tr '\n' ';')
check quiet-journal "$noise \"Failed to set thread priority\" lines in $(journalctl -u tessera.service -o cat | wc -l); warning or worse from tessera:$worst" \
  test "$noise" -eq 0

# 12. For one's own photos, without root: install.sh --user by a user whose systemd --user runs
# (logind starts it for a lingering user as at a login), then the user service live: its first
# scan, the desktop thumbnail cache filled for the file manager, and reload as a rescan.
useradd --create-home carol
user_uid=$(id -u carol)
install -d -o carol -g carol /home/carol/Pictures
# The sample library and the inbox (not the big photos: the system service's check had them).
cp -a /srv/photos/. /home/carol/Pictures/ && rm -rf /home/carol/Pictures/Big && chown -R carol:carol /home/carol/Pictures
cp -a /root/tessera /opt/tessera-bundle && chmod -R a+rX /opt/tessera-bundle
loginctl enable-linger carol
user_manager_active() { [ "$(systemctl is-active "user@$user_uid.service")" = active ]; }
wait_for 30 user_manager_active || journalctl -u "user@$user_uid.service" -u systemd-logind -o cat --no-pager | tail -8 > /check/user-manager.log
as_carol() {
  runuser -u carol -- env HOME=/home/carol XDG_RUNTIME_DIR="/run/user/$user_uid" \
    TESSERA_CONFIG=/home/carol/.config/tessera/config.yaml PATH="/home/carol/.local/bin:$PATH" "$@"
}
user_field() { as_carol tessera status --json 2> /dev/null | sed -n "s/^  \"$1\" : \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p"; }
user_idle_after() { [ "$(user_field state)" = idle ] && [ "$(user_field scansFinished)" -ge "$1" ] 2> /dev/null; }
installed_out=$(as_carol /opt/tessera-bundle/install.sh --user 2>&1); installed=$?
wait_for 120 user_idle_after 1
active=$(as_carol systemctl --user is-active tessera.service)
user_photos=$(user_field photos)
desktop=$(find /home/carol/.cache/thumbnails/large -name '*.png' -perm 0600 2> /dev/null | wc -l)
failed=$(find /home/carol/.cache/thumbnails/fail -name '*.png' 2> /dev/null | wc -l)
manager="user@$user_uid.service $(systemctl is-active "user@$user_uid.service")"
check user-service "install.sh --user as carol: exit $installed, \"$(echo "$installed_out" | tail -1)\"; $manager; systemctl --user: $active; $user_photos photos; $desktop desktop thumbnails of mode 0600 in ~/.cache/thumbnails/large, $failed failure entries" \
  test "$installed" -eq 0 -a "$active" = active -a "${user_photos:-0}" -gt 0 -a "$desktop" -ge "${user_photos:-1}" -a "$failed" -ge 1
started=$(user_field scansStarted)
as_carol systemctl --user reload tessera.service
wait_for 30 user_idle_after "$((started + 1))"
check user-service-reload "systemctl --user reload: scans started $started -> $(user_field scansStarted), $(user_field state)" \
  test "$(user_field scansStarted)" -gt "${started:-0}" -a "$(user_field state)" = idle

# 13. The cluster worker's unit live (docs/SCALE.md): the installed tessera, PostgreSQL on the
# host reached by its socket (bound in at
# /srv/tessera-check-pg), SeaweedFS serving S3 here with one signed identity. A scan queues a
# folder; the unit's worker, as the unit runs it (its user, sandbox and environment file), drains
# the queue and logs to the journal; the site built from the cluster fetches what it stored; and
# it stops on SIGTERM as a service should.
systemctl stop tessera.service
install -d /srv/cluster
cp -r /srv/photos/. /srv/cluster/ && rm -rf /srv/cluster/Private /srv/cluster/Big
mkdir -p /var/tmp/weed
/root/weed server -dir=/var/tmp/weed -s3 -s3.port=18333 -s3.config=/root/s3.json -ip=127.0.0.1 -master.port=19333 \
  -volume.port=18080 -filer.port=18888 -metricsPort=0 > /check/weed.log 2>&1 &
s3_answers() { (exec 3<> /dev/tcp/127.0.0.1/18333) 2> /dev/null; }
weed_shell() { echo "$1" | /root/weed shell -master=127.0.0.1:19333 2>> /check/weed-shell.log; }
# (the store's own list says so: "created" and "already exists" alike)
bucket_made() { weed_shell "s3.bucket.create -name photos" >> /check/weed-shell.log; weed_shell s3.bucket.list | grep -qE '^ *photos\s'; }
wait_for 90 s3_answers && wait_for 60 bucket_made
cat > /etc/tessera/config.yaml <<'END'
roots: [/srv/cluster]
index_url: postgres://postgres@/postgres?host=/srv/tessera-check-pg
renditions_url: s3://photos/library/
END
cat > /etc/tessera/worker.env <<'END'
AWS_ENDPOINT_URL=http://127.0.0.1:18333
AWS_ACCESS_KEY_ID=AKIDTESSERACHECK
AWS_SECRET_ACCESS_KEY=tessera-check-secret
AWS_REGION=us-east-1
END
chmod 0600 /etc/tessera/worker.env
echo "the cluster's store answers at ${SECONDS} s" >> /check/worker-steps
queued=$(tessera scan --json 2>&1 | sed -n 's/.*"queued" *: *\([0-9]*\).*/\1/p')
queue_empty() { tessera status 2> /dev/null | grep -q "queue: 0 pending, 0 leased"; }
echo "the scan queued ${queued:-none} at ${SECONDS} s" >> /check/worker-steps
systemctl start tessera-worker.service
wait_for 180 queue_empty
drained=$?
echo "the queue drained ($drained) at ${SECONDS} s" >> /check/worker-steps
worker_status=$(tessera status 2>&1 | grep -E '^(files|queue):' | tr '\n' ';')
# Root reads the cluster's index as any reader does: its own file brought up to date.
{ cat /etc/tessera/config.yaml; echo "index: /var/tmp/cluster-index.sqlite"; echo "cache: /var/tmp/cluster-cache"; } \
  > /root/reader.yaml
set -a && . /etc/tessera/worker.env && set +a
built=$(tessera album build --config /root/reader.yaml --out /var/tmp/cluster-site 2>&1); site=$?
fetched=$(find /var/tmp/cluster-site/media -name '*.jpg' 2> /dev/null | wc -l)
worker_journal=$(journalctl -u tessera-worker.service -o cat --no-pager | grep -c 'worker .* started')
check worker-live "scan queued ${queued:-none}; tessera-worker.service $(prop ActiveState tessera-worker.service) as $(prop User tessera-worker.service), drained: $drained; $worker_status album build from the cluster exit $site ($(echo "$built" | tail -1)), $fetched renditions fetched; $worker_journal start lines in its journal" \
  test "${queued:-0}" -gt 0 -a "$drained" -eq 0 -a "$(prop ActiveState tessera-worker.service)" = active \
  -a "$site" -eq 0 -a "$fetched" -gt 0 -a "$worker_journal" -ge 1
systemctl stop tessera-worker.service
stopped_line=$(journalctl -u tessera-worker.service -o cat --no-pager | grep -m1 'stopped: ')
check worker-stop "systemctl stop: $(prop ActiveState tessera-worker.service), result $(prop Result tessera-worker.service); \"$stopped_line\"" \
  test "$(prop ActiveState tessera-worker.service)" = inactive -a "$(prop Result tessera-worker.service)" = success -a -n "$stopped_line"
