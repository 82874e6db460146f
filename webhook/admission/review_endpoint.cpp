// SPDX-License-Identifier: Apache-2.0
// Envelope checks and the last-resort catch around one admission handler call.
#include "admission/review_endpoint.hpp"

#include <exception>

#include "admission/response.hpp"
#include "admission/review_codec.hpp"

namespace kpw::admission {
namespace {

// controller-runtime (pkg/webhook/admission/http.go) compares the header with "application/json"
// exactly, and kube-apiserver always sends exactly that; so do we, to answer as Karmada would.
bool is_json(std::string_view content_type) { return content_type == "application/json"; }

response call_handler(const handler& h, const request& req)
{
    try {
        return complete(h.handle(req));
    } catch (const std::exception& e) {
        response r = errored(500, std::string("internal error: ") + e.what());
        r.causes = {"InternalError"};
        return r;
    } catch (...) {
        response r = errored(500, "internal error");
        r.causes = {"InternalError"};
        return r;
    }
}

review_outcome envelope_error(int code, std::string message, const request* partial = nullptr)
{
    review_outcome out;
    out.res = errored(code, std::move(message));
    out.res.causes = {code == 413 ? "TooLarge" : "BadRequest"};
    std::string_view api, kind, uid;
    if (partial) {
        api = partial->review_api_version;
        kind = partial->review_kind;
        uid = partial->uid;
        out.uid = partial->uid;
    }
    out.body = encode_review(out.res, api, kind, uid);
    return out;
}

} // namespace

review_outcome serve_review(const handler& h, std::string_view content_type, std::string_view body)
{
    if (body.empty())
        return envelope_error(400, "request body is empty");
    if (body.size() >= max_request_bytes)
        return envelope_error(413, "request entity is too large; limit is " + std::to_string(max_request_bytes) +
                                       " bytes");
    if (!is_json(content_type))
        return envelope_error(400, "contentType=" + std::string(content_type) + ", expected application/json");
    decoded_review d = decode_review(body);
    if (!d.ok())
        return envelope_error(400, std::move(d.error), &d.req);
    review_outcome out;
    out.res = call_handler(h, d.req);
    out.body = encode_review(out.res, d.req.review_api_version, d.req.review_kind, d.req.uid);
    out.uid = std::move(d.req.uid);
    out.operation = std::move(d.req.operation);
    out.kind = std::move(d.req.kind.kind);
    out.ns = std::move(d.req.ns);
    out.name = std::move(d.req.name);
    return out;
}

std::string too_large_review()
{
    return envelope_error(413, "request entity is too large; limit is " + std::to_string(max_request_bytes) +
                                   " bytes")
        .body;
}

} // namespace kpw::admission
