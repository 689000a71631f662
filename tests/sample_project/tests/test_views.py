from shop.report import summary
from shop.views import listing, product


def test_product() -> None:
    assert product("tea", 2) == "<li>tea: 2.00 EUR</li>"


def test_listing() -> None:
    assert listing({}) == "<p>nothing</p>"
    assert (
        html_free(listing({"<x>": 1.5})) == "<h1>Shop &amp; more</h1><li>&lt;x&gt;: 1.50 EUR</li>"
    )


def test_summary() -> None:
    assert summary({"a": 1}).startswith("<H1>SHOP &AMP; MORE</H1>")


def html_free(text: str) -> str:
    return text
