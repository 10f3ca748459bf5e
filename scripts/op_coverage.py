#!/usr/bin/env python3
"""Writes the coverage section of docs/ops.md: for each family folder of CANN's
op repositories, which documented forward ops Canopy registers (or exports as
plain host functions), which not yet, and which CANN runs only on other chips
than Atlas A2 (NOT_ON_A2, with the evidence).

    python3 scripts/op_coverage.py --build build \
        --cann ops-math=/path/to/ops-math --cann ops-nn=/path/to/ops-nn ...

Each --cann names a checkout (or a bare git directory) of one of hicann's op
repositories; the documented ops are the names of its `<folder>/<op>/docs/
aclnnXxx.md` files (a file may document several, `aclnnA&aclnnInplaceA.md`),
outside `experimental/`, without `*Backward` and `*Grad`. The registered ops
come from the built libopapi (canopyOpCount / canopyOpAt). Without --cann the
documented lists already in docs/ops.md are kept and only re-split by what is
registered now, so adding an op needs only a rerun with --build.

tests/ops/registry_test.cpp fails when the section and the registry disagree.
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
from collections import defaultdict

BEGIN = "<!-- coverage:begin (scripts/op_coverage.py writes this section) -->"
END = "<!-- coverage:end -->"
DOC_NAME = re.compile(r"^([^/]+)/(?:.*/)?docs/(aclnn[A-Za-z0-9&]+)\.md$")
BACKWARD = re.compile(r"(Backward|Grad)(V\d+)?$")
# A doc file named differently from the function it documents.
DOC_ALIASES = {"TransposeBatchMatMulWeightNZ": "TransposeBatchMatMulWeightNz"}

# Documented ops CANN does not run on Atlas A2 (910B), which Canopy therefore
# leaves out (code written against Canopy must not fail on an NPU): the doc's
# product table says so and CANN's code agrees. The evidence, per group:
_ON_310P = ("op definition configures ascend310p only", [
    "BackgroundReplace", "BlendImagesCustom", "MrgbaCustom", "BidirectionLSTM", "BidirectionLSTMV2",
    "TransConvolutionWeight", "MatmulCompress", "MatmulCompressDequant", "QuantMatmulDequant"])
_NMS = ("op_api runs on DAV_2002 (310P) only, else 361001", ["NonMaxSuppression"])
_ON_950 = ("op definition configures ascend950 only, or op_api refuses any chip but the 950 (IsRegBase)", [
    "CIoU", "RoiPoolingWithArgMax", "RoiPoolingGradWithArgMax", "Xlog1py", "MaskedScale",
    "InplaceRandomWithoutFromTo", "InplaceRandomWithoutFromToTensor", "DropoutV3", "AddLayerNormQuant",
    "RmsNormQuantV3", "ApplyAdam", "CrossEntropySumExpAndIndexLogit", "DynamicQuantV3", "DynamicQuantV4",
    "QuantMax", "GroupedQuantMax", "InplaceQuantScatterV2", "Bucketize", "ScatterDiv", "ScatterMax",
    "ScatterMin", "ScatterMul", "ClippedSwigluV2", "GeluQuant", "SwigluGroup", "SwigluGroupQuant",
    "ConfusionTranspose", "StridedSlice", "WeightQuantPreprocess", "DualLevelQuantMatmulWeightNz", "FusedMatmul",
    "MatmulEmuSplitWeight", "QuantBatchMatmulInplaceAdd", "QuantMatmulActivationQuantWeightNz",
    "TransposeQuantBatchMatMul", "TransposeQuantBatchMatMulWeightNz", "RmsNormGradQuant",
    "GroupedDynamicBlockQuant", "GroupedDynamicBlockQuantV2", "CalculateConvolutionWeightSize"])
_MX = ("MX (microscaling) formats: op definitions configure ascend950 only", [
    "AntiMxQuant", "DynamicBlockMxQuant", "DynamicDualLevelMxQuant", "DynamicMxQuant", "DynamicMxQuantV2",
    "DynamicMxQuantV3", "DynamicMxQuantWithDualAxis", "DynamicMxQuantWithDualAxisV2", "GroupedDynamicMxQuant",
    "GroupedDynamicMxQuantV2", "GroupedDynamicMxQuantWithDualAxis", "MxToBlockMxQuant", "SituMxQuant",
    "SwigluBackwardMxQuantWithDualAxis", "SwigluMxQuant", "SwigluMxQuantWithDualAxis", "AddRmsNormDynamicMxQuant",
    "RmsNormDynamicMxQuant"])
_ON_A3 = ("op definition configures ascend910_93 (Atlas A3) only; the combine-add-rms-norm op_api also refuses "
          "910B with 161002", [
    "MoeDistributeCombineAddRmsNorm", "MoeDistributeCombineAddRmsNormV2", "DistributeBarrier",
    "DistributeBarrierV2", "MoeDistributeBufferReset", "MoeUpdateExpert", "ElasticReceivableInfoCollect",
    "ElasticReceivableTest", "AlltoAllAllGatherBatchMatMul", "BatchMatMulReduceScatterAlltoAll",
    "AlltoAllvGroupedMatMul", "GroupedMatMulAlltoAllv"])
_NO_HOST = ("no host code or kernel for any chip", ["WeightQuantBatchMatmulNz"])
_INSTANCE_NORM = ("op_api accepts Ascend310P only (161002), the definition configures ascend950", ["InstanceNorm"])
_AFTER_A3 = ("the doc's product table marks Atlas A2 and A3 unsupported; what it adds to its predecessor (FP8, HiF8, "
             "FP4 and MX operands, per-block scales) has no 910B kernel in CANN's tiling, whose 910B path is "
             "QuantMatmulAllReduceV3's INT8 product", ["QuantMatmulAllReduceV4"])
NOT_ON_A2 = {name for _, names in (_ON_310P, _NMS, _ON_950, _MX, _ON_A3, _NO_HOST, _INSTANCE_NORM, _AFTER_A3)
             for name in names}


def repo_files(path):
    """Every file path of a checkout or bare git directory, relative to its root."""
    if os.path.isdir(os.path.join(path, ".git")) or os.path.exists(os.path.join(path, "HEAD")):
        out = subprocess.run(["git", "-C", path, "ls-tree", "-r", "--name-only", "HEAD"], check=True,
                             capture_output=True, text=True).stdout
        commit = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], check=True, capture_output=True,
                                text=True).stdout.strip()
        return out.splitlines(), commit
    files = []
    for root, _, names in os.walk(path):
        files += [os.path.relpath(os.path.join(root, n), path) for n in names]
    return files, "working tree"


def documented_ops(files):
    """{folder: set of op names} from the doc file names."""
    folders = defaultdict(set)
    for f in files:
        m = DOC_NAME.match(f)
        if not m or m.group(1) == "experimental":
            continue
        for part in m.group(2).split("&"):
            name = part[len("aclnn"):] if part.startswith("aclnn") else part
            name = DOC_ALIASES.get(name, name)
            if name and not BACKWARD.search(name):
                folders[m.group(1)].add(name)
    return folders


def registered_ops(build):
    for sub in ("lib64", "lib"):
        lib = os.path.join(build, sub, "libopapi.so")
        if os.path.exists(lib):
            break
    else:
        sys.exit(f"no libopapi.so under {build}/lib64 or {build}/lib: build Canopy first")
    opapi = ctypes.CDLL(lib)
    opapi.canopyOpCount.restype = ctypes.c_size_t
    opapi.canopyOpAt.restype = ctypes.POINTER(ctypes.c_char_p)  # the name is the first member
    opapi.canopyOpAt.argtypes = [ctypes.c_size_t]
    return {opapi.canopyOpAt(i)[0].decode() for i in range(opapi.canopyOpCount())}, opapi


def host_functions(opapi, folders, registered):
    """Documented names that are plain host functions in libopapi (aclnnXxx exported, no registry op:
    weight-size calculators, parameter packers)."""
    names = set().union(*folders.values()) - registered
    return {n for n in names if hasattr(opapi, "aclnn" + n)}


LIST_LINES = ("in Canopy:", "in Canopy as host functions:", "not yet:", "not on Atlas A2:")


def parse_section(text):
    """{(repo, folder): set of documented names} and {repo: commit} from an existing section."""
    folders, commits = {}, {}
    if BEGIN not in text:
        return folders, commits
    body = text.split(BEGIN, 1)[1].split(END, 1)[0]
    current = None
    for line in body.splitlines():
        m = re.match(r"^### (\S+) `([^`]+)/`", line)
        if m:
            current = (m.group(1), m.group(2))
            folders[current] = set()
            continue
        m = re.match(r"^- (\S+) at `([0-9a-f]+|working tree)`", line)
        if m:
            commits[m.group(1)] = m.group(2)
        if current and line.startswith(LIST_LINES):
            folders[current] |= {DOC_ALIASES.get(n, n) for n in re.findall(r"`([A-Za-z0-9]+)`", line)}
    return folders, commits


def render(folders, commits, registered, host):
    total = sum(len(v) for v in folders.values())
    have = sum(len(v & (registered | host)) for v in folders.values())
    elsewhere = sum(len((v - registered) & NOT_ON_A2) for v in folders.values())
    lines = [BEGIN, "",
             "Which of the forward ops documented in CANN's op repositories Canopy provides, per family folder "
             "(doc files outside `experimental/`, without `*Backward` and `*Grad`). "
             f"{have} of {total} documented ops; {elsewhere} more run only on other Ascend chips (CANN's docs and "
             "code: not on Atlas A2), which Canopy leaves out (`scripts/op_coverage.py` keeps the evidence), so "
             f"{have} of the {total - elsewhere} that Atlas A2 runs. Read from:", ""]
    lines += [f"- {repo} at `{commit}`" for repo, commit in sorted(commits.items())]
    lines.append("")
    for (repo, folder), names in sorted(folders.items()):
        done = sorted(names & registered)
        functions = sorted(names & host)
        todo = sorted(names - registered - host - NOT_ON_A2)
        elsewhere_here = sorted((names - registered) & NOT_ON_A2)
        lines.append(f"### {repo} `{folder}/` — {len(done) + len(functions)} of {len(names)}")
        lines.append("")
        lines.append("in Canopy: " + (", ".join(f"`{n}`" for n in done) or "none"))
        lines.append("")
        if functions:
            lines.append("in Canopy as host functions: " + ", ".join(f"`{n}`" for n in functions))
            lines.append("")
        lines.append("not yet: " + (", ".join(f"`{n}`" for n in todo) or "none"))
        lines.append("")
        if elsewhere_here:
            lines.append("not on Atlas A2: " + ", ".join(f"`{n}`" for n in elsewhere_here))
            lines.append("")
    lines.append(END)
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True, help="a Canopy build directory (holds lib/libopapi.so)")
    parser.add_argument("--cann", action="append", default=[], metavar="NAME=PATH",
                        help="a CANN op repository, e.g. ops-math=/src/ops-math (repeatable)")
    parser.add_argument("--docs", default=os.path.join(os.path.dirname(__file__), "..", "docs", "ops.md"))
    args = parser.parse_args()

    text = open(args.docs, encoding="utf-8").read()
    folders, commits = parse_section(text)
    for spec in args.cann:
        repo, _, path = spec.partition("=")
        files, commit = repo_files(path)
        folders = {k: v for k, v in folders.items() if k[0] != repo}
        for folder, names in documented_ops(files).items():
            folders[(repo, folder)] = names
        commits[repo] = commit
    if not folders:
        sys.exit("no documented ops: pass --cann NAME=PATH at least once")
    registered, opapi = registered_ops(args.build)
    section = render(folders, commits, registered, host_functions(opapi, folders, registered))
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n## Coverage of CANN's documented ops\n\n" + section + "\n"
    open(args.docs, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
