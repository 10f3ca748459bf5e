// The one list of drivers.
#include <cstdio>

#include "driver.h"

namespace canopy_bench {
namespace {

constexpr Driver kDrivers[] = {
    {"matmul", "matmul",
     "ops matmul, mm, bmm, addmm (--dt=f32|bf16|f16, --bias=n|mn, --cube=0..4), quantmatmul (QuantMatmulV3, --dt=i8, "
     "bf16 out); problem MxKxN or BxMxKxN (B: batch)",
     nullptr, RunMatmulDriver},
    {"eltwise", "add",
     "ops add, sub, mul, div, cast; problem 16M or 1024x1024 (K, M, G: powers of 1024); "
     "--dt=f32|f16|bf16, cast: --sdt= --ddt=",
     nullptr, RunEltwiseDriver},
    {"layout", "add",
     "binary ops over transposed operands against row-major ones (add, sub, mul, div); problem 2048x2048; "
     "--dt=f32|f16|bf16",
     "2048x2048", RunLayoutDriver},
    {"unary", "exp,sigmoid",
     "pointwise ops of one tensor (exp, sigmoid, ...; pow = PowTensorScalar ^2.5, muls, adds); problem 16M; "
     "--dt=f32|f16|bf16; against a two-thread copy loop and SLEEF's own two-thread vector loop",
     "16M", RunUnaryDriver},
    {"overhead", "all",
     "framework costs; problem 'all' or one of phase1-miss, phase1-hit, phase2, enqueue, tiny, tiny-client, sync, "
     "event, streams, onednn-tiny (--reps: rounds)",
     "all", RunOverheadDriver},
    {"reduce", "sum",
     "ops sum (ReduceSum), mean: problem SHAPE:DIMS, e.g. 4096x4096:0 (no ':': every dim), against a two-thread read "
     "loop; softmax, rmsnorm, layernorm over the last dim: problem ROWSxCOLS, against a two-thread copy loop; "
     "--dt=f32|f16|bf16",
     nullptr, RunReduceDriver},
    {"conv", "conv",
     "ops conv (Convolution, with bias), avgpool (AvgPool2d, padding counted), maxpool (MaxPool) over NCHW; problem "
     "NxCxHxW:OCxKHxKW[:sS][:pP][:dD][:gG] (conv) or NxCxHxW:KHxKW[:sS][:pP] (pooling); --dt=f32|bf16|f16; against "
     "the same oneDNN primitive, weights reordered once",
     nullptr, RunConvDriver},
    {"hccl", "allreduce,allgather",
     "ops allreduce (HcclAllReduce), allgather (HcclAllGather), fp32, across processes on loopback; problem "
     "RANKS:BYTES, RANKS:LOW-HIGH (x4 steps) or all (2 and 4 ranks, 4K-256M); nccl-tests bus bandwidth against "
     "Gloo's own allreduce / allgather in the same processes",
     "all", RunHcclDriver},
    {"qmatmul", "w8,w4",
     "ops w8, w4 (WeightQuantBatchMatmulV2, INT8 / INT4 weight as llama.cpp passes it, a scale per G rows of K); "
     "problem MxKxN[:gG] (G default 32); --dt=f16|bf16; against a read of the weight bytes (M <= 16) or Canopy's "
     "bf16 Matmul of the shape",
     nullptr, RunQmatmulDriver},
    {"attention", "fia",
     "op fia (FusedInferAttentionScoreV2, BSND, grouped-query heads over a KV cache, no mask); problem "
     "BxSqxNxNkvxDxKV, e.g. 1x1x32x8x128x4096 (decode) or 1x512x32x8x128x512; --dt=f16|bf16; against a read of "
     "the K and V bytes (Sq <= 4) or Canopy's bf16 Matmul doing the same multiply-adds",
     nullptr, RunAttentionDriver},
    {"movement", "cat,permute,gatherv2,repeat",
     "ops cat, permute, gatherv2, repeat (data movement); problem SHAPE[:dD][:nN][:iI][:x32][:rRxR..][:pPxP..]: cat "
     "of N (2) members along D (0), permute by P (the two inner dims swapped), gatherv2 of I (extent / 2) random "
     "indices (int64, x32: int32) along D, repeat by R (2 along dim 0); --dt=f32|f16|bf16|i8|i32|...; against a "
     "two-thread copy loop over the output's bytes",
     nullptr, RunMovementDriver},
};

}  // namespace

const Driver* FindDriver(const std::string& name) {
  for (const Driver& driver : kDrivers) {
    if (name == driver.name) return &driver;
  }
  return nullptr;
}

void PrintDrivers() {
  for (const Driver& driver : kDrivers) std::printf("  --driver=%-9s %s\n", driver.name, driver.usage);
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  size_t position = 0;
  while (position <= text.size()) {
    const size_t comma = std::min(text.find(',', position), text.size());
    if (comma > position) items.push_back(text.substr(position, comma - position));
    position = comma + 1;
  }
  return items;
}

std::vector<std::string> OpsOf(const Settings& settings, const Driver& driver) {
  return settings.ops.empty() ? SplitList(driver.default_ops) : settings.ops;
}

}  // namespace canopy_bench
