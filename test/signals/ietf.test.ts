import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readHeaders } from "../../src/signals/headers.js";
import { exhaustedPolicy, policyOf as freshPolicyOf } from "../../src/signals/ietf.js";

const policyOf = (headers: Record<string, string | string[]>) =>
  exhaustedPolicy(readHeaders(headers));

describe("exhaustedPolicy (draft-ietf-httpapi-ratelimit-headers)", () => {
  it.each([
    [
      "draft-11: the policy at r=0",
      { ratelimit: '"burst";r=0;t=30, "daily";r=900;t=40000' },
      { name: "burst", resetSeconds: 30 },
    ],
    [
      "two exhausted policies: the one that resets last",
      { ratelimit: '"a";r=0;t=5, "b";r=0;t=50' },
      { name: "b", resetSeconds: 50 },
    ],
    [
      "none at 0: the least remaining",
      { ratelimit: '"a";r=7;t=5, "b";r=2;t=9' },
      { name: "b", resetSeconds: 9 },
    ],
    [
      "draft-08/09 token names",
      { ratelimit: "default;r=0;t=12" },
      { name: "default", resetSeconds: 12 },
    ],
    [
      "a field split over two header lines (node:http array)",
      { ratelimit: ['"a";r=5;t=1', '"b";r=0;t=70'] },
      { name: "b", resetSeconds: 70 },
    ],
    [
      "no t: the window of the same policy in RateLimit-Policy",
      {
        ratelimit: '"hourly";r=0',
        "ratelimit-policy": '"minute";q=10;w=60, "hourly";q=100;w=3600',
      },
      { name: "hourly", resetSeconds: 3600 },
    ],
    ["no t and no policy: the name alone", { ratelimit: '"x";r=0' }, { name: "x" }],
    ["draft-07 dictionary", { ratelimit: "limit=100, remaining=0, reset=5" }, { resetSeconds: 5 }],
  ])("%s", (_name, headers, expected) => {
    expect(policyOf(headers)).toStrictEqual(expected);
  });

  it.each([
    ["no field", {}],
    ["malformed", { ratelimit: "burst;;r=0" }],
    ["no r anywhere", { ratelimit: '"a";t=5' }],
    ["a negative t", { ratelimit: '"a";r=0;t=-5' }],
    ["a decimal t", { ratelimit: '"a";r=0;t=5.5' }],
    ["t as a string", { ratelimit: '"a";r=0;t="5"' }],
    ["draft-07 with a string reset", { ratelimit: 'limit=1, reset="5"' }],
  ])("ignores %s", (_name, headers) => {
    expect(policyOf(headers)?.resetSeconds).toBeUndefined();
  });
});

describe("the last RateLimit field read is remembered", () => {
  const reader = (fields: Record<string, string>) => readHeaders(fields);
  const fieldArb = fc.oneof(
    fc.constantFrom(
      '"burst";r=0;t=30',
      '"burst";r=0',
      "burst;r=0",
      ";r=0",
      '"burst";r=0;t=30, "daily";r=900;t=40000',
      '"daily";r=0, "burst";r=0;t=5',
      "limit=100, remaining=0, reset=5",
      "garbage",
    ),
    fc.string({ maxLength: 20 }),
  );
  const policyArb = fc.constantFrom(
    '"burst";q=100;w=60',
    '"burst";q=100;w=90',
    "burst;q=1;w=7",
    "",
  );

  it("answers as a fresh read would, whatever came before (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fieldArb, fc.option(policyArb, { nil: undefined })), {
          minLength: 1,
          maxLength: 6,
        }),
        (responses) => {
          for (const [ratelimit, policy] of responses) {
            const fields: Record<string, string> = { ratelimit };
            if (policy !== undefined) fields["ratelimit-policy"] = policy;
            const headers = reader(fields);
            expect(exhaustedPolicy(headers)).toEqual(freshPolicyOf(ratelimit, headers)[0]);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reads the window of RateLimit-Policy again for a policy without `t`", () => {
    const field = '"burst";r=0';
    expect(
      exhaustedPolicy(reader({ ratelimit: field, "ratelimit-policy": '"burst";w=60' })),
    ).toEqual({ name: "burst", resetSeconds: 60 });
    expect(
      exhaustedPolicy(reader({ ratelimit: field, "ratelimit-policy": '"burst";w=90' })),
    ).toEqual({ name: "burst", resetSeconds: 90 });
  });
});
