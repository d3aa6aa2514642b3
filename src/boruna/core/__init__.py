"""The foundation floor: facts and value-level code every other layer reads.

Nothing in `boruna.core` imports any other part of the package.
"""
