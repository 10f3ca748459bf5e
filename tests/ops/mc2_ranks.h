// Test support for CANN's mc2 ops (a matmul fused with a collective): the
// ranks of one HcclCommInitAll communicator over devices of this process, a
// stream on each, and a run of one op on every rank at once, as a
// tensor-parallel program runs it (one thread queues each rank's call on its
// own device, then waits for every stream).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hccl/hccl.h"
#include "op_test_support.h"

namespace canopy_test {

// The group name the registry's examples of mc2 ops use; EnsureExampleGroup
// makes a one-rank communicator of that name on device 0.
inline constexpr const char* kExampleGroup = "hccl_world_group";
void EnsureExampleGroup();

// x1 [m, k] @ x2 [k, n] (+ bias [n]) in float64, row-major: one rank's product
// before the NPU rounds it to the output dtype.
std::vector<double> Product(const Values& x1, const Values& x2, const Values* bias, int64_t m, int64_t k, int64_t n);

// Phase 1 only, on the current device (a call expected to be rejected; an
// executor it builds after all is destroyed, never run: a lone rank's
// collective would wait for its peers). Check it with ExpectRejectedWith.
OpRun Phase1Only(const Phase1& phase1);

// A value rounded to `dtype`, as the NPU stores it.
Value Rounded(double v, aclDataType dtype);

// What every rank of an all-reduce form receives: the sum over ranks of each
// rank's exact part (products[r], float64) rounded to `dtype`, plus x3[r]
// (null: none) rounded again, as the NPU writes its part before HCCL sums; a
// tolerance of a few roundoffs of `dtype` over the parts' magnitudes.
Expected SumOfRoundedParts(const std::vector<std::vector<double>>& products, const std::vector<const Values*>& x3,
                           aclDataType dtype);

// y and normOut of a MatmulAllReduceAddRmsNorm form on one rank: y = the
// reduced product (`reduced`, the sum over ranks of the rounded parts; their
// magnitudes in `magnitude`, for the tolerance) + residual, rounded; normOut =
// rmsnorm(y) * gamma of y as CANN's kernels take it (the rounded y in f16, the
// unrounded sum in bf16).
void AddRmsNormReference(const std::vector<double>& reduced, const std::vector<double>& magnitude,
                         const Values& residual, const Values& gamma, int64_t n, aclDataType dtype, double eps,
                         Expected& y, Expected& norm);

// An f32 scale cut to the 10-bit mantissa TransQuantParamV2 keeps, and the
// UINT64 word it packs it into (bit 46 set), for dequantScale tensors.
double Fp19(double v);
double PackedScaleWord(double fp19);

class Ranks {
 public:
  // A communicator over devices 0 .. size-1 (CANOPY_DEVICE_COUNT must allow them).
  explicit Ranks(uint32_t size);
  ~Ranks();
  Ranks(const Ranks&) = delete;
  Ranks& operator=(const Ranks&) = delete;

  uint32_t size() const { return static_cast<uint32_t>(comms_.size()); }
  // The communicator's name, as HcclGetCommName gives it: the ops' `group`.
  const char* group() const { return group_.c_str(); }
  HcclComm comm(uint32_t rank) const { return comms_[rank]; }
  aclrtStream stream(uint32_t rank) const { return streams_[rank]; }
  // Makes `rank`'s device current (tensors are allocated there; phase 1 finds
  // the rank's communicator by it).
  void OnDevice(uint32_t rank) const;

  // Phase 1 of every rank on its device, then phase 2 on its stream, then
  // every stream synchronised. `phase1(rank, args, ...)` builds rank's call.
  using RankPhase1 = std::function<aclnnStatus(uint32_t rank, OpArgs& args, uint64_t*, aclOpExecutor**)>;
  std::vector<OpRun> Run(const RankPhase1& phase1, Phase2 phase2) const;

 private:
  std::vector<HcclComm> comms_;
  std::vector<aclrtStream> streams_;
  std::string group_;
};

// make(rank) with each rank's device current, in rank order: each rank's
// tensors live on its own device, as a tensor-parallel program allocates them.
template <typename Make>
auto OnEachRank(const Ranks& ranks, Make make) {
  std::vector<decltype(make(0u))> data;
  for (uint32_t r = 0; r < ranks.size(); ++r) {
    ranks.OnDevice(r);
    data.push_back(make(r));
  }
  return data;
}

// Every rank's run succeeded and its output (output(rank)) is `want`.
void ExpectEveryRankGets(const std::vector<OpRun>& runs, const std::function<Values(uint32_t)>& output,
                         const Expected& want);

}  // namespace canopy_test
