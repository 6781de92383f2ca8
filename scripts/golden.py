#!/usr/bin/env python3
"""Golden corpus for the `pml` command-line tool: byte-for-byte regression cases.

Every case in tests/golden/cases.txt is one `pml` invocation; its exit code, stdout,
stderr and every file it writes under `{out}` are recorded in
tests/golden/expected/NAME.out. `check` reruns each case and compares; `regenerate`
rewrites the expectations.

    python3 scripts/golden.py check      [--pml PATH] [--only NAME]...
    python3 scripts/golden.py regenerate [--pml PATH] [--only NAME]...

The default PATH is ${CARGO_TARGET_DIR:-target}/release/pml (a relative `target` is
taken from the repository root). Standard library only; any python3 >= 3.8.

POLICY: the corpus is the proof that a change keeps the CLI's behaviour
byte-identical. A change that alters output ON PURPOSE regenerates the corpus
(`regenerate`, then review `git diff tests/golden/expected`) and says in its commit
message which outputs changed and why. Never regenerate to make an unexplained
difference go away.

Format of cases.txt: one case a line, `NAME<TAB>ARGS`, ARGS split like a shell
(shlex) and passed to `pml` without a shell. `#` starts a comment line; blank lines
are ignored. NAME is [A-Za-z0-9_.-]+. Paths are relative to tests/golden (every case
runs with that directory as its working directory): inputs are `inputs/FILE`. The
placeholder `{out}` is a fresh, empty temporary directory per case; every file found
in it afterwards (sorted by name) is part of the expectation, and the directory's path
is written back as `{out}` wherever it appears in stdout, stderr or the files.

Fixed environment for every case: only PATH is inherited; LC_ALL=C, LANG=C,
RAYON_NUM_THREADS=1, TZ=UTC; stdin is /dev/null and stdout/stderr are pipes (not a
terminal: no progress bars, and the default format is JSON). One thread matters: when
several mechanisms are optimal, parallel pricing may return another one (seen with
`--pricing enumerate` at N = 16 on 2 threads), so only the single-threaded output is a
stable expectation.

Nothing is masked: every byte the tool prints is compared. (Keep cases free of
nondeterministic output: no --time-limit, no `apply` without --seed.)

Layout of an expected file:

    == args ==          the ARGS as written in cases.txt
    == exit ==          the exit code
    == stdout ==        ...
    == stderr ==        ...
    == file NAME ==     one section per file written under {out}

A section whose content does not end with a newline is followed by the line
`\\ no newline at end`.
"""

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden")
CASES = os.path.join(GOLDEN, "cases.txt")
EXPECTED = os.path.join(GOLDEN, "expected")
PLACEHOLDER = "{out}"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
TIMEOUT = 120  # seconds per case; a case that hangs fails instead of blocking CI
DIFF_LINES = 40


def fail_usage(msg):
    print(f"golden: {msg}", file=sys.stderr)
    sys.exit(2)


def load_cases():
    cases = []
    seen = set()
    with open(CASES, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if "\t" not in line:
                fail_usage(f"cases.txt:{lineno}: expected NAME<TAB>ARGS")
            name, args = line.split("\t", 1)
            name = name.strip()
            if not NAME_RE.match(name):
                fail_usage(f"cases.txt:{lineno}: bad case name {name!r}")
            if name in seen:
                fail_usage(f"cases.txt:{lineno}: duplicate case name {name!r}")
            seen.add(name)
            try:
                argv = shlex.split(args)
            except ValueError as e:
                fail_usage(f"cases.txt:{lineno}: {e}")
            cases.append((name, args.strip(), argv))
    return cases


def environment():
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LC_ALL": "C",
        "LANG": "C",
        "RAYON_NUM_THREADS": "1",
        "TZ": "UTC",
    }


def section(title, data):
    text = data.decode("utf-8", errors="backslashreplace")
    if text and not text.endswith("\n"):
        text += "\n\\ no newline at end\n"
    return f"== {title} ==\n{text}"


def run_case(pml, args_text, argv):
    """Runs one case; returns the rendered expectation text."""
    with tempfile.TemporaryDirectory(prefix="pml-golden-") as tmp:
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        real = os.path.realpath(out)
        full = [pml] + [a.replace(PLACEHOLDER, out) for a in argv]
        try:
            p = subprocess.run(
                full,
                cwd=GOLDEN,
                env=environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                timeout=TIMEOUT,
            )
            code, stdout, stderr = str(p.returncode), p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            code = f"timeout after {TIMEOUT} s"
            stdout, stderr = e.stdout or b"", e.stderr or b""

        def scrub(b):
            for path in {real, out}:
                b = b.replace(path.encode(), PLACEHOLDER.encode())
            return b

        parts = [
            section("args", args_text.encode() + b"\n"),
            section("exit", code.encode() + b"\n"),
            section("stdout", scrub(stdout)),
            section("stderr", scrub(stderr)),
        ]
        for dirpath, dirnames, filenames in os.walk(out):
            dirnames.sort()
            for fn in sorted(filenames):
                path = os.path.join(dirpath, fn)
                rel = os.path.relpath(path, out).replace(os.sep, "/")
                with open(path, "rb") as f:
                    parts.append(section(f"file {rel}", scrub(f.read())))
        return "".join(parts)


def expected_path(name):
    return os.path.join(EXPECTED, name + ".out")


def read_expected(name):
    try:
        with open(expected_path(name), encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None


def default_pml():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "release", "pml")


def select(cases, only):
    if not only:
        return cases
    names = {c[0] for c in cases}
    for n in only:
        if n not in names:
            fail_usage(f"--only {n}: no such case in cases.txt")
    return [c for c in cases if c[0] in only]


def stale_files(cases):
    names = {c[0] for c in cases}
    return sorted(
        f for f in os.listdir(EXPECTED) if f.endswith(".out") and f[:-4] not in names
    )


def check(pml, cases, full_run):
    start = time.monotonic()
    passed = failed = 0
    for name, args_text, argv in cases:
        got = run_case(pml, args_text, argv)
        want = read_expected(name)
        if want == got:
            passed += 1
            continue
        failed += 1
        if want is None:
            print(f"FAIL {name}: no expected file tests/golden/expected/{name}.out"
                  " (run `regenerate`)")
            continue
        print(f"FAIL {name}")
        diff = list(difflib.unified_diff(
            want.splitlines(keepends=True), got.splitlines(keepends=True),
            fromfile=f"expected/{name}.out", tofile=f"actual/{name}.out"))
        for line in diff[:DIFF_LINES]:
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        if len(diff) > DIFF_LINES:
            print(f"... ({len(diff) - DIFF_LINES} more diff lines)")
    if full_run:
        for f in stale_files(cases):
            print(f"warning: tests/golden/expected/{f} has no case in cases.txt")
    print(f"golden: ran {len(cases)} cases in {time.monotonic() - start:.1f} s")
    print(f"golden: {passed} passed, {failed} failed")
    return 1 if failed else 0


def regenerate(pml, cases, full_run):
    os.makedirs(EXPECTED, exist_ok=True)
    changed = new = same = 0
    for name, args_text, argv in cases:
        got = run_case(pml, args_text, argv)
        want = read_expected(name)
        if want == got:
            same += 1
            continue
        if want is None:
            new += 1
            print(f"new     {name}")
        else:
            changed += 1
            print(f"changed {name}")
        with open(expected_path(name), "w", encoding="utf-8", newline="") as f:
            f.write(got)
    removed = 0
    if full_run:
        for f in stale_files(cases):
            os.remove(os.path.join(EXPECTED, f))
            removed += 1
            print(f"removed {f}")
    print(f"golden: regenerated {len(cases)} cases: {changed} changed, {new} new, "
          f"{same} unchanged, {removed} stale removed")
    return 0


def main():
    ap = argparse.ArgumentParser(
        description="Golden corpus for the pml CLI (see the top of this file).")
    ap.add_argument("mode", choices=["check", "regenerate"])
    ap.add_argument("--pml", default=None,
                    help="the pml binary (default: ${CARGO_TARGET_DIR:-target}/release/pml)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="run only this case (repeatable)")
    opts = ap.parse_args()
    pml = os.path.abspath(opts.pml) if opts.pml else default_pml()
    if not os.access(pml, os.X_OK):
        fail_usage(f"no executable pml at {pml} (build it, or pass --pml PATH)")
    cases = select(load_cases(), opts.only)
    return (check if opts.mode == "check" else regenerate)(pml, cases, not opts.only)


if __name__ == "__main__":
    sys.exit(main())
