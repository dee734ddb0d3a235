#include "traces/text_fields.h"

#include <charconv>
#include <limits>

namespace traces::detail {

std::string printable(std::string_view text, size_t max_len) {
  std::string out;
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max_len) {
      out += "...";
      break;
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void bad_field(std::string_view field, std::string_view problem, std::string_view value) {
  std::string f(field);
  throw BadRecord("bad field '" + f + "'",
                  "field '" + f + "': " + std::string(problem) + " \"" + printable(value) + "\"");
}

uint64_t parse_u64(std::string_view text, std::string_view field) {
  if (text.empty()) bad_field(field, "missing value", text);
  if (text[0] == '-') bad_field(field, "negative value", text);
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc::result_out_of_range) bad_field(field, "out of range", text);
  if (ec != std::errc() || p != end) bad_field(field, "not a number", text);
  return v;
}

uint32_t parse_u32(std::string_view text, std::string_view field) {
  uint64_t v = parse_u64(text, field);
  if (v > std::numeric_limits<uint32_t>::max()) bad_field(field, "out of range", text);
  return static_cast<uint32_t>(v);
}

uint64_t mul_checked(uint64_t a, uint64_t b, std::string_view field, std::string_view text) {
  uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) bad_field(field, "out of range", text);
  return r;
}

uint64_t parse_decimal(std::string_view text, unsigned frac_digits, std::string_view field) {
  if (!text.empty() && text[0] == '-') bad_field(field, "negative value", text);
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  uint64_t scale = 1;
  for (unsigned i = 0; i < frac_digits; ++i) scale *= 10;
  if (whole.empty() && dot != std::string_view::npos && dot + 1 < text.size()) whole = "0";  // ".5"
  uint64_t v = mul_checked(parse_u64(whole, field), scale, field, text);
  if (dot == std::string_view::npos) return v;
  std::string_view frac = text.substr(dot + 1);
  if (frac.empty() || !is_digits(frac)) bad_field(field, "not a number", text);
  uint64_t f = 0, unit = scale;
  for (size_t i = 0; i < frac.size() && i < frac_digits; ++i) {
    unit /= 10;
    f += static_cast<uint64_t>(frac[i] - '0') * unit;
  }
  if (__builtin_add_overflow(v, f, &v)) bad_field(field, "out of range", text);
  return v;
}

std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
  return s.substr(b, e - b);
}

size_t split(std::string_view line, char delim, std::string_view* out, size_t max) {
  size_t n = 0, start = 0;
  for (;;) {
    size_t d = line.find(delim, start);
    std::string_view f = line.substr(start, d == std::string_view::npos ? std::string_view::npos : d - start);
    if (n < max) out[n] = trim(f);
    ++n;
    if (d == std::string_view::npos) return n;
    start = d + 1;
  }
}

size_t split_ws(std::string_view line, std::string_view* out, size_t max) {
  size_t n = 0, i = 0, len = line.size();
  const char* s = line.data();
  while (i < len) {
    while (i < len && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == len) break;
    size_t b = i;
    while (i < len && s[i] != ' ' && s[i] != '\t') ++i;
    if (n < max) out[n] = std::string_view(s + b, i - b);
    ++n;
  }
  return n;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool is_decimal(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos) return is_digits(s);
  return is_digits(s.substr(0, dot)) && is_digits(s.substr(dot + 1));
}

bool is_rw_letter(std::string_view s) {
  return s.size() == 1 && (s[0] == 'r' || s[0] == 'R' || s[0] == 'w' || s[0] == 'W');
}

bool is_read_letter(std::string_view s) { return s.size() == 1 && (s[0] == 'r' || s[0] == 'R'); }

}  // namespace traces::detail
