"""The site's examples: a compiled DOM builder, SQL bindings named after expressions."""

from tsite.htmltag import html
from tsite.sql import sql

for i in range(2):
    print(html"<body class=page><p>{i} and {print('value') or i * 10}</p></body>")  # expect: MIG001
num = 50
base = sql"select 1, 0, 1"
step = sql"select n + 1 from fib where n < {num}"
query = sql"with fib (n) as ({base} union all {step}) select n from fib limit {num}"
print(query.sql, query.bindings)
print(sql"select {num} + {num} and { num }".bindings)  # expect: MIG017
print(sql"select {num * 2}".sql)
