// The collective and point-to-point operations (hccl/hccl.h): each checks its
// arguments as CANN's HCCL does, then queues its work on the stream.
#include <cstdint>
#include <cstring>
#include <vector>

#include "api_common.h"
#include "common/c_boundary.h"
#include "dtype.h"
#include "stream_task.h"

using namespace canopy::hccl;

namespace canopy::hccl {

// CANN's largest count of one operation.
constexpr uint64_t kMaxCount = uint64_t{1} << 40;

void CheckCount(uint64_t count) {
  if (count > kMaxCount) {
    Throw(HCCL_E_PARA, "count %llu is larger than %llu", static_cast<unsigned long long>(count),
          static_cast<unsigned long long>(kMaxCount));
  }
}

size_t CheckMovedType(HcclDataType type) {
  const size_t size = ElementSize(type);
  if (size == 0) Throw(HCCL_E_NOT_SUPPORT, "data type %d is not supported", static_cast<int>(type));
  return size;
}

void CheckReduced(HcclDataType type, HcclReduceOp op) {
  if (!IsReducibleType(type)) {
    Throw(HCCL_E_NOT_SUPPORT, "data type %s is not supported by reducing operations", DataTypeName(type));
  }
  if (!IsSupportedReduceOp(type, op)) {
    Throw(HCCL_E_NOT_SUPPORT, "reduce op %s is not supported for %s", ReduceOpName(op), DataTypeName(type));
  }
}

}  // namespace canopy::hccl

namespace {

void CheckRank(uint32_t rank, const Communicator& comm, const char* name) {
  if (rank >= comm.size()) Throw(HCCL_E_PARA, "%s %u is out of range [0, %u)", name, rank, comm.size());
}

std::vector<uint64_t> ReadCounts(const void* array, uint32_t size) {
  std::vector<uint64_t> counts(size);
  std::memcpy(counts.data(), array, size * sizeof(uint64_t));
  for (const uint64_t count : counts) CheckCount(count);
  return counts;
}

// ReduceScatterV on Atlas A2 takes fewer types and ops than the other
// reductions (CANN: int8, int16, int32, fp16, fp32, bf16; sum, max, min).
void CheckReducedV(HcclDataType type, HcclReduceOp op) {
  const bool type_ok = type == HCCL_DATA_TYPE_INT8 || type == HCCL_DATA_TYPE_INT16 || type == HCCL_DATA_TYPE_INT32 ||
                       type == HCCL_DATA_TYPE_FP16 || type == HCCL_DATA_TYPE_FP32 || type == HCCL_DATA_TYPE_BFP16;
  if (!type_ok) {
    Throw(HCCL_E_NOT_SUPPORT, "data type %s is not supported by HcclReduceScatterV", DataTypeName(type));
  }
  if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_MAX && op != HCCL_REDUCE_MIN) {
    Throw(HCCL_E_NOT_SUPPORT, "reduce op %s is not supported by HcclReduceScatterV (sum, max and min are)",
          ReduceOpName(op));
  }
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool Overlap(const void* a, uint64_t a_bytes, const void* b, uint64_t b_bytes) {
  const auto a_begin = reinterpret_cast<uintptr_t>(a), b_begin = reinterpret_cast<uintptr_t>(b);
  return a_begin < b_begin + b_bytes && b_begin < a_begin + a_bytes;
}

// A rank's send data, copied into `staged` first where its receive buffer
// overlaps it: the transports read every rank's send data while ranks write
// their receive buffers, so a peer could read bytes already overwritten (CANN
// stages user input in its own buffers and computes these correctly). Runs
// inside the task, so the copy is of the data the stream has at that point;
// the transports' calls end together, so no peer reads `staged` after.
const void* StagedIfOverlapping(const void* send, uint64_t send_bytes, const void* recv, uint64_t recv_bytes,
                                std::vector<unsigned char>& staged) {
  if (send == nullptr || !Overlap(send, send_bytes, recv, recv_bytes)) return send;
  staged.assign(static_cast<const unsigned char*>(send), static_cast<const unsigned char*>(send) + send_bytes);
  return staged.data();
}

// The counts and displacements of a V operation, read from the client's arrays.
VariableBlocks ReadBlocks(const void* counts, const void* displs, uint64_t own, uint32_t size) {
  VariableBlocks blocks;
  blocks.counts = ReadCounts(counts, size);
  blocks.displs = ReadCounts(displs, size);
  blocks.own = own;
  return blocks;
}

uint64_t Total(const std::vector<uint64_t>& counts) {
  uint64_t total = 0;
  for (const uint64_t count : counts) total += count;
  return total;
}

}  // namespace

extern "C" {

HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                          const void* recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(recvCounts, "recvCounts");
  RequireNotNull(recvDispls, "recvDispls");
  CheckMovedType(dataType);
  CheckCount(sendCount);
  VariableBlocks blocks = ReadBlocks(recvCounts, recvDispls, sendCount, communicator->size());
  if (blocks.counts[communicator->rank()] != sendCount) {
    Throw(HCCL_E_PARA, "sendCount %llu differs from recvCounts[%u] = %llu", static_cast<unsigned long long>(sendCount),
          communicator->rank(), static_cast<unsigned long long>(blocks.counts[communicator->rank()]));
  }
  // Nothing to gather from anyone: nothing to do (every rank passes the same counts).
  if (Total(blocks.counts) == 0) return HCCL_SUCCESS;
  if (sendCount > 0) RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  if (sendBuf == recvBuf) Throw(HCCL_E_PARA, "sendBuf and recvBuf are the same address (they must differ)");
  return Enqueue("HcclAllGatherV", communicator, stream, [=, blocks = std::move(blocks)](Transport& transport) {
    transport.AllGatherV(sendBuf, recvBuf, blocks, dataType);
  });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                              uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                              aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendCounts, "sendCounts");
  RequireNotNull(sendDispls, "sendDispls");
  CheckReducedV(dataType, op);
  CheckCount(recvCount);
  VariableBlocks blocks = ReadBlocks(sendCounts, sendDispls, recvCount, communicator->size());
  if (blocks.counts[communicator->rank()] != recvCount) {
    Throw(HCCL_E_PARA, "recvCount %llu differs from sendCounts[%u] = %llu", static_cast<unsigned long long>(recvCount),
          communicator->rank(), static_cast<unsigned long long>(blocks.counts[communicator->rank()]));
  }
  if (Total(blocks.counts) == 0) return HCCL_SUCCESS;
  RequireNotNull(sendBuf, "sendBuf");
  if (recvCount > 0) RequireNotNull(recvBuf, "recvBuf");
  if (sendBuf == recvBuf) Throw(HCCL_E_PARA, "sendBuf and recvBuf are the same address (they must differ)");
  return Enqueue("HcclReduceScatterV", communicator, stream, [=, blocks = std::move(blocks)](Transport& transport) {
    transport.ReduceScatterV(sendBuf, recvBuf, blocks, dataType, op);
  });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  CheckCount(count);
  CheckReduced(dataType, op);
  return Enqueue("HcclAllReduce", communicator, stream,
                 [=](Transport& transport) { transport.AllReduce(sendBuf, recvBuf, count, dataType, op); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(buf, "buf");
  CheckCount(count);
  CheckMovedType(dataType);
  CheckRank(root, *communicator, "root");
  return Enqueue("HcclBroadcast", communicator, stream,
                 [=](Transport& transport) { transport.Broadcast(buf, count, dataType, root); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, HcclReduceOp op,
                             HcclComm comm, aclrtStream stream) try {
  if (recvCount == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  CheckCount(recvCount);
  CheckReduced(dataType, op);
  const uint32_t size = communicator->size(), rank = communicator->rank();
  const uint64_t bytes = recvCount * ElementSize(dataType);
  // recvBuf as this rank's own block of sendBuf (NCCL's in-place form) needs no copy.
  const bool own_block = static_cast<char*>(recvBuf) == static_cast<char*>(sendBuf) + rank * bytes;
  return Enqueue("HcclReduceScatter", communicator, stream, [=](Transport& transport) {
    std::vector<unsigned char> staged;
    const void* send = own_block ? sendBuf : StagedIfOverlapping(sendBuf, bytes * size, recvBuf, bytes, staged);
    transport.ReduceScatter(send, recvBuf, recvCount, dataType, op);
  });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm comm, aclrtStream stream) try {
  if (recvCount == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  CheckRank(root, *communicator, "root");
  // Only the root's sendBuf is read.
  if (communicator->rank() == root) RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  CheckCount(recvCount);
  const uint64_t bytes = recvCount * CheckMovedType(dataType);
  const uint32_t size = communicator->size();
  const bool is_root = communicator->rank() == root;  // the others' sendBuf is never read
  return Enqueue("HcclScatter", communicator, stream, [=](Transport& transport) {
    std::vector<unsigned char> staged;
    const void* send = is_root ? StagedIfOverlapping(sendBuf, bytes * size, recvBuf, bytes, staged) : sendBuf;
    transport.Scatter(send, recvBuf, recvCount, dataType, root);
  });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) try {
  if (sendCount == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  CheckCount(sendCount);
  const uint64_t bytes = sendCount * CheckMovedType(dataType);
  const uint32_t size = communicator->size(), rank = communicator->rank();
  // sendBuf as this rank's own slice of recvBuf (the in-place form) needs no copy.
  const bool own_slice = static_cast<char*>(sendBuf) == static_cast<char*>(recvBuf) + rank * bytes;
  return Enqueue("HcclAllGather", communicator, stream, [=](Transport& transport) {
    std::vector<unsigned char> staged;
    const void* send = own_slice ? sendBuf : StagedIfOverlapping(sendBuf, bytes, recvBuf, bytes * size, staged);
    transport.AllGather(send, recvBuf, sendCount, dataType);
  });
}
CANOPY_C_BOUNDARY_HCCL

namespace {

// HcclSend and HcclRecv: one message of `count` elements to or from `peer`.
HcclResult PointToPointCall(const char* entry, bool send, void* buffer, uint64_t count, HcclDataType dataType,
                            uint32_t peer, HcclComm comm, aclrtStream stream) {
  const char* const buffer_name = send ? "sendBuf" : "recvBuf";
  const char* const peer_name = send ? "destRank" : "srcRank";
  if (count == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(buffer, buffer_name);
  CheckCount(count);
  const size_t es = CheckMovedType(dataType);
  CheckRank(peer, *communicator, peer_name);
  if (peer == communicator->rank()) Throw(HCCL_E_PARA, "%s %u is this rank", peer_name, peer);
  return Enqueue(entry, communicator, stream, [=](Transport& transport) {
    transport.SendRecv({PointToPoint{send, buffer, count * es, peer}});
  });
}

}  // namespace

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) try {
  return PointToPointCall("HcclSend", true, sendBuf, count, dataType, destRank, comm, stream);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) try {
  return PointToPointCall("HcclRecv", false, recvBuf, count, dataType, srcRank, comm, stream);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls, HcclDataType sendType,
                         const void* recvBuf, const void* recvCounts, const void* rdispls, HcclDataType recvType,
                         HcclComm comm, aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendCounts, "sendCounts");
  RequireNotNull(sdispls, "sdispls");
  RequireNotNull(recvCounts, "recvCounts");
  RequireNotNull(rdispls, "rdispls");
  const size_t es = CheckMovedType(sendType);
  CheckMovedType(recvType);
  if (sendType != recvType) Throw(HCCL_E_PARA, "sendType and recvType differ");
  const uint32_t size = communicator->size();
  AllToAllPlan plan;
  plan.send = sendBuf;
  plan.recv = const_cast<void*>(recvBuf);
  plan.element_size = es;
  plan.send_counts = ReadCounts(sendCounts, size);
  plan.send_offsets = ReadCounts(sdispls, size);
  plan.recv_counts = ReadCounts(recvCounts, size);
  plan.recv_offsets = ReadCounts(rdispls, size);
  uint64_t sent = 0, received = 0;
  for (uint32_t r = 0; r < size; ++r) {
    sent += plan.send_counts[r];
    received += plan.recv_counts[r];
  }
  if (sent > 0) RequireNotNull(sendBuf, "sendBuf");
  if (received > 0) RequireNotNull(recvBuf, "recvBuf");
  return Enqueue("HcclAlltoAllV", communicator, stream,
                 [plan = std::move(plan)](Transport& transport) { transport.AllToAll(plan); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  const size_t es = CheckMovedType(sendType);
  CheckMovedType(recvType);
  if (sendType != recvType) Throw(HCCL_E_PARA, "sendType and recvType differ");
  if (sendCount != recvCount) {
    Throw(HCCL_E_PARA, "sendCount %llu and recvCount %llu differ", static_cast<unsigned long long>(sendCount),
          static_cast<unsigned long long>(recvCount));
  }
  CheckCount(sendCount);
  if (sendCount == 0) return HCCL_SUCCESS;
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  const uint32_t size = communicator->size();
  AllToAllPlan plan;
  plan.send = sendBuf;
  plan.recv = const_cast<void*>(recvBuf);
  plan.element_size = es;
  plan.send_counts.assign(size, sendCount);
  plan.recv_counts.assign(size, recvCount);
  for (uint32_t r = 0; r < size; ++r) {
    plan.send_offsets.push_back(r * sendCount);
    plan.recv_offsets.push_back(r * recvCount);
  }
  const uint64_t bytes = sendCount * es * size;
  return Enqueue("HcclAlltoAll", communicator, stream, [plan = std::move(plan), bytes](Transport& transport) {
    std::vector<unsigned char> staged;
    AllToAllPlan run = plan;
    run.send = StagedIfOverlapping(plan.send, bytes, plan.recv, bytes, staged);
    transport.AllToAll(run);
  });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm comm, aclrtStream stream) try {
  if (count == 0) return HCCL_SUCCESS;
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  RequireNotNull(sendBuf, "sendBuf");
  RequireNotNull(recvBuf, "recvBuf");
  CheckCount(count);
  CheckReduced(dataType, op);
  CheckRank(root, *communicator, "root");
  return Enqueue("HcclReduce", communicator, stream,
                 [=](Transport& transport) { transport.Reduce(sendBuf, recvBuf, count, dataType, op, root); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  if (itemNum == 0) return HCCL_SUCCESS;
  RequireNotNull(sendRecvInfo, "sendRecvInfo");
  std::vector<PointToPoint> transfers;
  for (uint32_t i = 0; i < itemNum; ++i) {
    const HcclSendRecvItem& item = sendRecvInfo[i];
    // Read as the integer the client stored: a value outside the enum is not an HcclSendRecvType.
    int kind = 0;
    static_assert(sizeof(kind) == sizeof(item.sendRecvType));
    std::memcpy(&kind, &item.sendRecvType, sizeof(kind));
    if (kind != HCCL_SEND && kind != HCCL_RECV) {
      Throw(HCCL_E_PARA, "sendRecvInfo[%u].sendRecvType %d is neither HCCL_SEND nor HCCL_RECV", i, kind);
    }
    CheckCount(item.count);
    const size_t es = CheckMovedType(item.dataType);
    CheckRank(item.remoteRank, *communicator, "remoteRank");
    if (item.remoteRank == communicator->rank()) Throw(HCCL_E_PARA, "sendRecvInfo[%u] names this rank", i);
    if (item.count == 0) continue;
    if (item.buf == nullptr) Throw(HCCL_E_PTR, "sendRecvInfo[%u].buf is a null pointer", i);
    transfers.push_back({kind == HCCL_SEND, item.buf, item.count * es, item.remoteRank});
  }
  return Enqueue("HcclBatchSendRecv", communicator, stream,
                 [transfers = std::move(transfers)](Transport& transport) { transport.SendRecv(transfers); });
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) try {
  RequireNotNull(stream, "stream");
  auto communicator = RequireComm(comm);
  return Enqueue("HcclBarrier", communicator, stream, [](Transport& transport) { transport.Barrier(); });
}
CANOPY_C_BOUNDARY_HCCL

}  // extern "C"
