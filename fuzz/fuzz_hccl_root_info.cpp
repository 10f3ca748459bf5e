// fuzz_hccl_root_info: arbitrary HcclRootInfo bytes into HcclCommInitRootInfo
// (1..4 ranks, rank and count from the first byte, HCCL_CONNECT_TIMEOUT tiny).
// The input overlays a blob HcclGetRootInfo made at start, so that short
// inputs reach past the magic word to the address, port and secret.
//
// Checked besides "no crash, no leak, no undefined behaviour, no hang": every
// call returns HCCL_SUCCESS (then the communicator is destroyed) or a clean
// error of the rendezvous (bad blob, bad address, nobody there, wrong secret).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "common/hccl_statuses.h"
#include "hccl/hccl.h"

namespace {

HcclRootInfo& ValidBlob() {
  static HcclRootInfo blob{};
  return blob;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  ::setenv("HCCL_CONNECT_TIMEOUT", "0.02", 1);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  if (HcclGetRootInfo(&ValidBlob()) != HCCL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  uint32_t ranks = 1;
  uint32_t rank = 0;
  if (size > 0) {
    ranks = 1 + (data[0] & 3u);
    rank = (data[0] >> 2) & 7u;  // 4..7: out of range, a parameter error
    ++data;
    --size;
  }
  HcclRootInfo blob = ValidBlob();
  std::memcpy(blob.internal, data, size < sizeof(blob.internal) ? size : sizeof(blob.internal));
  HcclComm comm = nullptr;
  const HcclResult status = HcclCommInitRootInfo(ranks, &blob, rank, &comm);
  canopy::fuzz::CheckMadeOrRefused("HcclCommInitRootInfo", status, comm);
  return 0;
}
