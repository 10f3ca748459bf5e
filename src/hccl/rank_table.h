// The rank-table file of HcclCommInitClusterInfo: CANN's JSON layout for
// Atlas A2 (version "1.0": status, server_count, server_list[].server_id,
// server_list[].device[].device_id / device_ip / device_port / rank_id), read
// strictly, and the communicator secret Canopy adds to it ("canopy_secret",
// or CANOPY_HCCL_SECRET). See docs/hccl.md, "Rank tables".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "auth.h"
#include "root_info.h"

namespace canopy::hccl {

// The longest rank table read (CANN's tables for thousands of devices are a
// few MiB).
constexpr size_t kMaxRankTableBytes = 16 << 20;
// The rendezvous port when rank 0's device has no device_port.
constexpr uint16_t kDefaultRankTablePort = 16666;

struct RankTableEntry {
  std::string server_id;
  uint32_t device_id = 0;
  std::string device_ip;     // numeric IPv4/IPv6; loopback when a one-server table leaves it out
  uint16_t device_port = 0;  // 0: not given
};

struct RankTable {
  std::vector<RankTableEntry> ranks;  // indexed by rank_id: 0 .. size-1, each once
  uint32_t server_count = 0;
  std::optional<Secret> secret;  // "canopy_secret" of the file
};

// Reads and checks the file at `path`: HCCL_E_OPEN_FILE_FAILURE when it
// cannot be read, HCCL_E_PARA (naming the field) when its content is not a
// valid rank table.
RankTable ReadRankTable(const std::string& path);

// Where rank 0 listens and what every connection must prove: the secret
// (from the file, else CANOPY_HCCL_SECRET) bound to the table's layout, so
// that ranks reading different tables never form a communicator; the
// communicator's name derives from it.
RootInfo RankTableRoot(const RankTable& table);

}  // namespace canopy::hccl
