"""A class named ``Identifier`` from another library (as psycopg's ``sql.Identifier``): a declared identifier type."""


class Identifier:
    def __init__(self, name: str) -> None:
        self.name = name
