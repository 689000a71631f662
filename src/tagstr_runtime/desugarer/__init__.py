"""From a source with tag strings to the trees and texts each consumer needs: the placeholder
text CPython parses, the generator that puts each tag string's call in its place, the emitters
(the runtime's ``Interpolation`` call written and read in ``interpolation_call``), and what
every emitter and consumer shares of a desugaring: its sites (``sites``) and the scopes of its
tree (``scopes``).
"""
