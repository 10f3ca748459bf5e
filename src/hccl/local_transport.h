// The shared-memory transport of HcclCommInitAll: every rank is a device of
// this process, so a rank reads its peers' buffers directly. The ranks of one
// operation meet twice: once every rank has published its call (then each
// checks that all calls match and does its share of the work), and once every
// rank's share is done (so no buffer is released while a peer still reads it).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "transport.h"

namespace canopy::hccl {

class LocalGroup;

// Makes the transports of one in-process communicator of `size` ranks.
std::vector<std::unique_ptr<Transport>> MakeLocalTransports(uint32_t size, std::chrono::milliseconds timeout);

}  // namespace canopy::hccl
