"""Build script: compiles the interpreter loop (src/boruna/_vm.pyx) with Cython.

Everything else in the package is plain Python and is described in pyproject.toml.
"""
from setuptools import Extension, setup
from Cython.Build import cythonize

extensions = [
    Extension(
        "boruna._vm",
        ["src/boruna/_vm.pyx"],
        extra_compile_args=["-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
