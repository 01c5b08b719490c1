"""Build the optional compiled twins (Cython) of pure-Python modules.

Every ``src/lakestruct/**/_*_c.pyx`` becomes an extension module beside its
pure-Python twin; the twin stays the reference and both are tested. Without a C
compiler or Cython the build still succeeds and the pure-Python code is used.
"""

from __future__ import annotations

import glob
import os

from setuptools import setup

ext_modules = []
pyx = sorted(glob.glob("src/lakestruct/**/_*_c.pyx", recursive=True))
if pyx and os.environ.get("LAKESTRUCT_PURE_PYTHON") != "1":
    try:
        import numpy
        from Cython.Build import cythonize
        from setuptools import Extension

        exts = [
            Extension(
                p[len("src/") : -len(".pyx")].replace("/", "."),
                [p],
                include_dirs=[numpy.get_include()],
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
                extra_compile_args=["-O3"],
            )
            for p in pyx
        ]
        ext_modules = cythonize(exts, language_level=3, compiler_directives={"boundscheck": False, "wraparound": False})
    except ImportError:  # pragma: no cover - no Cython: pure Python only
        ext_modules = []

setup(ext_modules=ext_modules)
