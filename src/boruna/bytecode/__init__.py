"""bytecode"""
