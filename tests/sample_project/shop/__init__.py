"""A small shop: tags in ``tags``, tag strings in ``views``, a plain importer in ``report``."""
