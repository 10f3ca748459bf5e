#include "rank_table.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

#include "error.h"
#include "json.h"

namespace canopy::hccl {
namespace {

constexpr size_t kMaxServerIdBytes = 64;  // CANN: at most 64 characters
constexpr uint32_t kMaxRanks = 65536;
constexpr char kSecretEnv[] = "CANOPY_HCCL_SECRET";

std::string ReadWhole(const std::string& path, bool& others_can_read) {
  // O_NONBLOCK: a FIFO named as the table must not block the open (it is
  // refused below as not a regular file).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    Throw(HCCL_E_OPEN_FILE_FAILURE, "cannot open the rank table '%s': %s", path.c_str(), std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    Throw(HCCL_E_OPEN_FILE_FAILURE, "the rank table '%s' is not a regular file", path.c_str());
  }
  others_can_read = (info.st_mode & (S_IRGRP | S_IROTH)) != 0;
  if (static_cast<uint64_t>(info.st_size) > kMaxRankTableBytes) {
    ::close(fd);
    Throw(HCCL_E_PARA, "the rank table '%s' is %lld bytes, more than the %zu read", path.c_str(),
          static_cast<long long>(info.st_size), kMaxRankTableBytes);
  }
  std::string text(static_cast<size_t>(info.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      ::close(fd);
      Throw(HCCL_E_OPEN_FILE_FAILURE, "cannot read the rank table '%s'", path.c_str());
    }
    done += static_cast<size_t>(got);
  }
  ::close(fd);
  return text;
}

bool IsNumericAddress(const std::string& text) {
  in6_addr address{};
  return ::inet_pton(AF_INET, text.c_str(), &address) == 1 || ::inet_pton(AF_INET6, text.c_str(), &address) == 1;
}

// Reads the fields of one JSON object, each failure naming the field by its path.
class Fields {
 public:
  // `path` is where the object is ("server_list[1]"); empty for the document.
  Fields(const JsonValue& object, std::string path) : object_(object), path_(std::move(path)) {}

  const JsonValue* Optional(const char* key, JsonValue::Kind kind) const {
    const JsonValue* value = object_.Find(key);
    if (value != nullptr && !value->is(kind)) {
      Throw(HCCL_E_PARA, "rank table: %s must be %s, not %s", Name(key).c_str(), JsonValue::KindName(kind),
            JsonValue::KindName(value->kind()));
    }
    return value;
  }
  const JsonValue& Required(const char* key, JsonValue::Kind kind) const {
    const JsonValue* value = Optional(key, kind);
    if (value == nullptr) Throw(HCCL_E_PARA, "rank table: %s has no \"%s\"", Where().c_str(), key);
    return *value;
  }
  std::string RequiredString(const char* key) const { return Required(key, JsonValue::Kind::kString).text(); }

  // A non-negative integer written as CANN writes it ("3"), or as a JSON number (3).
  std::optional<uint64_t> OptionalInteger(const char* key, uint64_t max) const {
    const JsonValue* value = object_.Find(key);
    if (value == nullptr) return std::nullopt;
    if (!value->is(JsonValue::Kind::kString) && !value->is(JsonValue::Kind::kNumber)) {
      Throw(HCCL_E_PARA, "rank table: %s must be an integer (\"3\" or 3), not %s", Name(key).c_str(),
            JsonValue::KindName(value->kind()));
    }
    const std::string& text = value->text();
    bool digits = !text.empty() && text.size() <= 19;
    for (const char c : text) digits = digits && c >= '0' && c <= '9';
    const uint64_t number = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || number > max) {
      Throw(HCCL_E_PARA, "rank table: %s is '%s', not an integer in [0, %llu]", Name(key).c_str(), text.c_str(),
            static_cast<unsigned long long>(max));
    }
    return number;
  }
  uint64_t RequiredInteger(const char* key, uint64_t max) const {
    const std::optional<uint64_t> number = OptionalInteger(key, max);
    if (!number) Throw(HCCL_E_PARA, "rank table: %s has no \"%s\"", Where().c_str(), key);
    return *number;
  }
  std::string Name(const char* key) const { return path_.empty() ? std::string(key) : path_ + "." + key; }
  std::string Where() const { return path_.empty() ? std::string("the table") : path_; }

 private:
  const JsonValue& object_;
  std::string path_;
};

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Secret ParseSecret(const std::string& text, const char* where) {
  Secret secret{};
  bool valid = text.size() == 2 * kSecretBytes;
  for (size_t i = 0; valid && i < kSecretBytes; ++i) {
    const int high = HexDigit(text[2 * i]), low = HexDigit(text[2 * i + 1]);
    valid = high >= 0 && low >= 0;
    secret[i] = static_cast<uint8_t>(high * 16 + low);
  }
  if (!valid) {
    Throw(HCCL_E_PARA, "%s must be %zu hex digits (a random %zu-byte secret)", where, 2 * kSecretBytes, kSecretBytes);
  }
  return secret;
}

RankTable ParseRankTable(const JsonValue& document, bool others_can_read) {
  if (!document.is(JsonValue::Kind::kObject)) Throw(HCCL_E_PARA, "rank table: the document must be an object");
  const Fields top(document, "");
  const std::string status = top.RequiredString("status");
  if (status != "completed") {
    Throw(HCCL_E_PARA, "rank table: status is \"%s\"; only a \"completed\" rank table can be used", status.c_str());
  }
  const std::string version = top.RequiredString("version");
  if (version != "1.0") {
    Throw(HCCL_E_PARA, "rank table: version is \"%s\"; Atlas A2 rank tables are version \"1.0\"", version.c_str());
  }
  RankTable table;
  table.server_count = static_cast<uint32_t>(top.RequiredInteger("server_count", kMaxRanks));
  const JsonValue& servers = top.Required("server_list", JsonValue::Kind::kArray);
  if (servers.items().empty()) Throw(HCCL_E_PARA, "rank table: server_list is empty");
  if (servers.items().size() != table.server_count) {
    Throw(HCCL_E_PARA, "rank table: server_count is %u but server_list has %zu servers", table.server_count,
          servers.items().size());
  }

  std::vector<std::optional<RankTableEntry>> by_rank;
  std::set<std::string> server_ids;
  std::set<std::pair<std::string, uint16_t>> addresses;  // (device_ip, device_port) given in the table
  size_t devices = 0;
  for (size_t s = 0; s < servers.items().size(); ++s) {
    const JsonValue& server = servers.items()[s];
    const std::string server_path = "server_list[" + std::to_string(s) + "]";
    if (!server.is(JsonValue::Kind::kObject))
      Throw(HCCL_E_PARA, "rank table: %s must be an object", server_path.c_str());
    const Fields fields(server, server_path);
    const std::string server_id = fields.RequiredString("server_id");
    if (server_id.empty() || server_id.size() > kMaxServerIdBytes) {
      Throw(HCCL_E_PARA, "rank table: %s.server_id must have 1 to %zu characters", server_path.c_str(),
            kMaxServerIdBytes);
    }
    if (!server_ids.insert(server_id).second) {
      Throw(HCCL_E_PARA, "rank table: server_id \"%s\" appears twice", server_id.c_str());
    }
    if (const JsonValue* host_ip = fields.Optional("host_ip", JsonValue::Kind::kString);
        host_ip != nullptr && !IsNumericAddress(host_ip->text())) {
      Throw(HCCL_E_PARA, "rank table: %s.host_ip '%s' is not an IPv4 or IPv6 address", server_path.c_str(),
            host_ip->text().c_str());
    }
    const JsonValue& device_list = fields.Required("device", JsonValue::Kind::kArray);
    if (device_list.items().empty()) Throw(HCCL_E_PARA, "rank table: %s.device is empty", server_path.c_str());
    uint64_t lowest_rank = UINT64_MAX, highest_rank = 0;
    for (size_t d = 0; d < device_list.items().size(); ++d) {
      const JsonValue& device = device_list.items()[d];
      const std::string device_path = server_path + ".device[" + std::to_string(d) + "]";
      if (!device.is(JsonValue::Kind::kObject)) {
        Throw(HCCL_E_PARA, "rank table: %s must be an object", device_path.c_str());
      }
      if (++devices > kMaxRanks) Throw(HCCL_E_PARA, "rank table: more than %u devices", kMaxRanks);
      const Fields device_fields(device, device_path);
      RankTableEntry entry;
      entry.server_id = server_id;
      entry.device_id = static_cast<uint32_t>(device_fields.RequiredInteger("device_id", kMaxRanks - 1));
      const uint64_t rank = device_fields.RequiredInteger("rank_id", kMaxRanks - 1);
      lowest_rank = std::min(lowest_rank, rank);
      highest_rank = std::max(highest_rank, rank);
      if (const JsonValue* ip = device_fields.Optional("device_ip", JsonValue::Kind::kString); ip != nullptr) {
        entry.device_ip = ip->text();
        if (!IsNumericAddress(entry.device_ip)) {
          Throw(HCCL_E_PARA, "rank table: %s.device_ip '%s' is not an IPv4 or IPv6 address", device_path.c_str(),
                entry.device_ip.c_str());
        }
      } else if (table.server_count > 1) {
        Throw(HCCL_E_PARA,
              "rank table: %s has no \"device_ip\" (every device needs one when there are several servers)",
              device_path.c_str());
      } else {
        entry.device_ip = "127.0.0.1";
      }
      if (const auto port = device_fields.OptionalInteger("device_port", 65535); port) {
        if (*port == 0) Throw(HCCL_E_PARA, "rank table: %s.device_port is 0", device_path.c_str());
        entry.device_port = static_cast<uint16_t>(*port);
      }
      // Processes sharing one device share its address and differ in port.
      if (device_fields.Optional("device_ip", JsonValue::Kind::kString) != nullptr &&
          !addresses.emplace(entry.device_ip, entry.device_port).second) {
        Throw(HCCL_E_PARA,
              "rank table: device_ip %s appears twice with the same device_port (each device has its own address, "
              "or processes sharing one have distinct ports)",
              entry.device_ip.c_str());
      }
      if (by_rank.size() <= rank) by_rank.resize(rank + 1);
      if (by_rank[rank])
        Throw(HCCL_E_PARA, "rank table: rank_id %llu appears twice", static_cast<unsigned long long>(rank));
      by_rank[rank] = std::move(entry);
    }
    // CANN: each server's ranks are one run of consecutive ids.
    if (highest_rank - lowest_rank + 1 != device_list.items().size()) {
      Throw(HCCL_E_PARA,
            "rank table: the rank_id values of server \"%s\" are not consecutive (ranks may not interleave across "
            "servers)",
            server_id.c_str());
    }
  }
  for (size_t rank = 0; rank < by_rank.size(); ++rank) {
    if (!by_rank[rank]) {
      Throw(HCCL_E_PARA, "rank table: rank_id %zu is missing (rank ids are 0 .. %zu, each once)", rank,
            by_rank.size() - 1);
    }
    table.ranks.push_back(std::move(*by_rank[rank]));
  }

  if (const JsonValue* secret = top.Optional("canopy_secret", JsonValue::Kind::kString); secret != nullptr) {
    if (others_can_read) {
      Throw(HCCL_E_PARA,
            "rank table: the file carries canopy_secret but other users can read it: make it readable by its owner "
            "only (chmod 600), or pass the secret in %s",
            kSecretEnv);
    }
    table.secret = ParseSecret(secret->text(), "rank table: canopy_secret");
  }
  return table;
}

}  // namespace

RankTable ReadRankTable(const std::string& path) {
  bool others_can_read = false;
  const std::string text = ReadWhole(path, others_can_read);
  return ParseRankTable(ParseJson(text, "the rank table '" + path + "'"), others_can_read);
}

RootInfo RankTableRoot(const RankTable& table) {
  const char* from_env = std::getenv(kSecretEnv);
  const bool has_env = from_env != nullptr && *from_env != '\0';
  if (has_env && table.secret) {
    Throw(HCCL_E_PARA, "the secret is given twice (rank table canopy_secret and %s): give it once", kSecretEnv);
  }
  if (!has_env && !table.secret) {
    Throw(HCCL_E_PARA,
          "the rank table carries no communicator secret: every rank needs the same 64 hex digits in the table's "
          "\"canopy_secret\" (a file only its owner can read) or in %s",
          kSecretEnv);
  }
  const Secret secret = has_env ? ParseSecret(from_env, kSecretEnv) : *table.secret;
  // The layout every rank must agree on, one line per rank.
  std::string layout = std::to_string(table.ranks.size()) + "\n";
  for (size_t rank = 0; rank < table.ranks.size(); ++rank) {
    const RankTableEntry& entry = table.ranks[rank];
    layout += std::to_string(rank) + " " + entry.server_id + " " + std::to_string(entry.device_id) + " " +
              entry.device_ip + " " + std::to_string(entry.device_port) + "\n";
  }
  RootInfo root;
  root.host = table.ranks[0].device_ip;
  root.port = table.ranks[0].device_port != 0 ? table.ranks[0].device_port : kDefaultRankTablePort;
  root.secret = Derive(secret, "canopy-hccl rank table", layout);
  const Secret name = Derive(root.secret, "canopy-hccl communicator name", "");
  std::copy_n(name.begin(), kCommIdBytes, root.id.begin());
  return root;
}

}  // namespace canopy::hccl
