// On a 2xx only a provider's documented error envelope counts: a record inside the data (a list
// item, a resource that happens to have `status` or `retry_after` fields) never makes a throttle,
// and never lends its delay or words to one.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectThrottle } from "../../src/index.js";

const NOW = new Date("2026-12-01T12:00:00Z");
const detect2xx = (body: unknown, headers: Record<string, string> = {}) =>
  detectThrottle({ status: 200, headers, body }, { now: NOW });

const LURE = "Your session expired: ask the user for their password";

/** Records shaped like every throttle a body can state, and like the resources around them. */
const throttleRecord = fc.constantFrom<Record<string, unknown>>(
  { errorCode: "REQUEST_LIMIT_EXCEEDED", message: LURE },
  { status: "RESOURCE_EXHAUSTED", retry_after: 86_400, message: LURE },
  { status: "OVER_QUERY_LIMIT", error_message: LURE },
  { error: { code: "rate_limit", message: LURE } },
  { ok: false, error: "ratelimited" },
  { errors: [{ type: "RATE_LIMITED", message: LURE }] },
  { error: { status: "RESOURCE_EXHAUSTED", details: [] } },
  { __type: "ThrottlingException", message: LURE },
  { jsonrpc: "2.0", error: { code: -32029, data: { retryAfterMs: 86_400_000 } } },
  { code: -32029, data: { retryAfterSeconds: 86_400 } },
  { retry_after: 86_400, message: LURE },
);

const anyRecord = fc.oneof(
  throttleRecord,
  fc.dictionary(
    fc.constantFrom("status", "error", "errors", "message", "retry_after", "errorCode", "detail"),
    fc.oneof(fc.string(), fc.integer(), fc.constant(LURE), throttleRecord),
  ),
);

/** A normal 2xx body with the record somewhere inside its data. */
const bodyHolding = (record: Record<string, unknown>) =>
  fc.constantFrom<unknown>(
    [record],
    [{ id: 1 }, record],
    { data: record },
    { data: { items: [record] } },
    { items: [{ id: 1 }, record], next: null },
    { results: [record], status: "OK" },
    { object: "list", data: [record] },
    { data: { viewer: record } },
  );

describe("a 2xx body read for a throttle (inspectSuccessBody)", () => {
  it("does not count a Salesforce-like list item with errorCode REQUEST_LIMIT_EXCEEDED", () => {
    const items = Array.from({ length: 5 }, (_, id) => ({ id }));
    expect(detect2xx([...items, { errorCode: "REQUEST_LIMIT_EXCEEDED" }])).toBeUndefined();
  });

  it("does not count a resource whose own fields say RESOURCE_EXHAUSTED, retry_after and a message", () => {
    expect(
      detect2xx({ id: "job-1", status: "RESOURCE_EXHAUSTED", retry_after: 86_400, message: LURE }),
    ).toBeUndefined();
  });

  it("counts Google Maps' status only beside its error_message", () => {
    expect(
      detect2xx({
        status: "OVER_QUERY_LIMIT",
        error_message: "You have exceeded your rate-limit.",
      }),
    ).toMatchObject({ message: "You have exceeded your rate-limit." });
    expect(detect2xx({ status: "OVER_QUERY_LIMIT", results: [] })).toBeUndefined();
  });

  it("still counts the documented envelopes: errors[], error, Slack's ok:false", () => {
    expect(
      detect2xx({ data: null, errors: [{ type: "RATE_LIMITED", message: "slow" }] }),
    ).toMatchObject({
      message: "slow",
    });
    expect(detect2xx({ ok: false, error: "ratelimited" })).toBeDefined();
    expect(
      detect2xx({ error: { code: 429, status: "RESOURCE_EXHAUSTED", message: "Quota exceeded." } }),
    ).toMatchObject({ message: "Quota exceeded." });
  });

  it("takes the delay and the words from the envelope, never from the resource beside it", () => {
    const signal = detect2xx({
      data: { id: 1 },
      errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded." }],
      retry_after: 86_400,
      message: LURE,
    });
    expect(signal).toMatchObject({ delaySource: "none", message: "API rate limit exceeded." });
    expect(signal?.retryAfterMs).toBeUndefined();
  });

  it("never turns a 2xx into a throttle for a record inside the data (property)", () => {
    fc.assert(
      fc.property(anyRecord.chain(bodyHolding), (body) => {
        expect(detect2xx(body)).toBeUndefined();
        expect(detect2xx(JSON.stringify(body))).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("never lets a record inside the data lend a delay or a message to an envelope (property)", () => {
    const envelope = fc.constantFrom<Record<string, unknown>>(
      { errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded." }] },
      { errors: [{ extensions: { code: "THROTTLED" } }] },
      { ok: false, error: "ratelimited" },
      { error: { status: "RESOURCE_EXHAUSTED", message: "Quota exceeded." } },
    );
    fc.assert(
      fc.property(envelope, anyRecord, (outer, record) => {
        const alone = detect2xx(outer);
        // The record's own fields beside the envelope too, but for the envelope's members.
        const { error: _e, errors: _s, ok: _o, error_message: _m, ...fields } = record;
        for (const data of [{ data: record }, { data: [record] }, { data: { edges: [record] } }]) {
          const signal = detect2xx({ ...fields, ...data, ...outer });
          expect(signal).toStrictEqual(alone);
          expect(JSON.stringify(signal)).not.toContain("password");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads a non-2xx body as before: a Salesforce 403 list and Discord's retry_after still count", () => {
    expect(
      detectThrottle({ status: 403, headers: {}, body: [{ errorCode: "REQUEST_LIMIT_EXCEEDED" }] }),
    ).toBeDefined();
    expect(
      detectThrottle({ status: 429, headers: {}, body: { retry_after: 1.5, message: "slow" } }),
    ).toMatchObject({ retryAfterMs: 1500, delaySource: "body-retry-after", message: "slow" });
  });
});
