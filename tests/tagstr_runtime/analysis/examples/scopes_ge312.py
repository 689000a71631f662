"""Type parameters (3.12+): an annotation scope of their own."""


def generic[T](value: T, tag) -> T:  # bind: T=T value=VALUE
    return tag"{value} {T}"  # read: value=VALUE T=T


class Box[T]:  # bind: T=CT
    kind = T  # read: T=CT

    def get[U](self, item: U) -> U:  # bind: U=U
        return tag"{item} {U} {T}"  # read: U=U T=CT tag=builtin


type Alias[K] = dict[K, int]  # bind: K=K Alias=ALIAS # read: K=K
