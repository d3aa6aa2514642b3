# cython: language_level=3
"""The interpreter loop. (Being written: see issue 3.)"""
