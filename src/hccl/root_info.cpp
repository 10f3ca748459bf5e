#include "root_info.h"

#include <cstring>

#include "error.h"

namespace canopy::hccl {
namespace {

constexpr char kMagic[8] = {'C', 'N', 'P', 'Y', 'H', 'C', 'C', 'L'};
constexpr uint32_t kVersion = 1;
constexpr size_t kMaxHostBytes = 64;  // the longest numeric IPv6 address fits

// The blob's layout; the rest of HcclRootInfo stays zero.
struct Layout {
  char magic[8];
  uint32_t version;
  uint16_t port;
  uint16_t host_bytes;
  char host[kMaxHostBytes];
  uint8_t secret[kSecretBytes];
  uint8_t id[kCommIdBytes];
};
static_assert(sizeof(Layout) <= HCCL_ROOT_INFO_BYTES);

}  // namespace

std::string RootInfo::Name() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string name = "hccl_";
  for (const uint8_t byte : id) {
    name += kHex[byte >> 4];
    name += kHex[byte & 15];
  }
  return name;
}

void EncodeRootInfo(const RootInfo& info, HcclRootInfo* blob) {
  if (info.host.size() >= kMaxHostBytes) Throw(HCCL_E_PARA, "host address '%s' is too long", info.host.c_str());
  Layout layout{};
  std::memcpy(layout.magic, kMagic, sizeof(kMagic));
  layout.version = kVersion;
  layout.port = info.port;
  layout.host_bytes = static_cast<uint16_t>(info.host.size());
  std::memcpy(layout.host, info.host.data(), info.host.size());
  std::memcpy(layout.secret, info.secret.data(), kSecretBytes);
  std::memcpy(layout.id, info.id.data(), kCommIdBytes);
  std::memset(blob->internal, 0, sizeof(blob->internal));
  std::memcpy(blob->internal, &layout, sizeof(layout));
}

RootInfo DecodeRootInfo(const HcclRootInfo& blob) {
  Layout layout;
  std::memcpy(&layout, blob.internal, sizeof(layout));
  if (std::memcmp(layout.magic, kMagic, sizeof(kMagic)) != 0 || layout.version != kVersion) {
    Throw(HCCL_E_PARA, "rootInfo was not filled by HcclGetRootInfo");
  }
  if (layout.host_bytes == 0 || layout.host_bytes >= kMaxHostBytes || layout.port == 0) {
    Throw(HCCL_E_PARA, "rootInfo holds no valid listener address");
  }
  RootInfo info;
  info.host.assign(layout.host, layout.host_bytes);
  info.port = layout.port;
  std::memcpy(info.secret.data(), layout.secret, kSecretBytes);
  std::memcpy(info.id.data(), layout.id, kCommIdBytes);
  return info;
}

}  // namespace canopy::hccl
