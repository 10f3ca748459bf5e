#include "collective.h"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

#include "acl/acl.h"
#include "canopy/canopy_hccl.h"
#include "common/dtype.h"

namespace canopy::ops {
namespace {

// How a collective's failure surfaces at the stream's synchronisation: on the
// NPU a fused op whose peers failed reports a suspected remote error.
constexpr aclnnStatus kCollectiveFailedStatus = ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;

HcclDataType CollectiveTypeOf(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16:
      return HCCL_DATA_TYPE_FP16;
    case ACL_BF16:
      return HCCL_DATA_TYPE_BFP16;
    case ACL_FLOAT:
      return HCCL_DATA_TYPE_FP32;
    case ACL_INT8:
      return HCCL_DATA_TYPE_INT8;
    case ACL_UINT8:
      return HCCL_DATA_TYPE_UINT8;
    case ACL_INT16:
      return HCCL_DATA_TYPE_INT16;
    case ACL_INT32:
      return HCCL_DATA_TYPE_INT32;
    case ACL_INT64:
      return HCCL_DATA_TYPE_INT64;
    default:
      throw std::logic_error(std::string("no HCCL type moves ") + DtypeName(dtype));
  }
}

enum class Collective { kAllReduceSum, kAllGather, kReduceScatterSum };

const char* NameOf(Collective kind) {
  switch (kind) {
    case Collective::kAllReduceSum:
      return "all-reduce (sum)";
    case Collective::kAllGather:
      return "all-gather";
    case Collective::kReduceScatterSum:
      return "reduce-scatter (sum)";
  }
  return "";
}

class CollectiveStep final : public Step {
 public:
  CollectiveStep(const char* op, Collective kind, CommGroup group, const TensorRef& send, const TensorRef& recv)
      : op_(op),
        kind_(kind),
        group_(std::move(group)),
        send_(send.buffer),
        recv_(recv.buffer),
        type_(CollectiveTypeOf(send.dtype)),
        // What one rank contributes: all of send, except a reduce-scatter's
        // count is of its result block.
        count_(static_cast<uint64_t>(kind == Collective::kReduceScatterSum ? recv.NumElements() : send.NumElements())) {
  }

  aclnnStatus Run(const RunContext& context) const override {
    const void* send = context.Resolve(send_);
    void* recv = context.Resolve(recv_);
    const char* group = group_.name.c_str();
    HcclResult result = HCCL_SUCCESS;
    switch (kind_) {
      case Collective::kAllReduceSum:
        result = canopyHcclRunAllReduce(group, group_.size, send, recv, count_, type_, HCCL_REDUCE_SUM);
        break;
      case Collective::kAllGather:
        result = canopyHcclRunAllGather(group, group_.size, send, recv, count_, type_);
        break;
      case Collective::kReduceScatterSum:
        result = canopyHcclRunReduceScatter(group, group_.size, send, recv, count_, type_, HCCL_REDUCE_SUM);
        break;
    }
    if (result == HCCL_SUCCESS) return ACLNN_SUCCESS;
    const char* why = aclGetRecentErrMsg();
    SetErrorMessage("%s: its %s on group '%s' failed (HCCL %d): %s", op_, NameOf(kind_), group, result,
                    why != nullptr ? why : "");
    return kCollectiveFailedStatus;
  }

  std::string Describe() const override {
    return std::string(NameOf(kind_)) + " of " + std::to_string(count_) + " elements over " +
           std::to_string(group_.size) + " ranks of " + group_.name;
  }

 private:
  const char* op_;
  Collective kind_;
  CommGroup group_;
  BufferRef send_, recv_;
  HcclDataType type_;
  uint64_t count_;
};

}  // namespace

aclnnStatus CheckReduceOpSum(Plan& plan, const char* reduce_op, aclnnStatus status) {
  if (std::strcmp(reduce_op, "sum") == 0) return ACLNN_SUCCESS;
  return plan.Reject(status, "argument 'reduceOp' is '%s'; only \"sum\" is supported", reduce_op);
}

aclnnStatus CheckStreamMode(Plan& plan, int64_t stream_mode) {
  if (stream_mode == 1) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "argument 'streamMode' is %lld; only 1 (ACL_STOP_ON_FAILURE) is supported",
                     static_cast<long long>(stream_mode));
}

aclnnStatus CheckNotTransposed(Plan& plan, const char* name, const aclTensor* tensor) {
  const Shape& shape = tensor->view_shape;
  const Shape& strides = tensor->strides;
  if (shape.size() < 2) return ACLNN_SUCCESS;
  const size_t last = shape.size() - 1;
  const bool one_by_one = shape[last] == 1 && shape[last - 1] == 1;
  if (!one_by_one && strides[last - 1] == 1 && strides[last] == shape[last - 1]) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is a transposed view; it must not be", name);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ResolveGroup(Plan& plan, const char* group, int64_t comm_turn, std::initializer_list<uint32_t> rank_sizes,
                         CommGroup& out) {
  if (comm_turn != 0) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'commTurn' is %lld; only 0 is supported",
                       static_cast<long long>(comm_turn));
  }
  uint32_t rank = 0, size = 0;
  if (const HcclResult found = canopyHcclGroupInfo(group, &rank, &size); found != HCCL_SUCCESS) {
    // Not a communicator's name (HCCL_E_PARA) is the client's error; anything
    // else (the host out of memory) is the kit's inner error.
    if (found != HCCL_E_PARA) throw std::runtime_error("libhccl could not look the group up");
    const char* why = aclGetRecentErrMsg();
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'group': %s",
                       why != nullptr ? why : "no such communicator");
  }
  std::string allowed;
  for (const uint32_t n : rank_sizes) {
    if (n == size) {
      out = {group, rank, size};
      return ACLNN_SUCCESS;
    }
    allowed += (allowed.empty() ? "" : ", ") + std::to_string(n);
  }
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "group '%s' has %u ranks; this op runs on %s", group, size,
                     allowed.c_str());
}

void AddAllReduceSum(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv) {
  // Element i of the result depends on element i of every rank's send only.
  plan.AddPositionwiseStep(std::make_unique<CollectiveStep>(plan.op(), Collective::kAllReduceSum, group, send, recv),
                           {send}, recv);
}

void AddAllGather(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv) {
  plan.AddStep(std::make_unique<CollectiveStep>(plan.op(), Collective::kAllGather, group, send, recv), {send}, recv);
}

void AddReduceScatterSum(Plan& plan, const CommGroup& group, const TensorRef& send, const TensorRef& recv) {
  plan.AddStep(std::make_unique<CollectiveStep>(plan.op(), Collective::kReduceScatterSum, group, send, recv), {send},
               recv);
}

}  // namespace canopy::ops
