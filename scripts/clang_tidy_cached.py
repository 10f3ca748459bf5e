#!/usr/bin/env python3
"""Runs clang-tidy (the checks of .clang-tidy) over every translation unit of a
compile database, N at a time, skipping units whose clean result is cached.

clang-tidy parses each unit as a compiler does and nothing caches that, so over
500 units it cost more than any build stage of CI. A unit's result depends only
on clang-tidy's version, .clang-tidy, the unit's compile flags and its
preprocessed text (every header it includes), so those are the cache key, with
the checkout's own path taken out: a clone in another folder hits the same
entries. Only clean results are stored; a unit with findings runs every time.

    clang_tidy_cached.py -p BUILD_DIR [-j JOBS] [FILE ...]

The cache is $CANOPY_TIDY_CACHE, else $XDG_CACHE_HOME/canopy-tidy, else
~/.cache/canopy-tidy; CANOPY_TIDY_CACHE=off turns it off. Exit status 1 when any
unit has a finding (or clang-tidy fails), after all units ran.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import pathlib
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cache_dir():
    configured = os.environ.get("CANOPY_TIDY_CACHE")
    if configured == "off":
        return None
    if configured:
        path = pathlib.Path(configured)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/root"), ".cache")
        path = pathlib.Path(base) / "canopy-tidy"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK) else None


def compile_arguments(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def preprocess_arguments(arguments):
    """The compile command turned into one that writes the preprocessed unit to stdout."""
    result = []
    skip = False
    for argument in arguments:
        if skip:
            skip = False
            continue
        if argument == "-o":
            skip = True
            continue
        if argument == "-c":
            continue
        result.append(argument)
    return result + ["-E", "-P", "-o", "-"]


def unit_key(entry, common, root_text):
    """The cache key of one unit, or None where it cannot be preprocessed."""
    arguments = compile_arguments(entry)
    preprocessed = subprocess.run(preprocess_arguments(arguments), cwd=entry["directory"], capture_output=True)
    if preprocessed.returncode != 0:
        return None
    digest = hashlib.sha256(common)
    digest.update(" ".join(arguments).replace(root_text, "@ROOT@").encode())
    digest.update(b"\0")
    digest.update(preprocessed.stdout.replace(root_text.encode(), b"@ROOT@"))
    return digest.hexdigest()


def check(entry, build_dir, cache, common, root_text):
    """(file, clean, from_cache, output) for one unit."""
    file = entry["file"]
    key = unit_key(entry, common, root_text) if cache else None
    stamp = cache / key[:2] / key if key else None
    if stamp is not None and stamp.exists():
        return file, True, True, ""
    tidy = subprocess.run(["clang-tidy", "-p", str(build_dir), "-quiet", file], capture_output=True, text=True)
    output = tidy.stdout + tidy.stderr
    findings = any(marker in output for marker in (" warning: ", " error: "))
    clean = tidy.returncode == 0 and not findings
    if clean and stamp is not None:
        stamp.parent.mkdir(exist_ok=True)
        stamp.touch()
    return file, clean, False, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-p", dest="build_dir", required=True, help="folder with compile_commands.json")
    parser.add_argument("-j", dest="jobs", type=int, default=2)
    parser.add_argument("files", nargs="*", help="only these units (default: all)")
    options = parser.parse_args()
    build_dir = pathlib.Path(options.build_dir).resolve()
    entries = json.loads((build_dir / "compile_commands.json").read_text())
    if options.files:
        wanted = {str(pathlib.Path(f).resolve()) for f in options.files}
        entries = [e for e in entries if str(pathlib.Path(e["directory"], e["file"]).resolve()) in wanted]
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    common = (version + (ROOT / ".clang-tidy").read_text()).encode()
    cache = cache_dir()
    root_text = str(ROOT)
    failed, cached = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        jobs = [pool.submit(check, entry, build_dir, cache, common, root_text) for entry in entries]
        for job in concurrent.futures.as_completed(jobs):
            file, clean, from_cache, output = job.result()
            cached += from_cache
            if not clean:
                failed.append(file)
                sys.stdout.write(output)
                sys.stdout.flush()
    print(f"clang-tidy: {len(entries)} units, {cached} clean in the cache, {len(failed)} with findings")
    for file in sorted(failed):
        print(f"  {os.path.relpath(file, root_text)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
