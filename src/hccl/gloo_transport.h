// The TCP transport of communicators made from root info, on Gloo (Debian
// libgloo-dev; see docs/hccl.md for why Gloo). Ranks meet through the
// authenticated rendezvous store, connect Gloo's full mesh, and then prove the
// communicator secret to each other over every pair before any data flows.
#pragma once

#include <chrono>
#include <memory>

#include "root_info.h"
#include "transport.h"

namespace canopy::hccl {

std::unique_ptr<Transport> ConnectGlooTransport(const RootInfo& root, uint32_t rank, uint32_t size,
                                                std::chrono::milliseconds connect_timeout,
                                                std::chrono::milliseconds exec_timeout);

}  // namespace canopy::hccl
