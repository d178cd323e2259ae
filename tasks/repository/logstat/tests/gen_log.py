"""Writes a synthetic access log (Common Log Format) to stdout: the fixtures
and the timing inputs of the logstat task. Deterministic for a seed.

    python3 gen_log.py LINES SEED [MALFORMED_PER_MILLE]
"""

import random
import sys

PATHS = ["/", "/index.html", "/about", "/blog", "/blog/feed.xml", "/static/app.js",
         "/static/style.css", "/img/logo.png", "/api/v1/items", "/api/v1/users",
         "/login", "/logout", "/search", "/robots.txt", "/favicon.ico"]
METHODS = ["GET"] * 12 + ["POST"] * 3 + ["HEAD", "PUT", "DELETE"]
STATUSES = ["200"] * 40 + ["304"] * 8 + ["301", "302", "404", "404", "403", "500", "502",
                                         "503", "201", "204", "101"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
BROKEN = ["", "garbage", '10.0.0.1 - - [01/Foo/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 1',
          '10.0.0.1 - - [01/Mar/2024:00:00:00 +0000] "GET /" 200 1',
          '10.0.0.2 - - [01/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 2000 1',
          '10.0.0.3 - - [01/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 12k']


def main():
    lines = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]))
    broken = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    n_ips = max(4, lines // 20)
    ips = [f"{rng.randrange(1, 224)}.{rng.randrange(256)}.{rng.randrange(256)}."
           f"{rng.randrange(1, 255)}" for _ in range(n_ips)]
    month = rng.randrange(12)
    day, hour, minute, second = rng.randrange(1, 27), rng.randrange(24), 0, 0
    out = []
    for _ in range(lines):
        if rng.randrange(1000) < broken:
            out.append(rng.choice(BROKEN))
            continue
        second += rng.randrange(0, 40)
        minute += second // 60
        second %= 60
        hour += minute // 60
        minute %= 60
        day += hour // 24
        hour %= 24
        ip = ips[min(int(rng.paretovariate(1.2)) - 1, n_ips - 1)]
        path = rng.choice(PATHS)
        if rng.randrange(5) == 0:
            path += f"?page={rng.randrange(1, 50)}"
        status = rng.choice(STATUSES)
        size = "-" if status in ("304", "204", "101") else str(rng.randrange(100, 60000))
        out.append(f'{ip} - - [{day:02d}/{MONTHS[month]}/2024:{hour:02d}:{minute:02d}:'
                   f'{second:02d} +0000] "{rng.choice(METHODS)} {path} HTTP/1.1" {status} {size}')
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
