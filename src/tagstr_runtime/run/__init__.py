"""Running programs that contain tag strings as ``python`` runs them: compiling
(``compile``, ``compile_hook``), the ``python -m tagstr_runtime`` runner and its
console, precompiling, ``inspect``'s source, and what a tag does with a value
(``formatting``)."""
