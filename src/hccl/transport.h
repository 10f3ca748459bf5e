// What a communicator's rank runs its operations on. Two transports implement
// it: Gloo over TCP for communicators made from root info (ranks in other
// processes or on other machines), and shared memory for HcclCommInitAll
// (every rank in this process: peers' buffers are read directly, no copies
// through the network stack). Each call blocks until this rank's part is done;
// the stream task calls it on a host-function thread. Every call checks that
// the peers called the same operation with matching counts before any data
// moves, so a mismatched peer is an error, never an overrun or a hang.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "hccl/hccl_types.h"

namespace canopy::hccl {

// One transfer of a batch of sends and receives.
struct PointToPoint {
  bool send = true;
  void* buffer = nullptr;
  size_t bytes = 0;
  uint32_t peer = 0;
};

// One row of an all-to-all: what this rank sends to and receives from each peer.
struct AllToAllPlan {
  const void* send = nullptr;
  void* recv = nullptr;
  size_t element_size = 0;
  std::vector<uint64_t> send_counts, send_offsets, recv_counts, recv_offsets;  // elements, one per rank
};

// The blocks of AllGatherV (where each rank's block lands in every output)
// and ReduceScatterV (where each rank's block is in every input): one count
// and one offset per rank, in elements, the same on every rank; `own` is
// this rank's sendCount (AllGatherV) or recvCount (ReduceScatterV), which
// must equal counts[rank].
struct VariableBlocks {
  std::vector<uint64_t> counts, displs;
  uint64_t own = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual void AllReduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op) = 0;
  virtual void Broadcast(void* buffer, size_t count, HcclDataType type, uint32_t root) = 0;
  virtual void AllGather(const void* send, void* recv, size_t count, HcclDataType type) = 0;
  virtual void ReduceScatter(const void* send, void* recv, size_t recv_count, HcclDataType type, HcclReduceOp op) = 0;
  virtual void AllGatherV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type) = 0;
  virtual void ReduceScatterV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type,
                              HcclReduceOp op) = 0;
  virtual void Reduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op,
                      uint32_t root) = 0;
  virtual void Scatter(const void* send, void* recv, size_t recv_count, HcclDataType type, uint32_t root) = 0;
  virtual void AllToAll(const AllToAllPlan& plan) = 0;
  // Sends and receives of one batch, in any order: none waits for another.
  virtual void SendRecv(const std::vector<PointToPoint>& transfers) = 0;
  virtual void Barrier() = 0;
};

}  // namespace canopy::hccl
