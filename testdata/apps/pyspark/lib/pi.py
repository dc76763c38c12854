"""Sums the first N terms of Nilakantha's series for pi and writes the
result, "Pi is roughly <pi to 6 places>", to <output dir>/part-00000 on the
cluster through its hadoop command.

usage: pi.py N <output dir>
"""
import os
import subprocess
import sys
import tempfile


def pi(terms):
    total, sign = 3.0, 1.0
    for k in range(1, terms + 1):
        n = 2.0 * k
        total += sign * 4.0 / (n * (n + 1) * (n + 2))
        sign = -sign
    return total


def hadoop(*args):
    subprocess.run(["hadoop", *args], check=True)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: pi.py N <output dir>, got %r" % argv[1:])
    line = "Pi is roughly %.6f\n" % pi(int(argv[1]))
    print(line, end="")
    with tempfile.NamedTemporaryFile("w", dir=".", suffix=".txt", delete=False) as f:
        f.write(line)
    try:
        hadoop("fs", "-mkdir", "-p", argv[2])
        hadoop("fs", "-put", f.name, argv[2] + "/part-00000")
        hadoop("fs", "-touchz", argv[2] + "/_SUCCESS")
    finally:
        os.remove(f.name)


if __name__ == "__main__":
    main(sys.argv)
