// SPDX-License-Identifier: Apache-2.0
// -o junit: the output read back by a strict little XML parser (well-formedness) and checked for counts and lines.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "lint/render.hpp"
#include "render_test_support.hpp"

namespace {

struct element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::vector<element> children;
    std::string text;

    const std::string& attr(std::string_view key) const
    {
        for (const auto& [k, v] : attrs)
            if (k == key)
                return v;
        throw std::runtime_error("no attribute " + std::string(key) + " on <" + name + ">");
    }
    bool has(std::string_view key) const
    {
        for (const auto& a : attrs)
            if (a.first == key)
                return true;
        return false;
    }
    std::vector<const element*> all(std::string_view child) const
    {
        std::vector<const element*> out;
        for (const auto& c : children)
            if (c.name == child)
                out.push_back(&c);
        return out;
    }
};

// The subset of XML 1.0 a JUnit report uses, checked strictly: one root, matching tags, quoted unique
// attributes, no raw '<' or '&', only predefined and numeric references, only XML Chars, valid UTF-8.
class strict_xml {
public:
    explicit strict_xml(std::string_view s) : s_(s) {}

    element document()
    {
        std::size_t bad = 0;
        if (!kpw::doc::is_clean_utf8(s_, bad))
            fail("invalid UTF-8 or NUL");
        for (unsigned char c : s_)
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                fail("control character");
        if (s_.starts_with("<?xml"))
            i_ = s_.find("?>") + 2;
        skip_space();
        element root = parse_element();
        skip_space();
        if (i_ != s_.size())
            fail("content after the root element");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& why) const
    {
        throw std::runtime_error(why + " at byte " + std::to_string(i_));
    }
    void skip_space()
    {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
            ++i_;
    }
    void expect(char c)
    {
        if (i_ >= s_.size() || s_[i_] != c)
            fail(std::string("expected ") + c);
        ++i_;
    }
    std::string name()
    {
        const std::size_t start = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '_'))
            ++i_;
        if (i_ == start)
            fail("expected a name");
        return std::string(s_.substr(start, i_ - start));
    }
    std::string reference()
    {
        const std::size_t semi = s_.find(';', i_);
        if (semi == std::string_view::npos)
            fail("unterminated reference");
        const std::string_view ref = s_.substr(i_ + 1, semi - i_ - 1);
        i_ = semi + 1;
        if (ref == "amp") return "&";
        if (ref == "lt") return "<";
        if (ref == "gt") return ">";
        if (ref == "quot") return "\"";
        if (ref == "apos") return "'";
        if (ref.size() < 2 || ref[0] != '#')
            fail("unknown entity");
        const unsigned long cp = ref[1] == 'x' ? std::stoul(std::string(ref.substr(2)), nullptr, 16)
                                               : std::stoul(std::string(ref.substr(1)));
        if (cp != 9 && cp != 10 && cp != 13)
            fail("only tab, LF and CR are expected as character references");
        return std::string(1, static_cast<char>(cp));
    }
    std::string attribute_value()
    {
        const char quote = s_[i_];
        if (quote != '"' && quote != '\'')
            fail("unquoted attribute");
        ++i_;
        std::string v;
        while (i_ < s_.size() && s_[i_] != quote) {
            const char c = s_[i_];
            if (c == '<')
                fail("raw < in attribute");
            if (c == '&') {
                v += reference();
                continue;
            }
            v += (c == '\n' || c == '\t' || c == '\r') ? ' ' : c; // attribute-value normalisation
            ++i_;
        }
        expect(quote);
        return v;
    }
    element parse_element()
    {
        expect('<');
        element e;
        e.name = name();
        for (;;) {
            skip_space();
            if (s_.substr(i_, 2) == "/>") {
                i_ += 2;
                return e;
            }
            if (i_ < s_.size() && s_[i_] == '>')
                break;
            std::string key = name();
            if (e.has(key))
                fail("duplicate attribute " + key);
            expect('=');
            e.attrs.emplace_back(std::move(key), attribute_value());
        }
        ++i_;
        parse_content(e);
        return e;
    }
    void parse_content(element& e)
    {
        while (i_ < s_.size()) {
            if (s_.substr(i_, 2) == "</") {
                i_ += 2;
                if (name() != e.name)
                    fail("mismatched end tag for " + e.name);
                skip_space();
                expect('>');
                return;
            }
            if (s_[i_] == '<') {
                if (s_.substr(i_, 2) == "<!" || s_.substr(i_, 2) == "<?")
                    fail("unexpected markup");
                e.children.push_back(parse_element());
            } else if (s_[i_] == '&') {
                e.text += reference();
            } else {
                if (s_.substr(i_, 3) == "]]>")
                    fail("]]> in text");
                e.text += s_[i_++];
            }
        }
        fail("unterminated element " + e.name);
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

element parse(const std::string& xml)
{
    try {
        return strict_xml(xml).document();
    } catch (const std::exception& e) {
        FAIL(e.what() << "\n" << xml);
    }
    return {};
}

std::string rendered(const kpw::lint::report& r)
{
    std::ostringstream out;
    kpw::lint::render_junit(r, out);
    return out.str();
}

const element& suite_named(const element& root, const std::string& name)
{
    for (const element* s : root.all("testsuite"))
        if (s->attr("name") == name)
            return *s;
    FAIL("no testsuite " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("the strict parser rejects what real JUnit readers reject")
{
    for (const char* bad : {"<a>", "<a b=1/>", "<a b='<'/>", "<a>&nbsp;</a>", "<a>&</a>", "<a></b>", "<a/><b/>",
                            "<a b='1' b='2'/>", "<a>\x01</a>", "<a>\xff</a>", "<a>]]></a>"})
        CHECK_THROWS(strict_xml(bad).document());
    CHECK(strict_xml("<a b=\"x&#10;y\">t&amp;u</a>").document().attr("b") == "x\ny");
}

TEST_CASE("one testsuite per file, one testcase per policy, file errors as <error>")
{
    const element root = parse(rendered(kpw::test::sample_report()));
    CHECK(root.name == "testsuites");
    CHECK(root.attr("tests") == "5");    // 3 policies + 2 unreadable files
    CHECK(root.attr("failures") == "3"); // web (denied), all (unschedulable), odd (denied)
    CHECK(root.attr("errors") == "2");
    const auto suites = root.all("testsuite");
    REQUIRE(suites.size() == 4);
    std::vector<std::string> names;
    for (const element* s : suites)
        names.push_back(s->attr("name"));
    CHECK(names == std::vector<std::string>{"missing.yaml", "policies/broken.yaml", "policies/odd, name:%.yaml",
                                            "policies/shop.yaml"});

    const element& shop = suite_named(root, "policies/shop.yaml");
    CHECK(shop.attr("tests") == "2");
    CHECK(shop.attr("failures") == "2"); // web (two errors, one failing testcase) and all (unschedulable)
    const auto cases = shop.all("testcase");
    REQUIRE(cases.size() == 2);
    CHECK(cases[0]->attr("name") == "PropagationPolicy shop/web");
    CHECK(cases[0]->attr("classname") == "policies/shop.yaml");
    CHECK(cases[1]->attr("name") == "ClusterPropagationPolicy all");

    const element& broken = suite_named(root, "policies/broken.yaml");
    const auto errors = broken.all("testcase")[0]->all("error");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0]->attr("message") == "end of sequence flow not found");
    CHECK(errors[0]->text == "policies/broken.yaml:2:1: end of sequence flow not found\n");
}

TEST_CASE("a failure gives the first message and reason, and lists every finding with its line")
{
    const element root = parse(rendered(kpw::test::sample_report()));
    const element& web = *suite_named(root, "policies/shop.yaml").all("testcase")[0];
    const auto failures = web.all("failure");
    REQUIRE(failures.size() == 1);
    CHECK(failures[0]->attr("type") == "FieldValueInvalid");
    CHECK(failures[0]->attr("message").starts_with("spec.placement.clusterAffinities[1].affinityName: Invalid value"));
    CHECK(failures[0]->text.find("policies/shop.yaml:14:23: spec.placement.clusterAffinities[1].affinityName: ") == 0);
    CHECK(failures[0]->text.find("\npolicies/shop.yaml:3:1: spec.resourceSelectors: Required value [FieldValueRequired]\n") !=
          std::string::npos);
    // Warnings never fail; they are kept in the testcase's output.
    REQUIRE(web.all("system-out").size() == 1);
    CHECK(web.all("system-out")[0]->text.find("policies/shop.yaml:20:9: warning: ") == 0);

    const element& all = *suite_named(root, "policies/shop.yaml").all("testcase")[1];
    REQUIRE(all.all("failure").size() == 1);
    CHECK(all.all("failure")[0]->attr("type") == "unschedulable");
    CHECK(all.all("failure")[0]->text.starts_with("policies/shop.yaml:30:1: Deployment shop/web (3 replicas)"));
}

TEST_CASE("markup, quotes, CR/LF and bad bytes are escaped so the text reads back unchanged")
{
    const element root = parse(rendered(kpw::test::sample_report()));
    const element& odd = *suite_named(root, "policies/odd, name:%.yaml").all("testcase")[0];
    CHECK(odd.all("failure")[0]->attr("message") == "metadata.name: " + kpw::test::hostile_text);
    CHECK(odd.all("failure")[0]->text.find(kpw::test::hostile_text) != std::string::npos);

    kpw::lint::report r;
    r.file_errors.push_back({std::string("bad\x01name\xff.yaml"), {1, 1}, "tab\there \xEF\xBF\xBF"});
    const element bad = parse(rendered(r));
    CHECK(bad.all("testsuite")[0]->attr("name") == "bad\xEF\xBF\xBDname\xEF\xBF\xBD.yaml");
    CHECK(bad.all("testsuite")[0]->all("testcase")[0]->all("error")[0]->attr("message") == "tab\there \xEF\xBF\xBD");
}

TEST_CASE("a warning about a snapshot object is a passing testcase of its file, the warning its output")
{
    kpw::lint::report r = kpw::test::sample_report();
    r.snapshot_warnings.push_back({"snapshot/bindings.yaml", {12, 1}, "binding-crashes-scheduler",
                                   "ResourceBinding shop/web-deployment: karmada-scheduler panics <here>",
                                   "ResourceBinding shop/web-deployment"});
    const element root = parse(rendered(r));
    CHECK(root.attr("tests") == "6");    // the sample's 5 and the warning
    CHECK(root.attr("failures") == "3"); // a warning never fails
    const element& suite = suite_named(root, "snapshot/bindings.yaml");
    CHECK(suite.attr("tests") == "1");
    CHECK(suite.attr("failures") == "0");
    const auto cases = suite.all("testcase");
    REQUIRE(cases.size() == 1);
    CHECK(cases[0]->attr("name") == "ResourceBinding shop/web-deployment");
    CHECK(cases[0]->all("failure").empty());
    REQUIRE(cases[0]->all("system-out").size() == 1);
    CHECK(cases[0]->all("system-out")[0]->text ==
          "snapshot/bindings.yaml:12:1: warning: ResourceBinding shop/web-deployment: karmada-scheduler panics "
          "<here> [binding-crashes-scheduler]\n");
}

TEST_CASE("an empty report is an empty, well-formed testsuites element")
{
    const element root = parse(rendered({}));
    CHECK(root.attr("tests") == "0");
    CHECK(root.children.empty());
}

TEST_CASE("end to end: a testcase per policy of the JSON report, failures exactly for denied ones")
{
    const kpw::test::lint_workspace ws;
    const auto json = ws.json_report();
    const auto r = ws.lint("junit");
    CHECK(r.exit_code == 2);
    const element root = parse(r.out);
    CHECK(root.attr("errors") == "1");
    CHECK(suite_named(root, "policies/broken.yaml").all("testcase")[0]->all("error")[0]->text.starts_with(
        "policies/broken.yaml:2:1: "));
    std::size_t policies = 0;
    for (const auto& policy : json.find("results")->items()) {
        const element& suite = suite_named(root, std::string(policy.string_at("file")));
        const auto cases = suite.all("testcase");
        REQUIRE(!cases.empty());
        const element& tc = *cases[0];
        CHECK(tc.all("failure").size() == (policy.find("allowed")->as_bool() ? 0u : 1u));
        for (const auto& e : policy.find("errors")->items()) {
            std::string at = std::string(policy.string_at("file")).append(":");
            at.append(std::to_string(e.find("line")->as_int())).append(":");
            CHECK(tc.all("failure")[0]->text.find(at) != std::string::npos);
        }
        ++policies;
    }
    CHECK(policies == 2);
    CHECK(root.attr("tests") == "4"); // 2 policies, 1 unreadable file, 1 skipped document of another kind
}

TEST_CASE("documents of other kinds are skipped testcases of their file's suite")
{
    kpw::lint::report r = kpw::test::sample_report();
    r.skipped.push_back({"./policies/shop.yaml", 2, {40, 1}, "Deployment", "web"});
    r.totals.skipped = 1;
    const element root = parse(rendered(r));
    CHECK(root.attr("tests") == "6");
    const element& shop = suite_named(root, "policies/shop.yaml");
    CHECK(shop.attr("tests") == "3");
    CHECK(shop.attr("skipped") == "1");
    const auto cases = shop.all("testcase");
    REQUIRE(cases.size() == 3);
    CHECK(cases[2]->attr("name") == "Deployment web (document 3)");
    CHECK(cases[2]->all("skipped").size() == 1);
    CHECK(suite_named(root, "policies/broken.yaml").attr("skipped") == "0");
}
