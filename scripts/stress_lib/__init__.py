"""Modules of scripts/stress, the stress campaign of ssdsim (docs/testing-stress.md)."""
