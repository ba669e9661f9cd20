// Which part of a credential names the caller: one row per scheme, from the vendor's own docs.
import { describe, expect, it } from "vitest";
import { fetchCredentials } from "../../src/untrusted/credentials.js";
import { authorizationSecrets, perRequest } from "../../src/untrusted/stable-identity.js";

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString("base64")}`;

describe("authorizationSecrets", () => {
  it.each([
    ["a Bearer token (OpenAI)", "Bearer sk-abc", ["sk-abc"]],
    ["GitHub's `token` scheme", "token ghp_abc", ["ghp_abc"]],
    ["a bare key (some APIs send it alone)", "sk-abc", ["sk-abc"]],
    ["a Basic password (Mailgun `api:key`)", basic("api:key-abc"), ["key-abc"]],
    ["a Basic user without a password (Stripe)", basic("sk_test_abc:"), ["sk_test_abc"]],
    ["Basic text that is no base64", "Basic !!!", ["!!!"]],
    [
      "AWS SigV4: the access key id, not the date, scope or signature",
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261203/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024",
      ["AKIDEXAMPLE"],
    ],
    [
      "OAuth 1.0a (X API): the consumer key and the token",
      'OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", oauth_signature="tnnArxj06cWHq44gCs1OSKk%2FjLY%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1318622958", oauth_token="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", oauth_version="1.0"',
      ["xvz1evFS4wEEPTGEFPHBog", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb"],
    ],
    [
      "Digest (RFC 7616): the user, not the nonce, URI or response",
      'Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
      ["Mufasa"],
    ],
    [
      "HTTP Signatures: the key id, not the signature or its time",
      'Signature keyId="rsa-key-1",algorithm="hs2019",created=1402170695,headers="(request-target) (created) host",signature="Base64(RSA-SHA256(signing string))"',
      ["rsa-key-1"],
    ],
    [
      "Hawk: the id, not the time, nonce or MAC",
      'Hawk id="dh37fgj492je", ts="1353832234", nonce="j4h3g2", ext="some-app-ext-data", mac="6R4rV5iE+NPoym+WwjeHzjAGXUtLNIxmo1vpMofpLAE="',
      ["dh37fgj492je"],
    ],
  ])("%s", (_name, header, expected) => {
    expect(authorizationSecrets(header)).toStrictEqual(expected);
  });
});

describe("perRequest", () => {
  it.each([
    ["x-amz-signature", true],
    ["signature", true],
    ["sig", true],
    ["x-hub-signature-256", true],
    ["x-amz-signedheaders", true],
    ["oauth_nonce", true],
    ["idempotency-key", true],
    ["pagetoken", true],
    ["x-api-key", false],
    ["x-amz-credential", false],
    ["x-amz-security-token", false],
    ["x-mbx-apikey", false],
  ])("says %s is new on every request: %s", (name, expected) => {
    expect(perRequest(name)).toBe(expected);
  });
});

describe("the identity lines of a request", () => {
  it("name the stable values only, whatever carried them", () => {
    const credentials = fetchCredentials(
      "https://user:pw-0001@api.example.com/v1?api_key=key-0001&signature=abc123",
      { headers: { "x-api-key": "key-0001", authorization: "Bearer tok-0001" } },
    );
    expect(credentials.lines()).toStrictEqual([
      "secret:=key-0001",
      "secret:=pw-0001",
      "secret:=tok-0001",
    ]);
  });

  it("still hands every value, signature included, to redaction", () => {
    const credentials = fetchCredentials("https://api.example.com/v1?signature=sig-value-0001", {
      headers: { "x-mbx-apikey": "key-value-0001" },
    });
    expect(credentials.matcher().redact("sig-value-0001 key-value-0001")).not.toMatch(/value-0001/);
  });
});
