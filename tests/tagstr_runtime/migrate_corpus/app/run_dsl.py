"""Regexes, queries, shell lines."""

from dsl.query import q, show
from dsl.rx import pattern, rx
from dsl.shell import sh

word = "a.b"
print(rx"^\d+ {word}$".pattern)
print(rx"^\w+\t{word}\n".pattern)  # expect: MIG002 MIG016
print(pattern"^\d+ {word}$")
print(pattern"^\d+\t{word}$")  # expect: MIG016
user_id, limit = 7, 10
inner = q"SELECT id FROM banned WHERE since > {limit}"
print(q"SELECT * FROM users WHERE id = {user_id} AND id NOT IN {inner} LIMIT {limit}")
print(q"SELECT * FROM t WHERE a = { user_id } OR b = {limit + 1}")  # expect: MIG017
print(q"SELECT * FROM t WHERE x IN {q'SELECT 1 WHERE y = {limit}'}")  # expect: MIG017
print(show"""{user_id} {show"{limit}"} {(user_id, # the id
limit)}""")  # expect@-1: MIG017
name = "it's here"
print(sh"ls -l {name} | grep {word}")
