# OPTIONS: --max-line-length=120
# REQUIRES: sqlglot
"""SQL tags: syntax at the bad token, holes judged by their position."""
from typing import Annotated

from tagstr_runtime import Decoded, Interpolation


def sql(*args: Annotated[Decoded | Interpolation, "sql"]) -> str:
    return "".join(str(a) for a in args)


uid, name, table, column, pattern = 1, "x", "users", "age", "a%"

# fine: value holes, declared identifiers (psycopg's {name:i})
ok1 = sql"SELECT * FROM users WHERE id = {uid} AND name = {name}"
ok2 = sql"SELECT {column:i} FROM {table:i} WHERE id = {uid}"
ok3 = sql"INSERT INTO users (name, age) VALUES ({name}, {uid})"
ok4 = sql"SELECT * FROM users WHERE name LIKE {pattern} LIMIT {uid};"
ok5 = sql"UPDATE users SET name = {name} WHERE id = {uid}"

bad1 = sql"SELEC * FROM users WHERE id = {uid}"  # TAG201:12
bad2 = sql"SELECT * FROM users WHERE (id = {uid}"  # TAG201:49
bad3 = sql"SELECT * FROM users WHERE id = {uid} AND AND 1"  # TAG201:53
bad4 = sql"SELECT * FROM {table} ORDER BY {column}"  # TAG202:26 TAG202:43
bad5 = sql"SELECT * FROM users ORDER BY age {name}"  # TAG203:45
bad6 = sql"SELECT * FROM users WHERE name = '{name}'"  # TAG204:46
bad7 = sql"SELECT * FROM users WHERE name LIKE '%{pattern}%'"  # TAG204:50
bad8 = sql"SELECT * FROM users -- for {name}\nWHERE id = 1"  # TAG205:39
bad9 = sql"SELECT * FROM users WHERE id = {uid}{uid}"  # TAG206:48
bad10 = sql"DELETE FROM users WHERE id = {uid}; DROP TABLE users"  # TAG207:49
bad11 = sql"SELECT name FROM users WHERE name = 'x"  # TAG201:49
bad12 = sql"""
    SELECT name
    FROM users WHERE name = '{name}'
"""  # @-1 TAG204:30
