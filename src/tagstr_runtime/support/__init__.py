"""Under every layer, standard library only: one way to hook a third-party function, and the
one ``TAGSTR_STRICT`` switch every catch-all of the project reads (``patching``).
"""
