// A small, strict JSON reader for the rank-table file (RFC 8259): objects,
// arrays, strings (with escapes), numbers, true/false/null. Bad input is an
// HCCL_E_PARA naming the line and column; duplicate keys, nesting deeper than
// kMaxJsonDepth and trailing text are errors too, so that a malformed or
// hostile file can never crash or exhaust the reader.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace canopy::hccl {

constexpr size_t kMaxJsonDepth = 32;

class JsonValue {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind() const { return kind_; }
  bool is(Kind kind) const { return kind_ == kind; }
  // The text of a string, or the literal text of a number.
  const std::string& text() const { return text_; }
  bool boolean() const { return boolean_; }
  const std::vector<JsonValue>& items() const { return items_; }
  // Members in file order.
  const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
  // The member named `key`, or null when there is none.
  const JsonValue* Find(std::string_view key) const;

  // "a string", "an array", ...: for messages.
  static const char* KindName(Kind kind);

 private:
  friend class JsonParser;
  Kind kind_ = Kind::kNull;
  bool boolean_ = false;
  std::string text_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

// Parses `text` (the whole document); `what` names it in messages.
JsonValue ParseJson(std::string_view text, const std::string& what);

}  // namespace canopy::hccl
