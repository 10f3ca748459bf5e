#include "registry_example.h"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

namespace canopy_test {
namespace {

using Form = ExampleArgument::Form;

struct NamedDtype {
  const char* name;
  aclDataType dtype;
};
constexpr NamedDtype kDtypes[] = {
    {"f16", ACL_FLOAT16}, {"bf16", ACL_BF16},     {"f32", ACL_FLOAT}, {"f64", ACL_DOUBLE},    {"i8", ACL_INT8},
    {"i16", ACL_INT16},   {"i32", ACL_INT32},     {"i64", ACL_INT64}, {"u8", ACL_UINT8},      {"u16", ACL_UINT16},
    {"u32", ACL_UINT32},  {"u64", ACL_UINT64},    {"bool", ACL_BOOL}, {"c64", ACL_COMPLEX64}, {"c128", ACL_COMPLEX128},
    {"i4", ACL_INT4},     {"c32", ACL_COMPLEX32},
};

struct NamedFormat {
  const char* name;
  aclFormat format;
};
constexpr NamedFormat kFormats[] = {{"ND", ACL_FORMAT_ND},
                                    {"NCHW", ACL_FORMAT_NCHW},
                                    {"NHWC", ACL_FORMAT_NHWC},
                                    {"NCL", ACL_FORMAT_NCL},
                                    {"NCDHW", ACL_FORMAT_NCDHW},
                                    {"NDHWC", ACL_FORMAT_NDHWC},
                                    {"FRACTAL_Z_3D", ACL_FRACTAL_Z_3D},
                                    {"FRACTAL_NZ", ACL_FORMAT_FRACTAL_NZ}};

std::optional<aclDataType> DtypeNamed(const std::string& name) {
  for (const NamedDtype& d : kDtypes) {
    if (name == d.name) return d.dtype;
  }
  return std::nullopt;
}

// A number as a whole token ("2", "-1", "1e-5", "true"), or nothing.
std::optional<double> NumberOf(const std::string& text) {
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

// "a,b,c" (possibly empty) as numbers.
std::optional<std::vector<double>> NumbersOf(const std::string& text) {
  std::vector<double> numbers;
  if (text.empty()) return numbers;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const std::optional<double> number = NumberOf(item);
    if (!number) return std::nullopt;
    numbers.push_back(*number);
  }
  if (text.back() == ',') return std::nullopt;
  return numbers;
}

// "f32[2,3]{0:1}@NCHW".
std::optional<ExampleTensor> TensorOf(const std::string& text) {
  const size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  ExampleTensor tensor;
  const std::optional<aclDataType> dtype = DtypeNamed(text.substr(0, open));
  const std::optional<std::vector<double>> dims = NumbersOf(text.substr(open + 1, close - open - 1));
  if (!dtype || !dims) return std::nullopt;
  tensor.dtype = *dtype;
  for (const double d : *dims) tensor.shape.push_back(static_cast<int64_t>(d));
  std::string rest = text.substr(close + 1);
  if (!rest.empty() && rest.front() == '{') {
    const size_t end = rest.find('}'), colon = rest.find(':');
    if (end == std::string::npos || colon == std::string::npos || colon > end) return std::nullopt;
    const std::optional<double> lo = NumberOf(rest.substr(1, colon - 1));
    const std::optional<double> hi = NumberOf(rest.substr(colon + 1, end - colon - 1));
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    tensor.ranged = true;
    tensor.lo = *lo;
    tensor.hi = *hi;
    rest = rest.substr(end + 1);
  }
  if (!rest.empty()) {
    if (rest.front() != '@') return std::nullopt;
    bool known = false;
    for (const NamedFormat& f : kFormats) {
      if (rest.substr(1) == f.name) {
        tensor.format = f.format;
        known = true;
      }
    }
    if (!known) return std::nullopt;
  }
  return tensor;
}

// "f32:1.5".
std::optional<ExampleScalar> ScalarOf(const std::string& text) {
  const size_t colon = text.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::optional<aclDataType> dtype = DtypeNamed(text.substr(0, colon));
  const std::optional<double> value = NumberOf(text.substr(colon + 1));
  if (!dtype || !value) return std::nullopt;
  return ExampleScalar{*dtype, *value};
}

// The elements of "(a,b)": split at the commas outside brackets.
std::vector<std::string> ListItems(const std::string& inner) {
  std::vector<std::string> items;
  int depth = 0;
  std::string item;
  for (const char c : inner) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) items.push_back(item);
  return items;
}

bool StartsWith(const std::string& text, const char* head) { return text.rfind(head, 0) == 0; }

// The argument `token` stands for, when it is a form argument kind `kind` takes.
std::optional<ExampleArgument> ArgumentOf(const std::string& token, int kind) {
  ExampleArgument a;
  const bool pointer = kind == CANOPY_ARG_TENSOR || kind == CANOPY_ARG_SCALAR || kind == CANOPY_ARG_STRING ||
                       (kind >= CANOPY_ARG_INT_ARRAY && kind <= CANOPY_ARG_SCALAR_LIST);
  if (token == "-") {
    if (!pointer) return std::nullopt;
    return a;
  }
  switch (kind) {
    case CANOPY_ARG_TENSOR: {
      std::optional<ExampleTensor> tensor = TensorOf(token);
      if (!tensor) return std::nullopt;
      a.form = Form::kTensor;
      a.tensors.push_back(std::move(*tensor));
      return a;
    }
    case CANOPY_ARG_SCALAR: {
      const std::optional<ExampleScalar> scalar = ScalarOf(token);
      if (!scalar) return std::nullopt;
      a.form = Form::kScalar;
      a.scalars.push_back(*scalar);
      return a;
    }
    case CANOPY_ARG_INT_ARRAY:
    case CANOPY_ARG_FLOAT_ARRAY:
    case CANOPY_ARG_BOOL_ARRAY: {
      const char* head = kind == CANOPY_ARG_INT_ARRAY ? "ints[" : kind == CANOPY_ARG_FLOAT_ARRAY ? "floats[" : "bools[";
      if (!StartsWith(token, head) || token.back() != ']') return std::nullopt;
      const size_t from = std::strlen(head);
      const std::optional<std::vector<double>> numbers = NumbersOf(token.substr(from, token.size() - from - 1));
      if (!numbers) return std::nullopt;
      a.form = kind == CANOPY_ARG_INT_ARRAY     ? Form::kIntArray
               : kind == CANOPY_ARG_FLOAT_ARRAY ? Form::kFloatArray
                                                : Form::kBoolArray;
      a.numbers = *numbers;
      return a;
    }
    case CANOPY_ARG_TENSOR_LIST:
    case CANOPY_ARG_SCALAR_LIST: {
      if (token.size() < 2 || token.front() != '(' || token.back() != ')') return std::nullopt;
      for (const std::string& item : ListItems(token.substr(1, token.size() - 2))) {
        if (kind == CANOPY_ARG_TENSOR_LIST) {
          std::optional<ExampleTensor> tensor = TensorOf(item);
          if (!tensor) return std::nullopt;
          a.tensors.push_back(std::move(*tensor));
        } else {
          const std::optional<ExampleScalar> scalar = ScalarOf(item);
          if (!scalar) return std::nullopt;
          a.scalars.push_back(*scalar);
        }
      }
      a.form = kind == CANOPY_ARG_TENSOR_LIST ? Form::kTensorList : Form::kScalarList;
      return a;
    }
    case CANOPY_ARG_STRING:
      if (token.size() < 2 || token.front() != '\'' || token.back() != '\'') return std::nullopt;
      a.form = Form::kString;
      a.text = token.substr(1, token.size() - 2);
      return a;
    default: {  // integers, enums, bools, floats
      const std::optional<double> number = NumberOf(token);
      if (!number) return std::nullopt;
      if (kind == CANOPY_ARG_BOOL && *number != 0 && *number != 1) return std::nullopt;
      a.form = Form::kNumber;
      a.numbers.push_back(*number);
      return a;
    }
  }
}

}  // namespace

std::optional<std::vector<ExampleArgument>> ParseExample(const canopyOpInfo& op, std::string& error) {
  std::stringstream tokens(op.example != nullptr ? op.example : "");
  std::vector<std::string> words;
  for (std::string word; tokens >> word;) words.push_back(word);
  if (words.size() != op.argCount) {
    error = std::string(op.name) + "'s example has " + std::to_string(words.size()) + " tokens for " +
            std::to_string(op.argCount) + " arguments";
    return std::nullopt;
  }
  std::vector<ExampleArgument> arguments;
  for (size_t i = 0; i < words.size(); ++i) {
    const auto fail = [&](const std::string& why) {
      error = std::string(op.name) + "'s example: '" + words[i] + "' " + why + " argument " + op.args[i].name + " (" +
              op.args[i].type + ")";
      return std::nullopt;
    };
    std::string token = words[i];
    int32_t status_when_left_out = 0;
    // (a string's quote ends its token, so a '!' inside it is text)
    if (const size_t bang = token.rfind('!'); bang != std::string::npos && token.back() != '\'') {
      const std::optional<double> code = NumberOf(token.substr(bang + 1));
      if (!code || !(*code >= 1 && *code <= INT32_MAX) || *code != std::floor(*code)) {
        return fail("has no status code after '!' for");
      }
      if (op.args[i].optional == 0) return fail("marks as needed the required");
      status_when_left_out = static_cast<int32_t>(*code);
      token.resize(bang);
    }
    std::optional<ExampleArgument> argument = ArgumentOf(token, op.args[i].kind);
    if (!argument) return fail("is not a value of");
    if (status_when_left_out != 0 && argument->form == Form::kNull) return fail("leaves out and marks as needed");
    argument->statusWhenLeftOut = status_when_left_out;
    arguments.push_back(std::move(*argument));
  }
  return arguments;
}

}  // namespace canopy_test
