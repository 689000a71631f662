"""Running programs that contain tag strings as ``python`` runs them.

(The runner, its console and the compile hooks join this package in the
planned layout; what is here so far: ``_top_level``, the end of a main
program as CPython's top level handles it, and ``_main_script``, the
``python script.py`` path of the start-up hook.)
"""
