// The TCP transport of communicators made from root info, on Gloo (Debian
// libgloo-dev; see docs/hccl.md for why Gloo). Ranks meet through the
// authenticated rendezvous store, connect Gloo's full mesh, and then prove the
// communicator secret to each other over every pair before any data flows.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "root_info.h"
#include "transport.h"

namespace canopy::hccl {

// `local_host` is where this rank's Gloo listener binds (a rank table's
// device_ip); empty: HCCL_IF_IP, else the address this rank reaches the root from.
std::unique_ptr<Transport> ConnectGlooTransport(const RootInfo& root, uint32_t rank, uint32_t size,
                                                std::chrono::milliseconds connect_timeout,
                                                std::chrono::milliseconds exec_timeout,
                                                const std::string& local_host = {});

}  // namespace canopy::hccl
