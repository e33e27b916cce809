"""Build: run tools/gen_tables.py into the build tree, then cythonize and compile the extension."""
import glob
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class GenerateThenBuild(build_ext):
    def finalize_options(self):
        super().finalize_options()
        # Compile the extensions side by side, one per core (threads: safe on every platform):
        # compiling is most of the time of a fresh install.
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        generated = os.path.join(os.path.abspath(self.build_temp), "generated")
        subprocess.check_call([sys.executable, os.path.join(HERE, "tools", "gen_tables.py"), generated])
        for ext in self.extensions:
            ext.include_dirs.append(generated)
        from Cython.Build import cythonize

        compiled = cythonize(self.extensions, compiler_directives={"language_level": 3},
                             build_dir=os.path.join(self.build_temp, "cython"))
        for ext, done in zip(self.extensions, compiled):
            ext.sources = done.sources      # keep setuptools' own Extension objects
        super().run()

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/O2"]
        else:
            flags = ["-O3"]
            # Opt-in for local builds only: wheels must run on any CPU of their architecture.
            if os.environ.get("HANDRANK_NATIVE") == "1":
                flags.append("-march=native")
        # Every kernel on its plain-C path (src/handrank/_bits.h): the code a compiler without
        # GNU builtins or MSVC intrinsics runs, built and tested here by CI.
        portable = [("HANDRANK_PORTABLE", "1")] if os.environ.get("HANDRANK_PORTABLE") == "1" else []
        for ext in self.extensions:
            ext.extra_compile_args = flags + ext.extra_compile_args
            ext.define_macros = portable + ext.define_macros
        super().build_extensions()


def extensions():
    """One extension per .pyx under src/handrank, named for its path (src/handrank/ofc/_ofc.pyx ->
    handrank.ofc._ofc), so that a new compiled module needs no line here."""
    found = []
    for source in sorted(glob.glob("src/handrank/**/*.pyx", recursive=True)):
        name = os.path.splitext(os.path.relpath(source, "src"))[0].replace(os.sep, ".")
        # src/handrank holds _bits.h, the portable bit helpers every kernel includes
        found.append(Extension(name, [source.replace(os.sep, "/")], include_dirs=["src/handrank"]))
    return found


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": GenerateThenBuild},
)
