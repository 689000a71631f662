"""TAG005: an interpolation in a class body naming a class variable."""
from tags import sql

table = "fallback"


class Users:
    table = "users"
    limit = 10
    query = sql"SELECT * FROM {table} LIMIT {limit}"  # TAG005:32 TAG005:46 F821:46
    spec = sql"{__name__:{limit}}"
    inner = sql"{[limit for limit in range(3)]}"

    def method(self):
        return sql"FROM {table}"


class Other:
    query = sql"SELECT * FROM {table}"
