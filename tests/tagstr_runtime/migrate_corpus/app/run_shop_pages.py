"""The shop's pages."""

from decimal import Decimal

from shop import money
from shop import catalog

print(catalog.table())
for line in catalog.widths(12):
    print(line)
print(catalog.codes())
print(catalog.debug_view(Decimal("14.75")))
print(catalog.formats(Decimal("2")))
print(money"total: {Decimal('9.999')}")
