"""TAG012: Python 2 syntax read as a tag string."""


def main(name):
    print"Hello {name}"  # TAG012:5
    exec"x = 1"  # TAG012:5
    return ur"\d+"  # TAG012:12 F821:12


def shadowed(print, ur):
    return print"x", ur"y"


def unrelated(exec):
    return exec
