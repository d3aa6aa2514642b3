"""tooling"""
