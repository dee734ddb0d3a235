"""Design-space sweeps of ssdsim (scripts/sweep; docs/sweeps.md).

Modules, in the order a sweep uses them:
  errors   -- SweepError: a bad sweep file (exit 2), names file, line, key
  sizes    -- ssdsim's size units (4k, 64m, 32g) for the derivations
  binary   -- what the ssdsim binary offers: option keys, defaults, identity
  spec     -- reads a sweep file (INI or YAML) into a Spec
  points   -- expands a Spec into points: grid, list, derived parameters
  runner   -- runs the points on Dask with a per-point cache and progress
  task     -- the work of one point on a worker (standard library only)
  table    -- flattens the reports into results.csv / results.parquet
  plots    -- line plots, heatmaps and latency CDFs (matplotlib)
"""
