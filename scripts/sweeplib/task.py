"""The work of one point, run on a Dask worker.

Standard library only and shipped by value (runner._shippable_run_point), so a
worker of an existing cluster needs neither this package nor pandas: only the
ssdsim binary, the config files and the output directory at the same paths
(a shared file system, as on a SLURM cluster).
"""
import json
import os
import subprocess
import time


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
    try:
        with open(os.path.join(directory, "stdout.txt"), "w") as out, \
                open(os.path.join(directory, "stderr.txt"), "w") as err:
            rc = subprocess.run(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                timeout=timeout).returncode
        with open(os.path.join(directory, "stderr.txt")) as err:
            lines = [ln.strip() for ln in err if ln.strip()]
        first = lines[0] if lines else ""
    except subprocess.TimeoutExpired:
        rc, first = -1, f"timed out after {timeout} s"
    except OSError as e:
        rc, first = -1, f"cannot run {cmd[0]}: {e.strerror}"
    status = {"returncode": rc, "stderr_first_line": first, "elapsed_s": time.monotonic() - start,
              "host": os.uname().nodename}
    tmp = status_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(status, f)
    os.replace(tmp, status_path)
    return status


def _quote(arg):
    safe = all(c.isalnum() or c in "-_./=:,+%@" for c in arg)
    return arg if safe and arg else "'" + arg.replace("'", "'\\''") + "'"
