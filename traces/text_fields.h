#pragma once
// Field splitting and number parsing shared by the text readers. Numbers go
// through std::from_chars: no locale, no allocation, no silent wrap of "-8"
// into 2^64-8 as strtoull would do.

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

namespace traces::detail {

// A malformed record, thrown by the parsing helpers and the per-format
// parsers and turned into TraceError (or a skip) by the reader that knows
// the file and position. `reason` is a short fixed key for
// ReaderStats::skipped (never contains input text, so the map stays small);
// `message` is the detail for TraceError::what().
struct BadRecord : std::exception {
  BadRecord(std::string reason_, std::string message_)
      : reason(std::move(reason_)), message(std::move(message_)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string reason, message;
};

// Throws BadRecord{"bad field 'NAME'", "field 'NAME': PROBLEM \"VALUE\""}.
[[noreturn]] void bad_field(std::string_view field, std::string_view problem, std::string_view value);

// A printable, length-limited rendering of input text for error messages,
// so a binary or huge field cannot break the one-line message.
std::string printable(std::string_view text, size_t max_len = 40);

// Unsigned decimal integer filling the whole field. Errors name `field`:
// missing value, negative value, not a number, out of range.
uint64_t parse_u64(std::string_view text, std::string_view field);
uint32_t parse_u32(std::string_view text, std::string_view field);

// Unsigned fixed-point decimal ("12.345") scaled by 10^frac_digits and
// returned as an integer: parse_decimal("0.000185", 9) == 185000. Digits
// beyond frac_digits are truncated. Exact (no floating point), so times in
// seconds convert to ns without rounding drift.
uint64_t parse_decimal(std::string_view text, unsigned frac_digits, std::string_view field);

// a * b, or BadRecord "out of range" naming `field` if it overflows 64 bits.
uint64_t mul_checked(uint64_t a, uint64_t b, std::string_view field, std::string_view text);

// Splits on `delim`. Stores at most `max` fields (each trimmed of spaces and
// tabs) and returns the total number of fields, so callers can check counts.
size_t split(std::string_view line, char delim, std::string_view* out, size_t max);
// Splits on runs of spaces and tabs; empty fields never occur.
size_t split_ws(std::string_view line, std::string_view* out, size_t max);

std::string_view trim(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
bool is_digits(std::string_view s);  // non-empty, all 0-9
bool is_decimal(std::string_view s); // digits with an optional ".digits"
bool is_rw_letter(std::string_view s);  // "r", "R", "w" or "W"
bool is_read_letter(std::string_view s);  // "r" or "R"

}  // namespace traces::detail
