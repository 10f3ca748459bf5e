#include "json.h"

#include <cstdint>
#include <set>

#include "error.h"

namespace canopy::hccl {

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [name, value] : members_) {
    if (name == key) return &value;
  }
  return nullptr;
}

const char* JsonValue::KindName(Kind kind) {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a boolean";
    case Kind::kNumber:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "a value";
}

// Recursive descent over the document; every failure names where it is.
class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& what) : text_(text), what_(what) {}

  JsonValue Document() {
    JsonValue value = Value(0);
    SkipSpace();
    if (at_ != text_.size()) Fail("unexpected text after the document");
    return value;
  }

 private:
  [[noreturn]] void Fail(const char* why) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    Throw(HCCL_E_PARA, "%s is not valid JSON: line %zu, column %zu: %s", what_.c_str(), line, column, why);
  }

  void SkipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
    if (at_ < text_.size() && text_[at_] == '/') {
      Fail("comments are not JSON (the comments in CANN's documented examples are notes: remove them)");
    }
  }

  bool Consume(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  JsonValue Value(size_t depth) {
    if (depth >= kMaxJsonDepth) Fail("nested too deeply");
    SkipSpace();
    if (at_ >= text_.size()) Fail("a value is missing (the file ends)");
    JsonValue value;
    const char c = text_[at_];
    if (c == '{') {
      value.kind_ = JsonValue::Kind::kObject;
      Object(value, depth);
    } else if (c == '[') {
      value.kind_ = JsonValue::Kind::kArray;
      Array(value, depth);
    } else if (c == '"') {
      value.kind_ = JsonValue::Kind::kString;
      value.text_ = String();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      value.kind_ = JsonValue::Kind::kNumber;
      value.text_ = Number();
    } else if (Consume("true")) {
      value.kind_ = JsonValue::Kind::kBool;
      value.boolean_ = true;
    } else if (Consume("false")) {
      value.kind_ = JsonValue::Kind::kBool;
    } else if (Consume("null")) {
      value.kind_ = JsonValue::Kind::kNull;
    } else {
      Fail("a value must be an object, array, string, number, true, false or null");
    }
    return value;
  }

  void Object(JsonValue& value, size_t depth) {
    ++at_;  // '{'
    SkipSpace();
    if (Consume("}")) return;
    std::set<std::string> keys;  // a set, not a scan: a huge object stays linear-logarithmic
    for (;;) {
      SkipSpace();
      if (at_ >= text_.size() || text_[at_] != '"') Fail("an object key must be a string");
      std::string key = String();
      if (!keys.insert(key).second) Fail(("the key \"" + key + "\" appears twice").c_str());
      SkipSpace();
      if (!Consume(":")) Fail("':' expected after an object key");
      value.members_.emplace_back(std::move(key), Value(depth + 1));
      SkipSpace();
      if (Consume("}")) return;
      if (!Consume(",")) Fail("',' or '}' expected in an object");
    }
  }

  void Array(JsonValue& value, size_t depth) {
    ++at_;  // '['
    SkipSpace();
    if (Consume("]")) return;
    for (;;) {
      value.items_.push_back(Value(depth + 1));
      SkipSpace();
      if (Consume("]")) return;
      if (!Consume(",")) Fail("',' or ']' expected in an array");
    }
  }

  uint32_t Hex4() {
    if (at_ + 4 > text_.size()) Fail("\\u needs four hex digits");
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[at_++];
      code <<= 4;
      if (h >= '0' && h <= '9') {
        code |= static_cast<uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        code |= static_cast<uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        code |= static_cast<uint32_t>(h - 'A' + 10);
      } else {
        Fail("\\u needs four hex digits");
      }
    }
    return code;
  }

  static void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  std::string String() {
    ++at_;  // '"'
    std::string out;
    for (;;) {
      if (at_ >= text_.size()) Fail("a string is not closed");
      const char c = text_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) Fail("a control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) Fail("a string is not closed");
      const char e = text_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t code = Hex4();
          if (code >= 0xd800 && code < 0xdc00) {
            if (!Consume("\\u")) Fail("a lone UTF-16 surrogate");
            const uint32_t low = Hex4();
            if (low < 0xdc00 || low >= 0xe000) Fail("a lone UTF-16 surrogate");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          } else if (code >= 0xdc00 && code < 0xe000) {
            Fail("a lone UTF-16 surrogate");
          }
          AppendUtf8(out, code);
          break;
        }
        default:
          Fail("an unknown escape in a string");
      }
    }
  }

  std::string Number() {
    const size_t begin = at_;
    auto digits = [&] {
      const size_t first = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      return at_ - first;
    };
    Consume("-");
    if (Consume("0")) {
      if (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') Fail("a number has a leading zero");
    } else if (digits() == 0) {
      Fail("a number needs digits");
    }
    if (Consume(".") && digits() == 0) Fail("a number needs digits after '.'");
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (!Consume("+")) Consume("-");
      if (digits() == 0) Fail("a number needs digits in its exponent");
    }
    return std::string(text_.substr(begin, at_ - begin));
  }

  std::string_view text_;
  const std::string& what_;
  size_t at_ = 0;
};

JsonValue ParseJson(std::string_view text, const std::string& what) { return JsonParser(text, what).Document(); }

}  // namespace canopy::hccl
