"""Benchmarks of Inis by email against the limits of the machine they run on.

    .venv/bin/python -m bench [--quick] [--only rules,store,growth,email,web] [--write FILE]

Every row is a figure with a baseline measured in the same run (a ratio, because the machines
are shared and noisy), compared with its goal where one is set. See bench/README.md.
"""
