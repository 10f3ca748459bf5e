#!/usr/bin/env python3
"""Every exported C function is a function-try-block (src/common/c_boundary.h).

  scripts/c_boundary.py --check   lists exported definitions without a handler (CI)
  scripts/c_boundary.py --apply   adds the handler to each of them
  (either takes folders to look in instead of src/)

An exported definition is a top-level function whose name starts with acl,
canopy or Hccl, defined in a .cpp file under src/ (clang-format style: the
signature starts in column 0 and the body ends with a '}' in column 0).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIGNATURE = re.compile(r"^(?:extern \"C\" )?(?P<type>[A-Za-z_][A-Za-z0-9_ ]*?[ \*]+)(?P<name>(?:acl|canopy|Hccl)[A-Za-z0-9_]*)\(")


def handler(return_type):
    t = return_type.replace(" ", "")
    if t == "aclError":
        return "CANOPY_C_BOUNDARY_ACL"
    if t == "aclnnStatus":
        return "CANOPY_C_BOUNDARY_ACLNN"
    if t == "void":
        return "CANOPY_C_BOUNDARY()"
    if t.endswith("*"):
        return "CANOPY_C_BOUNDARY(nullptr)"
    return "CANOPY_C_BOUNDARY({})"


def definitions(lines):
    """Yields (start, brace_line, end) of each exported definition."""
    i = 0
    while i < len(lines):
        m = SIGNATURE.match(lines[i])
        if not m:
            i += 1
            continue
        # The signature runs until a line that ends in '{' (or ';' for a declaration).
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";", "}")) :
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):
            i = j + 1
            continue
        if lines[j].rstrip().endswith("}") and lines[j].count("{") >= 1 and j == i:
            yield m, i, j, j  # one-line definition
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith("}"):
            k += 1
        yield m, i, j, k
        i = k + 1


def process(path, apply):
    lines = path.read_text().split("\n")
    missing = []
    for m, start, brace, end in reversed(list(definitions(lines))):
        body = "\n".join(lines[start : end + 1])
        after = lines[end + 1] if end + 1 < len(lines) else ""
        handled = "CANOPY_C_BOUNDARY" in lines[end] or after.startswith("CANOPY_C_BOUNDARY")
        if re.search(r"\)\s*try\s*\{", body) and handled:
            continue
        missing.append(f"{path.relative_to(ROOT)}:{start + 1}: {m.group('name')}")
        if not apply:
            continue
        h = handler(m.group("type"))
        if brace == end:  # one line: 'T f(args) { body }'
            line = lines[start]
            open_at = line.index(") {") + 1
            lines[start] = line[:open_at] + " try" + line[open_at:] + " " + h
        else:
            lines[brace] = lines[brace][: lines[brace].rstrip().rfind("{")] + "try {"
            lines[end] = "} " + h + lines[end][1:]
    if apply and missing:
        include = '#include "common/c_boundary.h"'
        if include not in lines:
            last = max(i for i, line in enumerate(lines) if line.startswith('#include "'))
            lines.insert(last + 1, include)
        path.write_text("\n".join(lines))
    return missing


def main():
    apply = "--apply" in sys.argv
    roots = [ROOT / arg for arg in sys.argv[1:] if not arg.startswith("--")] or [ROOT / "src"]
    missing = []
    for path in sorted(p for root in roots for p in root.rglob("*.cpp")):
        missing += process(path, apply)
    if missing and not apply:
        print("exported C functions without a C-boundary handler (src/common/c_boundary.h):", file=sys.stderr)
        print("\n".join("  " + m for m in reversed(missing)), file=sys.stderr)
        print("fix with: python3 scripts/c_boundary.py --apply", file=sys.stderr)
        return 1
    print(f"c_boundary: {len(missing)} definitions {'changed' if apply else 'missing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
