#pragma once
// A tiny VCD reader for the tests: the header's timescale, the $var
// declarations (named by their scope path, e.g. "channel0.die1") and every
// value change, as (time in ps, value). Fails the test on malformed input.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ssdtest {

struct Vcd {
  uint64_t ps_per_unit = 0;
  std::map<std::string, std::string> id_of;  // signal path -> VCD identifier
  std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes;  // identifier -> (ps, value)
  const std::vector<std::pair<uint64_t, uint64_t>>& of(const std::string& path) const {
    static const std::vector<std::pair<uint64_t, uint64_t>> none;
    auto it = id_of.find(path);
    if (it == id_of.end()) return none;
    auto c = changes.find(it->second);
    return c == changes.end() ? none : c->second;
  }
};

inline Vcd read_vcd(const std::string& path) {
  Vcd v;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::string> scope;
  std::string tok;
  uint64_t now = 0;
  bool header = true;
  // Reads tokens up to $end.
  const auto until_end = [&in] {
    std::vector<std::string> t;
    for (std::string w; in >> w && w != "$end";) t.push_back(w);
    return t;
  };
  while (in >> tok) {
    if (header) {
      if (tok == "$timescale") {
        const auto t = until_end();
        std::string all;
        for (const auto& w : t) all += w;
        const size_t u = all.find_first_not_of("0123456789");
        const uint64_t n = std::stoull(all.substr(0, u));
        const std::string unit = all.substr(u);
        const uint64_t mult = unit == "ps" ? 1 : unit == "ns" ? 1000 : unit == "us" ? 1000000 : 0;
        EXPECT_NE(mult, 0u) << "timescale unit " << unit;
        v.ps_per_unit = n * mult;
      } else if (tok == "$scope") {
        const auto t = until_end();
        EXPECT_EQ(t.size(), 2u);
        scope.push_back(t.at(1));
      } else if (tok == "$upscope") {
        until_end();
        scope.pop_back();
      } else if (tok == "$var") {
        const auto t = until_end();  // type width id name [range]
        EXPECT_GE(t.size(), 4u);
        std::string name;
        for (size_t i = 1; i < scope.size(); ++i) name += scope[i] + ".";  // scope[0] is the top ("SystemC")
        v.id_of[name + t.at(3)] = t.at(2);
      } else if (tok == "$enddefinitions") {
        until_end();
        header = false;
      } else if (tok[0] == '$') {
        until_end();
      } else {
        ADD_FAILURE() << "unexpected token in the VCD header: " << tok;
        return v;
      }
      continue;
    }
    if (tok == "$dumpvars" || tok == "$end") continue;
    if (tok == "$comment") {
      until_end();
    } else if (tok[0] == '#') {
      now = std::stoull(tok.substr(1)) * v.ps_per_unit;
    } else if (tok[0] == 'b') {
      std::string id;
      in >> id;
      v.changes[id].push_back({now, std::stoull(tok.substr(1), nullptr, 2)});
    } else if (tok[0] == '0' || tok[0] == '1') {
      v.changes[tok.substr(1)].push_back({now, uint64_t(tok[0] - '0')});
    } else {
      ADD_FAILURE() << "unexpected token in the VCD body: " << tok;
      return v;
    }
  }
  EXPECT_FALSE(header) << "no $enddefinitions";
  return v;
}

}  // namespace ssdtest
