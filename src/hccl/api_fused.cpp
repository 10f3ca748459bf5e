// include/canopy/canopy_hccl.h: the collectives of fused ops (aclnn's mc2
// family), run on the calling thread (the op's task on its device engine)
// on the communicator a group name denotes.
#include <string>

#include "acl/acl.h"
#include "api_common.h"
#include "canopy/canopy_engine.h"
#include "canopy/canopy_hccl.h"
#include "common/c_boundary.h"
#include "stream_task.h"

using namespace canopy::hccl;

namespace {

// Group names are HcclGetCommName's text: shorter than COMM_NAME_MAX_LENGTH.
std::string GroupName(const char* group) {
  RequireNotNull(group, "group");
  const size_t length = strnlen(group, COMM_NAME_MAX_LENGTH);
  if (length == 0) Throw(HCCL_E_PARA, "group is an empty string");
  if (length == COMM_NAME_MAX_LENGTH) {
    Throw(HCCL_E_PARA, "group is not a communicator name (longer than %d characters)", COMM_NAME_MAX_LENGTH - 1);
  }
  return {group, length};
}

// The device whose communicator a group name means here: an engine's own
// device inside a task, else the thread's current device (-1: none set).
int32_t DeviceOfCaller() {
  if (const int32_t engine = canopyEngineDevice(); engine >= 0) return engine;
  return CurrentDevice();
}

std::shared_ptr<Communicator> RequireGroup(const char* group) {
  const std::string name = GroupName(group);
  const int32_t device = DeviceOfCaller();
  auto comm = FindByName(name, device);
  if (comm == nullptr) {
    Throw(HCCL_E_PARA, "group '%s' is not the name of one live communicator on device %d (HcclGetCommName gives it)",
          name.c_str(), device);
  }
  return comm;
}

// Runs `work` now on the group's communicator, which must still have the
// ranks the op was planned for.
HcclResult RunOnGroup(const char* group, uint32_t rank_size, const std::function<void(Transport&)>& work) {
  auto comm = RequireGroup(group);
  if (comm->size() != rank_size) {
    Throw(HCCL_E_PARA, "group '%s' has %u ranks now, the op was planned for %u", comm->name().c_str(), comm->size(),
          rank_size);
  }
  std::string message;
  const HcclResult result = RunNow(*comm, work, message);
  if (result != HCCL_SUCCESS) {
    Throw(result, "on communicator %s (rank %u of %u): %s", comm->name().c_str(), comm->rank(), comm->size(),
          message.c_str());
  }
  return HCCL_SUCCESS;
}

}  // namespace

extern "C" {

HcclResult canopyHcclGroupInfo(const char* group, uint32_t* rank, uint32_t* rankSize) try {
  RequireNotNull(rank, "rank");
  RequireNotNull(rankSize, "rankSize");
  const auto comm = RequireGroup(group);
  *rank = comm->rank();
  *rankSize = comm->size();
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult canopyHcclRunAllReduce(const char* group, uint32_t rankSize, const void* sendBuf, void* recvBuf,
                                  uint64_t count, HcclDataType dataType, HcclReduceOp op) try {
  CheckCount(count);
  CheckReduced(dataType, op);
  if (count == 0) return HCCL_SUCCESS;
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  return RunOnGroup(group, rankSize,
                    [&](Transport& transport) { transport.AllReduce(sendBuf, recvBuf, count, dataType, op); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult canopyHcclRunAllGather(const char* group, uint32_t rankSize, const void* sendBuf, void* recvBuf,
                                  uint64_t sendCount, HcclDataType dataType) try {
  CheckCount(sendCount);
  CheckMovedType(dataType);
  if (sendCount == 0) return HCCL_SUCCESS;
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  return RunOnGroup(group, rankSize,
                    [&](Transport& transport) { transport.AllGather(sendBuf, recvBuf, sendCount, dataType); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult canopyHcclRunReduceScatter(const char* group, uint32_t rankSize, const void* sendBuf, void* recvBuf,
                                      uint64_t recvCount, HcclDataType dataType, HcclReduceOp op) try {
  CheckCount(recvCount);
  CheckReduced(dataType, op);
  if (recvCount == 0) return HCCL_SUCCESS;
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  return RunOnGroup(group, rankSize,
                    [&](Transport& transport) { transport.ReduceScatter(sendBuf, recvBuf, recvCount, dataType, op); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult canopyHcclRunAlltoAllV(const char* group, uint32_t rankSize, const void* sendBuf, const uint64_t* sendCounts,
                                  const uint64_t* sdispls, void* recvBuf, const uint64_t* recvCounts,
                                  const uint64_t* rdispls, HcclDataType dataType) try {
  RequireNotNull(sendCounts, "sendCounts");
  RequireNotNull(sdispls, "sdispls");
  RequireNotNull(recvCounts, "recvCounts");
  RequireNotNull(rdispls, "rdispls");
  AllToAllPlan plan;
  plan.send = sendBuf;
  plan.recv = recvBuf;
  plan.element_size = CheckMovedType(dataType);
  plan.send_counts.assign(sendCounts, sendCounts + rankSize);
  plan.send_offsets.assign(sdispls, sdispls + rankSize);
  plan.recv_counts.assign(recvCounts, recvCounts + rankSize);
  plan.recv_offsets.assign(rdispls, rdispls + rankSize);
  for (uint32_t r = 0; r < rankSize; ++r) {
    CheckCount(plan.send_counts[r]);
    CheckCount(plan.recv_counts[r]);
    if (plan.send_counts[r] > 0) RequireNotNull(sendBuf, "sendBuf");
    if (plan.recv_counts[r] > 0) RequireNotNull(recvBuf, "recvBuf");
  }
  return RunOnGroup(group, rankSize, [&](Transport& transport) { transport.AllToAll(plan); });
}
CANOPY_C_BOUNDARY_HCCL

}  // extern "C"
