#include "options/Options.h"
#include "common/Errors.h"
#include "measure/FarmConfig.h"

#include "Halide.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

extern char **environ;

namespace diet {

const std::vector<std::string> &known_option_keys() {
    static const std::vector<std::string> keys = {"shapes", "samples", "training", "seed", "debug", "timeout", "log", "trials", "mode", "model", "report", "max_kernels", "emit_generator", "farm", "farm_args", "farm_dir", "dataset", "model_features", "model_objective", "base_model", "base_plan_model", "cuda_registers"};
    return keys;
}

namespace {

std::string trim(const std::string &s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> parts;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) {
        parts.push_back(trim(cur));
    }
    if (!s.empty() && s.back() == sep) {
        parts.push_back("");
    }
    return parts;
}

int64_t parse_int(const std::string &text, const std::string &what) {
    size_t used = 0;
    long long v = 0;
    bool ok = !text.empty();
    if (ok) {
        try {
            v = std::stoll(text, &used, 10);
        } catch (...) {
            ok = false;
        }
    }
    user_assert(ok && used == text.size())
        << "Diet: " << what << ": '" << text << "' is not an integer.\n";
    return v;
}

bool parse_bool(const std::string &text, const std::string &what) {
    if (text == "1" || text == "true") return true;
    if (text == "0" || text == "false") return false;
    user_error << "Diet: " << what << ": '" << text << "' is not a boolean (use 0/1 or false/true).\n";
    return false;
}

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
}

// Values of one "NAME=..." entry; entries are separated by commas, but the list form
// (T=1,8,64) also uses commas, so a bare number continues the previous entry's list.
std::vector<int64_t> parse_values(const std::string &option, const std::string &name, const std::string &body) {
    const std::string what = option + " entry for " + name;
    std::vector<int64_t> values;
    if (body.find(':') != std::string::npos) {
        std::vector<std::string> f = split(body, ':');
        user_assert(f.size() == 2 || f.size() == 3)
            << "Diet: " << what << ": '" << body << "' must be MIN:MAX or MIN:MAX:STEP.\n";
        int64_t lo = parse_int(f[0], what), hi = parse_int(f[1], what);
        int64_t step = f.size() == 3 ? parse_int(f[2], what) : 1;
        user_assert(step > 0) << "Diet: " << what << ": the step must be positive, got " << step << ".\n";
        user_assert(lo <= hi) << "Diet: " << what << ": the range " << lo << ":" << hi << " is empty.\n";
        // Unsigned: hi - lo overflows int64 for ranges such as INT64_MIN:INT64_MAX.
        const uint64_t count = ((uint64_t)hi - (uint64_t)lo) / (uint64_t)step;
        user_assert(count < 10000000)
            << "Diet: " << what << ": the range " << body << " has too many values.\n";
        for (uint64_t i = 0; i <= count; i++) {
            values.push_back(lo + (int64_t)(i * (uint64_t)step));
        }
    } else {
        values.push_back(parse_int(body, what));
    }
    return values;
}

}  // namespace

std::vector<ShapeVarSpec> parse_shape_specs(const std::string &text, const std::string &option) {
    std::vector<ShapeVarSpec> specs;
    user_assert(!trim(text).empty()) << "Diet: " << option << " is empty; expected e.g. T=1:128.\n";
    for (const std::string &item : split(text, ',')) {
        user_assert(!item.empty()) << "Diet: " << option << "='" << text << "' has an empty entry.\n";
        size_t eq = item.find('=');
        if (eq == std::string::npos) {
            // A bare value continues the list of the previous variable: T=1,8,64.
            user_assert(!specs.empty() && item.find(':') == std::string::npos)
                << "Diet: " << option << " entry '" << item << "' must look like NAME=MIN:MAX, NAME=MIN:MAX:STEP "
                << "or NAME=V1,V2,...\n";
            auto more = parse_values(option, specs.back().name, item);
            specs.back().values.insert(specs.back().values.end(), more.begin(), more.end());
            continue;
        }
        std::string name = trim(item.substr(0, eq));
        user_assert(is_identifier(name))
            << "Diet: " << option << " entry '" << item << "': '" << name << "' is not a parameter name.\n";
        for (const auto &s : specs) {
            user_assert(s.name != name) << "Diet: " << option << " names " << name << " twice.\n";
        }
        specs.push_back({name, parse_values(option, name, trim(item.substr(eq + 1)))});
    }
    for (auto &s : specs) {
        std::sort(s.values.begin(), s.values.end());
        s.values.erase(std::unique(s.values.begin(), s.values.end()), s.values.end());
    }
    return specs;
}

Options Options::from_map(const std::map<std::string, std::string> &kv) {
    Options o;
    const auto &known = known_option_keys();
    for (const auto &[key, value] : kv) {
        if (std::find(known.begin(), known.end(), key) == known.end()) {
            std::ostringstream list;
            for (const auto &k : known) list << " " << k;
            user_error << "Diet: unknown option '" << key << "' (HL_DIET_" << key
                       << " / autoscheduler." << key << "). Known options:" << list.str() << "\n";
        }
        const std::string what = "option " + key;
        if (key == "shapes") {
            o.shapes = parse_shape_specs(value);
        } else if (key == "training") {
            o.training = parse_shape_specs(value, "HL_DIET_TRAINING");
        } else if (key == "samples") {
            int64_t n = parse_int(value, what);
            user_assert(n >= 1 && n <= 4096) << "Diet: option samples must be in [1, 4096], got " << n << ".\n";
            o.samples = (int)n;
        } else if (key == "seed") {
            int64_t s = parse_int(value, what);
            user_assert(s >= 0) << "Diet: option seed must be non-negative, got " << s << ".\n";
            o.seed = (uint64_t)s;
        } else if (key == "debug") {
            o.debug = parse_bool(value, what);
        } else if (key == "timeout") {
            double t = 0;
            size_t used = 0;
            try {
                t = std::stod(value, &used);
            } catch (...) {
                used = 0;
            }
            user_assert(used == value.size() && used > 0 && t > 0 && t <= 86400)
                << "Diet: option timeout must be a number of seconds in (0, 86400], got '" << value << "'.\n";
            o.timeout_seconds = t;
        } else if (key == "base_model") {
            user_assert(!value.empty()) << "Diet: option base_model must be a file path or none.\n";
            o.base_model = value;
        } else if (key == "base_plan_model") {
            user_assert(!value.empty()) << "Diet: option base_plan_model must be a file path or none.\n";
            o.base_plan_model = value;
        } else if (key == "dataset") {
            user_assert(!value.empty()) << "Diet: option dataset must be a file path.\n";
            o.dataset_path = value;
        } else if (key == "model_features") {
            user_assert(value == "kernel" || value == "ansor")
                << "Diet: option model_features must be kernel or ansor, got '" << value << "'.\n";
            o.model_features = value;
        } else if (key == "model_objective") {
            user_assert(value == "pairwise" || value == "regression")
                << "Diet: option model_objective must be pairwise or regression, got '" << value << "'.\n";
            o.model_objective = value;
        } else if (key == "log" || key == "model" || key == "report") {
            user_assert(!value.empty()) << "Diet: option " << key << " must be a file path.\n";
            (key == "log" ? o.log_path : key == "model" ? o.model_path : o.report_path) = value;
        } else if (key == "emit_generator") {
            user_assert(!value.empty()) << "Diet: option " << key << " must be a file path.\n";
            o.emit_generator_path = value;
        } else if (key == "farm") {
            user_assert(value.empty() || value == "slurm")
                << "Diet: option farm must be slurm (or empty: measure on this machine), got '" << value << "'.\n";
            o.farm = value;
        } else if (key == "farm_args") {
            FarmConfig checked;
            std::string why;
            user_assert(parse_farm_args(value, &checked, &why)) << "Diet: option " << why << ".\n";
            o.farm_args = value;
        } else if (key == "farm_dir") {
            user_assert(!value.empty()) << "Diet: option farm_dir must be a directory path.\n";
            o.farm_dir = value;
        } else if (key == "trials") {
            int64_t n = parse_int(value, what);
            user_assert(n >= 0 && n <= 100000) << "Diet: option trials must be in [0, 100000], got " << n << ".\n";
            o.trials = (int)n;
        } else if (key == "max_kernels") {
            int64_t n = parse_int(value, what);
            user_assert(n >= 1 && n <= 64) << "Diet: option max_kernels must be in [1, 64], got " << n << ".\n";
            o.max_kernels = (int)n;
        } else if (key == "cuda_registers") {
            int64_t n = parse_int(value, what);
            user_assert(n >= 16 && n <= 255) << "Diet: option cuda_registers must be in [16, 255], got " << n << ".\n";
            o.cuda_registers = (int)n;
        } else if (key == "mode") {
            user_assert(value == "joint" || value == "per_shape" || value == "max_shape" || value == "random")
                << "Diet: option mode must be joint, per_shape, max_shape or random, got '" << value << "'.\n";
            o.mode = value;
        }
    }
    return o;
}

std::map<std::string, std::string> Options::environment_map() {
    std::map<std::string, std::string> kv;
    const std::string prefix = "HL_DIET_";
    for (char **e = environ; e && *e; e++) {
        std::string entry(*e);
        if (entry.compare(0, prefix.size(), prefix) != 0) continue;
        size_t eq = entry.find('=');
        std::string key = entry.substr(prefix.size(), eq - prefix.size());
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
        kv[key] = eq == std::string::npos ? "" : entry.substr(eq + 1);
    }
    return kv;
}

}  // namespace diet
