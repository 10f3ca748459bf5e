// fuzz_hccl_store: the rendezvous store server HcclGetRootInfo starts, on
// loopback, fed the fuzzer's bytes over a TCP connection. The first byte
// chooses whether the connection first proves the communicator secret (so the
// bytes reach the request parser) or sends the bytes as its proof; the rest is
// cut at each "#@" into messages sent one after another.
//
// Checked besides "no crash, no leak, no undefined behaviour, no hang": after
// every input an honest client (a rank) connects, proves the secret, sets a
// key and reads it back within the timeout. Only an input that proved the
// secret (a rank, trusted) may end the server's service (report every rank
// done, fill the store): then a fresh server takes its place; an input without
// the secret that locks an honest client out is a finding.
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "acl/acl.h"
#include "auth.h"
#include "error.h"
#include "hccl/hccl.h"
#include "net.h"
#include "root_info.h"

using canopy::hccl::Clock;
using canopy::hccl::Socket;

namespace {

constexpr auto kHonestTimeout = std::chrono::seconds(2);
// A proved GET of a key nobody sets waits up to two hours after its client
// left: a fresh server now and then ends those waits.
constexpr uint64_t kInputsPerServer = 5000;

canopy::hccl::RootInfo& Server() {
  static canopy::hccl::RootInfo info;
  return info;
}

template <typename T>
void Append(std::vector<char>& bytes, T value) {
  const auto* raw = reinterpret_cast<const char*>(&value);
  bytes.insert(bytes.end(), raw, raw + sizeof(value));
}

// Every rank of the server's communicator reported done (as a proved peer
// may): the server closes, and the next HcclGetRootInfo deletes it, which
// ends the waits of GETs whose clients went away.
void FinishServer() {
  try {
    const auto deadline = Clock::now() + kHonestTimeout;
    const Socket socket = canopy::hccl::Connect(Server().host, Server().port, deadline);
    canopy::hccl::AuthenticateToServer(socket, Server().secret, deadline);
    const std::string key = "fuzz";
    std::vector<char> request{3};  // DONE
    Append(request, static_cast<uint32_t>(key.size()));
    request.insert(request.end(), key.begin(), key.end());
    Append(request, uint32_t{1});
    canopy::hccl::SendAll(socket, request.data(), request.size(), deadline);
    uint8_t reply = 0;
    canopy::hccl::RecvAll(socket, &reply, 1, deadline);
  } catch (const canopy::hccl::HcclError&) {
    // Already closed: a proved input reported every rank done.
  }
}

void StartServer() {
  HcclRootInfo blob{};
  if (HcclGetRootInfo(&blob) != HCCL_SUCCESS) std::abort();
  Server() = canopy::hccl::DecodeRootInfo(blob);
}

// A rank's exchange: prove the secret, SET a fresh key, GET it back.
bool HonestExchange() {
  static uint64_t serial = 0;
  const std::string key = "honest/" + std::to_string(serial++);
  const std::string value = "value of " + key;
  try {
    const auto deadline = Clock::now() + kHonestTimeout;
    const Socket socket = canopy::hccl::Connect(Server().host, Server().port, deadline);
    canopy::hccl::AuthenticateToServer(socket, Server().secret, deadline);
    std::vector<char> request;
    request.push_back(1);  // SET
    Append(request, static_cast<uint32_t>(key.size()));
    request.insert(request.end(), key.begin(), key.end());
    Append(request, static_cast<uint32_t>(value.size()));
    request.insert(request.end(), value.begin(), value.end());
    request.push_back(2);  // GET
    Append(request, static_cast<uint32_t>(key.size()));
    request.insert(request.end(), key.begin(), key.end());
    Append(request, uint32_t{1000});
    canopy::hccl::SendAll(socket, request.data(), request.size(), deadline);
    uint8_t set_reply = 1;
    uint8_t get_reply = 1;
    uint32_t bytes = 0;
    canopy::hccl::RecvAll(socket, &set_reply, 1, deadline);
    canopy::hccl::RecvAll(socket, &get_reply, 1, deadline);
    if (set_reply != 0 || get_reply != 0) return false;
    canopy::hccl::RecvAll(socket, &bytes, sizeof(bytes), deadline);
    if (bytes != value.size()) return false;
    std::string got(bytes, '\0');
    canopy::hccl::RecvAll(socket, got.data(), bytes, deadline);
    return got == value;
  } catch (const canopy::hccl::HcclError& error) {
    std::fprintf(stderr, "honest client: %s\n", error.what());
    return false;
  }
}

// Reads what the server sent until it closes or pauses, so that its replies
// never fill the socket buffers.
void Drain(const Socket& socket) {
  char buffer[4096];
  pollfd ready{socket.fd(), POLLIN, 0};
  while (::poll(&ready, 1, 1) > 0) {
    if (::recv(socket.fd(), buffer, sizeof(buffer), MSG_DONTWAIT) <= 0) return;
  }
}

void SendInput(bool prove, std::string_view bytes) {
  try {
    const auto deadline = Clock::now() + kHonestTimeout;
    const Socket socket = canopy::hccl::Connect(Server().host, Server().port, deadline);
    if (prove) canopy::hccl::AuthenticateToServer(socket, Server().secret, deadline);
    for (;;) {
      const size_t cut = bytes.find("#@");
      const std::string_view message = bytes.substr(0, cut);
      canopy::hccl::SendAll(socket, message.data(), message.size(), deadline);
      Drain(socket);
      if (cut == std::string_view::npos) break;
      bytes.remove_prefix(cut + 2);
    }
    ::shutdown(socket.fd(), SHUT_WR);
    Drain(socket);
  } catch (const canopy::hccl::HcclError&) {
    // The server ended the connection: what it does with a bad request.
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  if (aclInit(nullptr) != ACL_SUCCESS) std::abort();
  StartServer();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static uint64_t inputs = 0;
  if (++inputs % kInputsPerServer == 0) {
    FinishServer();
    StartServer();
  }
  if (size == 0) return 0;
  const bool prove = (data[0] & 1) != 0;
  SendInput(prove, std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  if (HonestExchange()) return 0;
  if (!prove) {
    std::fprintf(stderr, "an input without the secret locked an honest client out\n");
    std::abort();
  }
  FinishServer();
  StartServer();
  if (!HonestExchange()) {
    std::fprintf(stderr, "a fresh server refused an honest client\n");
    std::abort();
  }
  return 0;
}
