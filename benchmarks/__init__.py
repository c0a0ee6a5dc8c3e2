"""Throughput benchmarks: ``python -m benchmarks.throughput``."""
