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
// `length` operations of every kind (AlltoAll(V), the V operations and
// point-to-point rings too), types, reduce ops and roots, some in place, some
// after a barrier, some with zero counts, drawn from `seed` (the same on every
// rank), with counts around the room that the operation before leaves for
// data in the transport's signature exchange (docs/hccl.md, "Small
// messages"): exactly the room, an element more or less, the most a frame
// carries and one past it. Against the same references as AllCases, so the
// inline path and the separate data round must agree.
std::vector<std::unique_ptr<RankCase>> InlineSequence(uint32_t ranks, uint64_t seed, size_t length);
// Operations on which the last rank disagrees with the others in one thing
// only (the kind, type, reduce op, root or count) while both sides' data would
// travel inline: DisagreeingCase(i, odd) is rank's operation of the i-th.
size_t DisagreementCount();
std::unique_ptr<RankCase> DisagreeingCase(size_t index, bool odd);
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
