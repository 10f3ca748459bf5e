// What the libhccl fuzzers accept as a clean failure of making a communicator.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "hccl/hccl.h"

namespace canopy::fuzz {

// A refused argument or file (HCCL_E_PARA), an address that cannot be used
// (HCCL_E_NETWORK), a root or ranks that never came (HCCL_E_TIMEOUT), a wrong
// secret or a connection broken (HCCL_E_TCP_CONNECT / _TRANSFER), a listener
// that was closing (HCCL_E_AGAIN).
inline bool IsRendezvousError(HcclResult status) {
  switch (status) {
    case HCCL_E_PARA:
    case HCCL_E_NETWORK:
    case HCCL_E_TIMEOUT:
    case HCCL_E_TCP_CONNECT:
    case HCCL_E_TCP_TRANSFER:
    case HCCL_E_AGAIN:
      return true;
    default:
      return false;
  }
}

// The outcome of a call that makes a communicator: made (then destroyed) or
// a clean rendezvous error; anything else aborts, naming `function`.
inline void CheckMadeOrRefused(const char* function, HcclResult status, HcclComm comm) {
  if (status == HCCL_SUCCESS) {
    if (HcclCommDestroy(comm) != HCCL_SUCCESS) std::abort();
  } else if (!IsRendezvousError(status)) {
    std::fprintf(stderr, "%s returned %d\n", function, static_cast<int>(status));
    std::abort();
  }
}

}  // namespace canopy::fuzz
