// Detection, pure (issue 23 item 4): detectThrottle on the providers' header-only sets and on
// OpenAI's 429 with its JSON body, and toUpstreamRateLimitedError on a real openai
// RateLimitError, each against its goal. Registered in bench/index.ts; alone, against the built
// package (`npm run build`), or another build named by BENCH_LIBRARY (to compare two checkouts):
//   npx tsx bench/detect.ts

import { pathToFileURL } from "node:url";
import { do_not_optimize, measure } from "mitata";
import { RateLimitError } from "openai";
import { rate } from "./measure.js";

type Library = typeof import("../src/index.js");

/** The header-only sets, as each provider documents them. */
export function headerSets(now: Date) {
  const epoch = (offset: number) => String(Math.floor(now.getTime() / 1000) + offset);
  return {
    "GitHub 403 (epoch reset, Date skew check)": {
      status: 403,
      headers: {
        "content-type": "application/json; charset=utf-8",
        date: now.toUTCString(),
        "x-github-request-id": "C8A4:2F3B:1A2B3C:1B2C3D:675A1B2C",
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": epoch(600),
        "x-ratelimit-resource": "core",
        "x-ratelimit-used": "5000",
      },
    },
    "IETF 429 (RateLimit structured field)": {
      status: 429,
      headers: {
        "content-type": "application/json",
        date: now.toUTCString(),
        "ratelimit-policy": '"burst";q=100;w=60, "daily";q=1000;w=86400',
        ratelimit: '"burst";r=0;t=30, "daily";r=900;t=40000',
      },
    },
    "OpenAI 429 (Go-duration resets)": {
      status: 429,
      headers: {
        "content-type": "application/json",
        date: now.toUTCString(),
        "x-ratelimit-limit-requests": "60",
        "x-ratelimit-limit-tokens": "150000",
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-remaining-tokens": "149984",
        "x-ratelimit-reset-requests": "6m0s",
        "x-ratelimit-reset-tokens": "12ms",
        "x-request-id": "req_0123456789abcdef",
      },
    },
  };
}

// OpenAI's documented 429 (rate_limit_exceeded): its message holds a URL.
const OPENAI_BODY = {
  error: {
    message:
      "Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits to learn more.",
    type: "requests",
    param: null,
    code: "rate_limit_exceeded",
  },
};
const OPENAI_HEADERS = {
  "content-type": "application/json",
  "x-ratelimit-limit-requests": "500",
  "x-ratelimit-remaining-requests": "0",
  "x-ratelimit-reset-requests": "120ms",
  "x-request-id": "req_0123456789abcdef",
};

/** A measured case: its name, operations per second, and the goal. */
export type DetectFigure = [name: string, perSecond: number, goal: number];

/** Each case timed with mitata (median of its samples). */
export async function benchDetect(library: Library): Promise<DetectFigure[]> {
  const { detectThrottle, toUpstreamRateLimitedError } = library;
  const cases: [string, () => unknown, number][] = [];
  for (const [name, response] of Object.entries(headerSets(new Date()))) {
    cases.push([`detectThrottle, ${name}`, () => detectThrottle(response), 1_000_000]);
  }
  const openaiResponse = { status: 429, headers: OPENAI_HEADERS, body: OPENAI_BODY };
  cases.push([
    "detectThrottle, OpenAI 429 with its JSON body",
    () => detectThrottle(openaiResponse),
    250_000,
  ]);
  const openaiError = new RateLimitError(
    429,
    OPENAI_BODY.error,
    `429 ${OPENAI_BODY.error.message}`,
    new Headers(OPENAI_HEADERS),
  );
  cases.push([
    "toUpstreamRateLimitedError, openai RateLimitError",
    () => toUpstreamRateLimitedError(openaiError),
    200_000,
  ]);

  const figures: DetectFigure[] = [];
  for (const [name, run, goal] of cases) {
    const stats = await measure(() => do_not_optimize(run()));
    figures.push([name, 1e9 / stats.p50, goal]);
  }
  return figures;
}

export function printDetect(figures: readonly DetectFigure[]): void {
  console.log("\ndetection: pure, plain-object headers unless said (mitata, median)");
  for (const [name, perSec] of figures) console.log(`  ${name.padEnd(64)}${rate(perSec)}`);
}

/** The goals of issue 23 item 4, as lines for the targets table. */
export function detectTargets(figures: readonly DetectFigure[]): string[] {
  return figures.map(
    ([name, perSec, goal]) =>
      `  ${`${name} >= ${goal.toLocaleString("en-US")}/s`.padEnd(72)}${perSec >= goal ? "met" : "NOT met"}`,
  );
}

// `tsx bench/detect.ts`: this file alone, against the built package.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = process.env.BENCH_LIBRARY ?? new URL("../dist/index.js", import.meta.url).href;
  const figures = await benchDetect((await import(built)) as Library);
  printDetect(figures);
  console.log("\ntargets");
  for (const line of detectTargets(figures)) console.log(line);
}
