// SPDX-License-Identifier: Apache-2.0
// -o junit: JUnit XML as kubeconform emits it: a <testsuite> per file, a <testcase> per policy document
// (and per warning about a snapshot object, such as a binding karmada-scheduler crashes on).
#include "lint/render.hpp"

#include <array>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "doc/load.hpp"

namespace kpw::lint {
namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

// Appends one UTF-8 character starting at s[i] (its length returned) if XML 1.0 allows it, else U+FFFD.
std::size_t append_xml_char(std::string& out, std::string_view s, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(s[i]);
    const std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
    std::size_t bad = 0;
    const std::string_view ch = s.substr(i, len == 0 ? 1 : len);
    // XML 1.0 Char excludes C0 controls but tab/LF/CR, and U+FFFE/U+FFFF; invalid UTF-8 is not a character at all.
    const bool well_formed = len != 0 && ch.size() == len && doc::is_clean_utf8(ch, bad);
    const bool allowed = well_formed && (lead >= 0x20 || lead == '\t' || lead == '\n' || lead == '\r') &&
                         ch != "\xEF\xBF\xBE" && ch != "\xEF\xBF\xBF";
    out.append(allowed ? ch : replacement);
    return well_formed ? len : 1; // a bad byte is replaced alone; a whole character otherwise
}

// Escapes for element text, or (attribute = true) for a double-quoted attribute value, where
// whitespace other than space must be a character reference to survive attribute normalisation.
std::string xml_escape(std::string_view s, bool attribute)
{
    std::string out;
    out.reserve(s.size());
    // Printable ASCII other than the five markup characters stands for itself: copied a run at a time.
    static constexpr std::array<bool, 256> plain_bytes = [] {
        std::array<bool, 256> t{};
        for (int c = 0x20; c < 0x80; ++c)
            t[static_cast<std::size_t>(c)] = c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
        return t;
    }();
    auto plain = [](char ch) { return plain_bytes[static_cast<unsigned char>(ch)]; };
    for (std::size_t i = 0; i < s.size();) {
        std::size_t run = i;
        while (run < s.size() && plain(s[run]))
            ++run;
        if (run > i) {
            out.append(s.substr(i, run - i));
            i = run;
            continue;
        }
        switch (s[i]) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break; // also keeps "]]>" out of text
        case '"': out += attribute ? "&quot;" : "\""; break;
        case '\'': out += attribute ? "&apos;" : "'"; break;
        case '\r': out += "&#13;"; break;
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        default: i += append_xml_char(out, s, i); continue;
        }
        ++i;
    }
    return out;
}

std::string attr(std::string_view name, std::string_view v)
{
    std::string out(" ");
    out.append(name).append("=\"").append(xml_escape(v, true)).push_back('"');
    return out;
}

std::string location(const std::string& file, position where)
{
    std::string s = ci_path(file);
    if (where.known())
        s += ':' + std::to_string(where.line) + ':' + std::to_string(where.column);
    return s;
}

struct file_group {
    std::vector<const snapshot_warning*> snapshot_warnings;
    std::vector<const policy_result*> policies;
    std::vector<const file_error*> errors;
    std::vector<const skipped_document*> skipped;
    int failures = 0;
};

// Every finding that fails the policy, one per line ("file:line:col: field: message [reason]").
struct failure_list {
    std::string first_message, first_type, text;
    void add(std::string_view type, const std::string& message, const std::string& where)
    {
        if (first_message.empty()) {
            first_message = message;
            first_type = type;
        }
        text.append(where).append(": ").append(message).append(" [").append(type).append("]\n");
    }
};

failure_list failures_of(const policy_result& p)
{
    failure_list f;
    for (const auto& e : p.errors)
        f.add(e.id, e.str(), location(p.file, e.where.known() ? e.where : p.start));
    for (const auto& s : p.scheduling)
        if (s.unschedulable())
            f.add("unschedulable",
                  s.workload.kind + ' ' + s.workload.namespace_name + '/' + s.workload.name + " (" +
                      std::to_string(s.workload.replicas) + " replicas) is unschedulable" +
                      (s.message.empty() ? "" : ": " + s.message),
                  location(p.file, p.start));
    return f;
}

void print_policy(std::ostream& out, const policy_result& p, const std::string& classname)
{
    const std::string name =
        p.name.empty() ? p.kind + " (document " + std::to_string(p.document + 1) + ")" : policy_label(p);
    out << "    <testcase" << attr("name", name) << attr("classname", classname) << attr("file", classname);
    const failure_list f = failures_of(p);
    if (f.text.empty() && p.warnings.empty()) {
        out << "/>\n";
        return;
    }
    out << ">\n";
    if (!f.text.empty())
        out << "      <failure" << attr("message", f.first_message) << attr("type", f.first_type) << '>'
            << xml_escape(f.text, false) << "</failure>\n";
    // Warnings never fail a policy; they go where JUnit viewers show a passing test's output.
    if (!p.warnings.empty()) {
        std::string text;
        for (const auto& w : p.warnings)
            text += location(p.file, w.where.known() ? w.where : p.start) + ": warning: " + w.str() + " [" + w.id +
                    "]\n";
        out << "      <system-out>" << xml_escape(text, false) << "</system-out>\n";
    }
    out << "    </testcase>\n";
}

// A warning about an object of the snapshot (a binding): a passing test case of its own, the warning as
// its output, so a CI view lists it beside the policies.
void print_snapshot_warning(std::ostream& out, const snapshot_warning& w, const std::string& classname)
{
    out << "    <testcase" << attr("name", w.subject) << attr("classname", classname) << attr("file", classname)
        << ">\n      <system-out>"
        << xml_escape(location(w.file, w.where) + ": warning: " + w.message + " [" + w.id + "]\n", false)
        << "</system-out>\n    </testcase>\n";
}

void print_skipped(std::ostream& out, const skipped_document& d, const std::string& classname)
{
    const std::string name = d.kind + (d.name.empty() ? "" : ' ' + d.name) + " (document " +
                             std::to_string(d.document + 1) + ")";
    out << "    <testcase" << attr("name", name) << attr("classname", classname) << attr("file", classname)
        << ">\n      <skipped" << attr("message", "not a PropagationPolicy or ClusterPropagationPolicy")
        << "/>\n    </testcase>\n";
}

void print_file_error(std::ostream& out, const file_error& e, const std::string& classname)
{
    out << "    <testcase" << attr("name", classname) << attr("classname", classname) << attr("file", classname)
        << ">\n      <error" << attr("message", e.message) << attr("type", "invalid-input") << '>'
        << xml_escape(location(e.file, e.where) + ": " + e.message + '\n', false) << "</error>\n    </testcase>\n";
}

std::map<std::string, file_group> group_by_file(const report& r)
{
    std::map<std::string, file_group> files; // sorted: deterministic whatever the input order
    for (const auto& e : r.file_errors)
        files[ci_path(e.file)].errors.push_back(&e);
    for (const auto& d : r.skipped)
        files[ci_path(d.file)].skipped.push_back(&d);
    for (const auto& w : r.snapshot_warnings)
        files[ci_path(w.file)].snapshot_warnings.push_back(&w);
    for (const auto& p : r.results) {
        file_group& g = files[ci_path(p.file)];
        g.policies.push_back(&p);
        g.failures += failures_of(p).text.empty() ? 0 : 1;
    }
    return files;
}

} // namespace

void render_junit(const report& r, std::ostream& out)
{
    const auto files = group_by_file(r);
    std::size_t tests = 0, failures = 0, errors = 0;
    for (const auto& [name, g] : files) {
        tests += g.policies.size() + g.errors.size() + g.skipped.size() + g.snapshot_warnings.size();
        failures += static_cast<std::size_t>(g.failures);
        errors += g.errors.size();
    }
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" << attr("name", "karmada-policy-webhook lint")
        << attr("tests", std::to_string(tests)) << attr("failures", std::to_string(failures))
        << attr("errors", std::to_string(errors)) << ">\n";
    for (const auto& [name, g] : files) {
        const std::size_t suite_tests =
            g.policies.size() + g.errors.size() + g.skipped.size() + g.snapshot_warnings.size();
        out << "  <testsuite" << attr("name", name) << attr("tests", std::to_string(suite_tests))
            << attr("failures", std::to_string(g.failures)) << attr("errors", std::to_string(g.errors.size()))
            << attr("skipped", std::to_string(g.skipped.size())) << ">\n";
        for (const file_error* e : g.errors)
            print_file_error(out, *e, name);
        for (const snapshot_warning* w : g.snapshot_warnings)
            print_snapshot_warning(out, *w, name);
        for (const policy_result* p : g.policies)
            print_policy(out, *p, name);
        for (const skipped_document* d : g.skipped)
            print_skipped(out, *d, name);
        out << "  </testsuite>\n";
    }
    out << "</testsuites>\n";
}

} // namespace kpw::lint
