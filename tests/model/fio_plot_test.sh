#!/bin/sh
# ctest wrapper of fio_plot_test.py: runs it with the first Python that can
# import fio_plot (the project's .venv, then python3), or skips (exit 77).
root=$1
ssdsim=$2
for py in "$root/.venv/bin/python" python3; do
  if "$py" -c "import fio_plot.fiolib.jsonparsing" >/dev/null 2>&1; then
    exec "$py" "$root/tests/model/fio_plot_test.py" "$ssdsim"
  fi
done
echo "SKIP: fio-plot is not importable from $root/.venv/bin/python or python3 (scripts/setup-python installs it)"
exit 77
