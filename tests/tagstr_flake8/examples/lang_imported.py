# OPTIONS: --max-line-length=120 --tag-languages=webtags.page=html,query=sql
# REQUIRES: html5lib sqlglot
"""Tags imported from modules outside the tree (not found beside the file): their language comes from
--tag-languages."""
from webtags import page
from webtags import page as p

from db import query

x = "v"
a1 = page"<p>{x}</span>"  # TAG101:17
a2 = p"<p>{x}</span>"  # TAG101:14
a3 = query"SELECT * FROM {x}"  # TAG202:26
