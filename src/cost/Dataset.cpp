#include "cost/Dataset.h"

#include "common/Errors.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace diet {

nlohmann::json DatasetRecord::to_json() const {
    nlohmann::json j;
    j["format"] = kDatasetFormat;
    j["pipeline"] = pipeline;
    j["label"] = label;
    j["stage"] = stage;
    j["target"] = target;
    j["shape"] = shape;
    j["contraction"] = kernel.contraction.to_json();
    j["machine"] = kernel.machine.to_json();
    j["kernel"] = kernel_to_json(kernel.kernel);
    j["extents"] = kernel.extents;
    j["reduction_points"] = kernel.reduction_points;
    j["flops"] = flops;
    j["seconds"] = seconds ? nlohmann::json(*seconds) : nlohmann::json(nullptr);
    return j;
}

DatasetRecord DatasetRecord::from_json(const nlohmann::json &j) {
    DatasetRecord r;
    try {
        user_assert(j.at("format").get<int>() == kDatasetFormat)
            << "Diet: dataset record of format " << j.at("format") << "; this version reads " << kDatasetFormat << "\n";
        r.pipeline = j.at("pipeline").get<std::string>();
        r.label = j.value("label", "");
        r.stage = j.at("stage").get<std::string>();
        r.target = j.at("target").get<std::string>();
        r.shape = j.at("shape").get<std::string>();
        r.kernel.contraction = ContractionSummary::from_json(j.at("contraction"));
        r.kernel.machine = MachineSummary::from_json(j.at("machine"));
        r.kernel.kernel = kernel_from_json(j.at("kernel"));
        r.kernel.extents = j.at("extents").get<std::vector<int64_t>>();
        r.kernel.reduction_points = j.at("reduction_points").get<int64_t>();
        r.flops = j.at("flops").get<double>();
        if (!j.at("seconds").is_null()) r.seconds = j.at("seconds").get<double>();
    } catch (const nlohmann::json::exception &e) {
        user_error << "Diet: malformed dataset record: " << e.what() << "\n";
    }
    user_assert(!r.kernel.extents.empty() && r.flops > 0) << "Diet: dataset record without extents or work\n";
    return r;
}

nlohmann::json PlanRecord::to_json() const {
    nlohmann::json j;
    j["format"] = kDatasetFormat;
    j["kind"] = "plan";
    j["pipeline"] = pipeline;
    j["label"] = label;
    j["target"] = target;
    j["shape"] = shape;
    j["plan"] = plan;
    j["rows"] = rows;
    j["estimate"] = estimate;
    j["seconds"] = seconds ? nlohmann::json(*seconds) : nlohmann::json(nullptr);
    return j;
}

PlanRecord PlanRecord::from_json(const nlohmann::json &j) {
    PlanRecord r;
    try {
        user_assert(j.at("format").get<int>() == kDatasetFormat) << "Diet: plan record of another format\n";
        r.pipeline = j.at("pipeline").get<std::string>();
        r.label = j.value("label", "");
        r.target = j.at("target").get<std::string>();
        r.shape = j.at("shape").get<std::string>();
        r.plan = j.at("plan").get<std::string>();
        r.rows = j.at("rows").get<std::vector<std::vector<float>>>();
        r.estimate = j.at("estimate").get<double>();
        if (!j.at("seconds").is_null()) r.seconds = j.at("seconds").get<double>();
    } catch (const nlohmann::json::exception &e) {
        user_error << "Diet: malformed plan record: " << e.what() << "\n";
    }
    return r;
}

namespace {

void append_lines(const std::string &path, const std::vector<nlohmann::json> &lines) {
    if (lines.empty()) return;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    user_assert(fd >= 0) << "Diet: cannot open the dataset file " << path << " for appending\n";
    for (const nlohmann::json &j : lines) {
        const std::string line = j.dump() + "\n";
        const ssize_t n = write(fd, line.data(), line.size());
        if (n != (ssize_t)line.size()) {
            close(fd);
            user_error << "Diet: cannot write to the dataset file " << path << "\n";
        }
    }
    close(fd);
}

// Every JSON line of the files (gzip-compressed when the name ends in .gz).
std::vector<std::pair<std::string, nlohmann::json>> read_lines(const std::vector<std::string> &paths);

}  // namespace

void append_plan_dataset(const std::string &path, const std::vector<PlanRecord> &records) {
    std::vector<nlohmann::json> lines;
    for (const PlanRecord &r : records) lines.push_back(r.to_json());
    append_lines(path, lines);
}

void append_dataset(const std::string &path, const std::vector<DatasetRecord> &records) {
    std::vector<nlohmann::json> lines;
    for (const DatasetRecord &r : records) lines.push_back(r.to_json());
    append_lines(path, lines);
}

namespace {

std::vector<std::pair<std::string, nlohmann::json>> read_lines(const std::vector<std::string> &paths) {
    std::vector<std::pair<std::string, nlohmann::json>> out;
    for (const std::string &path : paths) {
        std::string text;
        const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
        if (gz) {
            FILE *p = popen(("gzip -dc '" + path + "'").c_str(), "r");
            user_assert(p) << "Diet: cannot run gzip on " << path << "\n";
            char buf[1 << 16];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
            user_assert(pclose(p) == 0) << "Diet: " << path << " is not a readable gzip file\n";
        } else {
            std::ifstream in(path);
            user_assert(in.good()) << "Diet: cannot read the dataset file " << path << "\n";
            std::ostringstream ss;
            ss << in.rdbuf();
            text = ss.str();
        }
        std::istringstream lines(text);
        std::string line;
        int no = 0;
        while (std::getline(lines, line)) {
            no++;
            if (line.empty()) continue;
            nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
            user_assert(!j.is_discarded()) << "Diet: " << path << ":" << no << " is not JSON\n";
            out.emplace_back(path + ":" + std::to_string(no), std::move(j));
        }
    }
    return out;
}

}  // namespace

std::vector<DatasetRecord> read_dataset(const std::vector<std::string> &paths) {
    std::vector<DatasetRecord> out;
    for (auto &[where, j] : read_lines(paths)) {
        if (j.is_object() && j.value("kind", "kernel") != "kernel") continue;
        out.push_back(DatasetRecord::from_json(j));
    }
    return out;
}

std::vector<PlanRecord> read_plan_dataset(const std::vector<std::string> &paths) {
    std::vector<PlanRecord> out;
    for (auto &[where, j] : read_lines(paths)) {
        if (j.is_object() && j.value("kind", "kernel") == "plan") out.push_back(PlanRecord::from_json(j));
    }
    return out;
}

std::set<std::string> dataset_labels(const std::string &path) {
    std::set<std::string> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.is_object() && j.contains("label")) out.insert(j["label"].get<std::string>());
    }
    return out;
}

}  // namespace diet
