"""Orders, then one whose identifier check fails."""

from shop import orders

for query in orders.queries():
    print(query)
print(orders.receipts([("tea", 2), ("cake", 1)]))
print(orders.calls)
try:
    orders.broken()
except ValueError as error:
    print("refused:", error)
print(orders.calls)
orders.broken()
