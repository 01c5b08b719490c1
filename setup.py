"""Build the optional compiled twins (Cython) of pure-Python modules.

Every ``src/lakestruct/**/_*_c.pyx`` becomes an extension module beside its
pure-Python twin; the twin stays the reference and both are tested. The build
never fails because of them: without Cython, without a C compiler, or when one
extension does not compile, it warns and installs the pure-Python twin instead
(``LAKESTRUCT_PURE_PYTHON=1`` skips them on purpose). ``lakestruct --version`` and
``lakestruct.twins()`` say which twins are in use.
"""

from __future__ import annotations

import glob
import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext


def _warn(message: str) -> None:
    print(f"WARNING: lakestruct: {message}; the pure-Python twin is used instead", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` whose every failure (no compiler at all, a compiler or linker error) skips that
    extension with a warning instead of failing the installation."""

    failed: set[str]

    def run(self) -> None:
        self.failed = set()
        try:
            super().run()
        except Exception as e:  # no usable compiler (DistutilsPlatformError), or anything else setup-wide
            self.failed |= {ext.name for ext in self.extensions}
            _warn(f"compiled twins not built ({type(e).__name__}: {e})")

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # CompileError, LinkError, a missing compiler binary, ...
            self.failed.add(ext.name)
            _warn(f"{ext.name} not built ({type(e).__name__}: {e})")

    def _built(self) -> list[Any]:
        return [ext for ext in self.extensions if ext.name not in getattr(self, "failed", set())]

    def copy_extensions_to_source(self) -> None:  # editable installs: copy only what was built
        every, self.extensions = self.extensions, self._built()
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every

    def get_outputs(self) -> list[str]:
        every, self.extensions = self.extensions, self._built()
        try:
            return list(super().get_outputs())
        finally:
            self.extensions = every


def _extensions() -> list[Any]:
    pyx = sorted(glob.glob("src/lakestruct/**/_*_c.pyx", recursive=True))
    if not pyx or os.environ.get("LAKESTRUCT_PURE_PYTHON") == "1":
        return []
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
        return list(cythonize(exts, language_level=3, compiler_directives={"boundscheck": False, "wraparound": False}))
    except Exception as e:  # no Cython or NumPy, or Cython could not translate a twin
        _warn(f"compiled twins not built ({type(e).__name__}: {e})")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
