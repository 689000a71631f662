"""TAG005: an interpolation in a class body naming a class variable."""
from tags import sql

table = "fallback"


class Users:
    table = "users"
    limit = 10
    query = sql"FROM {table} LIMIT {limit}"  # TAG005:23 TAG005:37 F821:37
    spec = sql"{__name__:{limit}}"
    inner = sql"{[limit for limit in range(3)]}"

    def method(self):
        return sql"FROM {table}"


class Other:
    query = sql"SELECT * FROM {table}"
