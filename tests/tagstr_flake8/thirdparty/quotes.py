"""Quotes of tag strings."""
d = {'k': 1}
a = html'<b>{d["k"]}</b>'
b = html"{d['k']}"
c = html"plain"  # Q000:9
e = html'{
    d["k"]}'
f = 'ok'
g = "double"  # Q000:5
h = html"{d["k"]}"  # Q000:9
