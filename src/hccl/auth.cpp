#include "auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "error.h"

namespace canopy::hccl {

void RandomBytes(void* data, size_t bytes) {
  auto* next = static_cast<uint8_t*>(data);
  while (bytes > 0) {
    const ssize_t got = ::getrandom(next, bytes, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      Throw(HCCL_E_SYSCALL, "getrandom failed: %s", std::strerror(errno));
    }
    next += got;
    bytes -= static_cast<size_t>(got);
  }
}

Proof Prove(const Secret& secret, std::string_view role, const Nonce& nonce, uint64_t context) {
  uint8_t message[64 + kNonceBytes + sizeof(context)] = {};
  const size_t role_bytes = std::min<size_t>(role.size(), 64);
  std::memcpy(message, role.data(), role_bytes);
  std::memcpy(message + 64, nonce.data(), kNonceBytes);
  std::memcpy(message + 64 + kNonceBytes, &context, sizeof(context));
  Proof proof{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), message, sizeof(message), proof.data(),
           &length) == nullptr ||
      length != kProofBytes) {
    Throw(HCCL_E_INTERNAL, "HMAC-SHA256 failed");
  }
  return proof;
}

Secret Derive(const Secret& key, std::string_view label, std::string_view data) {
  std::string message(label);
  message += '\0';
  message += data;
  Secret derived{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const uint8_t*>(message.data()),
           message.size(), derived.data(), &length) == nullptr ||
      length != kSecretBytes) {
    Throw(HCCL_E_INTERNAL, "HMAC-SHA256 failed");
  }
  return derived;
}

bool SameProof(const Proof& a, const Proof& b) { return CRYPTO_memcmp(a.data(), b.data(), kProofBytes) == 0; }

bool AuthenticateClient(const Socket& socket, const Secret& secret, Deadline deadline) {
  Nonce server_nonce;
  RandomBytes(server_nonce.data(), kNonceBytes);
  SendAll(socket, server_nonce.data(), kNonceBytes, deadline);
  Nonce client_nonce;
  Proof client_proof;
  RecvAll(socket, client_nonce.data(), kNonceBytes, deadline);
  RecvAll(socket, client_proof.data(), kProofBytes, deadline);
  if (!SameProof(client_proof, Prove(secret, "canopy-hccl client", server_nonce))) {
    LogWarning("rendezvous: a connection without the communicator's secret was dropped");
    return false;
  }
  const Proof server_proof = Prove(secret, "canopy-hccl server", client_nonce);
  SendAll(socket, server_proof.data(), kProofBytes, deadline);
  return true;
}

void AuthenticateToServer(const Socket& socket, const Secret& secret, Deadline deadline) {
  Nonce server_nonce;
  try {
    RecvAll(socket, server_nonce.data(), kNonceBytes, deadline);
  } catch (const HcclError& error) {
    // Closed before the server said anything: a listener that was closing
    // (its communicator complete) took the connection. Another may follow.
    if (error.code() == HCCL_E_TCP_TRANSFER) Throw(HCCL_E_AGAIN, "the listener closed the connection at once");
    throw;
  }
  Nonce client_nonce;
  RandomBytes(client_nonce.data(), kNonceBytes);
  const Proof client_proof = Prove(secret, "canopy-hccl client", server_nonce);
  SendAll(socket, client_nonce.data(), kNonceBytes, deadline);
  SendAll(socket, client_proof.data(), kProofBytes, deadline);
  Proof server_proof;
  try {
    RecvAll(socket, server_proof.data(), kProofBytes, deadline);
  } catch (const HcclError&) {
    Throw(HCCL_E_TCP_CONNECT, "the root refused this rank's proof of the communicator secret (wrong root info?)");
  }
  if (!SameProof(server_proof, Prove(secret, "canopy-hccl server", client_nonce))) {
    Throw(HCCL_E_TCP_CONNECT, "the rendezvous listener does not know the communicator secret");
  }
}

}  // namespace canopy::hccl
