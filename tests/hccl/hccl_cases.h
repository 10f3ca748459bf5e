// Cases one rank of a communicator runs, shared by the multi-process tests
// (one rank per worker process) and the in-process tests (every rank of an
// HcclCommInitAll communicator in the test's own process). A case queues its
// operation on the rank's stream (Launch); once the stream has been
// synchronised, Verify compares the rank's output with a float64 reference.
// Every rank can compute every other rank's input (it is a function of the
// rank and the case), so each rank checks its own output without exchanging
// anything but the operation under test.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace hccl_test {

struct Rank {
  HcclComm comm = nullptr;
  aclrtStream stream = nullptr;
  uint32_t rank = 0;
  uint32_t size = 0;
};

class RankCase {
 public:
  virtual ~RankCase() = default;
  virtual std::string Name() const = 0;
  // Queues the operation; returns its HcclResult.
  virtual HcclResult Launch(const Rank& rank) = 0;
  // "" when this rank's output matches the reference, else what differs.
  virtual std::string Verify() = 0;
};

// Every collective x data type x reduce op CANN documents (the pairs it
// rejects are left out), AlltoAllV, AllGatherV and ReduceScatterV with uneven
// counts, a send/receive ring and a batched ring.
std::vector<std::unique_ptr<RankCase>> AllCases(uint32_t ranks);
// One all-reduce of `count` f32 elements.
std::unique_ptr<RankCase> AllReduceCase(HcclDataType type, HcclReduceOp op, uint64_t count);

const char* TypeName(HcclDataType type);

// The reducing data types and ops of Atlas A2 (Canopy's SoC).
std::vector<HcclDataType> ReducibleTypes();
std::vector<HcclDataType> MovableTypes();
// HcclReduceScatterV's (no int64) with sum, max and min.
std::vector<HcclDataType> ReduceScatterVTypes();
bool ReduceOpSupported(HcclDataType type, HcclReduceOp op);

}  // namespace hccl_test
