// The communication half of CANN's mc2 ops (matmul fused with a collective):
// the communicator a `group` argument names, and collectives as plan steps.
// On the NPU the fused kernel communicates while it computes, holding its
// cores; here the collective runs inside the op's own task on the device
// engine, blocking it until the peers' parts arrive. Stream order, events and
// graph capture then need nothing new, and each rank's op runs on its own
// device's engine, so the ranks of one process never wait on each other's engine.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "ops/framework/plan.h"

namespace canopy::ops {

// This rank's place in the communicator a group name denotes.
struct CommGroup {
  std::string name;
  uint32_t rank = 0;
  uint32_t size = 1;
};

// The attribute checks of CANN's mc2 host code (161002): reduceOp is "sum"
// (the only reduction A2 implements) and streamMode is 1 (ACL_STOP_ON_FAILURE).
aclnnStatus CheckReduceOpSum(Plan& plan, const char* reduce_op, aclnnStatus status = ACLNN_ERR_PARAM_INVALID);
aclnnStatus CheckStreamMode(Plan& plan, int64_t stream_mode);

// What CANN's mc2 tiling checks (561002): commTurn is 0 (no split of the
// communication), and `group` (HcclGetCommName's text) names one live
// communicator on the calling thread's device with one of `rank_sizes` ranks
// (the full-mesh sizes Atlas A2 supports).
aclnnStatus ResolveGroup(Plan& plan, const char* group, int64_t comm_turn, std::initializer_list<uint32_t> rank_sizes,
                         CommGroup& out);

// x1 of AllGatherMatmul and MatmulReduceScatter may not be a transposed view
// (CANN's IsTransposeLastTwoDims: a [m, k] view with strides (1, m)): 161002.
aclnnStatus CheckNotTransposed(Plan& plan, const char* name, const aclTensor* tensor);

// The collectives, planned on contiguous buffers of one dtype (f16, bf16, f32,
// int8, int32 and the other types HCCL moves; sums need a reducible one). The
// communicator is looked up again when the step runs: one destroyed since,
// or resized, fails the run with a stream error naming it.
//
// recv[i] = sum over ranks of send[i]; send and recv may be the same buffer.
void AddAllReduceSum(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv);
// recv = the ranks' sends one after another (recv has size x send's elements).
void AddAllGather(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv);
// recv = this rank's block of the sum over ranks of send (send has size x recv's elements).
void AddReduceScatterSum(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv);

}  // namespace canopy::ops
