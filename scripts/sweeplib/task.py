"""The work of one point, run on a Dask worker.

Standard library only and shipped by value (runner._shippable_run_point), so a
worker of an existing cluster needs neither this package nor pandas: only the
ssdsim binary, the config files and the output directory at the same paths
(a shared file system, as on a SLURM cluster).
"""
import json
import os
import signal
import subprocess
import time

# After --timeout a point gets SIGTERM, as a batch scheduler's time limit
# sends: ssdsim stops at its next completed IO and writes its report for the
# IOs done so far (stop_reason "interrupted"). It gets this long to do so
# before SIGKILL (ssdsim itself gives up 5 s after a signal it cannot act on).
TERM_GRACE_S = 15


def run_point(cmd, directory, timeout=None):
    """Run one ssdsim command with its files in `directory`; return its status.

    Writes cmd.txt, stdout.txt, stderr.txt and, last, status.json: a point
    counts as done (cached) only once status.json says so, so a point killed
    half-way is run again.
    """
    os.makedirs(directory, exist_ok=True)
    status_path = os.path.join(directory, "status.json")
    if os.path.exists(status_path):
        os.remove(status_path)
    with open(os.path.join(directory, "cmd.txt"), "w") as f:
        f.write(" ".join(_quote(a) for a in cmd) + "\n")
    start = time.monotonic()
    report = os.path.join(directory, "report.json")
    report_before = _mtime(report)  # (a run that writes no report leaves an earlier one as it was)
    timed_out = None
    try:
        with open(os.path.join(directory, "stdout.txt"), "w") as out, \
                open(os.path.join(directory, "stderr.txt"), "w") as err:
            proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
            try:
                rc = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = _stop(proc, lambda: _mtime(report) not in (None, report_before))
        with open(os.path.join(directory, "stderr.txt")) as err:
            lines = [ln.strip() for ln in err if ln.strip()]
        first = lines[0] if lines else ""
    except OSError as e:
        rc, first = -1, f"cannot run {cmd[0]}: {e.strerror}"
    if timed_out is not None:
        # A timed-out point failed (-1), whatever ssdsim's own exit status.
        rc, first = -1, f"timed out after {timeout} s: {timed_out}"
    status = {"returncode": rc, "stderr_first_line": first, "elapsed_s": time.monotonic() - start,
              "host": os.uname().nodename}
    tmp = status_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(status, f)
    os.replace(tmp, status_path)
    return status


def _stop(proc, wrote_report):
    """SIGTERM, then SIGKILL after TERM_GRACE_S; says how the run ended."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=TERM_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return f"killed {TERM_GRACE_S} s after SIGTERM, no report"
    if wrote_report():
        return "stopped by SIGTERM; report.json covers the IOs completed by then"
    return "stopped by SIGTERM before its timed phase, no report"


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def _quote(arg):
    safe = all(c.isalnum() or c in "-_./=:,+%@" for c in arg)
    return arg if safe and arg else "'" + arg.replace("'", "'\\''") + "'"
