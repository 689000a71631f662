"""From a source with tag strings to the trees and texts each consumer needs: the placeholder
text CPython parses, the generator that puts each tag string's call in its place, the emitters.
"""
