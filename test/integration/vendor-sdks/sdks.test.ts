// The SDKs the catalogue's MCP servers call through, installed for real and pointed at a
// loopback upstream that answers each provider's documented throttle: the error each SDK really
// throws goes through withUpstreamThrottle (and toUpstreamRateLimitedError for its fields).
// Each SDK's own retry on a throttle is turned off, as docs/providers.md says how.

import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import {
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
  RestError,
} from "@azure/core-rest-pipeline";
import { REST } from "@discordjs/rest";
import { GoogleGenAI } from "@google/genai";
import { Client as HubSpot } from "@hubspot/api-client";
import { LinearClient } from "@linear/sdk";
import { Client as Notion } from "@notionhq/client";
import { WebClient } from "@slack/web-api";
import { request as gaxios } from "gaxios";
import Stripe from "stripe";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  parseRateLimitedResult,
  toUpstreamRateLimitedError,
  withUpstreamThrottle,
} from "../../../src/index.js";
import {
  type CannedReply,
  cannedReply,
  startServer,
  type TestServer,
} from "../../helpers/http-server.js";

let upstream: TestServer;
let reply: CannedReply;
let port: number;

beforeAll(async () => {
  upstream = await startServer(cannedReply(() => reply));
  port = Number(new URL(upstream.url).port);
});

afterAll(async () => {
  await upstream.close();
});

/** Runs `call`, returns what it threw, and the tool result withUpstreamThrottle made of it. */
async function throttled(
  call: () => Promise<unknown>,
  options?: { limit?: string; credentials?: string[] },
) {
  let thrown: unknown;
  try {
    await call();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "the SDK threw nothing").toBeDefined();
  const tool = withUpstreamThrottle(async () => {
    throw thrown;
  }, options);
  const result = await tool();
  const error = parseRateLimitedResult(result);
  expect(error, JSON.stringify(result)).toBeDefined();
  const recognised = toUpstreamRateLimitedError(thrown, options);
  return { thrown, result, error, recognised };
}

describe("@slack/web-api (rejectRateLimitedCalls)", () => {
  it("slack_webapi_rate_limited_error: its retryAfter in seconds", async () => {
    reply = {
      status: 429,
      headers: { "retry-after": "30" },
      body: { ok: false, error: "ratelimited" },
    };
    const slack = new WebClient("xoxb-test-SECRET", {
      slackApiUrl: `${upstream.url}/api/`,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    const { thrown, error, recognised } = await throttled(() => slack.auth.test(), {
      limit: "slack_tier3",
    });
    expect((thrown as { code: string }).code).toBe("slack_webapi_rate_limited_error");
    expect(error).toMatchObject({ retry_after_seconds: 30, limit: "slack_tier3" });
    expect(recognised).toMatchObject({ delaySource: "sdk-retry-after", status: 429 });
  });
});

describe("@aws-sdk/client-dynamodb (ThrottlingException)", () => {
  it("a 400 ThrottlingException with the $response's Retry-After", async () => {
    reply = {
      status: 400,
      headers: {
        "content-type": "application/x-amz-json-1.0",
        "x-amzn-errortype": "ThrottlingException",
        "retry-after": "3",
      },
      body: {
        __type: "com.amazonaws.dynamodb.v20120810#ThrottlingException",
        message: "Rate of requests exceeds the allowed throughput.",
      },
    };
    const dynamo = new DynamoDBClient({
      endpoint: upstream.url,
      region: "us-east-1",
      credentials: { accessKeyId: "AKIDTEST", secretAccessKey: "SECRETTEST" },
      maxAttempts: 1,
    });
    const { thrown, error, recognised } = await throttled(() =>
      dynamo.send(new ListTablesCommand({})),
    );
    expect((thrown as { name: string }).name).toBe("ThrottlingException");
    expect(error).toMatchObject({ retry_after_seconds: 3 });
    expect(recognised).toMatchObject({ status: 400, delaySource: "retry-after" });
    dynamo.destroy();
  });
});

describe("@azure/core-rest-pipeline (RestError)", () => {
  it("reads retry-after-ms through the response's HttpHeaders", async () => {
    reply = { status: 429, headers: { "retry-after-ms": "2500", "retry-after": "3" }, body: {} };
    const pipeline = createPipelineFromOptions({ retryOptions: { maxRetries: 0 } });
    const request = createPipelineRequest({
      allowInsecureConnection: true,
      url: `${upstream.url}/openai/deployments/x/chat/completions`,
      method: "POST",
      headers: createHttpHeaders({ "api-key": "azure-SECRET" }),
    });
    const response = await pipeline.sendRequest(createDefaultHttpClient(), request);
    expect(response.status).toBe(429);
    // As @azure/core-client's deserialization policy throws it for a status it does not expect.
    const restError = new RestError("Too many requests", {
      statusCode: response.status,
      request,
      response,
    });
    const { error, recognised } = await throttled(async () => {
      throw restError;
    });
    expect(error).toMatchObject({ retry_after_seconds: 3, limit: "127.0.0.1" });
    expect(recognised).toMatchObject({ delaySource: "retry-after-ms", retryAfterMs: 2500 });
  });
});

describe("@google/genai (ApiError)", () => {
  it("the RetryInfo in the message's JSON, as Gemini answers a 429", async () => {
    reply = {
      status: 429,
      headers: {},
      body: {
        error: {
          code: 429,
          message: "You exceeded your current quota.",
          status: "RESOURCE_EXHAUSTED",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "27s" }],
        },
      },
    };
    const ai = new GoogleGenAI({
      apiKey: "genai-SECRET",
      httpOptions: { baseUrl: upstream.url, retryOptions: { attempts: 1 } },
    });
    const { error, recognised } = await throttled(
      () => ai.models.generateContent({ model: "gemini-2.0-flash", contents: "hi" }),
      { limit: "gemini_rpm" },
    );
    expect(error).toMatchObject({ retry_after_seconds: 27, limit: "gemini_rpm" });
    expect(recognised).toMatchObject({ delaySource: "google-retry-info", status: 429 });
  });
});

describe("gaxios (GaxiosError, as googleapis throws it)", () => {
  it("Drive's 403 userRateLimitExceeded, named by host", async () => {
    reply = {
      status: 403,
      headers: {},
      body: {
        error: {
          code: 403,
          message: "User Rate Limit Exceeded",
          errors: [{ domain: "usageLimits", reason: "userRateLimitExceeded" }],
        },
      },
    };
    const { error, recognised } = await throttled(() =>
      gaxios({ url: `${upstream.url}/drive/v3/files`, retry: false }),
    );
    expect(error).toMatchObject({ limit: "127.0.0.1", message: "User Rate Limit Exceeded" });
    expect(error?.retry_after_seconds).toBeUndefined();
    expect(recognised).toMatchObject({ status: 403, delaySource: "none" });
  });
});

describe("@notionhq/client (APIResponseError rate_limited)", () => {
  it("Retry-After in integer seconds", async () => {
    reply = {
      status: 429,
      headers: { "retry-after": "12" },
      body: { object: "error", status: 429, code: "rate_limited", message: "Rate limited." },
    };
    const notion = new Notion({
      auth: "secret_notion_SECRET",
      baseUrl: upstream.url,
      retry: false,
    });
    const { thrown, error } = await throttled(() => notion.users.me({}));
    expect((thrown as { code: string }).code).toBe("rate_limited");
    expect(error).toMatchObject({ retry_after_seconds: 12, message: "Rate limited." });
  });
});

describe("@linear/sdk (RatelimitedLinearError)", () => {
  it.each([
    [
      "RatelimitedLinearError (extensions.type)",
      { code: "RATELIMITED", type: "ratelimited" },
      "Ratelimited",
    ],
    [
      "a LinearError the SDK left untyped (extensions.code only)",
      { code: "RATELIMITED" },
      "Unknown",
    ],
  ])(
    "%s: the exhausted X-RateLimit-Requests-Reset of the raw response",
    async (_, extensions, type) => {
      const reset = Date.now() + 60_000;
      reply = {
        status: 400,
        headers: {
          "x-ratelimit-requests-limit": "1500",
          "x-ratelimit-requests-remaining": "0",
          "x-ratelimit-requests-reset": String(reset),
          "x-ratelimit-complexity-remaining": "200000",
          "x-ratelimit-complexity-reset": String(Date.now() + 10_000),
        },
        body: { errors: [{ message: "Rate limit exceeded", extensions }] },
      };
      const linear = new LinearClient({
        apiKey: "lin_api_SECRET",
        apiUrl: `${upstream.url}/graphql`,
      });
      const { thrown, error, recognised } = await throttled(() => linear.viewer);
      expect((thrown as { type: string }).type).toBe(type);
      expect(error?.retry_after_seconds).toBeGreaterThanOrEqual(59);
      expect(error?.retry_after_seconds).toBeLessThanOrEqual(60);
      expect(recognised).toMatchObject({ delaySource: "ratelimit-family-reset", status: 400 });
    },
  );
});

describe("stripe (StripeRateLimitError)", () => {
  it("names the limit by Stripe-Rate-Limited-Reason", async () => {
    reply = {
      status: 429,
      headers: { "stripe-rate-limited-reason": "global-rate", "request-id": "req_1" },
      body: { error: { message: "Request rate limit exceeded.", type: "invalid_request_error" } },
    };
    const stripe = new Stripe("sk_test_SECRET", {
      host: "127.0.0.1",
      port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const { thrown, error } = await throttled(() => stripe.customers.list());
    expect((thrown as { type: string }).type).toBe("StripeRateLimitError");
    expect(error).toMatchObject({ limit: "global-rate", message: "Request rate limit exceeded." });
  });
});

describe("@discordjs/rest (RateLimitError with rejectOnRateLimit)", () => {
  it("its timeToReset in milliseconds, named by host", async () => {
    reply = {
      status: 429,
      headers: {
        "retry-after": "5",
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset-after": "5",
        "x-ratelimit-bucket": "abcd1234",
        "x-ratelimit-scope": "user",
      },
      body: { message: "You are being rate limited.", retry_after: 5, global: false },
    };
    const rest = new REST({
      api: `${upstream.url}/api`,
      rejectOnRateLimit: () => true,
      retries: 0,
    });
    rest.setToken("discord-SECRET");
    const { thrown, error, recognised } = await throttled(() => rest.get("/users/@me"));
    expect((thrown as { name: string }).name).toMatch(/^RateLimitError/);
    expect(error).toMatchObject({ limit: "127.0.0.1" });
    expect(error?.retry_after_seconds).toBeGreaterThanOrEqual(5);
    expect(error?.retry_after_seconds).toBeLessThanOrEqual(6);
    expect(recognised).toMatchObject({ delaySource: "sdk-retry-after", status: 429 });
  });
});

describe("twilio (RestException 20429)", () => {
  it("status 429 without a wait: the result omits the delay", async () => {
    reply = {
      status: 429,
      headers: {},
      body: {
        code: 20429,
        message: "Too Many Requests",
        more_info: "https://www.twilio.com/docs/errors/20429",
        status: 429,
      },
    };
    // The real RequestClient, sent to the loopback upstream instead of api.twilio.com.
    class LoopbackClient extends twilio.RequestClient {
      override request<T>(opts: Parameters<twilio.RequestClient["request"]>[0]) {
        const uri = opts.uri.replace(/^https:\/\/[^/]+/, upstream.url);
        return super.request<T>({ ...opts, uri } as never);
      }
    }
    const client = twilio("ACtest", "twilio-SECRET", { httpClient: new LoopbackClient() });
    const { thrown, error } = await throttled(() => client.api.v2010.accounts("ACtest").fetch(), {
      limit: "twilio",
    });
    expect((thrown as { code: number }).code).toBe(20429);
    // RestException keeps the API's message only in its own `message`, not as a body.
    expect(error).toMatchObject({ limit: "twilio" });
    expect(error?.retry_after_seconds).toBeUndefined();
  });
});

describe("@hubspot/api-client (ApiException 429)", () => {
  it("policyName names the limit; the window of the spent quota is the wait", async () => {
    reply = {
      status: 429,
      headers: {
        "x-hubspot-ratelimit-interval-milliseconds": "10000",
        "x-hubspot-ratelimit-max": "100",
        "x-hubspot-ratelimit-remaining": "0",
      },
      body: {
        status: "error",
        message: "You have reached your secondly limit.",
        errorType: "RATE_LIMIT",
        policyName: "SECONDLY",
      },
    };
    const hubspot = new HubSpot({
      accessToken: "pat-na1-SECRET",
      basePath: upstream.url,
      numberOfApiCallRetries: 0,
    });
    const { error, recognised } = await throttled(() => hubspot.crm.contacts.basicApi.getPage());
    expect(error).toMatchObject({ limit: "SECONDLY", retry_after_seconds: 10 });
    expect(recognised).toMatchObject({
      delaySource: "ratelimit-family-window",
      status: 429,
    });
  });
});

it("keeps the SDK's key out of the result, even when the upstream echoes it", async () => {
  reply = {
    status: 429,
    headers: {},
    body: { error: { message: "Slow down, key sk_test_SECRET", type: "invalid_request_error" } },
  };
  const stripe = new Stripe("sk_test_SECRET", {
    host: "127.0.0.1",
    port,
    protocol: "http",
    maxNetworkRetries: 0,
  });
  const { result } = await throttled(() => stripe.customers.list(), {
    credentials: ["sk_test_SECRET"],
  });
  expect(JSON.stringify(result)).toContain("Slow down");
  expect(JSON.stringify(result)).not.toContain("sk_test_SECRET");
});
