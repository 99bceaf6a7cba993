// Text for emitted C++ source (the .schedule.h and the standalone generator).
#pragma once

#include <string>

namespace diet {

// `s` as a C++ string literal: quotes and backslashes escaped.
inline std::string cpp_string_literal(const std::string &s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + "\"";
}

}  // namespace diet
