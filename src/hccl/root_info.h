// What the HcclRootInfo blob carries: where the rendezvous listener is, the
// communicator's secret and its random id (its name). Nothing in it points
// into this process, so it can be copied to other processes and machines.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "auth.h"
#include "hccl/hccl_types.h"

namespace canopy::hccl {

constexpr size_t kCommIdBytes = 16;

struct RootInfo {
  std::string host;  // numeric IPv4 or IPv6
  uint16_t port = 0;
  Secret secret{};
  std::array<uint8_t, kCommIdBytes> id{};

  // "hccl_" and the id in hex: the communicator's name.
  std::string Name() const;
};

void EncodeRootInfo(const RootInfo& info, HcclRootInfo* blob);
// Throws HCCL_E_PARA for a blob HcclGetRootInfo did not make.
RootInfo DecodeRootInfo(const HcclRootInfo& blob);

}  // namespace canopy::hccl
